"""The Competitive Sudoku window's board: its drawing (each player's cells in their colour, the
squares the player to move may use, the selection, the hint, row and column numbers), the colour
legend, the move and taboo lists, the value buttons, and play by mouse and keys. `BoardView` is
mixed into `SudokuApp` (window.py).
"""
from __future__ import annotations

import tkinter as tk
from tkinter import ttk
from typing import List, Optional, Tuple

from ... import SudokuMove, SudokuState
from ...record import Step
from ...sudoku import value_char
from ..layout import clipped, label_points, label_room
from .names import move_name

BOARD_PX = 450  # the board's side at the window's first size; it follows the window
LABELS_PX = 18  # the row and column numbers left of and above the board
HINT = "#1e8449"
COLOURS = {1: "#2f6fb5", 2: "#c0392b"}
FILL = {0: "white", 1: "#d7e6f7", 2: "#f7dcd8"}
ALLOWED = "#fff0a8"  # the squares the player to move may use
SELECTED = "#b9a6f0"  # the selected cell: unlike any other fill, with a dark outline
SELECTED_OUTLINE = "#4a2a8a"


class BoardView:
    """The board on the canvas, the lists and values beside it, the mouse and the keys. Reads of
    the window's state, set by the parts that own it: `canvas`, `game`, `legend`,
    `legend_allowed`, `move_list`, `replay_buttons`, `score_var`, `state`, `taboo_list`,
    `turn_var`, `values_frame`."""

    # --- the colour legend ---------------------------------------------------------------------

    def swatch(self, parent: tk.Misc, fill: str, text: str, outline: str = "#bbb") -> tk.Frame:
        """One entry of the colour legend: a small square and what it means."""
        item = tk.Frame(parent)
        item.pack(side="left", padx=(0, 6))
        box = tk.Canvas(item, width=14, height=14, highlightthickness=0, bg=parent.cget("bg"))
        box.create_rectangle(2, 2, 13, 13, fill=fill, outline=outline, width=2)
        box.pack(side="left")
        tk.Label(item, text=text, font=("Helvetica", 8)).pack(side="left")
        return item

    def show_legend(self, allowed: bool) -> None:
        """The allowed squares' entry shows in the allowed-squares modes only."""
        if allowed and not self.legend_allowed.winfo_manager():
            self.legend_allowed.pack(side="left", padx=(0, 6), before=self.legend.winfo_children()[1])
        elif not allowed and self.legend_allowed.winfo_manager():
            self.legend_allowed.pack_forget()

    # --- mouse and keys ------------------------------------------------------------------------

    def on_click(self, event) -> None:
        if not self.human_to_move():
            return
        cell = self.cell_at(event.x, event.y)
        if cell is None:
            return
        r, c = cell
        if self.state.values[r][c]:
            self.selected = None
        else:
            self.selected = cell
        self.draw()

    def on_key(self, event) -> None:
        """Keyboard play: the arrow keys move the selection, a digit (a letter on boards above
        9x9: A=10, B=11, ...) plays that value on the selected cell, H asks for a hint (`?` on
        the boards where H is a value)."""
        if self.state is None or isinstance(event.widget, (tk.Entry, tk.Spinbox, ttk.Combobox)):
            return  # typing in a field of the window
        size = self.state.size
        moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
        if event.keysym in moves:
            r, c = self.selected or (0, 0)
            dr, dc = moves[event.keysym]
            self.selected = ((r + dr) % size, (c + dc) % size) if self.selected else (0, 0)
            self.draw()
            return
        ch = (event.char or "").upper()
        hint_key = "?" if size >= 17 else "H"
        if ch == hint_key or (ch == "?" and hint_key == "?"):
            self.show_hint()
            return
        if ch.isdigit() and ch != "0":
            value = int(ch)
        elif "A" <= ch <= "Z" and size > 9:
            value = ord(ch) - ord("A") + 10
        else:
            return
        if value <= size:
            self.choose_value(value)

    def choose_value(self, value: int) -> None:
        if self.selected is None or not self.human_to_move():
            return
        r, c = self.selected
        self.play(SudokuMove(r, c, value))

    def pass_turn(self) -> None:
        if self.human_to_move():
            self.play(None)

    # --- drawing -------------------------------------------------------------------------------

    def clipped_labels(self) -> List[str]:
        """The row and column numbers not wholly on the canvas (tests read it)."""
        return clipped(self.canvas, "label")

    def on_resize(self, event) -> None:
        self.labels_px = label_room(min(event.width, event.height))
        side = max(120, min(event.width, event.height) - self.labels_px - 4)
        left = max(0, (event.width - side - self.labels_px - 4) // 2)
        if (side, left) != (self.board_px, self.left):
            self.board_px, self.left = side, left
            if self.state is not None:
                self.draw()

    def geometry(self) -> Tuple[int, float]:
        size = self.state.size
        return size, self.board_px / size

    def cell_at(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        size, cell = self.geometry()
        origin = self.labels_px + 2
        x -= self.left
        if x < origin or y < origin:
            return None
        r, c = int((y - origin) // cell), int((x - origin) // cell)
        return (r, c) if 0 <= r < size and 0 <= c < size else None

    def cell_centre(self, r: int, c: int) -> Tuple[int, int]:
        _, cell = self.geometry()
        origin = self.labels_px + 2
        return int(self.left + origin + (c + 0.5) * cell), int(origin + (r + 0.5) * cell)

    def draw(self) -> None:
        """Draws the position last read from the engine, the lists and the value buttons."""
        st = self.state
        if st is None:
            return
        size, cell = self.geometry()
        c = self.canvas
        c.delete("all")
        o = self.labels_px + 2  # the board's top edge; its left edge is ox
        ox = self.left + o
        side = self.board_px
        label_font = ("Helvetica", label_points(self.labels_px, cell))
        for k in range(size):
            c.create_text(ox + (k + 0.5) * cell, o / 2, text=str(k + 1), font=label_font, fill="#666", tags=("label",))
            c.create_text(self.left + o / 2, o + (k + 0.5) * cell, text=str(k + 1), font=label_font, fill="#666", tags=("label",))
        allowed = st.allowed.get(st.turn)
        allowed_set = set(allowed) if allowed is not None and st.mode != "classic" else None
        for r in range(size):
            for col in range(size):
                x, y = ox + col * cell, o + r * cell
                owner = st.owners[r][col]
                fill = FILL[owner]
                if not st.values[r][col] and allowed_set is not None and (r, col) in allowed_set:
                    fill = ALLOWED
                if self.selected == (r, col):
                    fill = SELECTED
                c.create_rectangle(x, y, x + cell, y + cell, fill=fill, outline="#bbb", tags=("cell", f"c{r}_{col}"))
                v = st.values[r][col]
                if v:
                    c.create_text(x + cell / 2, y + cell / 2, text=value_char(v), font=("Helvetica", max(9, int(cell * 0.45)), "bold"),
                                  fill=COLOURS.get(owner, "black"))
        for k in range(size + 1):
            row_w = 3 if k % st.m == 0 else 1
            col_w = 3 if k % st.n == 0 else 1
            c.create_line(ox, o + k * cell, ox + side, o + k * cell, width=row_w)
            c.create_line(ox + k * cell, o, ox + k * cell, o + side, width=col_w)
        if self.selected is not None:
            r, col = self.selected
            x, y = ox + col * cell, o + r * cell
            c.create_rectangle(x + 1, y + 1, x + cell - 1, y + cell - 1, outline=SELECTED_OUTLINE, width=3, tags=("selected",))
        self.show_legend(allowed_set is not None)
        if self.hint is not None:
            x, y = ox + self.hint.col * cell, o + self.hint.row * cell
            c.create_rectangle(x + 2, y + 2, x + cell - 2, y + cell - 2, outline=HINT, width=3, tags=("hint",))
            c.create_text(x + cell / 2, y + cell / 2, text=value_char(self.hint.value), fill=HINT,
                          font=("Helvetica", max(9, int(cell * 0.45)), "italic"), tags=("hint",))
        self.score_var.set(f"Player 1: {st.scores[0]}   Player 2: {st.scores[1]}")
        if st.result is not None or self.game_over:
            res = st.result
            self.turn_var.set("game over: " + ("draw" if res == "draw" else f"player {res} wins" if res else ""))
        else:
            self.turn_var.set(f"to move: player {st.turn} ({self.player_kind(st.turn)})")
        self.draw_moves(st)
        self.draw_value_buttons(size)

    def move_entry(self, k: int, step: Step) -> str:
        if step.move is None:
            return f"{k}. P{step.player} pass"
        return f"{k}. P{step.player} {move_name(step.move)}" + (" taboo" if step.taboo else "")

    def draw_moves(self, st: SudokuState) -> None:
        """The move list (who played what, taboo moves marked; the position shown selected) and
        the taboo list (who found each taboo move; `start` for those the game began with)."""
        self.move_list.delete(0, "end")
        self.move_list.insert("end", "0. start")
        for k, step in enumerate(self.game.steps, 1):
            self.move_list.insert("end", self.move_entry(k, step))
        self.move_list.selection_clear(0, "end")
        self.move_list.selection_set(self.game.view)
        self.move_list.see(self.game.view)
        who = {step.move: step.player for step in self.game.steps[:self.game.view] if step.taboo}
        self.taboo_list.delete(0, "end")
        for move in st.taboo:
            self.taboo_list.insert("end", f"{move_name(move)} " + (f"P{who[move]}" if move in who else "start"))
        at_start, at_end = self.game.view == 0, self.game.view == len(self.game.steps)
        for name, off in (("first", at_start), ("back", at_start), ("forward", at_end), ("last", at_end)):
            self.replay_buttons[name].config(state="disabled" if off else "normal")

    def draw_value_buttons(self, size: int) -> None:
        if len(self.values_frame.items) == size + 1:
            return
        self.values_frame.clear()
        buttons = [tk.Button(self.values_frame, text=value_char(v), width=1, padx=5, command=lambda v=v: self.choose_value(v))
                   for v in range(1, size + 1)]
        buttons.append(tk.Button(self.values_frame, text="Pass", command=self.pass_turn))
        self.values_frame.add(*buttons)
