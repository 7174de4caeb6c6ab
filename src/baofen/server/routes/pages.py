"""The browser client's pages: the lobby at ``/``, a table at ``/t/{code}``, a player's 战绩 at
``/players/{username}``, the leaderboard at ``/leaderboard``, the rules at ``/rules``, and the
static assets (HTML, CSS, JavaScript modules) shipped in the package under ``baofen/web/static``."""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.staticfiles import PathLike
from starlette.types import Scope

STATIC = Path(str(files("baofen") / "web" / "static"))
"""Directory of the browser client's files."""

NO_CACHE = {"Cache-Control": "no-cache"}
"""Browsers revalidate every file, so that a new version of the client is never mixed with
modules of the old one."""


class _StaticFiles(StaticFiles):
    """Static files answered with :data:`NO_CACHE` (still cheap: ETag revalidation)."""

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file, with :data:`NO_CACHE`."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(NO_CACHE)
        return response


router = APIRouter(include_in_schema=False)
router.mount("/static", _StaticFiles(directory=STATIC), name="static")


@router.get("/")
@router.get("/t/{code}")
@router.get("/players/{username}")
@router.get("/leaderboard")
@router.get("/rules")
@router.get("/puzzles")
@router.get("/clubs")
@router.get("/clubs/{club_id}")
@router.get("/clubs/join/{code}")
@router.get("/tournaments")
@router.get("/tournaments/{code}")
def page() -> FileResponse:
    """The single page of the client; it reads the table code (or the player) from the
    address itself."""
    return FileResponse(STATIC / "index.html", headers=NO_CACHE)
