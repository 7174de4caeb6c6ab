"""Option types shared by the commands."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer


class VariantName(StrEnum):
    """The two games."""

    baofen = "baofen"
    hongwu = "hongwu"


VariantOption = Annotated[
    VariantName, typer.Option(help="game: baofen (包分) or hongwu (包红五)")
]
"""``--variant baofen|hongwu``."""
