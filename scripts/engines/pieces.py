"""Blockudoku piece shapes, for drawing; the rules (and the catalogue) live in the engine.

Front ends ask the engine for its catalogue (`BlockudokuEngine.catalogue()`); a catalogue file
(`load_catalogue`) serves custom piece sets and tools that run without an engine.
"""
from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .base import REPO_ROOT

DEFAULT_CATALOGUE = REPO_ROOT / "crates" / "rules" / "data" / "blockudoku-pieces.txt"


@dataclass(frozen=True)
class Piece:
    """A piece: catalogue id and the filled cells of its bounding box, (row, col) from 0."""

    id: int
    cells: Tuple[Tuple[int, int], ...]

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    @property
    def shape(self) -> str:
        """The shape string of the protocol, e.g. `##/#.`."""
        rows = [["."] * self.width for _ in range(self.height)]
        for r, c in self.cells:
            rows[r][c] = "#"
        return "/".join("".join(row) for row in rows)

    @staticmethod
    def from_shape(shape: str, piece_id: int = 0) -> "Piece":
        cells = tuple(
            (r, c) for r, row in enumerate(shape.strip().split("/")) for c, ch in enumerate(row) if ch == "#"
        )
        if not cells:
            raise ValueError(f"empty piece shape {shape!r}")
        return Piece(piece_id, cells)


def catalogue_path() -> pathlib.Path:
    return pathlib.Path(os.environ.get("BLOCKUDOKU_PIECES", DEFAULT_CATALOGUE))


def load_catalogue(path: Optional[os.PathLike] = None) -> Dict[int, Piece]:
    """Reads `id count cells... shape` lines; `#` starts a comment line."""
    pieces: Dict[int, Piece] = {}
    text = pathlib.Path(path or catalogue_path()).read_text()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        tokens = line.split()
        try:
            piece_id = int(tokens[0])
            pieces[piece_id] = Piece.from_shape(tokens[-1], piece_id)
        except (ValueError, IndexError) as err:
            raise ValueError(f"{path}:{number}: bad catalogue line {line!r}: {err}") from None
    return pieces


def cells_of(piece: Piece, row: int, col: int) -> List[Tuple[int, int]]:
    """Board cells (0-based) the piece covers with its bounding box's top-left at (row, col).

    Pure geometry for drawing previews; whether the placement is legal is the engine's call.
    """
    return [(row + r, col + c) for r, c in piece.cells]
