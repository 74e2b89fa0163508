"""The analysis board's palette: every piece of the set, small, in rows; a click picks one. A
view: what is picked goes to the function it was given."""
from __future__ import annotations

import tkinter as tk
from typing import Callable, Dict, Tuple

from ...pieces import Piece
from .canvas import COLOURS

PALETTE_CELL = 5  # palette pieces: cells of this many pixels, each piece in a box of 28
PALETTE_BOX, PALETTE_COLUMNS = 28, 10


class Palette:
    """The pieces of `catalogue` on a canvas in `parent` (`canvas`, packed by the caller);
    `on_pick(piece id)` is told of a click on one."""

    def __init__(self, parent: tk.Misc, catalogue: Dict[int, Piece], on_pick: Callable[[int], None]):
        self.catalogue, self.on_pick = catalogue, on_pick
        self.piece_ids = sorted(catalogue)
        rows = (len(self.piece_ids) + PALETTE_COLUMNS - 1) // PALETTE_COLUMNS
        self.canvas = tk.Canvas(parent, width=PALETTE_COLUMNS * PALETTE_BOX, height=rows * PALETTE_BOX, bg="white",
                                highlightthickness=0)
        self.canvas.bind("<ButtonPress-1>", self.on_click)
        self.draw()

    def draw(self) -> None:
        p = self.canvas
        for k, pid in enumerate(self.piece_ids):
            piece = self.catalogue[pid]
            bx, by = (k % PALETTE_COLUMNS) * PALETTE_BOX, (k // PALETTE_COLUMNS) * PALETTE_BOX
            p.create_rectangle(bx + 1, by + 1, bx + PALETTE_BOX - 1, by + PALETTE_BOX - 1, outline=COLOURS["grid"],
                               fill="white", tags=("palette", f"pal{pid}"))
            x0 = bx + (PALETTE_BOX - piece.width * PALETTE_CELL) // 2
            y0 = by + (PALETTE_BOX - piece.height * PALETTE_CELL) // 2
            for r, col in piece.cells:
                x, y = x0 + col * PALETTE_CELL, y0 + r * PALETTE_CELL
                p.create_rectangle(x, y, x + PALETTE_CELL, y + PALETTE_CELL, fill=COLOURS["piece"], outline="white",
                                   tags=("palette", f"pal{pid}"))

    def pixel(self, pid: int) -> Tuple[int, int]:
        """The centre of piece `pid`'s box (for scripted clicks)."""
        k = self.piece_ids.index(pid)
        return (k % PALETTE_COLUMNS) * PALETTE_BOX + PALETTE_BOX // 2, (k // PALETTE_COLUMNS) * PALETTE_BOX + PALETTE_BOX // 2

    def on_click(self, event) -> None:
        k = (event.y // PALETTE_BOX) * PALETTE_COLUMNS + event.x // PALETTE_BOX
        if 0 <= event.x < PALETTE_COLUMNS * PALETTE_BOX and 0 <= k < len(self.piece_ids):
            self.on_pick(self.piece_ids[k])
