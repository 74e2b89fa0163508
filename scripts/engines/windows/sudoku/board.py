"""The Competitive Sudoku window's board: its drawing (each player's cells in their colour, the
squares the player to move may use, the selection, the hint, row and column numbers), the colour
legend, the move and taboo lists, the value buttons, and the mouse and keys on them. A view:
`BoardView` draws the `Screen` it is given (model.py) and hands what the player does to the
functions of its `BoardInput`.
"""
from __future__ import annotations

import tkinter as tk
from tkinter import ttk
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ... import SudokuState
from ...record import Step
from ...sudoku import value_char
from ..layout import Flow, clipped, label_points, label_room
from .model import Screen
from .names import move_name

BOARD_PX = 450  # the board's side at the window's first size; it follows the window
LABELS_PX = 18  # the row and column numbers left of and above the board
HINT = "#1e8449"
COLOURS = {1: "#2f6fb5", 2: "#c0392b"}
FILL = {0: "white", 1: "#d7e6f7", 2: "#f7dcd8"}
ALLOWED = "#fff0a8"  # the squares the player to move may use
SELECTED = "#b9a6f0"  # the selected cell: unlike any other fill, with a dark outline
SELECTED_OUTLINE = "#4a2a8a"


@dataclass
class BoardInput:
    """Where the board hands what the player does, each one function."""

    choose_value: Callable[[int], None]  # a value for the selected cell (a button or a key)
    pass_turn: Callable[[], None]
    hint: Callable[[], None]  # the hint key
    goto: Callable[[int], None]  # a step of the move list chosen
    human_to_move: Callable[[], bool]  # a click selects a cell
    player_kind: Callable[[int], str]  # "human" or the agent playing player 1 or 2


class BoardView:
    """The board of `screen` on a canvas in `parent` (`canvas`, placed by the window), its
    scores in `score_var` and whose turn in `turn_var`; the lists and values beside it are built
    in the side panel by `build_values` and `build_lists`. What the player does goes to `input`."""

    def __init__(self, parent: tk.Misc, screen: Screen, score_var: tk.StringVar, turn_var: tk.StringVar,
                 input: BoardInput):
        self.screen, self.score_var, self.turn_var, self.input = screen, score_var, turn_var, input
        self.board_px = BOARD_PX
        self.labels_px = LABELS_PX  # room for the row and column numbers: it grows with the board
        self.left = 0  # the blank left of the row numbers when the canvas is wider than tall
        side_px = BOARD_PX + LABELS_PX + 4
        self.canvas = tk.Canvas(parent, width=side_px, height=side_px, bg=parent.cget("bg"), highlightthickness=0)
        self.canvas.bind("<ButtonPress-1>", self.on_click)
        self.canvas.bind("<Configure>", self.on_resize)

    def build_values(self, side: tk.Misc) -> None:
        """The value buttons (a click on a cell, then on a value, or a key, moves)."""
        self.values_frame = Flow(side, gap=0)
        self.values_frame.pack(fill="x")

    def build_lists(self, side: tk.Misc) -> None:
        """The legend, the move list with its steps, the taboo list."""
        self.legend = tk.Frame(side)
        self.legend.pack(fill="x")
        self.legend_allowed = self.swatch(self.legend, ALLOWED, "may play here")
        self.swatch(self.legend, SELECTED, "selected", outline=SELECTED_OUTLINE)
        self.swatch(self.legend, "white", "hint", outline=HINT)
        tk.Label(side, text="Moves").pack(anchor="w")
        self.move_list = tk.Listbox(side, width=22, height=4, exportselection=False)
        self.move_list.pack(fill="x")
        self.move_list.bind("<<ListboxSelect>>", self.on_move_selected)
        replay = self.replay_row = tk.Frame(side)
        replay.pack(fill="x", pady=2)
        game = self.screen.game
        self.replay_buttons: Dict[str, tk.Button] = {}
        for name, text, command in (("first", "|<", lambda: self.input.goto(0)),
                                    ("back", "<", lambda: self.input.goto(game.view - 1)),
                                    ("forward", ">", lambda: self.input.goto(game.view + 1)),
                                    ("last", ">|", lambda: self.input.goto(len(game.steps)))):
            self.replay_buttons[name] = tk.Button(replay, text=text, width=2, command=command)
            self.replay_buttons[name].pack(side="left")
        self.taboo_label = tk.Label(side, text="Taboo moves")
        self.taboo_label.pack(anchor="w")
        self.taboo_list = tk.Listbox(side, width=22, height=2)
        self.taboo_list.pack(fill="x")

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
        if not self.input.human_to_move():
            return
        cell = self.cell_at(event.x, event.y)
        if cell is None:
            return
        r, c = cell
        self.screen.selected = None if self.screen.state.values[r][c] else cell
        self.draw()

    def on_key(self, event) -> None:
        """Keyboard play: the arrow keys move the selection, a digit (a letter on boards above
        9x9: A=10, B=11, ...) plays that value on the selected cell, H asks for a hint (`?` on
        the boards where H is a value)."""
        s = self.screen
        if s.state is None or isinstance(event.widget, (tk.Entry, tk.Spinbox, ttk.Combobox)):
            return  # typing in a field of the window
        size = s.state.size
        moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
        if event.keysym in moves:
            r, c = s.selected or (0, 0)
            dr, dc = moves[event.keysym]
            s.selected = ((r + dr) % size, (c + dc) % size) if s.selected else (0, 0)
            self.draw()
            return
        ch = (event.char or "").upper()
        hint_key = "?" if size >= 17 else "H"
        if ch == hint_key or (ch == "?" and hint_key == "?"):
            self.input.hint()
            return
        if ch.isdigit() and ch != "0":
            value = int(ch)
        elif "A" <= ch <= "Z" and size > 9:
            value = ord(ch) - ord("A") + 10
        else:
            return
        if value <= size:
            self.input.choose_value(value)

    def on_move_selected(self, _event=None) -> None:
        chosen = self.move_list.curselection()
        if chosen and chosen[0] != self.screen.game.view:
            self.input.goto(chosen[0])

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
            if self.screen.state is not None:
                self.draw()

    def geometry(self) -> Tuple[int, float]:
        size = self.screen.state.size
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
        s = self.screen
        st = s.state
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
                if s.selected == (r, col):
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
        if s.selected is not None:
            r, col = s.selected
            x, y = ox + col * cell, o + r * cell
            c.create_rectangle(x + 1, y + 1, x + cell - 1, y + cell - 1, outline=SELECTED_OUTLINE, width=3, tags=("selected",))
        self.show_legend(allowed_set is not None)
        if s.hint is not None:
            x, y = ox + s.hint.col * cell, o + s.hint.row * cell
            c.create_rectangle(x + 2, y + 2, x + cell - 2, y + cell - 2, outline=HINT, width=3, tags=("hint",))
            c.create_text(x + cell / 2, y + cell / 2, text=value_char(s.hint.value), fill=HINT,
                          font=("Helvetica", max(9, int(cell * 0.45)), "italic"), tags=("hint",))
        self.score_var.set(f"Player 1: {st.scores[0]}   Player 2: {st.scores[1]}")
        if st.result is not None or s.game_over:
            res = st.result
            self.turn_var.set("game over: " + ("draw" if res == "draw" else f"player {res} wins" if res else ""))
        else:
            self.turn_var.set(f"to move: player {st.turn} ({self.input.player_kind(st.turn)})")
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
        game = self.screen.game
        for k, step in enumerate(game.steps, 1):
            self.move_list.insert("end", self.move_entry(k, step))
        self.move_list.selection_clear(0, "end")
        self.move_list.selection_set(game.view)
        self.move_list.see(game.view)
        who = {step.move: step.player for step in game.steps[:game.view] if step.taboo}
        self.taboo_list.delete(0, "end")
        for move in st.taboo:
            self.taboo_list.insert("end", f"{move_name(move)} " + (f"P{who[move]}" if move in who else "start"))
        at_start, at_end = game.view == 0, game.view == len(game.steps)
        for name, off in (("first", at_start), ("back", at_start), ("forward", at_end), ("last", at_end)):
            self.replay_buttons[name].config(state="disabled" if off else "normal")

    def draw_value_buttons(self, size: int) -> None:
        if len(self.values_frame.items) == size + 1:
            return
        self.values_frame.clear()
        buttons = [tk.Button(self.values_frame, text=value_char(v), width=1, padx=5, command=lambda v=v: self.input.choose_value(v))
                   for v in range(1, size + 1)]
        buttons.append(tk.Button(self.values_frame, text="Pass", command=self.input.pass_turn))
        self.values_frame.add(*buttons)
