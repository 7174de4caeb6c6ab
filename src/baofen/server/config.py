"""The server's configuration, from keyword arguments or ``BAOFEN_*`` environment variables.

Three things are kept apart by name: a game's rules (:class:`~baofen.ruleset.RuleSet`), a
table's settings (:class:`~baofen.wire.settings.TableSettings`: timers, rated, private) and
this, how the server process runs (:class:`ServerConfig`).
"""

from __future__ import annotations

import warnings
from typing import Annotated, Any

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from ..bots import BotLevel

Seconds = Annotated[float, Field(ge=0, le=3600)]


class ServerConfig(BaseSettings):
    """How the server runs (a table's own settings are
    :class:`~baofen.wire.settings.TableSettings`).

    Every field can be set by an environment variable, e.g. ``BAOFEN_BOT_DELAY=0``.
    """

    model_config = SettingsConfigDict(env_prefix="BAOFEN_", extra="forbid")

    db: str = Field("sqlite:///baofen.db", description="SQLAlchemy database URL")
    db_schema: str | None = Field(None, description="PostgreSQL schema to keep the tables in")
    max_message_bytes: int = Field(4096, ge=256, description="longest client message accepted")
    max_frame_bytes: int = Field(
        16_384, ge=1024, description="longer WebSocket frames close the connection (1009); "
        "a compressed frame is inflated no further, so keep it near max_message_bytes"
    )
    rate_per_second: float = Field(10.0, gt=0, description="messages a connection may send/s")
    rate_burst: float = Field(30.0, ge=1, description="burst allowance of the rate limit")
    bot_delay: Seconds = Field(0.6, description="a computer player's pause before it acts")
    drop_grace: Seconds = Field(
        15.0, description="a dropped player has this long to come back before leaving (逃跑)"
    )
    auto_bot: BotLevel = Field("normal", description="computer player of 托管 seats")
    send_queue: int = Field(256, ge=8, description="messages queued to a slow client at most")
    max_tables: int = Field(10_000, ge=1, description="open tables at most")
    db_timeout: float = Field(
        5.0, gt=0, le=600,
        description="a database wait (lock, busy file, statement) fails after this many seconds",
    )
    table_expiry: Seconds = Field(
        1800.0, description="a table nobody started expires after this long with nobody in it"
    )
    create_per_minute: float = Field(
        20.0, gt=0, description="tables a client address may create a minute on average"
    )
    create_burst: float = Field(10.0, ge=1, description="burst allowance of table creation")
    handshake_timeout: float = Field(
        10.0, gt=0, le=600,
        description="a connection that has not sent a whole request by then is closed",
    )
    login_failures: int = Field(
        5, ge=1, description="failed sign-ins a username or an address may have per login_window"
    )
    login_window: Seconds = Field(300.0, description="the window of login_failures, in seconds")
    signup_per_minute: float = Field(
        2.0, gt=0, description="accounts a client address may create a minute on average"
    )
    signup_burst: float = Field(10.0, ge=1, description="burst allowance of account creation")
    session_days: float = Field(30.0, gt=0, le=3650, description="a sign-in lasts this long")
    max_connections: int = Field(
        1000, ge=1, description="concurrent connections at most (more are answered 503)"
    )
    match_wait_seconds: Seconds = Field(
        20.0, description="匹配: after this long waiting, computer players fill the empty seats "
        "and the match starts"
    )
    club_member_limit: int = Field(500, ge=2, description="亲友圈: members a club has at most")
    clubs_per_account: int = Field(20, ge=1, description="亲友圈: clubs an account belongs to "
                                   "at most")
    club_joins_per_minute: float = Field(
        6.0, gt=0, description="亲友圈: joins by invitation a client address (and invitations "
        "an account) may make a minute on average"
    )
    club_joins_burst: float = Field(20.0, ge=1, description="burst allowance of club joins "
                                    "and invitations")
    redis: str | None = Field(
        None, description="Redis URL (redis://HOST:6379/N): run as one node of a cluster; quick "
        "match then pairs players across the nodes (none: one process, in memory)"
    )
    redis_prefix: str = Field(
        "baofen:", max_length=64, description="prefix of the cluster's Redis keys and channels"
    )
    node: str | None = Field(
        None, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$",
        description="this node's name in the cluster (default: host-pid-random)",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1", description="addresses of the reverse proxies (comma-separated, * for any) "
        "whose X-Forwarded-For and X-Forwarded-Proto are believed"
    )
    challenge_deals: int = Field(
        8, ge=1, le=32, description="每日复式挑战: deals of each game's challenge of a day"
    )
    challenge_level: BotLevel = Field(
        "hard", description="每日复式挑战: level of the three computer players"
    )
    challenge_zone: str = Field(
        "UTC", max_length=64, description="每日复式挑战: the time zone whose date is the "
        "challenge's day (an IANA name, e.g. Asia/Shanghai)"
    )
    challenge_rated: bool = Field(
        False, description="每日复式挑战: signed-in players' challenge hands are rated"
    )
    challenge_min_days: int = Field(
        3, ge=1, le=365, description="每日复式挑战: days played to appear in the week's and the "
        "all-time leaderboards"
    )
    challenge_secret: str | None = Field(
        None, min_length=16, max_length=256, description="每日复式挑战: the secret the days' "
        "deals are drawn from (HMAC of the day); none: each day's deals drawn at random when "
        "first asked for, and kept"
    )
    shutdown_seconds: float = Field(
        5.0, gt=0, le=600,
        description="on stop, open requests and connections get this long to finish before "
        "they are cut, and each part of the server as long to close",
    )
    lease_seconds: float = Field(
        3.0, ge=0.3, le=600,
        description="a node owns a table for this long after its last renewal (renewed every "
        "sixth of it): how long a table waits when its node dies",
    )


def __getattr__(name: str) -> Any:
    """``ServerSettings``, the old name of :class:`ServerConfig` (deprecated)."""
    if name == "ServerSettings":
        warnings.warn("baofen.server.config.ServerSettings is now ServerConfig",
                      DeprecationWarning, stacklevel=2)
        return ServerConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
