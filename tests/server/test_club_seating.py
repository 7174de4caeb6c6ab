"""What the club seating check asks of the database: nothing for a public table (a club's or
an event's table is private from its creation) nor for a guest reclaiming a seat; one look-up
for a private table, whose answer "no club's" is kept."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar, cast

import pytest

from baofen import RuleSet
from baofen.server.clubs import seating
from baofen.server.table import Table
from baofen.store.accounts import Account
from baofen.store.async_store import AsyncStore
from baofen.wire.settings import TableSettings

from .fakes import SERVER, FakeStore, connection, new_table, no_driver, run


class CountedRecords:
    """The club records of a database that has no club table: every look-up counted."""

    asked: ClassVar[list[str]] = []

    def __init__(self, store: Any) -> None:
        pass

    def seat(self, code: str, account_id: int | None) -> None:
        CountedRecords.asked.append(code)


@pytest.fixture(autouse=True)
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    CountedRecords.asked = []
    monkeypatch.setattr(seating, "ClubRecords", CountedRecords)
    monkeypatch.setattr(seating, "PLAIN", set())
    return CountedRecords.asked


def with_timeout(store: FakeStore) -> FakeStore:
    """The parts of an :class:`AsyncStore` the check reads besides the records."""
    setattr(store, "store", None)  # noqa: B010 (not an attribute of the double)
    setattr(store, "timeout", 5.0)  # noqa: B010
    return store


async def private_table(store: FakeStore) -> Table:
    settings = TableSettings(private=True, bot_level="random", bid_seconds=None,
                             kitty_seconds=None, play_seconds=None)
    return await Table.create("unit", RuleSet.baofen(hands=2), settings,
                              cast(AsyncStore, store), SERVER, no_driver)


def signed_in() -> Any:
    player = connection()
    player.account = Account(7, "ann", datetime.now(UTC))
    return player


def test_a_public_table_is_never_asked_of_the_database(counted: list[str]) -> None:
    async def test() -> None:
        table = await new_table(with_timeout(FakeStore()))
        for seat, reclaim in ((0, False), (None, False), (None, True)):
            await seating.check_club_seat(signed_in(), table, seat, reclaim=reclaim)
            await seating.check_club_seat(connection(), table, seat, reclaim=reclaim)
        assert counted == []
    run(test)


def test_a_guest_reclaiming_at_a_private_table_is_not_asked(counted: list[str]) -> None:
    async def test() -> None:
        table = await private_table(with_timeout(FakeStore()))
        for _ in range(3):
            await seating.check_club_seat(connection(), table, None, reclaim=True)
        assert counted == []
    run(test)


def test_a_private_table_is_asked_once_and_then_known_to_be_no_clubs(
        counted: list[str]) -> None:
    async def test() -> None:
        table = await private_table(with_timeout(FakeStore()))
        for _ in range(3):
            await seating.check_club_seat(signed_in(), table, None, reclaim=True)
            await seating.check_club_seat(signed_in(), table, 0)
        assert counted == ["unit"]
    run(test)
