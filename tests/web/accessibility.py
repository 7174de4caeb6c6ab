"""Accessibility in the browser tests: axe-core's checks run on the page as it is."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from .ui import Person

AXE_PACKAGE = "axe_playwright_python"
"""The dev extra's package that ships axe-core's script (the tests inject it themselves; the app
itself has no build step)."""


def check_axe(person: Person, where: str) -> None:
    """No serious or critical accessibility violation on the page as it is now."""
    spec = importlib.util.find_spec(AXE_PACKAGE)
    if spec is None or spec.origin is None:
        pytest.fail(f"axe-core is missing: {AXE_PACKAGE} comes with the dev extra "
                    "(python3 -m pip install -e '.[dev]')")
    page = person.page
    if not page.evaluate("Boolean(window.axe)"):
        page.add_script_tag(path=str(Path(spec.origin).with_name("axe.min.js")))
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})"
                          ".then(r => r.violations.map(v => [v.id, v.impact, v.nodes.length,"
                          " v.nodes[0].target.join(' ')]))")
    bad = [v for v in found if v[1] in ("serious", "critical")]
    assert not bad, f"accessibility ({where}): {bad}"
