"""Help for a player at the table: is a selection legal (``check``), and what would the
computer do (``hint``, 提示).

Both answers are computed from the asking seat's own observation only, exactly what that seat
may know, so they can never reveal a hidden card; neither changes the table.
"""

from __future__ import annotations

import logging
import secrets

from ...bots import BotLevel, make_bot
from ...errors import IllegalAction, Reason
from ...observation import Observation
from ...wire.messages import Check, Checked, Hint, ReasonCode, Suggestion
from .seats import TableError
from .table import Table

log = logging.getLogger(__name__)

HINT_BOT: BotLevel = "rule"
"""The computer player whose move a hint suggests."""


def _observation(table: Table, seat: int) -> Observation:
    match = table.match
    if match is None:
        raise TableError("not_started", "the match has not started")
    return match.hand.observation(seat)


def check(table: Table, seat: int, message: Check) -> Checked:
    """Whether ``seat`` may play ``message.cards`` now, with the engine's reason if not."""
    reason = _observation(table, seat).play_error(message.cards)
    return Checked(
        id=message.id, cards=message.cards, legal=reason is None, reason=reason,
        reason_code=ReasonCode.of(reason),
    )


def suggest(table: Table, seat: int, message: Hint) -> Suggestion:
    """The computer's choice for ``seat`` now; :class:`IllegalAction` when it is not to act."""
    observation = _observation(table, seat)
    if observation.phase == "done" or observation.to_act != seat:
        raise IllegalAction(Reason("no_hint"))
    try:
        action = make_bot(HINT_BOT, seed=secrets.randbits(32)).act(observation)
    except Exception:  # a bot's bug must not cost the player the connection
        log.exception("table %s: the hint's bot failed for seat %d", table.code, seat)
        action = make_bot("random").act(observation)
    return Suggestion.of(action, message.id)
