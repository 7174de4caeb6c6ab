"""Every string the browser client shows exists in both languages: each key written in the
JavaScript (``t("…")``), each key it builds from data (reason codes, phases, bot levels, the
settings' label keys in the served schema), and no string that nothing uses; and a missing key is
reported (a console error, which fails any browser test), never hidden."""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any, get_args

import httpx
import pytest
from playwright.sync_api import Browser

from baofen.errors import REASONS
from baofen.scoring import ResultKind

from ..server.harness import ThreadServer
from .ui import Person

JS = Path(str(files("baofen") / "web" / "static" / "js"))
SETTING = "x-setting"
JOKERS = ("BJ", "LJ")
"""The jokers' notation: the only cards the dictionaries name (``card.BJ``)."""


def sources() -> dict[str, str]:
    """Every JavaScript module of the client, by path."""
    return {str(path.relative_to(JS)): path.read_text() for path in sorted(JS.rglob("*.js"))}


class Scanner:
    """Finds the first argument of every ``t(…)`` call in a module's code, skipping strings,
    template text and comments (a ``t(`` inside a template's ``${…}`` is code and counts)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.arguments: list[str] = []

    def scan(self) -> list[str]:
        """The source text of each call's first argument, in order."""
        self._code(0, "", record=True)
        return self.arguments

    def _code(self, i: int, closers: str, record: bool) -> int:
        """Scan code from ``i`` to the first of ``closers`` outside brackets; its index."""
        src, depth = self.source, 0
        while i < len(src):
            char = src[i]
            if src.startswith("//", i):
                end = src.find("\n", i)
                i = len(src) if end < 0 else end
                continue
            if src.startswith("/*", i):
                i = src.index("*/", i) + 2
                continue
            if char in "'\"":
                i = self._string(i)
                continue
            if char == "`":
                i = self._template(i, record)
                continue
            if depth == 0 and char in closers:
                return i
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
            elif record and self._calls_t(i):
                end = self._code(i + 2, ",)", record=False)
                self.arguments.append(src[i + 2 : end].strip())
            i += 1
        return i

    def _calls_t(self, i: int) -> bool:
        before = self.source[max(0, i - 9) : i]
        return (
            self.source.startswith("t(", i)
            and not re.search(r"[\w$.]$", before)
            and not before.endswith("function ")
        )

    def _string(self, i: int) -> int:
        quote, j = self.source[i], i + 1
        while self.source[j] != quote:
            j += 2 if self.source[j] == "\\" else 1
        return j + 1

    def _template(self, i: int, record: bool) -> int:
        src, j = self.source, i + 1
        while src[j] != "`":
            if src[j] == "\\":
                j += 2
            elif src.startswith("${", j):
                j = self._code(j + 2, "}", record) + 1
            else:
                j += 1
        return j + 1


def test_the_scanner_finds_calls_in_code_only() -> None:
    source = (
        '// t("comment")\nconst a = t("one", { n: 1 }) + "t(\'quoted\')";\n'
        "/* t('block') */ el(`${t(`seat.${seat}`)}·${t(kept ? 'a.b' : \"c.d\")}`);\n"
        "export function t(key, params = {}) { return at(key) + x.t(key); }"
    )
    assert Scanner(source).scan() == ['"one"', "`seat.${seat}`", "kept ? 'a.b' : \"c.d\""]


Families = dict[str, set[str]]


def families(schema: dict[str, Any], defaults: dict[str, Any], code: str) -> Families:
    """Every key that a built key (a template, ``*`` for each ``${…}``) or a key read from data
    (an expression) may be, from where its values come from: the server's schema and defaults,
    the engine's reason codes and result kinds, the connection's states."""
    settings = [
        {**prop[SETTING], "enum": (prop.get("enum") or [])}
        for model in ("RuleSet", "TableSettings")
        for prop in schema[model]["properties"].values()
        if SETTING in prop
    ]
    statuses = set(re.findall(r'(?:setStatus|stop|showStatus)\("(\w+)"\)', code))
    statuses |= set(re.findall(r'this\.status = "(\w+)"', code))
    suit_groups = ["trump", *defaults["trumps"]]
    bot_levels = schema["TableSettings"]["properties"]["bot_level"]["enum"]
    return {
        "seat.*": {f"seat.{seat}" for seat in range(4)},
        "level.*": {f"level.{level}" for level in bot_levels},
        "game.*": {f"game.{game}" for game in defaults["rules"]},
        "game.*.note": {f"game.{game}.note" for game in defaults["rules"]},
        "conn.*": {f"conn.{status}" for status in statuses},
        "phase.*": {f"phase.{p}" for p in schema["ObservationView"]["properties"]["phase"]["enum"]},
        "group.*": {f"group.{group}" for group in [*suit_groups, *defaults["groups"]]},
        "card.*": {f"card.{joker}" for joker in JOKERS},
        "reason.*": {f"reason.{code}" for code in REASONS},
        "result.kind.*": {f"result.kind.{kind}" for kind in get_args(ResultKind)},
        "*.*": {f"{s['choice_labels']}.{value}" for s in settings if "choice_labels" in s
                for value in s["enum"]},
        "setting.meta.label": {s["label"] for s in settings},
        "setting.meta.none_label": {s["none_label"] for s in settings if "none_label" in s},
        "setting.meta.help": {s["help"] for s in settings if "help" in s},
    }


def used_keys(texts: dict[str, str], known: Families) -> tuple[set[str], set[str]]:
    """The keys the modules use, and the families they use; fails on a call whose key the test
    cannot work out (then say in :func:`families` where its values come from)."""
    keys: set[str] = set()
    used: set[str] = set()
    for name, text in texts.items():
        for argument in Scanner(text).scan():
            if re.fullmatch(r"(['\"])[^'\"]*\1", argument):
                keys.add(argument[1:-1])
                continue
            family = (
                re.sub(r"\$\{[^}]*\}", "*", argument[1:-1])
                if argument.startswith("`")
                else argument
            )
            if family in known:
                used.add(family)
                keys |= known[family]
            elif "?" in argument:  # a choice between written keys
                keys |= {m[1] for m in re.findall(r"(['\"])([^'\"]*)\1", argument)}
            else:
                pytest.fail(f"{name}: t({argument}) builds a key from data the test cannot list")
    return keys, used


@pytest.fixture(scope="module")
def dictionaries(chromium: Browser, web_server: ThreadServer) -> dict[str, set[str]]:
    """The keys of each language's dictionary, as the browser loads them."""
    person = Person(chromium, web_server.base)
    person.page.goto(web_server.base + "/")
    keys: dict[str, list[str]] = person.page.evaluate(
        "import('/static/js/i18n.js').then(m => m.keys())"
    )
    person.close()
    return {language: set(words) for language, words in keys.items()}


def test_both_languages_have_every_string(dictionaries: dict[str, set[str]]) -> None:
    assert dictionaries["zh"] and dictionaries["zh"] == dictionaries["en"]


def test_every_key_the_client_uses_is_in_both_languages(
    dictionaries: dict[str, set[str]], web_server: ThreadServer
) -> None:
    schema = httpx.get(f"{web_server.base}/api/protocol").json()["$defs"]
    defaults = httpx.get(f"{web_server.base}/api/defaults").json()
    texts = sources()
    known = families(schema, defaults, "\n".join(texts.values()))
    keys, used = used_keys(texts, known)
    assert len(keys) > 200
    assert set(known) == used, "a family of keys no module builds any more"
    for language, words in dictionaries.items():
        assert not keys - words, f"missing in {language}: {sorted(keys - words)}"
        assert not words - keys, f"used nowhere ({language}): {sorted(words - keys)}"


def test_a_missing_string_is_reported(chromium: Browser, web_server: ThreadServer) -> None:
    person = Person(chromium, web_server.base)
    page = person.page
    page.goto(web_server.base + "/")
    translate: Callable[[str], Any] = lambda key: page.evaluate(  # noqa: E731
        "key => import('/static/js/i18n.js').then(m => [m.t(key), m.t(key)])", key
    )
    with page.expect_console_message(lambda message: message.type == "error"):
        assert translate("no.such.key") == ["⟦no.such.key⟧"] * 2  # shown as missing
    with page.expect_console_message(lambda message: message.type == "error"):
        translate("no.such.other")
    # reported once per key; and a browser test that saw it fails
    assert person.errors == [
        'i18n: no string "no.such.key" in the "zh" dictionary',
        'i18n: no string "no.such.other" in the "zh" dictionary',
    ]
    with pytest.raises(AssertionError, match=re.escape("no.such.key")):
        person.close()
