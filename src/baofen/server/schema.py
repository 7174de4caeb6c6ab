"""The protocol's JSON Schema: ``python -m baofen.server.schema [FILE]`` writes it.

``docs/protocol.schema.json`` is this module's output, and a test checks that it is current.
It is generated from the very models the server sends and validates (:mod:`baofen.wire`).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from ..wire import accounts, challenge, clubs, tournaments
from ..wire.messages import ClientMessages, ServerMessages
from ..wire.puzzles import PuzzleAnswer, PuzzleQuestion, PuzzleResult, SolverRecord
from ..wire.quickmatch import MatchRequest, MatchTicket
from ..wire.record import HandRecord
from ..wire.rest import CardOrderView, CreateTable, HandReplay, TableCreated
from ..wire.rules import RuleSetModel
from ..wire.settings import ClientDefaults
from ..wire.table import HandSummary, TableInfo

SCHEMA_MODELS: tuple[type[BaseModel], ...] = (
    ClientMessages,
    ServerMessages,
    CreateTable,
    TableCreated,
    TableInfo,
    HandSummary,
    HandRecord,
    RuleSetModel,
    ClientDefaults,
    CardOrderView,
    HandReplay,
    accounts.SignUp,
    accounts.SignIn,
    accounts.ChangePassword,
    accounts.DeleteAccount,
    accounts.PuzzleConsent,
    accounts.Account,
    accounts.Me,
    accounts.PlayerProfile,
    accounts.LeaderboardEntry,
    MatchRequest,
    MatchTicket,
    challenge.EnterChallenge,
    challenge.Challenge,
    challenge.ChallengeTable,
    challenge.Traveller,
    challenge.ChallengeLeaderboard,
    challenge.ChallengeHistory,
    PuzzleQuestion,
    PuzzleAnswer,
    PuzzleResult,
    SolverRecord,
    clubs.ClubRefusal,
    clubs.CreateClub,
    clubs.ClubSettings,
    clubs.ClubView,
    clubs.MemberView,
    clubs.RoleChange,
    clubs.HandOver,
    clubs.NewInvitation,
    clubs.InvitationView,
    clubs.InvitationInfo,
    clubs.ClubJoined,
    clubs.RequestView,
    clubs.Decision,
    clubs.PresetBody,
    clubs.PresetView,
    clubs.Pair,
    clubs.OpenClubTable,
    clubs.ClubTable,
    clubs.Standings,
    clubs.ClubHandView,
    clubs.InviteToTable,
    clubs.TableInviteView,
    clubs.TableClub,
    tournaments.CreateTournament,
    tournaments.TournamentInfo,
    tournaments.Register,
    tournaments.Registered,
    tournaments.MyTable,
    tournaments.Traveller,
    tournaments.TournamentRefusal,
)
"""Models whose JSON Schema forms ``docs/protocol.schema.json``: every message, and every body
the REST routes serve."""


def protocol_schema() -> dict[str, Any]:
    """One JSON Schema document with a definition for every protocol model."""
    _, schema = models_json_schema(
        [(model, "validation") for model in SCHEMA_MODELS],
        title="baofen protocol",
        description="WebSocket messages (ClientMessages, ServerMessages) and REST bodies of the "
        "baofen game server; see docs/protocol.md.",
    )
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def render() -> str:
    """The schema as the text of docs/protocol.schema.json."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str]) -> None:
    """Write the schema to the file named in ``argv`` (or print it)."""
    text = render()
    if argv:
        with open(argv[0], "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
