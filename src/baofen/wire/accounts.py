"""The REST bodies of accounts, 战绩 (a player's history) and the leaderboard.

Passwords only ever travel *to* the server: no answer has a field that could carry one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StringConstraints

from ..accounts import ratings
from ..accounts.usernames import MAX_LENGTH, MIN_LENGTH, display_form
from ..setting import Variant
from .names import plain_text

MIN_PASSWORD = 8
MAX_PASSWORD = 128

Username = Annotated[
    str,
    StringConstraints(min_length=1, max_length=4 * MAX_LENGTH),
    AfterValidator(display_form),
    Field(description=f"{MIN_LENGTH}–{MAX_LENGTH} characters after NFKC: letters a–z, digits, "
          "_ and -, or CJK characters; compared case-insensitively (NFKC + casefold), and no "
          "two accounts' names may look alike (docs/protocol.md)"),
]
"""A username as chosen at sign-up (checked, NFKC-normalised)."""

Password = Annotated[
    str, StringConstraints(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD),
    Field(description=f"{MIN_PASSWORD}–{MAX_PASSWORD} characters"),
]

AnyUsername = Annotated[
    str, StringConstraints(min_length=1, max_length=4 * MAX_LENGTH), AfterValidator(plain_text)
]
"""A username as typed at sign-in (any text of a sane length but for control characters: a
wrong one is just wrong)."""

AnyPassword = Annotated[str, StringConstraints(min_length=1, max_length=MAX_PASSWORD)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SignUp(_Body):
    """Body of ``POST /api/accounts``."""

    username: Username
    password: Password


class SignIn(_Body):
    """Body of ``POST /api/login``."""

    username: AnyUsername
    password: AnyPassword


class ChangePassword(_Body):
    """Body of ``POST /api/me/password``: every other session of the account ends."""

    old_password: AnyPassword
    new_password: Password


class DeleteAccount(_Body):
    """Body of ``DELETE /api/me``: the password, to confirm."""

    password: AnyPassword


class PuzzleConsent(_Body):
    """Body and answer of ``PUT /api/me/puzzle-consent``: whether the account lets its
    finished hands be searched for puzzles (残局练习); withdrawn, the puzzles made from them
    are deleted."""

    allowed: StrictBool = Field(description="true: allowed; false (every account's default): "
                                "not")


class Rating(BaseModel):
    """A rating in one game (docs/ratings.md): OpenSkill's ``mu`` and ``sigma``."""

    mu: float = Field(description="estimated strength (a new player: 25)")
    sigma: float = Field(description="its uncertainty (a new player: 25/3)")
    display: float = Field(
        description="the rating shown: mu − 3·sigma (OpenSkill's ordinal), one decimal"
    )

    @classmethod
    def of(cls, rating: ratings.Rating) -> Rating:
        """The view of a rating."""
        return cls(mu=round(rating.mu, 3), sigma=round(rating.sigma, 3), display=rating.display)


class Account(BaseModel):
    """Answer to sign-up and sign-in: the account (the session is in the cookie)."""

    username: str
    created: datetime


class Me(Account):
    """Answer to ``GET /api/me``: the signed-in account and its rating in each game."""

    signed_in: Literal[True] = True
    ratings: dict[Variant, Rating]
    puzzle_consent: bool = Field(description="whether the account lets its finished hands be "
                                 "searched for puzzles (PUT /api/me/puzzle-consent)")


class SignedOut(BaseModel):
    """Answer to ``GET /api/me`` when nobody is signed in."""

    signed_in: Literal[False] = False


class GameRecord(BaseModel):
    """A player's record in one game (every hand with a declarer, rated or not)."""

    hands: int
    as_declarer: int
    as_defender: int
    made_rate: float | None = Field(
        description="share of the hands as declarer whose contract was made; null: none"
    )
    average_result: float | None = Field(
        description="mean change of the player's score a hand (包分: points; 包红五: levels)"
    )
    rating: Rating = Field(description="the rating (from rated hands only)")
    rated_hands: int


class RecentHand(BaseModel):
    """One of a player's latest hands."""

    table_code: str | None = Field(
        description="null while the table is private and its match goes on (its code is its "
        "key)"
    )
    hand_number: int
    variant: Variant
    role: Literal["declarer", "defender"]
    result: int = Field(description="the seat's change this hand, in the game's unit")
    made: bool = Field(description="the declarer made the contract")
    finished: datetime
    replay: str | None = Field(
        description="URL path of the hand's replay (GET: HandReplay); null with table_code"
    )


class PlayerProfile(BaseModel):
    """Answer to ``GET /api/players/{username}``: 战绩."""

    username: str
    created: datetime
    games: dict[Variant, GameRecord]
    recent: list[RecentHand] = Field(description="the latest hands, newest first")


class LeaderboardEntry(BaseModel):
    """One line of ``GET /api/leaderboard``."""

    rank: int = Field(description="1 for the best shown rating")
    username: str
    rating: Rating
    hands: int = Field(description="rated hands in this game")
