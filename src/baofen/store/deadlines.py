"""How long a PostgreSQL session may wait: on a statement, a lock, its client, its peer."""

from __future__ import annotations

from math import ceil


def tcp_deadlines(timeout: float) -> dict[str, int]:
    """libpq's settings that end a connection whose peer stopped answering (a network cut)
    within about ``timeout`` seconds, instead of after TCP's retransmissions (minutes): data
    unacknowledged for longer than ``timeout`` (``tcp_user_timeout``), or an idle
    connection's keepalives unanswered. The server's ``statement_timeout`` cannot end a wait
    whose packets are lost, and one connection stalled so would hold every write of a node
    (they go through one writer thread)."""
    probes = max(1, ceil(timeout / 2))
    return {"keepalives": 1, "keepalives_idle": probes, "keepalives_interval": 1,
            "keepalives_count": probes, "tcp_user_timeout": max(1000, round(timeout * 1000))}


def session_options(timeout: float) -> str:
    """The server's settings for a session of the store (libpq's ``options``): no statement
    and no lock wait longer than ``timeout``; and a transaction whose client went silent
    between two statements (cut off by the network while it held the table's fence row) is
    ended after ``timeout`` with its locks, instead of when the server's own keepalives
    notice (hours): until then no node could write to that table."""
    milliseconds = max(1, round(timeout * 1000))
    return (f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds} "
            f"-c idle_in_transaction_session_timeout={milliseconds}")
