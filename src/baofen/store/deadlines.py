"""How long a PostgreSQL connection may wait on a peer that stopped answering."""

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
