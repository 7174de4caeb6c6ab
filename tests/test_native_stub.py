"""``_core.pyi`` against the built native core: every name in one is in the other, each
property a property, and each function's parameters those pybind11 writes into its signature
(names where the binding gives them, which have defaults, in order)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

from baofen import _native

pytestmark = pytest.mark.skipif(not _native.available(), reason=_native.why_unavailable())

STUB = Path(_native.__file__).with_name("_core.pyi")

Params = list[tuple[str, bool]]
"""A function's parameters: each name and whether it has a default."""


def _stub() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"))


def _stub_params(node: ast.FunctionDef) -> Params:
    args = node.args
    positional = args.posonlyargs + args.args
    first_default = len(positional) - len(args.defaults)
    return [(a.arg, i >= first_default) for i, a in enumerate(positional)]


def _stub_members(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    members: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            members[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            members[node.target.id] = node
    return members


def _split(text: str) -> list[str]:
    """``text`` split at its top-level commas (not those inside brackets)."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return [part.strip() for part in parts]


def _module_params(function: Any, name: str) -> Params:
    """The parameters of the signature that pybind11 writes as the first line of ``__doc__``."""
    signature = (function.__doc__ or "").splitlines()[0]
    assert signature.startswith(f"{name}("), f"{name}: no signature in its __doc__"
    inner = signature[len(name) + 1 : signature.rindex(") ->")]
    params: Params = []
    for part in _split(inner):
        head, _, default = part.partition(" = ")
        params.append((head.split(":")[0].strip(), bool(default)))
    return params


def _same_params(where: str, stub: Params, module: Params) -> list[str]:
    if len(stub) != len(module):
        return [f"{where}: stub {stub}, module {module}"]
    wrong = []
    for (stub_name, stub_default), (name, default) in zip(stub, module, strict=True):
        # pybind11 names a parameter argN where the binding gives it no name.
        named = not (name.startswith("arg") and name[3:].isdigit())
        if (named and stub_name != name) or stub_default != default:
            wrong.append(f"{where}: stub {stub}, module {module}")
            break
    return wrong


def _public(names: list[str]) -> set[str]:
    return {name for name in names if not name.startswith("_")}


def test_the_stub_names_every_public_name_of_the_module_and_no_other() -> None:
    core = _native.core()
    stubbed = _public(list(_stub_members(_stub().body)))
    assert stubbed == _public(dir(core))


def test_each_class_has_the_stubs_members_properties_and_parameters() -> None:
    core = _native.core()
    wrong: list[str] = []
    for name, node in _stub_members(_stub().body).items():
        value = getattr(core, name)
        if isinstance(node, ast.ClassDef):
            assert inspect.isclass(value), f"{name} is stubbed as a class"
            members = _stub_members(node.body)
            module_members = _public(list(vars(value))) | {"__init__"}
            module_members.discard("_pybind11_conduit_v1_")
            stubbed = _public(list(members)) | {"__init__"}
            if stubbed != module_members:
                wrong.append(f"{name}: stub {sorted(stubbed)}, module {sorted(module_members)}")
                continue
            for member, member_node in members.items():
                assert isinstance(member_node, ast.FunctionDef), f"{name}.{member}"
                attribute = vars(value)[member]
                is_property = any(
                    isinstance(d, ast.Name) and d.id == "property"
                    for d in member_node.decorator_list
                )
                if isinstance(attribute, property) != is_property:
                    wrong.append(f"{name}.{member}: a property in one only")
                elif not is_property:
                    wrong += _same_params(
                        f"{name}.{member}", _stub_params(member_node),
                        _module_params(attribute, member),
                    )
        elif isinstance(node, ast.FunctionDef):
            wrong += _same_params(name, _stub_params(node), _module_params(value, name))
        else:
            assert not callable(value), f"{name} is stubbed as a constant"
    assert not wrong, "\n".join(wrong)


def test_the_checker_reads_pybind_signatures() -> None:
    core = _native.core()
    assert _module_params(core.random_hands, "random_hands") == [
        ("rules", False), ("deals", False), ("firsts", False), ("seed", False), ("logs", True)
    ]
    assert _split("a: list[int, str], b: int = 1") == ["a: list[int, str]", "b: int = 1"]
