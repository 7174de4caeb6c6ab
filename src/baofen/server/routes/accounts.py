"""Accounts over REST: sign up, sign in and out, the signed-in account, password change and
account deletion (docs/protocol.md, "Accounts").

A session is a random cookie (``baofen_session``: HttpOnly, SameSite=Lax, Secure over https);
the store keeps only its SHA-256 hash. Passwords are hashed with argon2 (argon2-cffi's
defaults) in worker threads, a few at a time, and never logged nor sent back: a refused body's
422 answer omits the refused input on these routes (:func:`.rest.invalid_request`). Failed
sign-ins are limited per client address and per username (:mod:`..security.login_limits`; shared by
the nodes of a cluster).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, HTTPException, Request, Response, status

from ...accounts.ratings import NEW
from ...accounts.usernames import canonical, skeleton
from ...setting import GAMES
from ...store.accounts import Account, NameTaken
from ...wire import accounts as wire
from ..config import ServerConfig
from ..lobby.directory import Tables
from ..security.login_limits import LoginLimits
from ..security.rate_limits import CreationLimits
from ..security.sessions import COOKIE, SignedIn, accounts_of, run, same_origin, session_account
from ..security.tokens import token_hash

log = logging.getLogger(__name__)
router = APIRouter()

SESSION_BYTES = 32
"""Random bytes in a session cookie (256 bits)."""

_hasher = PasswordHasher()
_hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="argon2")
"""Where passwords are hashed, two at a time at most (each takes 64 MiB and tens of
milliseconds of CPU): a burst of sign-ins queues here, not in the event loop's default pool
that the store's reads use."""


@cache
def _dummy_hash() -> str:
    """Verified against when a username is unknown, so that a wrong name costs the time of a
    wrong password (no telling which names exist from the answer's delay)."""
    return _hasher.hash(secrets.token_urlsafe(16))


def _verify(hashed: str | None, password: str) -> bool:
    try:
        return _hasher.verify(hashed or _dummy_hash(), password)
    except (VerificationError, InvalidHashError):
        return False


async def hash_password(password: str) -> str:
    """The argon2 hash of a password (off the event loop)."""
    return await asyncio.get_running_loop().run_in_executor(_hashing, _hasher.hash, password)


async def password_matches(password: str, hashed: str | None) -> bool:
    """True when ``password`` is the one ``hashed`` was made from (None: an unknown user)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_hashing, _verify, hashed, password) and hashed is not None


async def _open_session(request: Request, response: Response, account: Account) -> None:
    """A new session for ``account`` in the response's cookie; the request's own session, if
    it had one, ends (one cookie, one session)."""
    config: ServerConfig = request.app.state.config
    previous = request.cookies.get(COOKIE)
    if previous and len(previous) <= 128:
        await run(request, accounts_of(request).close_session, token_hash(previous))
    token = secrets.token_urlsafe(SESSION_BYTES)
    lifetime = timedelta(days=config.session_days)
    await run(request, accounts_of(request).open_session, account.id, token_hash(token), lifetime)
    response.set_cookie(
        COOKIE, token, max_age=int(lifetime.total_seconds()), path="/", httponly=True,
        samesite="lax", secure=request.url.scheme == "https",
    )


def _account_view(account: Account) -> wire.Account:
    return wire.Account(username=account.username, created=account.created)


@router.post(
    "/api/accounts", status_code=status.HTTP_201_CREATED,
    responses={409: {"description": "the username, or one that looks like it, is taken"},
               429: {"description": "this address creates accounts too fast"}},
)
async def sign_up(body: wire.SignUp, request: Request, response: Response) -> wire.Account:
    """Register a username and password; signs the new account in (sets the session cookie)."""
    signups: CreationLimits = request.app.state.signups
    if not signups.allow(request.client.host if request.client else ""):
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS, "too many accounts created: try again later"
        )
    name = (body.username, canonical(body.username), skeleton(body.username))
    try:
        await run(request, accounts_of(request).check_free, *name)
        hashed = await hash_password(body.password)
        account = await run(request, accounts_of(request).create, *name, hashed)
    except NameTaken as error:
        raise HTTPException(status.HTTP_409_CONFLICT, str(error)) from None
    await _open_session(request, response, account)
    return _account_view(account)


@router.post(
    "/api/login",
    responses={401: {"description": "wrong username or password"},
               429: {"description": "too many failed sign-ins: see Retry-After"}},
)
async def sign_in(body: wire.SignIn, request: Request, response: Response) -> wire.Account:
    """Sign in; sets the session cookie."""
    name = canonical(body.username)
    found = await _verified(request, name, body.password, "too many failed sign-ins",
                            lambda: _credentials(request, name))
    if found is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "wrong username or password")
    await _open_session(request, response, found)
    return _account_view(found)


async def _credentials(request: Request, name: str) -> tuple[Account | None, str | None]:
    found = await run(request, accounts_of(request).credentials, name)
    return (found[0], found[1]) if found else (None, None)


@router.post(
    "/api/logout", status_code=status.HTTP_204_NO_CONTENT,
    responses={403: {"description": "sent by a page of another site"}},
)
async def sign_out(request: Request) -> Response:
    """End this session (also when it had ended already) and clear the cookie; a page of
    another site (its ``Origin`` is not this host) may not, so it ends nothing (403)."""
    if not same_origin(request):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "another site's page cannot sign you out")
    token = request.cookies.get(COOKIE)
    if token and len(token) <= 128:
        await run(request, accounts_of(request).close_session, token_hash(token))
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
    return response


@router.get("/api/me")
async def me(request: Request) -> wire.Me | wire.SignedOut:
    """The signed-in account and its rating in each game; signed out, ``{"signed_in": false}``
    (a 200: asking is no error, so a guest's page logs no failed request)."""
    account = await session_account(request)
    if account is None:
        return wire.SignedOut()
    rated = await run(request, accounts_of(request).ratings, account.id)
    consent = await run(request, accounts_of(request).puzzle_consent, account.id)
    return wire.Me(
        username=account.username, created=account.created,
        ratings={game: wire.Rating.of(rated[game][0] if game in rated else NEW)
                 for game in GAMES},
        puzzle_consent=consent,
    )


@router.put("/api/me/puzzle-consent", responses={401: {"description": "not signed in"}})
async def set_puzzle_consent(
    body: wire.PuzzleConsent, account: SignedIn, request: Request
) -> wire.PuzzleConsent:
    """Let this account's finished hands be searched for puzzles (``baofen puzzles generate
    --from-db``), or withdraw that: the puzzles already made from them are deleted."""
    await run(request, accounts_of(request).set_puzzle_consent, account.id, body.allowed)
    return wire.PuzzleConsent(allowed=body.allowed)


async def _verified(
    request: Request, name: str, password: str, refusal: str,
    stored: Callable[[], Awaitable[tuple[Account | None, str | None]]],
) -> Account | None:
    """The account ``stored()`` finds, with its password hash, when ``password`` is its
    password (None else, and for no account); ``name`` is its canonical username. The try is
    taken from the limits first (per client address and per name,
    :mod:`..security.login_limits`), so however many arrive at once no more are verified than
    allowed: 429 with Retry-After, saying ``refusal``, when it is refused. A try whose password
    proves right, or that was never verified, is forgiven."""
    limits: LoginLimits = request.app.state.login_limits
    address = request.client.host if request.client else ""
    attempt = await limits.attempt(address, name)
    if isinstance(attempt, int):
        raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS,
                            f"{refusal}: try again in {attempt} s",
                            headers={"Retry-After": str(attempt)})
    try:
        account, hashed = await stored()
    except BaseException:
        await limits.forgive(attempt)
        raise
    if not await password_matches(password, hashed) or account is None:
        return None
    await limits.forgive(attempt)
    return account


async def _confirm(request: Request, account: Account, password: str) -> None:
    """403 unless ``password`` is the account's (a try like a sign-in's)."""

    async def stored() -> tuple[Account | None, str | None]:
        return account, await run(request, accounts_of(request).password_hash, account.id)

    if await _verified(request, canonical(account.username), password,
                       "too many wrong passwords", stored) is None:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "wrong password")


@router.post(
    "/api/me/password", status_code=status.HTTP_204_NO_CONTENT,
    responses={401: {"description": "not signed in"}, 403: {"description": "wrong password"}},
)
async def change_password(
    body: wire.ChangePassword, account: SignedIn, request: Request
) -> Response:
    """Change the password; every other session of the account ends."""
    await _confirm(request, account, body.old_password)
    hashed = await hash_password(body.new_password)
    token = request.cookies.get(COOKIE, "")
    await run(request, accounts_of(request).set_password, account.id, hashed, token_hash(token))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/api/me", status_code=status.HTTP_204_NO_CONTENT,
    responses={401: {"description": "not signed in"}, 403: {"description": "wrong password"}},
)
async def delete_account(
    body: wire.DeleteAccount, account: SignedIn, request: Request
) -> Response:
    """Delete the account: its hands stay, under the name 已注销玩家 (deleted player); its
    profile is gone (404) and its name free again."""
    await _confirm(request, account, body.password)
    await run(request, accounts_of(request).delete, account.id)
    tables: Tables = request.app.state.tables  # in cluster mode, every node's
    await tables.forget_account(account.id)
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
    return response
