"""Reading the browser client's JavaScript without running it: its modules, their code with the
text of strings, templates, regular expressions and comments blanked out (so that a brace in a
string never counts), and the functions that code defines with their lengths."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

JS = Path(str(files("baofen") / "web" / "static" / "js"))

REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
"""Characters after which a ``/`` starts a regular expression rather than a division."""
REGEX_AFTER_WORDS = ("return", "typeof", "case", "of", "in", "void", "delete", "throw")
NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "with", "function", "return"}
"""Words before ``(…) {`` that open a block, not a function body (``function`` alone: a named
function is found by its name)."""


def sources() -> dict[str, str]:
    """Every JavaScript module of the client, by path."""
    return {str(path.relative_to(JS)): path.read_text() for path in sorted(JS.rglob("*.js"))}


def code_only(source: str) -> str:
    """``source`` with every character inside a string, a template's text, a regular expression
    or a comment replaced by a space (newlines kept, so lines still count); a template's
    ``${…}`` is code and stays."""
    out = list(source)
    _Blanker(source, out).code(0, "")
    return "".join(out)


class _Blanker:
    def __init__(self, source: str, out: list[str]) -> None:
        self.src = source
        self.out = out

    def blank(self, start: int, end: int) -> None:
        for k in range(start, end):
            if self.out[k] != "\n":
                self.out[k] = " "

    def code(self, i: int, closer: str) -> int:
        """Scan code from ``i`` to ``closer`` outside brackets (or the end); its index."""
        src, depth = self.src, 0
        while i < len(src):
            char = src[i]
            if src.startswith("//", i):
                end = src.find("\n", i)
                end = len(src) if end < 0 else end
                self.blank(i, end)
                i = end
            elif src.startswith("/*", i):
                end = src.index("*/", i) + 2
                self.blank(i, end)
                i = end
            elif char in "'\"":
                i = self.string(i)
            elif char == "`":
                i = self.template(i)
            elif char == "/" and self.regex_may_start(i):
                i = self.regex(i)
            elif depth == 0 and char == closer:
                return i
            else:
                depth += char in "([{"
                depth -= char in ")]}"
                i += 1
        return i

    def regex_may_start(self, i: int) -> bool:
        j = i
        while j > 0 and self.out[j - 1].isspace():
            j -= 1
        before = "".join(self.out[max(0, j - 8) : j])
        if re.search(r"\b(" + "|".join(REGEX_AFTER_WORDS) + r")$", before):
            return True
        return before[-1:] in REGEX_AFTER

    def string(self, i: int) -> int:
        quote, j = self.src[i], i + 1
        while self.src[j] != quote:
            j += 2 if self.src[j] == "\\" else 1
        self.blank(i + 1, j)
        return j + 1

    def regex(self, i: int) -> int:
        j, in_class = i + 1, False
        while in_class or self.src[j] != "/":
            if self.src[j] == "\\":
                j += 1
            elif self.src[j] == "[":
                in_class = True
            elif self.src[j] == "]":
                in_class = False
            j += 1
        self.blank(i + 1, j)
        return j + 1

    def template(self, i: int) -> int:
        src, j, start = self.src, i + 1, i + 1
        while src[j] != "`":
            if src[j] == "\\":
                j += 2
            elif src.startswith("${", j):
                self.blank(start, j)
                j = self.code(j + 2, "}") + 1
                start = j
            else:
                j += 1
        self.blank(start, j)
        return j + 1


@dataclass(frozen=True)
class Function:
    """A function's name (what precedes its parameters), its first line and its length in
    lines, from the line of its opening brace to that of its closing one."""

    name: str
    line: int
    lines: int


def functions(source: str) -> list[Function]:
    """Every function body in ``source``: declarations, expressions, methods and arrow functions
    with a braced body (an arrow with an expression body has no braces to count)."""
    code = code_only(source)
    found = []
    for match in re.finditer(r"\{", code):
        name = _function_name(code, match.start())
        if name is None:
            continue
        end = _closing(code, match.start())
        first = code.count("\n", 0, match.start()) + 1
        found.append(Function(name, first, code.count("\n", match.start(), end) + 1))
    return found


def _function_name(code: str, brace: int) -> str | None:
    """The name of the function whose body opens at ``brace``, or None for another block."""
    before = code[:brace].rstrip()
    if before.endswith("=>"):
        return "=>"
    if not before.endswith(")"):
        return None
    opening = _opening(before, len(before) - 1)
    head = re.search(r"(function\s*\*?\s*)?([\w$]*)\s*$", before[:opening])
    if head is None or not (head[1] or head[2]) or head[2] in NOT_FUNCTIONS:
        return None
    return head[2] or "function"


def _opening(code: str, close: int) -> int:
    """The index of the bracket that ``code[close]`` closes."""
    depth = 0
    for i in range(close, -1, -1):
        depth += code[i] in ")]}"
        depth -= code[i] in "([{"
        if depth == 0:
            return i
    raise ValueError("unbalanced brackets")


def _closing(code: str, open_: int) -> int:
    """The index of the bracket that closes ``code[open_]``."""
    depth = 0
    for i in range(open_, len(code)):
        depth += code[i] in "([{"
        depth -= code[i] in ")]}"
        if depth == 0:
            return i
    raise ValueError("unbalanced brackets")
