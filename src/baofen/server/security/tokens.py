"""Secrets and limits: unguessable table codes and seat tokens, token hashes, rate limiting.

Codes and tokens come from :mod:`secrets`; only a token's SHA-256 hash is stored, so a leaked
database does not hand out seats. A token carries 192 random bits, so a fast hash is enough.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

CODE_BYTES = 12
"""Random bytes in a table code (96 bits: 16 URL-safe characters)."""
TOKEN_BYTES = 24
"""Random bytes in a seat token (192 bits: 32 URL-safe characters)."""


def new_table_code() -> str:
    """A fresh, unguessable table code."""
    return secrets.token_urlsafe(CODE_BYTES)


def new_seat_token() -> str:
    """A fresh, unguessable seat token (given once to the player, never stored)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_seed() -> int:
    """A fresh match seed (the deals follow from it, so it never leaves the server)."""
    return secrets.randbits(63)


def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """True when ``token`` is the one whose hash is ``stored_hash`` (constant-time compare)."""
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)
