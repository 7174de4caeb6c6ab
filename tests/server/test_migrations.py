"""Schema migrations (SQLite and PostgreSQL): a database made by the release before migrations
(``fixtures/schema_0001.py``, the store's schema at commit 1deaa58, filled as its server filled
it) is stamped and upgraded in place by the new server, which plays on with everything intact;
and the migrations make exactly the tables the store's queries are written against."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, MetaData, create_engine, func, insert, inspect, select, text
from sqlalchemy.schema import CreateSchema

from baofen import Hand, RuleSet
from baofen.bots import make_bot
from baofen.match import Match
from baofen.server.security.tokens import new_seat_token, token_hash
from baofen.store import Store, migrations
from baofen.store import schema as current
from baofen.store.migrations import VERSION_TABLE, SchemaTooNew, latest, migrate
from baofen.wire.actions import action_record
from baofen.wire.table import HandSummary

from .accounts import session, sign_up
from .databases import Database, database
from .fixtures import schema_0001 as old
from .harness import ROOT, Client, ProcessServer, Seated, finished, free_port


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """Each migration test runs on SQLite and on PostgreSQL."""
    yield from database(request.param, tmp_path)


def engine_of(db: Database) -> Engine:
    engine = create_engine(db.url)
    if db.schema is None:
        return engine
    with engine.begin() as conn:
        conn.execute(CreateSchema(db.schema, if_not_exists=True))
    return engine.execution_options(schema_translate_map={None: db.schema})


def old_database(db: Database, rules: RuleSet) -> tuple[str, str, dict[str, Any]]:
    """A database as the release before migrations made it (``create_all`` of its schema), with
    one table whose first hand was played: Ann at seat 0, random computer players in the others.
    The table's code, Ann's seat token, and the first hand's record."""
    engine = engine_of(db)
    old.metadata.create_all(engine)
    code, token, seed = "oldtable0000abcd", new_seat_token(), 20251130
    match = Match(rules, seed)
    events: list[tuple[str, dict[str, Any]]] = [("start", {})]
    bots = [make_bot("random", seed=seat) for seat in range(4)]
    for seat in match.hand.turns():
        action = bots[seat].act(match.hand.observation(seat))
        match.hand.apply(seat, action)
        events.append(("action", action_record(seat, action).model_dump(mode="json")))
    now = datetime.now(UTC)
    record = match.hand.to_record()
    with engine.begin() as conn:
        conn.execute(insert(old.tables).values(
            code=code, rules=rules.to_dict(), seed=seed, status="playing", created=now,
            updated=now, settings={"bot_level": "random", "bid_seconds": None,
                                   "kitty_seconds": None, "play_seconds": None},
        ))
        conn.execute(insert(old.seats), [
            {"table_code": code, "seat": 0, "kind": "human", "name": "Ann", "bot_level": None,
             "token_hash": token_hash(token)},
            *({"table_code": code, "seat": seat, "kind": "bot", "name": "random bot",
               "bot_level": "random", "token_hash": None} for seat in (1, 2, 3)),
        ])
        conn.execute(insert(old.events), [
            {"table_code": code, "seq": seq, "kind": kind, "payload": payload, "created": now}
            for seq, (kind, payload) in enumerate(events, start=1)
        ])
        conn.execute(insert(old.hands).values(
            table_code=code, number=1, record=record,
            summary=HandSummary.of(match.history[-1]).model_dump(mode="json"),
        ))
    engine.dispose()
    return code, token, record


def test_a_database_of_the_release_before_upgrades_in_place(db: Database) -> None:
    rules = RuleSet.baofen(hands=2)
    code, token, first = old_database(db, rules)
    env = {"BAOFEN_DB_SCHEMA": db.schema, "BAOFEN_DROP_GRACE": "60"} if db.schema else {
        "BAOFEN_DROP_GRACE": "60"}
    server = ProcessServer(db.url, free_port(), env)
    try:
        info = httpx.get(f"{server.base}/api/tables/{code}").json()
        assert info["status"] == "playing"
        assert info["match"]["hand_number"] == 1 and info["match"]["history"]
        assert [seat["name"] for seat in info["seats"]] == ["Ann"] + ["random bot"] * 3
        stored = httpx.get(f"{server.base}/api/tables/{code}/hands/1").json()
        assert stored == {**first, "seed": None}  # the seed stays hidden while the match goes on
        me = Seated(Client(server.base, code), rules, seed=9)
        me.client.send(type="reclaim", token=token)
        assert me.client.expect("joined")["seat"] == 0
        me.until(finished)
        records = httpx.get(f"{server.base}/api/tables/{code}/records").json()
        assert len(records) == 2
        assert records[0] == first
        Hand.from_record(records[1])
        # The new tables work on the upgraded database.
        ann = sign_up(server.base, "Ann")
        assert ann.get("/api/me").status_code == 200
        assert session(ann)
    finally:
        server.stop()
    engine = engine_of(db)
    try:
        with engine.connect() as conn:
            assert conn.execute(select(text("version_num")).select_from(
                text(VERSION_TABLE if db.schema is None else f'"{db.schema}".{VERSION_TABLE}')
            )).scalar() == latest()
            seats = conn.execute(select(current.seats).order_by(current.seats.c.seat)).all()
            assert [seat.account_id for seat in seats] == [None] * 4
    finally:
        engine.dispose()


def differences(engine: Engine, schema: str | None, metadata: MetaData) -> list[Any]:
    """What Alembic finds different between the database and ``metadata``."""
    with engine.connect() as conn:
        if schema is not None:
            conn.execute(text("select set_config('search_path', :path, false)"), {"path": schema})
        context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
        found: list[Any] = compare_metadata(context, metadata)
        assert set(inspect(conn).get_table_names()) == {*metadata.tables, VERSION_TABLE}
        return found


def test_the_migrations_make_the_schemas_exactly(db: Database) -> None:
    engine = engine_of(db)
    plain = create_engine(db.url)
    try:
        migrate(plain, db.schema, "0001")
        assert differences(engine, db.schema, old.metadata) == []  # as create_all made it
    finally:
        plain.dispose()
        engine.dispose()
    store = Store(db.url, db.schema)  # upgrades to the latest
    try:
        assert differences(store.engine, db.schema, current.metadata) == []
        Store(db.url, db.schema).close()  # at the latest revision already: nothing to do
    finally:
        store.drop()


def test_a_database_of_a_newer_version_is_refused_unchanged(db: Database) -> None:
    store = Store(db.url, db.schema)
    try:
        with store.engine.begin() as conn:
            conn.execute(text(f"update {VERSION_TABLE} set version_num = '0099'")
                         if db.schema is None else
                         text(f'update "{db.schema}".{VERSION_TABLE} set version_num = \'0099\''))
        with pytest.raises(SchemaTooNew, match="revision 0099"):
            Store(db.url, db.schema)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        if db.schema is not None:
            env["BAOFEN_DB_SCHEMA"] = db.schema
        serve = subprocess.run(
            [sys.executable, "-m", "baofen", "serve", "--db", db.url, "--port", str(free_port())],
            env=env, capture_output=True, text=True, timeout=60,
        )
        assert serve.returncode != 0
        assert serve.stderr.strip().count("\n") == 0, serve.stderr  # one line, no traceback
        assert "revision 0099" in serve.stderr and "newer version" in serve.stderr
    finally:
        store.drop()


def test_servers_starting_together_migrate_one_after_the_other(db: Database) -> None:
    opened: list[Store] = []
    failures: list[BaseException] = []

    def open_store() -> None:
        try:
            opened.append(Store(db.url, db.schema, timeout=30))
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=open_store) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert failures == []
        assert differences(opened[0].engine, db.schema, current.metadata) == []
    finally:
        for store in opened[1:]:
            store.close()
        if opened:
            opened[0].drop()


def downgrade(engine: Engine, schema: str | None, revision: str) -> None:
    """Bring the database down to ``revision`` (as an operator would with Alembic)."""
    with engine.begin() as conn:
        if schema is not None:
            conn.execute(text("select set_config('search_path', :path, true)"),
                         {"path": f'"{schema}"'})
        config = migrations._config()
        config.attributes["connection"] = conn
        command.downgrade(config, revision)


def test_the_puzzle_consent_migration_goes_up_and_down(db: Database) -> None:
    """0011 gives every account its consent to puzzles from its hands, off, and every puzzle
    no player; going down drops both columns and keeps the rows."""
    engine = engine_of(db)
    plain = create_engine(db.url)
    try:
        migrate(plain, db.schema, "0010")
        with engine.begin() as conn:
            conn.execute(insert(current.accounts).values(
                username="Ann", canonical="ann", skeleton="ann", password_hash="h",
                created=datetime.now(UTC)))
            conn.execute(insert(current.puzzles).values(
                id="p1", game="hongwu", kind="play", puzzle={}, rating=1500.0, rd=350.0,
                volatility=0.06, attempts=0, solved=0))
        migrate(plain, db.schema, "0011")
        with engine.connect() as conn:
            assert conn.execute(select(current.accounts.c.puzzle_consent)).scalars().all() == [
                False]
            assert conn.execute(select(current.puzzles.c.account_id)).scalars().all() == [None]
        downgrade(plain, db.schema, "0010")
        with engine.connect() as conn:
            inspector = inspect(conn)
            assert "puzzle_consent" not in {c["name"] for c in inspector.get_columns(
                "baofen_accounts", db.schema)}
            assert "account_id" not in {c["name"] for c in inspector.get_columns(
                "baofen_puzzles", db.schema)}
            assert conn.execute(select(func.count()).select_from(current.puzzles)).scalar() == 1
        migrate(plain, db.schema)  # and up again to the latest
        assert differences(engine, db.schema, current.metadata) == []
    finally:
        plain.dispose()
        engine.dispose()
