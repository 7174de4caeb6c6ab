"""Every string the browser client shows exists in both languages: one dictionary file per
language with the same keys and placeholders; each key written in the JavaScript (``t("…")``),
each key it builds from data (reason codes, phases, bot levels, the settings' label keys in the
served schema), and no string that nothing uses; no string copying a rule's default, which the
server sends; and a missing key is reported (a console error, which fails any browser test),
never hidden."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, get_args

import httpx
import pytest
from playwright.sync_api import Browser, expect

from baofen.errors import REASONS
from baofen.puzzles.themes import THEMES
from baofen.review.moves import ReasonKind
from baofen.scoring import ResultKind
from baofen.wire import clubs
from baofen.wire.messages import ErrorCode
from baofen.wire.tournaments import RefusalCode

from ..server.harness import ThreadServer
from .js_source import JS, sources
from .ui import Person

SETTING = "x-setting"
JOKERS = ("BJ", "LJ")
"""The jokers' notation: the only cards the dictionaries name (``card.BJ``)."""
LANGUAGES = ("zh", "en")
ENTRY = re.compile(r'^  ("?)([\w.]+)\1: "((?:[^"\\]|\\.)*)",$', re.MULTILINE)
"""One string of a dictionary file: ``  key: "text",`` on a line of its own."""
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def dictionary(language: str) -> dict[str, str]:
    """A language's strings by key, read from its file (``js/i18n/<language>.js``)."""
    text = (JS / "i18n" / f"{language}.js").read_text()
    entries = {match[2]: match[3] for match in ENTRY.finditer(text)}
    body = text[text.index("export default {") : text.rindex("};")].splitlines()[1:]
    lines = [line for line in body if line.strip() and not line.strip().startswith("//")]
    assert len(entries) == len(lines), f"{language}.js: a line unread"
    return entries


def test_one_file_per_language_with_the_same_keys_and_placeholders() -> None:
    assert sorted(path.stem for path in (JS / "i18n").glob("*.js")) == sorted(LANGUAGES)
    zh, en = (dictionary(language) for language in LANGUAGES)
    assert len(zh) > 300 and set(zh) == set(en)
    names = {key: [set(PLACEHOLDER.findall(d[key])) for d in (zh, en)] for key in zh}
    differ = [key for key, (zh_names, en_names) in names.items() if zh_names != en_names]
    assert not differ, f"placeholders differ between the languages: {differ}"


def test_no_string_copies_the_default_bids(web_server: ThreadServer) -> None:
    rules = httpx.get(f"{web_server.base}/api/defaults").json()["rules"]
    copies = {"/".join(map(str, rules["baofen"]["bid_values"])),
              f"{rules['hongwu']['bid_min']}–{rules['hongwu']['bid_max']}"}
    for language in LANGUAGES:
        strings = dictionary(language).items()
        found = [key for key, text in strings if any(copy in text for copy in copies)]
        assert not found, f"{language}: rule defaults written into {found}"


def test_the_lobby_names_the_default_bids_the_server_sends(
    chromium: Browser, web_server: ThreadServer
) -> None:
    rules = httpx.get(f"{web_server.base}/api/defaults").json()["rules"]
    person = Person(chromium, web_server.base)
    person.page.goto(web_server.base + "/")
    notes = person.page.locator("label.game small")
    bids = "/".join(map(str, rules["baofen"]["bid_values"]))
    expect(notes.nth(0)).to_have_text(f"江苏 · 叫 {bids} · 王分 · 全击")
    expect(notes.nth(1)).to_have_text(
        f"绍兴 · 叫 {rules['hongwu']['bid_min']}–{rules['hongwu']['bid_max']} · 红五 · 保底")
    person.close()


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
        # The table's error codes, the club's reasons, and connection.js's own "closed".
        "refusal.*": {f"refusal.{code}" for code in (*get_args(ErrorCode), "closed",
                                                      *get_args(clubs.ClubReason))},
        "result.kind.*": {f"result.kind.{kind}" for kind in get_args(ResultKind)},
        "puzzles.theme.*": {f"puzzles.theme.{theme}" for theme in THEMES},
        "review.reason.*": {f"review.reason.{kind}" for kind in get_args(ReasonKind)},
        "*.*": {f"{s['choice_labels']}.{value}" for s in settings if "choice_labels" in s
                for value in s["enum"]},
        "setting.meta.label": {s["label"] for s in settings},
        "setting.meta.none_label": {s["none_label"] for s in settings if "none_label" in s},
        "setting.meta.help": {s["help"] for s in settings if "help" in s},
        "clubs.role.*": {f"clubs.role.{role}" for role in get_args(clubs.Role)},
        "clubs.period.*": {f"clubs.period.{period}" for period in get_args(clubs.Period)},
        "clubs.same_address.*": {f"clubs.same_address.{rule}"
                                 for rule in get_args(clubs.AddressRule)},
        "clubs.col.*": {f"clubs.col.{col}" for col in
                        ("player", *clubs.StandingView.model_fields)} - {"clubs.col.username"},
        "tour.status.*": {f"tour.status.{status}" for status
                          in schema["TournamentInfo"]["properties"]["status"]["enum"]},
        "tour.format.*": {f"tour.format.{form}" for form
                          in schema["TournamentSettings"]["properties"]["format"]["enum"]},
        "tour.refusal.*": {f"tour.refusal.{code}" for code in get_args(RefusalCode)},
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
