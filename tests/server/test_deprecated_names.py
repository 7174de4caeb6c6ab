"""The server's old names keep working for one version, each with a DeprecationWarning: the
configuration's (``ServerSettings``), and the modules that moved into the packages by role."""

from __future__ import annotations

import importlib
import sys

import pytest

import baofen.server
from baofen.server import ServerConfig
from baofen.server.quickmatch.line import SeatAssignment
from baofen.server.routes.reviews import Reviews
from baofen.server.table import Table


def test_server_settings_is_the_server_config() -> None:
    with pytest.warns(DeprecationWarning, match="ServerConfig"):
        assert baofen.server.ServerSettings is ServerConfig
    with pytest.warns(DeprecationWarning, match="ServerConfig"):
        from baofen.server.config import ServerSettings
    assert ServerSettings is ServerConfig


def test_create_app_is_at_the_top() -> None:
    from baofen.server.app import create_app

    assert baofen.server.create_app is create_app


@pytest.mark.parametrize(("old", "name", "new"), [
    ("baofen.server.tables", "Table", Table),
    ("baofen.server.analysis", "Reviews", Reviews),
    ("baofen.server.match_queue", "Seating", SeatAssignment),
])
def test_a_moved_module_warns_and_names_the_same_thing(old: str, name: str, new: object) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=old):
        module = importlib.import_module(old)
    assert getattr(module, name) is new
