"""Account usernames: which are allowed, their canonical form, and their look-alike skeleton.

A username is 3–20 characters after NFKC normalisation: ASCII letters and digits, ``_`` and
``-``, and CJK letters (汉字, kana, 한글). Letters of other scripts (Cyrillic, Greek, …) are
refused outright: many of them look exactly like Latin ones (Cyrillic ``а`` and Latin ``a``),
which is how one player would pass for another.

Two usernames are the same account when their *canonical* forms (NFKC, then casefold) are equal:
``Ann``, ``ANN`` and full-width ``Ａｎｎ`` are one name. Two usernames also may not share a
*skeleton*: the canonical form with the characters that look alike in common fonts mapped to one
of them (``0``→``o``, ``1``/``i``/``|``→``l``, ``rn``→``m``, ``vv``→``w``, ``_``→``-``, and the
CJK look-alikes of Latin letters such as ``〇``→``o``; katakana drawn like kanji:
``カ``→``力``, ``ニ``→``二``, ``ハ``→``八``, ``タ``→``夕``, ``ト``→``卜``, ``ロ``/``口``→``o``,
``エ``/``工``→``l``; and ``ヘ``/``ベ``/``ペ``→hiragana ``へ``/``べ``/``ぺ``). So when ``bob1``
exists, ``bobl`` and
``B0B1`` are refused. This is a small, documented subset of Unicode's UTS #39 skeleton, enough for
the characters a username may hold. The deleted player's name (:data:`DELETED_NAME`) and its
look-alikes cannot be registered.
"""

from __future__ import annotations

import re
import unicodedata

MIN_LENGTH = 3
MAX_LENGTH = 20

DELETED_NAME = "已注销玩家"
"""The name a deleted account's seats and hands show (deleted player)."""

_CJK = (
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xAC00, 0xD7AF),  # hangul syllables
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0x20000, 0x2FA1F),  # CJK extensions B–F, compatibility supplement
)

_LOOK_ALIKES = str.maketrans({
    "0": "o", "〇": "o", "1": "l", "i": "l", "|": "l", "丨": "l", "_": "-", "一": "-",
    "ー": "-", "口": "o", "ロ": "o", "工": "l", "エ": "l",
    # Katakana drawn like kanji, and the kana written alike in both syllabaries.
    "カ": "力", "ニ": "二", "ハ": "八", "タ": "夕", "ト": "卜", "ヘ": "へ", "ベ": "べ", "ペ": "ぺ",
})
_DIGRAPHS = (("rn", "m"), ("vv", "w"))

_ASCII = re.compile(r"[A-Za-z0-9_-]")


class UsernameError(ValueError):
    """A username that is not allowed; the message says why."""


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK) and unicodedata.category(char) == "Lo"


def display_form(username: str, what: str = "username") -> str:
    """The username as shown (NFKC-normalised, checked); :class:`UsernameError` if refused.
    ``what`` names the kind of name in the error (a club's name follows the same rules)."""
    name = unicodedata.normalize("NFKC", username)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise UsernameError(
            f"a {what} is {MIN_LENGTH}–{MAX_LENGTH} characters (this one has {len(name)})"
        )
    if skeleton(name) == skeleton(DELETED_NAME):
        raise UsernameError(f"{DELETED_NAME} is the name a deleted account's hands show")
    for char in name:
        if not (_ASCII.fullmatch(char) or _is_cjk(char)):
            raise UsernameError(
                f"{char!r} (U+{ord(char):04X}) is not allowed in a {what}: use letters a–z, "
                "digits, _ and -, or Chinese/Japanese/Korean characters"
            )
    return name


def canonical(username: str) -> str:
    """The form two usernames are compared in: NFKC, then casefold (``ANN`` is ``ann``)."""
    return unicodedata.normalize("NFKC", username).casefold()


def skeleton(username: str) -> str:
    """The canonical form with look-alike characters mapped together (see the module's docs)."""
    text = canonical(username).translate(_LOOK_ALIKES)
    for pair, single in _DIGRAPHS:
        text = text.replace(pair, single)
    return text
