"""Blockudoku piece shapes, for drawing; the rules (and the catalogue) live in the engine.

Front ends ask the engine for its catalogue (`BlockudokuEngine.catalogue()`), and
`blockudoku-lab` for the pieces of a piece-set file (`piece_set`).
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Dict, List, Tuple, Union

from .base import REPO_ROOT

# The catalogue as a file (the engine's `catalogue` is the one the windows use).
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


# Ids of the pieces of a piece set that the engine's catalogue does not have (its own are 1-47).
OWN_IDS_FROM = 101


def piece_set(path: Union[str, os.PathLike], catalogue: Dict[int, Piece],
              lab: Union[None, str, os.PathLike] = None) -> Dict[int, Piece]:
    """The pieces of the piece-set file `path`, as `blockudoku-lab` reads it (its `--pieces`:
    one piece a line, its last token a catalogue id or a shape; the catalogue file's format
    works): the harness has no reader of its own. The lab plays one round with the set and
    writes it in a record's `set` line, which is read here. Each piece of the engine's
    `catalogue` keeps its catalogue id; any other shape gets an id from OWN_IDS_FROM up (the
    window sends such a piece as its shape). ValueError with the lab's one line when it refuses
    the file."""
    from .base import find_binary

    program = str(lab) if lab is not None else str(find_binary("blockudoku-lab"))
    with tempfile.TemporaryDirectory() as tmp:
        record = pathlib.Path(tmp) / "set.bkr"
        run = subprocess.run([program, "selfplay", "--games", "1", "--max-rounds", "1", "--seed", "1", "--threads", "1",
                              "--pieces", str(path), "--record", str(record)], capture_output=True, text=True, timeout=60)
        if run.returncode != 0 or not record.exists():
            lines = run.stderr.strip().splitlines() or [f"blockudoku-lab exit code {run.returncode}"]
            raise ValueError(lines[-1].removeprefix("error: "))
        shapes = next((line.split()[1:] for line in record.read_text().splitlines() if line.startswith("set ")), [])
    if shapes == ["catalogue"]:
        return dict(catalogue)
    by_shape = {piece.shape: pid for pid, piece in catalogue.items()}
    pieces: Dict[int, Piece] = {}
    own = OWN_IDS_FROM
    for shape in shapes:
        pid = by_shape.get(shape)
        if pid is None:
            pid, own = own, own + 1
        pieces[pid] = Piece.from_shape(shape, pid)
    return pieces


def piece_spec(piece: Piece) -> Union[int, str]:
    """How a `position` line names `piece`: its catalogue id, or its shape (a piece of its own)."""
    return piece.id if piece.id < OWN_IDS_FROM else piece.shape


def cells_of(piece: Piece, row: int, col: int) -> List[Tuple[int, int]]:
    """Board cells (0-based) the piece covers with its bounding box's top-left at (row, col).

    Pure geometry for drawing previews; whether the placement is legal is the engine's call.
    """
    return [(row + r, col + c) for r, c in piece.cells]
