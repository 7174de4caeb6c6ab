"""Names people type (player names, table names, usernames at sign-in): any text a person could
read, but no control characters.

NUL, line breaks and other controls (Unicode category Cc), invisible format characters such as
bidirectional overrides and zero-width joiners (Cf), line and paragraph separators (Zl, Zp) and
lone surrogates (Cs) are refused where a name enters the server, so none reaches a view, a log
line or the database (PostgreSQL cannot store a NUL in text at all).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, StringConstraints

REFUSED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""The Unicode categories no name may hold."""


def plain_text(text: str) -> str:
    """``text`` unchanged; ``ValueError`` naming the first control character it holds."""
    for char in text:
        if unicodedata.category(char) in REFUSED:
            raise ValueError(
                f"U+{ord(char):04X} is a control or invisible character, not allowed in a name"
            )
    return text


PlayerName = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=24), AfterValidator(plain_text)
]
"""A player's name at a table (empty: the server gives a readable default)."""

TableName = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=40), AfterValidator(plain_text)
]
"""A table's name in the lobby."""
