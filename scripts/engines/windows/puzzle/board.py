"""The puzzle's grid on a canvas: a view that draws a `Puzzle` (model.py) and turns a click into
a cell; it follows the window's size both ways and never asks the engine."""
from __future__ import annotations

import tkinter as tk
from typing import Dict, List, Optional, Tuple

from ...sudoku import value_char
from ..layout import clipped, label_points, label_room
from .model import Cell, Puzzle

BOARD_PX = 468  # the grid's side at the window's first size; it follows the window
LABELS_PX = 18  # the row and column numbers left of and above the grid
COLOURS = {"given": "#111111", "entry": "#1f5fa8", "hint": "#1e8449", "wrong": "#c0392b",
           "mark": "#555555", "candidate": "#aaaaaa"}
FILL = {"plain": "white", "selected": "#ffe08a", "wrong": "#f7d4cf", "solved": "#d9f2dc"}


class PuzzleBoard:
    """The grid with its row and column numbers on `canvas`; `draw(puzzle, candidates)`."""

    def __init__(self, parent: tk.Misc, on_resize=None):
        self.canvas = tk.Canvas(parent, width=BOARD_PX + LABELS_PX + 4, height=BOARD_PX + LABELS_PX + 4, bg="white",
                                highlightthickness=0)
        self.board_px = BOARD_PX
        self.labels_px = LABELS_PX  # room for the numbers: it grows with the board (label_room)
        self.left = 0  # the blank left of the row numbers when the canvas is wider than tall
        self.size = 9
        self.on_resize = on_resize
        self.canvas.bind("<Configure>", self.resized)

    def resized(self, event) -> None:
        """The grid follows the window, both ways."""
        self.labels_px = label_room(min(event.width, event.height))
        side = max(120, min(event.width, event.height) - self.labels_px - 4)
        left = max(0, (event.width - side - self.labels_px - 4) // 2)
        if (side, left) != (self.board_px, self.left):
            self.board_px, self.left = side, left
            if self.on_resize is not None:
                self.on_resize()

    def clipped_labels(self) -> List[str]:
        """The row and column numbers not wholly on the canvas (tests read it)."""
        return clipped(self.canvas, "label")

    def cell_px(self) -> float:
        return self.board_px / self.size

    def origin(self) -> Tuple[float, float]:
        """The grid's top-left pixel (right of the row numbers, under the column numbers)."""
        return self.left + self.labels_px + 2, self.labels_px + 2

    def cell_at(self, x: float, y: float) -> Optional[Cell]:
        cell = self.cell_px()
        ox, oy = self.origin()
        if x < ox or y < oy:
            return None
        r, c = int((y - oy) // cell), int((x - ox) // cell)
        return (r, c) if 0 <= r < self.size and 0 <= c < self.size else None

    def cell_centre(self, r: int, c: int) -> Tuple[int, int]:
        cell = self.cell_px()
        ox, oy = self.origin()
        return int(ox + (c + 0.5) * cell), int(oy + (r + 0.5) * cell)

    def draw(self, puzzle: Puzzle, candidates: Optional[Dict[Cell, List[int]]] = None) -> None:
        """The whole grid: labels, cells (selected, wrong, solved), values, marks, candidates."""
        self.size = puzzle.givens.size
        self.canvas.delete("all")
        self.draw_labels()
        for r in range(self.size):
            for c in range(self.size):
                self.draw_cell(puzzle, (r, c), candidates)
        self.draw_lines(puzzle)

    def draw_labels(self) -> None:
        cell, (ox, oy) = self.cell_px(), self.origin()
        font = ("Helvetica", label_points(self.labels_px, cell))
        for k in range(self.size):
            self.canvas.create_text(ox + (k + 0.5) * cell, oy / 2, text=str(k + 1), font=font, fill="#666",
                                    tags=("label",))
            self.canvas.create_text(self.left + self.labels_px / 2, oy + (k + 0.5) * cell, text=str(k + 1), font=font,
                                    fill="#666", tags=("label",))

    def draw_cell(self, puzzle: Puzzle, at: Cell, candidates: Optional[Dict[Cell, List[int]]]) -> None:
        g, cv = puzzle.givens, self.canvas
        cell, (ox, oy) = self.cell_px(), self.origin()
        r, c = at
        x, y = ox + c * cell, oy + r * cell
        fill = FILL["solved"] if puzzle.solved else FILL["plain"]
        if at in puzzle.wrong:
            fill = FILL["wrong"]
        if puzzle.selected == at and not puzzle.solved:
            fill = FILL["selected"]
        cv.create_rectangle(x, y, x + cell, y + cell, fill=fill, outline="#bbb", tags=("cell", f"c{r}_{c}"))
        big = ("Helvetica", max(9, int(cell * 0.5)))
        given, entry = g.get(r, c), puzzle.entries.get(at)
        if given:
            cv.create_text(x + cell / 2, y + cell / 2, text=value_char(given), fill=COLOURS["given"],
                           font=big + ("bold",), tags=("given",))
        elif entry:
            kind = "wrong" if at in puzzle.wrong else "hint" if at in puzzle.hinted else "entry"
            cv.create_text(x + cell / 2, y + cell / 2, text=value_char(entry), fill=COLOURS[kind], font=big,
                           tags=(kind,))
        else:
            marks = puzzle.marks.get(at, set())
            small = ("Helvetica", max(6, int(cell / max(g.m, g.n) * 0.6)))
            for v in sorted(set(marks) | set(candidates.get(at, []) if candidates else [])):
                # Mini layout of the block: m rows of n values.
                mr, mc = (v - 1) // g.n, (v - 1) % g.n
                tag = "mark" if v in marks else "candidate"
                cv.create_text(x + (mc + 0.5) * cell / g.n, y + (mr + 0.5) * cell / g.m, text=value_char(v),
                               font=small, fill=COLOURS[tag], tags=(tag,))

    def draw_lines(self, puzzle: Puzzle) -> None:
        g, cv, side = puzzle.givens, self.canvas, self.board_px
        cell, (ox, oy) = self.cell_px(), self.origin()
        for k in range(self.size + 1):
            cv.create_line(ox, oy + k * cell, ox + side, oy + k * cell, width=3 if k % g.m == 0 else 1)
            cv.create_line(ox + k * cell, oy, ox + k * cell, oy + side, width=3 if k % g.n == 0 else 1)
        if puzzle.solved:
            cv.create_rectangle(ox + 1, oy + 1, ox + side - 1, oy + side - 1, outline="#1e8449", width=5)
