"""复盘 — the post-game review: the computer evaluates every decision of a finished hand.

Each decision of the reviewed seats is judged from the position as that seat saw it (its
:class:`~baofen.Observation`, never the other hands). Its options — the rule bot's best
candidates, the hint's choice (提示, :data:`~baofen.review.moves.HINT`) and the move actually made
— are each played out to the end, the rule bot in all four seats, on the **same** sampled worlds
(likelihood-weighted as the search bot's,
:meth:`~baofen.bots.search.determinize.Determinizer.weighted_world`; before play, deals of the
unseen cards with the bidding replayed, weighted by how likely the rule bot would have bid as the
others did). The worlds are drawn and played out by the engine in use (:mod:`baofen.bots.engine`:
natively where the core is built, the same worlds and values, several times faster). A world's
value for the seat is in the hand's own unit (:func:`~baofen.review.moves.seat_value`): 包分 points
(the declarer's points against the target, signed for the seat's side; the pot stake of a hand
nobody bid), 包红五 levels (the seat's result). In the end game (:mod:`baofen.review.lines`) the
seat's own later plays are searched in each world rather than left to the rule bot, so that a
move is not charged with an error the seat can still mend (the play-out's, not the move's).

Two stages, so that a loss is both large and told from noise (:mod:`baofen.review.confirm`):
1. *screen*: every option on ``worlds`` common worlds; their weighted means are the move's
   ``options`` and pick the best found (for a bid, the best is the hint's choice: bids are judged
   against the evaluator the hint uses, so the review never contradicts 提示 on a bid);
2. *confirm*, when the screen's loss reaches a share of the inaccuracy threshold or cannot be told
   from it (an option's gain over the move made, above or below it on the screen, has an upper
   bound reaching the threshold): the made move against every other option (for a bid, the
   hint's choice) on batches of :data:`~baofen.review.confirm.CONFIRM` times as many fresh
   common worlds, those clearly worse than the best so far dropped, while a category's threshold
   lies within the loss's interval (wider for a verdict taken early, wider still for a flag), up
   to 3072 worlds at the standard level while whether the move is flagged is undecided (1536
   while only its category is). The best is picked again there; the loss
   is the mean paired difference against it, with a one-sided 95% lower bound (Bonferroni over the
   options compared: the screen's winner's curse does not carry over, and the confirm stage's own
   is accounted for).

A move is an inaccuracy (不精确), a mistake (失误) or a blunder (大错) when the lower bound of its
confirmed loss reaches that category's threshold (:data:`~baofen.review.moves.THRESHOLDS`): its
loss both over the threshold and told from noise, so that a loss measured near a threshold is
not flagged on one set of worlds and left on another. A sure winner thrown on a trick an
opponent wins when a play giving no more points would have kept it (浪费大牌,
:func:`~baofen.review.judge.thriftier`) is at least an inaccuracy, whatever the playouts say
(rule-bot playouts seldom make a kept 大王 count). Every flagged move carries its
:class:`~baofen.review.moves.Reason`, drawn from the play-outs of the move made and the better
one on the same deals (:mod:`baofen.review.reasons`: the kept card that wins a later trick, or
the later trick that changes hands, and how often; a bid's make rates; a bury's points and trump
length). Each seat gets moves, moves with a choice, moves not flagged (as good as the best
found), the count of each category and an :func:`~baofen.review.moves.accuracy` (below 100
whenever a move is flagged) — never a sum of losses: each loss is measured from its own
position, and they do not add up; a seat's flagged losses stay within what the hand can swing
for it (:func:`~baofen.review.moves.seat_swing`).

Each decision is reviewed on worlds of its own seed (the review's and the action's index): its
review does not depend on which others are reviewed, or in which worker process. The review reads a
finished hand only, each seat's moves judged from that seat's view.
"""

from .confirm import Category, Worlds
from .hand import (
    assemble,
    decisions,
    review_action,
    review_hand,
    review_of_moves,
    review_record,
)
from .judge import Judge, sure_winners, thriftier
from .moves import (
    DEFAULT_CANDIDATES,
    DEFAULT_WORLDS,
    HINT,
    SCALES,
    THRESHOLDS,
    UNITS,
    VERSION,
    HandReview,
    Kind,
    MoveReview,
    Option,
    Reason,
    SeatSummary,
    accuracy,
    move_accuracy,
    seat_swing,
    seat_value,
)

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_WORLDS",
    "HINT",
    "SCALES",
    "THRESHOLDS",
    "UNITS",
    "VERSION",
    "Category",
    "HandReview",
    "Judge",
    "Kind",
    "MoveReview",
    "Option",
    "Reason",
    "SeatSummary",
    "Worlds",
    "accuracy",
    "assemble",
    "decisions",
    "move_accuracy",
    "review_action",
    "review_hand",
    "review_of_moves",
    "review_record",
    "seat_swing",
    "seat_value",
    "sure_winners",
    "thriftier",
]
