"""The Blockudoku window's board canvas, a view: where the board and the tray are at the
canvas's size (`Layout`), and `BoardCanvas`, which draws the `Screen` it is given (model.py: the
board, its labels, the hint or analysis line, the tray, the dragged piece, the flash of cleared
cells) and hands what the mouse does to the functions of its `CanvasInput`: a drop to the game
flow (game.py), an edit of cells and tray slots to the analysis board (analysis.py).
"""
from __future__ import annotations

import tkinter as tk
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ...pieces import Piece, cells_of
from ..layout import clipped
from .model import Screen

CANVAS_W, CANVAS_H = 470, 560  # the canvas at the original's size; it scales with the window
PANEL_W = 290  # the side panel (buttons, settings, the analysis board's controls)


@dataclass
class Layout:
    """Where things are on the canvas at its current size (all in pixels)."""

    cell: int  # board cell
    margin: int  # room for the row and column labels
    board_x: int
    board_y: int
    hand_cell: int  # hand pieces at half size, as in the original
    hand_y: int
    hand_h: int
    width: int

    @property
    def board_px(self) -> int:
        return 9 * self.cell

    @property
    def label_pt(self) -> int:
        """The size of the row and column labels (points): they grow with the board."""
        return label_pt(self.cell)

    @staticmethod
    def fit(width: int, height: int) -> "Layout":
        margin = 18
        cell = max(12, min((width - 2 * margin) // 9, int((height - margin - 24) / 11.5)))
        # The labels grow with the cells: room for them (a point is up to 1.4 pixels), so they
        # are never cut at the canvas's edge.
        margin = max(margin, int(label_pt(cell) * 1.4) + 6)
        cell = max(12, min((width - 2 * margin) // 9, int((height - margin - 24) / 11.5)))
        hand_cell = cell // 2
        board_x = max(margin, (width - 9 * cell) // 2)
        board_y = margin + 2
        hand_y = board_y + 9 * cell + 12
        return Layout(cell, margin, board_x, board_y, hand_cell, hand_y, 5 * hand_cell + 8, width)


def label_pt(cell: int) -> int:
    return max(7, cell // 5)


COLOURS = {
    "empty": "#f4f1ea",
    "empty_alt": "#e6e1d6",  # every other 3x3 box, so the boxes show
    "filled": "#3b6ea8",
    "grid": "#b9b2a3",
    "box": "#5a5245",
    "piece": "#3b6ea8",
    "grey": "#b8b8b8",
    "preview": "#7fa8d6",
    "preview_bad": "#d98c8c",
    "hint": ("#e07b00", "#2a9d3a", "#a63fb5"),  # by hand slot 1-3, on the board and the tray
    "label": "#6b6355",
    "selected": "#e07b00",
}


@dataclass
class CanvasInput:
    """Where the canvas hands what the mouse does, each one function."""

    drop: Callable[[int, int, int], None]  # a hand piece dropped: slot, row, col (0-based)
    may_drag: Callable[[], bool]  # pieces may be dragged (not while the engine plays)
    edit_press: Callable[[Optional[Tuple[int, int]], Optional[int]], None]  # analysis: board cell or tray slot
    edit_drag: Callable[[Tuple[int, int]], None]  # analysis: the pointer dragged over a board cell
    edit_release: Callable[[], None]
    edit_empty: Callable[[int], None]  # analysis: right click on a tray slot
    status: Callable[[str], None]


class BoardCanvas:
    """The board and the tray of `screen` on a canvas in `parent` (pieces from `catalogue`),
    its score in `score_var`; the mouse goes to `input`."""

    def __init__(self, parent: tk.Misc, screen: Screen, catalogue: Dict[int, Piece], score_var: tk.StringVar,
                 input: CanvasInput):
        self.screen, self.catalogue, self.score_var, self.input = screen, catalogue, score_var, input
        self.layout = Layout.fit(CANVAS_W, CANVAS_H)
        self.drag: Optional[dict] = None
        self.flashing: List[int] = []  # cleared cells shown for a moment
        self.flashed: List[int] = []  # the last cells flashed (tests read this)
        c = self.canvas = tk.Canvas(parent, width=CANVAS_W, height=CANVAS_H, bg="white", highlightthickness=0)
        c.bind("<ButtonPress-1>", self.on_press)
        c.bind("<B1-Motion>", self.on_motion)
        c.bind("<ButtonRelease-1>", self.on_release)
        c.bind("<ButtonPress-3>", self.on_right_press)
        c.bind("<Configure>", self.on_resize)

    # --- drawing -----------------------------------------------------------------------------

    def on_resize(self, event) -> None:
        layout = Layout.fit(event.width, event.height)
        if layout != self.layout:
            self.layout = layout
            self.redraw()

    def clipped_labels(self) -> List[str]:
        """The row and column labels not wholly on the canvas (tests read it)."""
        return clipped(self.canvas, "label")

    def cell_box(self, r: int, col: int) -> Tuple[int, int, int, int]:
        L = self.layout
        x, y = L.board_x + col * L.cell, L.board_y + r * L.cell
        return x, y, x + L.cell, y + L.cell

    def hand_origin(self, slot: int, piece: Piece) -> Tuple[int, int]:
        """Top-left pixel of a hand piece, centred in its third of the hand area."""
        L = self.layout
        cx = slot * L.width // 3 + L.width // 6
        cy = L.hand_y + L.hand_h // 2
        return cx - piece.width * L.hand_cell // 2, cy - piece.height * L.hand_cell // 2

    def redraw(self) -> None:
        c = self.canvas
        L = self.layout
        c.delete("all")
        label_font = ("Helvetica", L.label_pt)
        s = self.screen
        board = s.shown_board if s.shown_board is not None else s.game.board
        for r in range(9):
            for col in range(9):
                x0, y0, x1, y1 = self.cell_box(r, col)
                filled = board[r * 9 + col] == "#"
                alt = (r // 3 + col // 3) % 2 == 1
                fill = COLOURS["filled"] if filled else COLOURS["empty_alt" if alt else "empty"]
                c.create_rectangle(x0, y0, x1, y1, fill=fill, outline=COLOURS["grid"], tags=("cell", f"cell{r}_{col}"))
        for k in range(9):
            x0, y0, x1, y1 = self.cell_box(k, k)
            c.create_text(L.board_x - 4, (y0 + y1) // 2, text=f"r{k + 1}", anchor="e", fill=COLOURS["label"],
                          font=label_font, tags="label")
            c.create_text((x0 + x1) // 2, L.board_y - 3, text=f"c{k + 1}", anchor="s", fill=COLOURS["label"],
                          font=label_font, tags="label")
        for k in range(4):
            x = L.board_x + k * 3 * L.cell
            y = L.board_y + k * 3 * L.cell
            c.create_line(x, L.board_y, x, L.board_y + L.board_px, width=3, fill=COLOURS["box"])
            c.create_line(L.board_x, y, L.board_x + L.board_px, y, width=3, fill=COLOURS["box"])
        self.draw_hint()
        self.draw_tray()
        self.score_var.set(f"Score: {s.game.score}")
        self.draw_flash()
        if self.drag:
            self.draw_drag()

    def draw_hint(self) -> None:
        """The hint (or the chosen analysis line): each cell labelled with its tray slot number."""
        c, L, s = self.canvas, self.layout, self.screen
        for slot, placement in s.hint:
            pid = s.game.hand[slot]
            if pid is None:
                continue
            colour = COLOURS["hint"][slot % 3]
            for r, col in cells_of(self.catalogue[pid], placement.row - 1, placement.col - 1):
                x0, y0, x1, y1 = self.cell_box(r, col)
                c.create_rectangle(x0 + 3, y0 + 3, x1 - 3, y1 - 3, outline=colour, width=3, tags="hint")
                c.create_text((x0 + x1) // 2, (y0 + y1) // 2, text=str(slot + 1), fill=colour,
                              font=("Helvetica", max(8, L.cell * 3 // 10), "bold"), tags=("hint", f"hintlabel{slot + 1}"))

    def draw_tray(self) -> None:
        """The tray: its slot numbers and the pieces of the hand (greyed when they fit nowhere)."""
        c, L, s = self.canvas, self.layout, self.screen
        c.create_line(0, L.hand_y - 8, L.width, L.hand_y - 8, fill=COLOURS["grid"])
        for slot in range(3):
            # Tray slot numbers, in the colour the hint uses for the slot's piece.
            x = slot * L.width // 3 + 8
            c.create_text(x, L.hand_y - 4, text=str(slot + 1), anchor="nw", fill=COLOURS["hint"][slot],
                          font=("Helvetica", max(9, L.cell // 4), "bold"), tags=("slotnumber", f"slotnumber{slot + 1}"))
            if s.analysing and slot == s.selected_slot:
                c.create_rectangle(slot * L.width // 3 + 3, L.hand_y - 5, (slot + 1) * L.width // 3 - 3,
                                   L.hand_y + L.hand_h - 2, outline=COLOURS["selected"], width=2, dash=(4, 2),
                                   tags="selectedslot")
        for slot, pid in s.remaining():
            if (self.drag and self.drag["slot"] == slot) or slot in s.shown_played:
                continue
            piece = self.catalogue[pid]
            x0, y0 = self.hand_origin(slot, piece)
            colour = COLOURS["piece"] if s.fits[slot] else COLOURS["grey"]
            for r, col in piece.cells:
                x, y = x0 + col * L.hand_cell, y0 + r * L.hand_cell
                c.create_rectangle(x, y, x + L.hand_cell, y + L.hand_cell, fill=colour, outline="white",
                                   tags=("hand", f"hand{slot}", "grey" if not s.fits[slot] else "live"))

    def flash(self, cells: List[int]) -> None:
        """Shows the cleared cells for a moment (redraws meanwhile keep them)."""
        self.flashing = self.flashed = list(cells)
        self.draw_flash()

        def done() -> None:
            if self.flashing is cells or self.flashing == cells:
                self.flashing = []
                self.canvas.delete("flash")

        self.canvas.after(180, done)

    def draw_flash(self) -> None:
        for k in self.flashing:
            x0, y0, x1, y1 = self.cell_box(*divmod(k, 9))
            self.canvas.create_rectangle(x0 + 2, y0 + 2, x1 - 2, y1 - 2, fill="#ffd54a", outline="", tags="flash")

    def drop_cell(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        """Board cell (row, col) for the dragged piece's top-left, or None when off the board."""
        d = self.drag
        assert d is not None
        L = self.layout
        piece = self.catalogue[self.screen.game.hand[d["slot"]]]
        left, top = x - d["dx"], y - d["dy"]
        col = round((left - L.board_x) / L.cell)
        row = round((top - L.board_y) / L.cell)
        if row < 0 or col < 0 or row + piece.height > 9 or col + piece.width > 9:
            return None
        return row, col

    def draw_drag(self) -> None:
        d = self.drag
        c = self.canvas
        L = self.layout
        c.delete("drag")
        piece = self.catalogue[self.screen.game.hand[d["slot"]]]
        target = self.drop_cell(d["x"], d["y"])
        if target is not None:
            # Shaded preview of where it would land. Whether it may land there is the engine's
            # answer to `play`; a preview over filled cells is just drawn in a warning colour.
            cells = cells_of(piece, *target)
            clash = any(self.screen.game.board[r * 9 + col] == "#" for r, col in cells)
            for r, col in cells:
                x0, y0, x1, y1 = self.cell_box(r, col)
                c.create_rectangle(x0, y0, x1, y1, fill=COLOURS["preview_bad" if clash else "preview"],
                                   stipple="gray50", outline="", tags=("drag", "preview"))
        left, top = d["x"] - d["dx"], d["y"] - d["dy"]
        for r, col in piece.cells:
            x, y = left + col * L.cell, top + r * L.cell
            c.create_rectangle(x, y, x + L.cell, y + L.cell, fill=COLOURS["piece"], outline="white", tags=("drag", "dragged"))

    # --- mouse -------------------------------------------------------------------------------

    def slot_at(self, x: float, y: float) -> Optional[int]:
        L = self.layout
        for slot, pid in self.screen.remaining():
            piece = self.catalogue[pid]
            x0, y0 = self.hand_origin(slot, piece)
            if x0 - 8 <= x <= x0 + piece.width * L.hand_cell + 8 and y0 - 8 <= y <= y0 + piece.height * L.hand_cell + 8:
                return slot
        return None

    def tray_slot_at(self, x: float, y: float) -> Optional[int]:
        """The tray third under (x, y), empty or not."""
        L = self.layout
        if L.hand_y - 8 <= y <= L.hand_y + L.hand_h and 0 <= x < L.width:
            return min(2, int(x * 3 // L.width))
        return None

    def board_cell_at(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        L = self.layout
        col, row = int((x - L.board_x) // L.cell), int((y - L.board_y) // L.cell)
        return (row, col) if 0 <= row < 9 and 0 <= col < 9 else None

    def on_press(self, event) -> None:
        s = self.screen
        if s.analysing:
            self.input.edit_press(self.board_cell_at(event.x, event.y), self.tray_slot_at(event.x, event.y))
            return
        if not self.input.may_drag() or s.replay_states is not None or s.placing:
            return
        slot = self.slot_at(event.x, event.y)
        if slot is None:
            return
        if not s.fits[slot]:
            self.input.status("that piece fits nowhere")
            return
        piece = self.catalogue[s.game.hand[slot]]
        x0, y0 = self.hand_origin(slot, piece)
        scale = self.layout.cell / self.layout.hand_cell
        # Keep the grab point under the cursor as the piece grows to board size.
        self.drag = {"slot": slot, "dx": (event.x - x0) * scale, "dy": (event.y - y0) * scale, "x": event.x, "y": event.y}
        s.hint = []
        self.redraw()

    def on_motion(self, event) -> None:
        if self.screen.analysing:
            cell = self.board_cell_at(event.x, event.y)
            if cell is not None:
                self.input.edit_drag(cell)
            return
        if self.drag:
            self.drag["x"], self.drag["y"] = event.x, event.y
            self.draw_drag()

    def on_release(self, event) -> None:
        self.input.edit_release()
        if not self.drag:
            return
        self.drag["x"], self.drag["y"] = event.x, event.y
        target = self.drop_cell(event.x, event.y)
        slot = self.drag["slot"]
        self.drag = None
        self.redraw()
        if target is not None:
            self.input.drop(slot, *target)

    def on_right_press(self, event) -> None:
        """In the analysis board: empties the tray slot clicked."""
        slot = self.tray_slot_at(event.x, event.y)
        if self.screen.analysing and slot is not None:
            self.input.edit_empty(slot)

    def pixel_of_hand_piece(self, slot: int) -> Tuple[int, int]:
        """Centre of the first cell of a hand piece (for scripted drags)."""
        piece = self.catalogue[self.screen.game.hand[slot]]
        x0, y0 = self.hand_origin(slot, piece)
        r, col = piece.cells[0]
        h = self.layout.hand_cell
        return x0 + col * h + h // 2, y0 + r * h + h // 2

    def pixel_for_drop(self, slot: int, row: int, col: int) -> Tuple[int, int]:
        """Where to release a piece grabbed by `pixel_of_hand_piece` to put its top-left on (row, col)."""
        piece = self.catalogue[self.screen.game.hand[slot]]
        r, c = piece.cells[0]
        x0, y0, x1, y1 = self.cell_box(row + r, col + c)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def cell_centre(self, row: int, col: int) -> Tuple[int, int]:
        x0, y0, x1, y1 = self.cell_box(row, col)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def tray_centre(self, slot: int) -> Tuple[int, int]:
        L = self.layout
        return slot * L.width // 3 + L.width // 6, L.hand_y + L.hand_h // 2
