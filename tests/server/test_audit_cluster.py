"""Cluster (issue 24, item 11): deleting an account on one node anonymises its seats at the tables
other nodes own."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from baofen import RuleSet
from baofen.usernames import DELETED_NAME

from .accounts import PASSWORD, session, sign_up
from .cluster import running
from .databases import Database, database
from .harness import TIMEOUT, Client, create_table


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """A PostgreSQL schema of the test's own."""
    yield from database("postgresql", tmp_path)


def test_a_deleted_account_is_forgotten_at_another_nodes_table(db: Database) -> None:
    """Deleting an account on one node anonymises its seat at a table another node owns."""
    with running(db, 2) as cluster:
        owner, other = cluster.bases
        ann = sign_up(other, "Ann")
        code = create_table(owner, RuleSet.baofen(hands=1).to_dict(), timer=None)
        seated = Client(owner, code, session(ann))
        assert seated.join(0, "x")["name"] == "Ann"
        response = ann.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert response.status_code == 204
        deadline = time.monotonic() + TIMEOUT
        while (seat := httpx.get(f"{owner}/api/tables/{code}").json()["seats"][0])["name"] != (
            DELETED_NAME
        ):
            assert time.monotonic() < deadline, seat
            time.sleep(0.1)
        assert seat["account"] is False
        seated.close()
