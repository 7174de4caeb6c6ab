"""The package's small networks as plain files, read and run without numpy or torch.

A file is a first line naming its kind and version (its ``magic``), a JSON header line — what the
network is for, and ``layers``: each linear layer's name, output and input sizes, in order —
then the layers as little-endian float32, each its weight matrix row by row (rows are outputs,
as torch stores them) and its bias. The learned bidder's Q network
(:mod:`baofen.bots.learned.bidder`) and the learned evaluator
(:mod:`baofen.bots.learned.evaluator`) ship this way; the research code writes them from its
trained torch networks.

The layers are kept by input column (:attr:`Network.columns`), for the inputs these networks see
are sparse: a layer's output is its bias plus a few columns (:func:`accumulate`).
"""

from __future__ import annotations

import json
import sys
from array import array
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

WEIGHTS_DIR = Path(__file__).parent.parent / "weights"
"""Where the package's networks lie (``baofen/bots/weights``): ``baofen.qnet``, the learned
bidder's for 包分; ``evaluator-baofen.enet``, the learned evaluator's."""


@dataclass(frozen=True)
class Network:
    """A network as read from a file: per layer, its weight matrix by input column
    (``columns[name][i]``: the weights of input ``i`` to every output) and its bias."""

    header: dict[str, Any]
    """The file's header (see the module docstring)."""
    columns: dict[str, list[list[float]]]
    biases: dict[str, list[float]]


def write_network(path: Path, magic: bytes, header: dict[str, Any],
                  layers: dict[str, tuple[list[list[float]], list[float]]]) -> None:
    """Write a network file of kind ``magic``: ``layers`` maps each layer's name, in order, to
    its weight matrix (rows are outputs) and bias; ``header`` says what the network is for."""
    shapes = []
    data = array("f")
    for name, (matrix, bias) in layers.items():
        shapes.append([name, len(matrix), len(matrix[0])])
        for row in matrix:
            data.extend(row)
        data.extend(bias)
    if sys.byteorder != "little":
        data.byteswap()
    text = json.dumps({**header, "layers": shapes}, ensure_ascii=False, sort_keys=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(magic + text.encode() + b"\n" + data.tobytes())


@cache
def read_network(path: Path, magic: bytes) -> Network:
    """The network in the file at ``path``, which must be of kind ``magic`` (read once per
    process)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ValueError(f"no weights at {path}") from None
    if not raw.startswith(magic):
        raise ValueError(f"{path} is not a weights file of this version ({magic.decode().strip()})")
    end = raw.index(b"\n", len(magic))
    header = json.loads(raw[len(magic):end])
    data = array("f")
    data.frombytes(raw[end + 1:])
    if sys.byteorder != "little":
        data.byteswap()
    columns: dict[str, list[list[float]]] = {}
    biases: dict[str, list[float]] = {}
    at = 0
    for name, rows, cols in header["layers"]:
        flat = data[at:at + rows * cols].tolist()
        at += rows * cols
        columns[name] = [flat[i::cols] for i in range(cols)]
        biases[name] = data[at:at + rows].tolist()
        at += rows
    if at != len(data):
        raise ValueError(f"{path}: the layers do not match the header")
    return Network(header, columns, biases)


def accumulate(bias: list[float], columns: list[list[float]],
               inputs: list[tuple[int, float]]) -> list[float]:
    """``bias`` + Σ value · column over the non-zero ``inputs``."""
    out = list(bias)
    for index, value in inputs:
        column = columns[index]
        out = [o + value * w for o, w in zip(out, column, strict=True)]
    return out


def active(values: list[float], offset: int = 0) -> list[tuple[int, float]]:
    """The positive entries of ``values`` (after ReLU), as ``(offset + index, value)``."""
    return [(offset + i, v) for i, v in enumerate(values) if v > 0.0]
