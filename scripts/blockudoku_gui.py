#!/usr/bin/env python3
"""Blockudoku in a Tkinter window, played by you or by the engine.

A mirror of the original game's window (about 470x700: "Score: N", the 9x9 board with its
3x3 boxes, the hand of three pieces below; drag a piece onto the board, with a shaded preview
of where it drops; pieces that fit nowhere are greyed out; when the hand cannot be placed a
message shows the final score and a new game starts; "Start Engine" lets the engine play on
its own, placement by placement), plus a hint button, a choice of scoring rule, a seed field
for reproducible deals and undo. The Agent choice (and Objective, from engines that offer it)
is sent with `setoption` as soon as it is made, so the next Hint and the engine's own play use
it; it is kept across New game and given again to a restarted engine. "Engine ms" 0 means a
bare `go` (the `strong` agent then weighs its boards over 64 sampled next hands, the same
answer every time); a time makes both `default` and `strong` spend it on the next-hand
lookahead (protocol/blockudoku.md, `go`).

Every rule (legality, clearing, scoring, whether a piece fits) is the engine's: the window
sends `position`/`play`/`go` and draws what comes back. Only the dealing of hands (uniform
with replacement over the catalogue, from the seed) happens here, as in the original GUI.

    python3 scripts/blockudoku_gui.py [--engine PATH] [--seed N] [--movetime MS] [--agent NAME]
"""
from __future__ import annotations

import argparse
import random
import sys
import tkinter as tk
import tkinter.font as tkfont
from dataclasses import dataclass, field
from tkinter import ttk
from typing import Dict, List, Optional, Tuple

from engines import (
    BlockudokuEngine,
    EngineDied,
    EngineError,
    EngineProblem,
    Piece,
    Placement,
    cells_of,
    load_catalogue,
)
from engines.cli import HelpFormatter
from engines.frontend import EngineSupervision

STATUS_WRAP = (450, 330)  # status line width in pixels: alone, and beside Restart engine
CELL = 46  # board cell size in pixels
HAND_CELL = 24  # hand pieces are drawn at half size, as in the original
BOARD_X, BOARD_Y = (470 - 9 * 46) // 2, 6
BOARD_PX = 9 * CELL
HAND_Y = BOARD_Y + BOARD_PX + 12
HAND_H = 5 * HAND_CELL + 8
CANVAS_W, CANVAS_H = 470, HAND_Y + HAND_H

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
    "hint": ("#e07b00", "#2a9d3a", "#a63fb5"),
}


@dataclass
class Snapshot:
    """Everything undo needs to restore, including where the dealer's random stream was."""

    board: str
    hand: List[Optional[int]]
    score: int
    streak: int
    rng_state: object


@dataclass
class Game:
    board: str = "." * 81
    hand: List[Optional[int]] = field(default_factory=lambda: [None, None, None])
    score: int = 0
    streak: int = 0
    placed: int = 0


class BlockudokuApp(EngineSupervision):
    def __init__(
        self,
        root: tk.Tk,
        engine: BlockudokuEngine,
        catalogue: Dict[int, Piece],
        seed: Optional[int] = None,
        movetime: int = 0,
        delay: int = 350,
    ):
        self.root = root
        self.engine = engine  # watched, reported and restarted by EngineSupervision
        self.catalogue = catalogue
        self.piece_ids = sorted(catalogue)
        self.game = Game()
        self.history: List[Snapshot] = []
        self.fits: List[bool] = [True, True, True]
        self.drag: Optional[dict] = None
        self.hint: List[Tuple[int, Placement]] = []
        self.autoplay = False
        self.autoplay_job: Optional[str] = None
        self.pending: List[Tuple[int, Placement]] = []
        self.games_finished: List[int] = []  # final scores, newest last (tests read this)
        self.game_over_window: Optional[tk.Toplevel] = None

        root.title("Blockudoku")
        root.geometry("470x700")
        root.resizable(False, False)

        self.score_var = tk.StringVar(value="Score: 0")
        tk.Label(root, textvariable=self.score_var, font=("Helvetica", 20, "bold")).pack(pady=(6, 0))

        self.canvas = tk.Canvas(root, width=CANVAS_W, height=CANVAS_H, bg="white", highlightthickness=0)
        self.canvas.pack()
        self.canvas.bind("<ButtonPress-1>", self.on_press)
        self.canvas.bind("<B1-Motion>", self.on_motion)
        self.canvas.bind("<ButtonRelease-1>", self.on_release)

        buttons = tk.Frame(root)
        buttons.pack(fill="x", padx=8, pady=(4, 0))
        self.engine_button = tk.Button(buttons, text="Start Engine", width=11, command=self.toggle_engine)
        self.engine_button.pack(side="left")
        self.hint_button = tk.Button(buttons, text="Hint", command=self.show_hint)
        self.hint_button.pack(side="left", padx=4)
        self.undo_button = tk.Button(buttons, text="Undo", command=self.undo)
        self.undo_button.pack(side="left")
        tk.Button(buttons, text="New game", command=self.new_game).pack(side="left", padx=4)

        settings = tk.Frame(root)
        settings.pack(fill="x", padx=8, pady=(4, 0))
        tk.Label(settings, text="Scoring").pack(side="left")
        scoring = engine.options.get("Scoring")
        choices = scoring.choices if scoring and scoring.choices else ([scoring.default] if scoring and scoring.default else [])
        self.scoring_var = tk.StringVar(value=(scoring.default if scoring and scoring.default else ""))
        self.scoring_box = ttk.Combobox(settings, textvariable=self.scoring_var, values=choices, width=10,
                                        state="readonly" if choices else "normal")
        self.scoring_box.pack(side="left", padx=(2, 8))
        self.scoring_box.bind("<<ComboboxSelected>>", lambda _e: self.set_scoring(self.scoring_var.get()))
        self.scoring_box.bind("<Return>", lambda _e: self.set_scoring(self.scoring_var.get()))
        tk.Label(settings, text="Seed").pack(side="left")
        self.seed_var = tk.StringVar(value=str(seed if seed is not None else random.randrange(1, 10**6)))
        seed_entry = tk.Entry(settings, textvariable=self.seed_var, width=8)
        seed_entry.pack(side="left", padx=(2, 8))
        seed_entry.bind("<Return>", lambda _e: self.new_game())
        tk.Label(settings, text="Engine ms").pack(side="left")
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(settings, from_=0, to=10000, increment=50, textvariable=self.movetime_var, width=6).pack(side="left", padx=2)
        self.delay = delay

        # Who answers Hint and plays "Start Engine", and what it plays for: one combobox per
        # combo option the engine offers (`Objective` only from engines that have it).
        agents = tk.Frame(root)
        agents.pack(fill="x", padx=8, pady=(4, 0))
        self.choice_vars: Dict[str, tk.StringVar] = {}
        self.choice_boxes: Dict[str, ttk.Combobox] = {}
        for name, width in (("Agent", 8), ("Objective", 8)):
            self.option_box(agents, name, width)
        self.agent_var = self.choice_vars.get("Agent", tk.StringVar(value=""))

        self.status_var = tk.StringVar(value="")
        self.engine_status_row(root, self.status_var, STATUS_WRAP)

        # About the original's 470x700, taller by the rows the engine's options need, with
        # room for a status of two lines.
        root.update_idletasks()
        line = tkfont.nametofont(self.status_label.cget("font")).metrics("linespace")
        root.geometry(f"470x{max(700, root.winfo_reqheight() + line)}")

        self.new_game()

    def option_box(self, parent: tk.Misc, name: str, width: int) -> None:
        """A labelled read-only combobox for the engine's combo option `name`, if it has one."""
        option = self.engine.options.get(name)
        if option is None or not option.choices:
            return
        value = str(self.engine.settings.get(name, option.default))  # e.g. from --agent
        var = tk.StringVar(value=value if value in option.choices else option.choices[0])
        tk.Label(parent, text=name).pack(side="left")
        box = ttk.Combobox(parent, textvariable=var, values=option.choices, width=width, state="readonly")
        box.pack(side="left", padx=(2, 8))
        box.bind("<<ComboboxSelected>>", lambda _e: self.set_option(name, var.get()))
        self.choice_vars[name] = var
        self.choice_boxes[name] = box

    # --- engine helpers ----------------------------------------------------------------------

    def remaining(self) -> List[Tuple[int, int]]:
        """(hand slot 0-2, piece id) of the pieces still in the hand."""
        return [(slot, pid) for slot, pid in enumerate(self.game.hand) if pid is not None]

    def send_position(self, only_slot: Optional[int] = None) -> List[int]:
        """Tells the engine the current position; returns the hand slots in protocol order."""
        slots = [s for s, _ in self.remaining() if only_slot is None or s == only_slot]
        self.engine.position(self.game.board, [self.game.hand[s] for s in slots], self.game.score, self.game.streak)
        return slots

    def compute_fits(self) -> None:
        """Asks the engine, piece by piece, whether it can be placed anywhere."""
        self.fits = [False, False, False]
        for slot, _ in self.remaining():
            self.send_position(only_slot=slot)
            self.fits[slot] = not self.engine.go(timeout=10).lost

    def movetime(self) -> Optional[int]:
        try:
            ms = int(self.movetime_var.get())
        except ValueError:
            return None
        return ms if ms > 0 else None

    def set_scoring(self, value: str) -> None:
        self.scoring_var.set(value)
        self.set_option("Scoring", value)

    def set_option(self, name: str, value: str) -> None:
        """Sends the choice at once, so the next search (hint or engine play) uses it."""
        if name in self.choice_vars:
            self.choice_vars[name].set(value)
        try:
            self.engine.setoption(name, value)
            self.status(f"{name}: {value}")
        except EngineError as err:
            # Refused: the window goes back to what the engine has.
            if name in self.choice_vars:
                self.choice_vars[name].set(str(self.engine.settings.get(name, self.engine.options[name].default)))
            self.engine_failed(err)
        except EngineProblem as err:
            self.engine_failed(err)

    def apply_choices(self) -> None:
        """Gives a (new) engine the window's choices it does not have yet."""
        wanted = {name: var.get() for name, var in self.choice_vars.items()}
        if self.scoring_var.get():
            wanted["Scoring"] = self.scoring_var.get()
        for name, value in wanted.items():
            option = self.engine.options.get(name)
            if option is not None and str(self.engine.settings.get(name, option.default)) != value:
                self.engine.setoption(name, value)

    def agent_name(self) -> str:
        """Which agent answers a search, as the status line names it."""
        agent = self.agent_var.get() or "engine"
        ms = self.movetime()
        return f"{agent}, {ms} ms" if ms else agent

    def status(self, text: str) -> None:
        self.status_var.set(text)

    # --- game flow -------------------------------------------------------------------------

    def seed(self) -> int:
        try:
            return int(self.seed_var.get())
        except ValueError:
            value = abs(hash(self.seed_var.get())) % 10**9
            self.seed_var.set(str(value))
            return value

    def new_game(self) -> None:
        if self.engine_dead is not None:
            return  # the game on screen is kept until the engine is restarted
        self.close_game_over()
        self.rng = random.Random(self.seed())
        self.game = Game()
        self.history.clear()
        self.hint = []
        try:
            self.engine.newgame()
        except EngineDied as err:
            self.engine_died(err)
        except EngineProblem as err:
            self.status(str(err))
        self.deal()
        self.after_change()

    def deal(self) -> None:
        self.game.hand = [self.rng.choice(self.piece_ids) for _ in range(3)]

    def snapshot(self) -> Snapshot:
        return Snapshot(self.game.board, list(self.game.hand), self.game.score, self.game.streak, self.rng.getstate())

    def place(self, slot: int, row: int, col: int) -> bool:
        """Plays hand slot `slot` (0-2) with its top-left on (row, col) (0-based) via the engine."""
        if self.game.hand[slot] is None:
            return False
        before = self.snapshot()
        try:
            slots = self.send_position()
            state = self.engine.play([Placement(slots.index(slot) + 1, row + 1, col + 1)])
        except EngineError as err:
            self.status(f"cannot place there ({err.message})")
            try:
                self.send_position()
            except EngineProblem as problem:
                self.engine_failed(problem)
            return False
        except EngineProblem as err:
            self.engine_failed(err)
            return False
        self.history.append(before)
        # Cells that were filled (before, or by this piece) and are empty now were cleared:
        # flash them, as the original did. Read off the engine's boards, not worked out here.
        covered = {r * 9 + c for r, c in cells_of(self.catalogue[self.game.hand[slot]], row, col)}
        cleared_cells = [k for k in range(81) if (before.board[k] == "#" or k in covered) and state.board[k] == "."]
        self.game.board, self.game.score, self.game.streak = state.board, state.score, state.streak
        self.game.hand[slot] = None
        self.game.placed += 1
        self.status(f"cleared {state.cleared} region{'s' if state.cleared != 1 else ''}" if state.cleared else "")
        if not self.remaining():
            self.deal()
        self.hint = []
        self.after_change()
        if cleared_cells:
            self.flash(cleared_cells)
        return True

    def flash(self, cells: List[int]) -> None:
        for k in cells:
            r, c = divmod(k, 9)
            x, y = BOARD_X + c * CELL, BOARD_Y + r * CELL
            self.canvas.create_rectangle(x + 2, y + 2, x + CELL - 2, y + CELL - 2, fill="#ffd54a", outline="", tags="flash")
        self.root.after(180, lambda: self.canvas.delete("flash"))

    def after_change(self) -> None:
        """Recomputes which pieces fit, redraws, and ends the game if nothing fits."""
        self.hint = []
        try:
            self.compute_fits()
        except EngineProblem as err:
            self.engine_failed(err)
            return
        self.redraw()
        if self.remaining() and not any(self.fits[s] for s, _ in self.remaining()):
            self.game_over()

    def game_over(self) -> None:
        final = self.game.score
        self.games_finished.append(final)
        self.stop_engine()
        # The seed moves on so the next game is a new deal, still reproducible from the field.
        self.seed_var.set(str(self.seed() + 1))
        self.new_game()
        self.show_game_over(final)

    def show_game_over(self, final: int) -> None:
        # Not a modal messagebox: the new game is already on the board behind it, and a
        # blocking dialog would stop the engine demo and the tests alike.
        win = tk.Toplevel(self.root)
        win.title("Game over")
        win.transient(self.root)
        tk.Label(win, text=f"Game over!\nFinal score: {final}", font=("Helvetica", 16), padx=24, pady=12).pack()
        tk.Button(win, text="OK", command=win.destroy).pack(pady=(0, 10))
        self.root.update_idletasks()
        win.geometry(f"+{self.root.winfo_rootx() + 120}+{self.root.winfo_rooty() + 200}")
        self.game_over_window = win
        self.status(f"game over with {final} points; new game (seed {self.seed_var.get()})")

    def close_game_over(self) -> None:
        if self.game_over_window is not None:
            try:
                self.game_over_window.destroy()
            except tk.TclError:
                pass
            self.game_over_window = None

    def undo(self) -> None:
        if not self.history or self.autoplay:
            return
        snap = self.history.pop()
        self.game.board, self.game.hand = snap.board, list(snap.hand)
        self.game.score, self.game.streak = snap.score, snap.streak
        self.game.placed -= 1
        self.rng.setstate(snap.rng_state)
        self.hint = []
        self.status("undone")
        self.after_change()

    # --- the engine's supervision (engines/frontend.py) -------------------------------------

    def on_engine_problem(self, err: Exception) -> None:
        self.stop_engine()

    def on_engine_death(self, err: EngineDied) -> None:
        self.stop_engine()

    def resume_engine(self) -> None:
        self.apply_choices()  # a choice made while the engine was dead too

    def engine_resumed(self) -> None:
        self.after_change()  # sends the position; the game goes on where it was

    # --- engine play and hints ---------------------------------------------------------------

    def search(self) -> Optional[List[Tuple[int, Placement]]]:
        """The engine's sequence for the current hand as (hand slot, placement); None if lost."""
        slots = self.send_position()
        result = self.engine.go(movetime=self.movetime())
        if result.lost:
            return None
        return [(slots[p.slot - 1], p) for p in result.placements]

    def show_hint(self) -> None:
        try:
            seq = self.search()
        except EngineProblem as err:
            self.engine_failed(err)
            return
        self.hint = seq or []
        self.status(f"hint ({self.agent_name()}): piece "
                    + ", ".join(f"{s + 1} at r{p.row}c{p.col}" for s, p in self.hint)
                    if seq else f"no sequence places the hand ({self.agent_name()})")
        self.redraw()

    def toggle_engine(self) -> None:
        if self.engine_dead is not None:
            return
        if self.autoplay:
            self.stop_engine()
        else:
            self.autoplay = True
            self.engine_button.config(text="Stop Engine")
            self.undo_button.config(state="disabled")
            self.status(f"the engine plays ({self.agent_name()})")
            self.autoplay_job = self.root.after(10, self.engine_step)

    def stop_engine(self) -> None:
        self.autoplay = False
        self.pending = []
        if self.autoplay_job is not None:
            self.root.after_cancel(self.autoplay_job)
            self.autoplay_job = None
        self.engine_button.config(text="Start Engine")
        self.undo_button.config(state="normal")

    def engine_step(self) -> None:
        """One beat of the engine demo: show the next placement, then play it."""
        self.autoplay_job = None
        if not self.autoplay:
            return
        if not self.pending:
            try:
                seq = self.search()
            except EngineProblem as err:
                self.engine_failed(err)
                return
            if seq is None:
                self.game_over()
                return
            self.pending = list(seq)
            self.hint = list(seq[:1])  # preview of the first placement
            self.redraw()
            self.autoplay_job = self.root.after(self.delay // 2, self.engine_step)
            return
        slot, placement = self.pending.pop(0)
        if not self.place(slot, placement.row - 1, placement.col - 1):
            self.engine_failed(RuntimeError(f"engine's own placement {placement} was refused"))
            return
        if not self.autoplay:  # the game ended on this placement
            return
        if self.pending:
            self.hint = self.pending[:1]
            self.redraw()
        self.autoplay_job = self.root.after(self.delay, self.engine_step)

    # --- drawing -----------------------------------------------------------------------------

    def hand_origin(self, slot: int, piece: Piece) -> Tuple[int, int]:
        """Top-left pixel of a hand piece, centred in its third of the hand area."""
        cx = slot * CANVAS_W // 3 + CANVAS_W // 6
        cy = HAND_Y + HAND_H // 2
        return cx - piece.width * HAND_CELL // 2, cy - piece.height * HAND_CELL // 2

    def redraw(self) -> None:
        c = self.canvas
        c.delete("all")
        for r in range(9):
            for col in range(9):
                x, y = BOARD_X + col * CELL, BOARD_Y + r * CELL
                filled = self.game.board[r * 9 + col] == "#"
                alt = (r // 3 + col // 3) % 2 == 1
                fill = COLOURS["filled"] if filled else COLOURS["empty_alt" if alt else "empty"]
                c.create_rectangle(x, y, x + CELL, y + CELL, fill=fill, outline=COLOURS["grid"], tags=("cell", f"cell{r}_{col}"))
        for k in range(4):
            x = BOARD_X + k * 3 * CELL
            y = BOARD_Y + k * 3 * CELL
            c.create_line(x, BOARD_Y, x, BOARD_Y + BOARD_PX, width=3, fill=COLOURS["box"])
            c.create_line(BOARD_X, y, BOARD_X + BOARD_PX, y, width=3, fill=COLOURS["box"])
        for number, (slot, placement) in enumerate(self.hint, 1):
            pid = self.game.hand[slot]
            if pid is None:
                continue
            colour = COLOURS["hint"][(number - 1) % 3]
            for r, col in cells_of(self.catalogue[pid], placement.row - 1, placement.col - 1):
                x, y = BOARD_X + col * CELL, BOARD_Y + r * CELL
                c.create_rectangle(x + 3, y + 3, x + CELL - 3, y + CELL - 3, outline=colour, width=3, tags="hint")
                c.create_text(x + CELL // 2, y + CELL // 2, text=str(number), fill=colour,
                              font=("Helvetica", 14, "bold"), tags="hint")
        c.create_line(0, HAND_Y - 8, CANVAS_W, HAND_Y - 8, fill=COLOURS["grid"])
        for slot, pid in self.remaining():
            if self.drag and self.drag["slot"] == slot:
                continue
            piece = self.catalogue[pid]
            x0, y0 = self.hand_origin(slot, piece)
            colour = COLOURS["piece"] if self.fits[slot] else COLOURS["grey"]
            for r, col in piece.cells:
                x, y = x0 + col * HAND_CELL, y0 + r * HAND_CELL
                c.create_rectangle(x, y, x + HAND_CELL, y + HAND_CELL, fill=colour, outline="white",
                                   tags=("hand", f"hand{slot}", "grey" if not self.fits[slot] else "live"))
        self.score_var.set(f"Score: {self.game.score}")
        if self.drag:
            self.draw_drag()

    def drop_cell(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        """Board cell (row, col) for the dragged piece's top-left, or None when off the board."""
        d = self.drag
        assert d is not None
        piece = self.catalogue[self.game.hand[d["slot"]]]
        left, top = x - d["dx"], y - d["dy"]
        col = round((left - BOARD_X) / CELL)
        row = round((top - BOARD_Y) / CELL)
        if row < 0 or col < 0 or row + piece.height > 9 or col + piece.width > 9:
            return None
        return row, col

    def draw_drag(self) -> None:
        d = self.drag
        c = self.canvas
        c.delete("drag")
        piece = self.catalogue[self.game.hand[d["slot"]]]
        target = self.drop_cell(d["x"], d["y"])
        if target is not None:
            # Shaded preview of where it would land. Whether it may land there is the engine's
            # answer to `play`; a preview over filled cells is just drawn in a warning colour.
            cells = cells_of(piece, *target)
            clash = any(self.game.board[r * 9 + col] == "#" for r, col in cells)
            for r, col in cells:
                x, y = BOARD_X + col * CELL, BOARD_Y + r * CELL
                c.create_rectangle(x, y, x + CELL, y + CELL, fill=COLOURS["preview_bad" if clash else "preview"],
                                   stipple="gray50", outline="", tags=("drag", "preview"))
        left, top = d["x"] - d["dx"], d["y"] - d["dy"]
        for r, col in piece.cells:
            x, y = left + col * CELL, top + r * CELL
            c.create_rectangle(x, y, x + CELL, y + CELL, fill=COLOURS["piece"], outline="white", tags=("drag", "dragged"))

    # --- mouse -------------------------------------------------------------------------------

    def slot_at(self, x: float, y: float) -> Optional[int]:
        for slot, pid in self.remaining():
            piece = self.catalogue[pid]
            x0, y0 = self.hand_origin(slot, piece)
            if x0 - 8 <= x <= x0 + piece.width * HAND_CELL + 8 and y0 - 8 <= y <= y0 + piece.height * HAND_CELL + 8:
                return slot
        return None

    def on_press(self, event) -> None:
        if self.autoplay:
            return
        slot = self.slot_at(event.x, event.y)
        if slot is None:
            return
        if not self.fits[slot]:
            self.status("that piece fits nowhere")
            return
        piece = self.catalogue[self.game.hand[slot]]
        x0, y0 = self.hand_origin(slot, piece)
        scale = CELL / HAND_CELL
        # Keep the grab point under the cursor as the piece grows to board size.
        self.drag = {"slot": slot, "dx": (event.x - x0) * scale, "dy": (event.y - y0) * scale, "x": event.x, "y": event.y}
        self.hint = []
        self.redraw()

    def on_motion(self, event) -> None:
        if self.drag:
            self.drag["x"], self.drag["y"] = event.x, event.y
            self.draw_drag()

    def on_release(self, event) -> None:
        if not self.drag:
            return
        self.drag["x"], self.drag["y"] = event.x, event.y
        target = self.drop_cell(event.x, event.y)
        slot = self.drag["slot"]
        self.drag = None
        if target is None or not self.place(slot, *target):
            self.redraw()

    def pixel_of_hand_piece(self, slot: int) -> Tuple[int, int]:
        """Centre of the first cell of a hand piece (for scripted drags)."""
        piece = self.catalogue[self.game.hand[slot]]
        x0, y0 = self.hand_origin(slot, piece)
        r, col = piece.cells[0]
        return x0 + col * HAND_CELL + HAND_CELL // 2, y0 + r * HAND_CELL + HAND_CELL // 2

    def pixel_for_drop(self, slot: int, row: int, col: int) -> Tuple[int, int]:
        """Where to release a piece grabbed by `pixel_of_hand_piece` to put its top-left on (row, col)."""
        piece = self.catalogue[self.game.hand[slot]]
        r, c = piece.cells[0]
        return BOARD_X + (col + c) * CELL + CELL // 2, BOARD_Y + (row + r) * CELL + CELL // 2


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Blockudoku front end driving the engine through its protocol.",
                                     formatter_class=HelpFormatter)
    parser.add_argument("--engine", help="engine command (default: blockudoku from $ENGINE_BIN_DIR or target/release)")
    parser.add_argument("--seed", type=int, help="seed for the deals (default: random)")
    parser.add_argument("--movetime", type=int, default=0, help="engine time per hand in ms (0: a bare go)")
    parser.add_argument("--agent", help="the engine's Agent option to start with (default: the engine's; "
                                        "an agent it does not have is refused before the window opens)")
    parser.add_argument("--delay", type=int, default=350, help="ms between animated engine placements")
    parser.add_argument("--pieces", help="piece catalogue file to draw from (default: ask the engine)")
    args = parser.parse_args(argv)
    try:
        engine = BlockudokuEngine(args.engine.split() if args.engine else None)
    except (EngineProblem, FileNotFoundError) as err:
        parser.error(f"cannot start the engine: {err}")
    if args.agent:
        try:
            engine.setoption("Agent", args.agent)
        except EngineError as err:
            engine.quit()
            parser.error(f"--agent {args.agent}: {err.message}")
    catalogue = load_catalogue(args.pieces) if args.pieces else engine.catalogue()
    root = tk.Tk()
    app = BlockudokuApp(root, engine, catalogue, seed=args.seed, movetime=args.movetime, delay=args.delay)
    try:
        root.mainloop()
    finally:
        app.engine.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
