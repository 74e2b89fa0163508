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

The board scales with the window and carries row and column labels (r1..r9, c1..c9); the
tray slots are numbered 1-3 and a hint labels each cell with the slot number of its piece.

"Analysis" opens the analysis board, an edit mode for advice on any position: click or drag cells to fill or
empty them, pick a tray slot and then a piece from the palette of the 47 pieces (right-click a
slot to empty it), or paste a `position` line; set score and streak, then "Analyse": the
engine's `analyse` answer (protocol/blockudoku.md) fills a panel with the agent's line and the
best alternatives, each with its evaluation, the exact chance that the next hand is dead on
the board it leaves, and the points it scores; the chosen line is drawn on the board.

Game > Save record / Load record keep a game in the record format (protocol/records.md); a
loaded game is replayed with the bar under the board (back, forward, jump to a move), and
"Analysis board" analyses the position shown.

Every rule (legality, clearing, scoring, whether a piece fits) is the engine's: the window
sends `position`/`play`/`go`/`analyse` and draws what comes back. Only the dealing of hands
(uniform with replacement over the catalogue, from the seed) happens here, as in the original
GUI. Errors are shown in a dialog.

    python3 scripts/blockudoku_gui.py [--engine PATH] [--seed N] [--movetime MS] [--agent NAME]
                                      [--analysis] [--load FILE]
"""
from __future__ import annotations

import argparse
import random
import sys
import tkinter as tk
from dataclasses import dataclass, field
from tkinter import filedialog, ttk
from typing import Callable, Dict, List, Optional, Tuple

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
from engines.blockudoku_record import Record, RecordError, RecordGame, format_record, parse_record
from engines.cli import HelpFormatter
from engines.windows import (
    BoardAndPanel, BusyIndicator, Dialogs, EngineCalls, EngineSupervision, Flow, ScrollPanel, stop_search,
)

STATUS_WRAP = (620, 500)  # status line width in pixels: alone, and beside Restart engine
CANVAS_W, CANVAS_H = 470, 560  # the canvas at the original's size; it scales with the window
PALETTE_CELL = 5  # palette pieces: cells of this many pixels, each piece in a box of 28
PALETTE_BOX, PALETTE_COLUMNS = 28, 10
PANEL_W = 290  # the side panel (buttons, settings, the analysis board's controls)
# The window opens within a 1366x768 screen (title bar and task bar included); every control
# stays reachable down to MIN_SIZE (the side panel moves below the board and scrolls).
START_SIZE = (900, 640)
MIN_SIZE = (640, 480)


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

    @staticmethod
    def fit(width: int, height: int) -> "Layout":
        margin = 18
        cell = max(12, min((width - 2 * margin) // 9, int((height - margin - 24) / 11.5)))
        hand_cell = cell // 2
        board_x = max(margin, (width - 9 * cell) // 2)
        board_y = margin + 2
        hand_y = board_y + 9 * cell + 12
        return Layout(cell, margin, board_x, board_y, hand_cell, hand_y, 5 * hand_cell + 8, width)

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
        self.closed = False
        self.layout = Layout.fit(CANVAS_W, CANVAS_H)
        # The game as a record: ("hand", ids) and ("play", [Placement]) events, slots 1-3.
        self.events: List[Tuple[str, list]] = []
        # Analysis board: on, the game it replaced, the selected tray slot, the last answer.
        self.analysing = False
        self.game_before: Optional[Game] = None
        self.selected_slot = 0
        self.paint: Optional[str] = None  # "#" or "." while a drag fills or empties cells
        self.analysis: list = []
        # A loaded record's positions (after each placement) and the one shown; None: playing.
        self.replay_states: Optional[List[Game]] = None
        self.replay_at = 0
        self.placing = False  # a placement is with the engine: no other drag until it answers
        self.flashing: List[int] = []  # cleared cells shown for a moment
        self.flashed: List[int] = []  # the last cells flashed (tests read this)
        # The analysis line shown step by step: (line, placements made), the board then, and
        # the slots already played on it (not drawn in the tray).
        self.line_at: Optional[Tuple[int, int]] = None
        self.analysis_boards: List[List[str]] = []
        self.shown_board: Optional[str] = None
        self.shown_played: set = set()

        root.title("Blockudoku")
        root.geometry(f"{START_SIZE[0]}x{START_SIZE[1]}")
        root.minsize(*MIN_SIZE)
        root.report_callback_exception = self.report_exception
        self.dialogs = Dialogs(root, "Blockudoku")
        self.calls = EngineCalls(root, on_error=self.engine_failed)
        self.search_running = False  # a go or analyse is out: Stop sends `stop`
        self.fits_asked = 0  # bumps with every position change, so a stale fits answer is dropped

        menubar = tk.Menu(root)
        game_menu = tk.Menu(menubar, tearoff=False)
        game_menu.add_command(label="New game", command=self.new_game)
        game_menu.add_command(label="Save record...", command=self.ask_save_record)
        game_menu.add_command(label="Load record...", command=self.ask_load_record)
        menubar.add_cascade(label="Game", menu=game_menu)
        root.config(menu=menubar)

        header = tk.Frame(root)
        header.pack(side="top", fill="x", padx=8, pady=(4, 0))
        self.score_var = tk.StringVar(value="Score: 0")
        tk.Label(header, textvariable=self.score_var, font=("Helvetica", 18, "bold")).pack(side="left")
        self.busy = BusyIndicator(header, self.calls)
        self.busy.frame.pack(side="right")

        self.status_var = tk.StringVar(value="")
        self.engine_status_row(root, self.status_var, STATUS_WRAP, pady=(0, 4))
        self.status_label.master.pack_configure(side="bottom")

        body = self.body = BoardAndPanel(root, board_min=290)
        body.pack(side="top", fill="both", expand=True, padx=8, pady=4)
        self.canvas = tk.Canvas(body, width=CANVAS_W, height=CANVAS_H, bg="white", highlightthickness=0)
        self.canvas.bind("<ButtonPress-1>", self.on_press)
        self.canvas.bind("<B1-Motion>", self.on_motion)
        self.canvas.bind("<ButtonRelease-1>", self.on_release)
        self.canvas.bind("<ButtonPress-3>", self.on_right_press)
        self.canvas.bind("<Configure>", self.on_resize)
        self.side = ScrollPanel(body, width=PANEL_W)
        body.place_parts(self.canvas, self.side)
        panel = self.side.inner

        buttons = self.game_buttons = Flow(panel)
        buttons.pack(fill="x", pady=(0, 2))
        # Fixed widths: a button's text changes (Start/Stop) without moving its neighbours.
        self.engine_button = tk.Button(buttons, text="Start Engine", width=11, command=self.toggle_engine)
        self.hint_button = tk.Button(buttons, text="Hint", width=5, command=self.show_hint)
        self.undo_button = tk.Button(buttons, text="Undo", width=5, command=self.undo)
        self.new_button = tk.Button(buttons, text="New game", command=self.new_game)
        self.analysis_button = tk.Button(buttons, text="Analysis", width=8, command=self.toggle_analysis)
        buttons.add(self.engine_button, self.hint_button, self.undo_button, self.new_button, self.analysis_button)

        settings = self.settings_row = Flow(panel)
        settings.pack(fill="x", pady=(2, 0))
        scoring = engine.options.get("Scoring")
        choices = scoring.choices if scoring and scoring.choices else ([scoring.default] if scoring and scoring.default else [])
        self.scoring_var = tk.StringVar(value=(scoring.default if scoring and scoring.default else ""))
        scoring_pair = tk.Frame(settings)
        tk.Label(scoring_pair, text="Scoring").pack(side="left")
        self.scoring_box = ttk.Combobox(scoring_pair, textvariable=self.scoring_var, values=choices, width=10,
                                        state="readonly" if choices else "normal")
        self.scoring_box.pack(side="left", padx=(2, 0))
        self.scoring_box.bind("<<ComboboxSelected>>", lambda _e: self.set_scoring(self.scoring_var.get()))
        self.scoring_box.bind("<Return>", lambda _e: self.set_scoring(self.scoring_var.get()))
        seed_pair = tk.Frame(settings)
        tk.Label(seed_pair, text="Seed").pack(side="left")
        self.seed_var = tk.StringVar(value=str(seed if seed is not None else random.randrange(1, 10**6)))
        self.seed_entry = tk.Entry(seed_pair, textvariable=self.seed_var, width=8)
        self.seed_entry.pack(side="left", padx=(2, 0))
        self.seed_entry.bind("<Return>", lambda _e: self.new_game())
        ms_pair = tk.Frame(settings)
        tk.Label(ms_pair, text="Engine ms").pack(side="left")
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(ms_pair, from_=0, to=10000, increment=50, textvariable=self.movetime_var, width=6).pack(side="left", padx=2)
        self.delay = delay

        # Who answers Hint and plays "Start Engine", and what it plays for: one combobox per
        # combo option the engine offers (`Objective` only from engines that have it).
        self.choice_vars: Dict[str, tk.StringVar] = {}
        self.choice_boxes: Dict[str, ttk.Combobox] = {}
        pairs = [scoring_pair, seed_pair, ms_pair]
        for name, width in (("Agent", 8), ("Objective", 8)):
            pair = self.option_box(settings, name, width)
            if pair is not None:
                pairs.append(pair)
        settings.add(*pairs)
        self.agent_var = self.choice_vars.get("Agent", tk.StringVar(value=""))

        self.build_replay_bar(panel)
        self.build_analysis_frame(panel)
        root.protocol("WM_DELETE_WINDOW", self.ask_close)

        self.new_game()

    def option_box(self, parent: tk.Misc, name: str, width: int) -> Optional[tk.Frame]:
        """A labelled read-only combobox for the engine's combo option `name`, if it has one."""
        option = self.engine.options.get(name)
        if option is None or not option.choices:
            return None
        value = str(self.engine.settings.get(name, option.default))  # e.g. from --agent
        var = tk.StringVar(value=value if value in option.choices else option.choices[0])
        pair = tk.Frame(parent)
        tk.Label(pair, text=name).pack(side="left")
        box = ttk.Combobox(pair, textvariable=var, values=option.choices, width=width, state="readonly")
        box.pack(side="left", padx=(2, 0))
        box.bind("<<ComboboxSelected>>", lambda _e: self.set_option(name, var.get()))
        self.choice_vars[name] = var
        self.choice_boxes[name] = box
        return pair

    # --- engine helpers ----------------------------------------------------------------------

    def remaining(self) -> List[Tuple[int, int]]:
        """(hand slot 0-2, piece id) of the pieces still in the hand."""
        return [(slot, pid) for slot, pid in enumerate(self.game.hand) if pid is not None]

    def position_job(self) -> Tuple[List[int], Callable[[BlockudokuEngine], None]]:
        """The hand slots in protocol order, and a job telling an engine the position on screen
        (taken now, on the Tk thread; run later on the worker)."""
        slots = [s for s, _ in self.remaining()]
        board, hand, score, streak = self.game.board, [self.game.hand[s] for s in slots], self.game.score, self.game.streak
        return slots, lambda engine: engine.position(board, hand, score, streak)

    def compute_fits(self) -> None:
        """Asks the engine which pieces of the hand fit somewhere (`fits`: no search); the
        answer greys out the others and ends the game when none fits."""
        self.fits_asked += 1
        asked = self.fits_asked
        if not self.remaining():
            return
        slots, send = self.position_job()

        def work() -> List[Optional[bool]]:
            send(self.engine)
            return self.engine.fits()

        def done(answer: List[Optional[bool]]) -> None:
            if asked != self.fits_asked or self.analysing or self.replay_states is not None:
                return  # the position changed meanwhile
            self.fits = [False, False, False]
            for k, slot in enumerate(slots):
                self.fits[slot] = bool(answer[k]) if k < len(answer) else False
            self.redraw()
            if self.remaining() and not any(self.fits[s] for s, _ in self.remaining()):
                self.game_over()

        self.calls.call(work, done)

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

        def refused(err: BaseException) -> None:
            if isinstance(err, EngineError) and name in self.choice_vars:
                # Refused: the window goes back to what the engine has.
                self.choice_vars[name].set(str(self.engine.settings.get(name, self.engine.options[name].default)))
            self.engine_failed(err)

        self.calls.call(lambda: self.engine.setoption(name, value), lambda _: self.status(f"{name}: {value}"), refused)

    def choices_job(self) -> Callable[[BlockudokuEngine], None]:
        """A job giving an engine the window's choices it does not have yet (read now)."""
        wanted = {name: var.get() for name, var in self.choice_vars.items()}
        if self.scoring_var.get():
            wanted["Scoring"] = self.scoring_var.get()

        def apply(engine: BlockudokuEngine) -> None:
            for name, value in wanted.items():
                option = engine.options.get(name)
                if option is not None and str(engine.settings.get(name, option.default)) != value:
                    engine.setoption(name, value)

        return apply

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
        if self.analysing:
            self.leave_analysis()
        self.close_game_over()
        self.rng = random.Random(self.seed())
        self.game = Game()
        self.history.clear()
        self.events = []
        self.hint = []
        self.close_replay()
        self.calls.call(self.engine.newgame)
        self.deal()
        self.after_change()

    def deal(self) -> None:
        self.game.hand = [self.rng.choice(self.piece_ids) for _ in range(3)]
        self.events.append(("hand", list(self.game.hand)))

    def snapshot(self) -> Snapshot:
        return Snapshot(self.game.board, list(self.game.hand), self.game.score, self.game.streak, self.rng.getstate())

    def place(self, slot: int, row: int, col: int, then: Optional[Callable[[bool], None]] = None) -> None:
        """Plays hand slot `slot` (0-2) with its top-left on (row, col) (0-based) via the engine's
        `play` (on the worker); `then(accepted)` follows on the Tk thread."""
        if self.game.hand[slot] is None or self.placing:
            if then is not None:
                then(False)
            return
        self.placing = True
        before = self.snapshot()
        slots, send = self.position_job()
        placement = Placement(slots.index(slot) + 1, row + 1, col + 1)

        def work():
            send(self.engine)
            return self.engine.play([placement])

        def refused(err: BaseException) -> None:
            self.placing = False
            if isinstance(err, EngineError):
                self.status(f"cannot place there ({err.message})")
            else:
                self.engine_failed(err)
            self.redraw()
            if then is not None:
                then(False)

        def played(state) -> None:
            self.placing = False
            self.history.append(before)
            self.events.append(("play", [Placement(slot + 1, row + 1, col + 1)]))
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
            if then is not None:
                then(True)

        self.calls.call(work, played, refused)

    def after_change(self) -> None:
        """Redraws, then asks which pieces fit (the game ends when none does)."""
        self.hint = []
        self.redraw()
        self.compute_fits()

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
        while self.events and self.events[-1][0] == "hand":
            self.events.pop()  # the hand dealt after the placement undone
        if self.events:
            self.events.pop()
        self.game.board, self.game.hand = snap.board, list(snap.hand)
        self.game.score, self.game.streak = snap.score, snap.streak
        self.game.placed -= 1
        self.rng.setstate(snap.rng_state)
        self.hint = []
        self.status("undone")
        self.after_change()

    # --- the engine's supervision (engines/windows/supervision.py) --------------------------

    def on_engine_problem(self, err: Exception) -> None:
        self.stop_engine()

    def on_engine_death(self, err: EngineDied) -> None:
        self.stop_engine()

    def resume_job(self) -> Callable[[BlockudokuEngine], None]:
        return self.choices_job()  # a choice made while the engine was dead too

    def engine_resumed(self) -> None:
        self.after_change()  # sends the position; the game goes on where it was

    # --- engine play and hints ---------------------------------------------------------------

    def search(self, done: Callable[[Optional[List[Tuple[int, Placement]]]], None]) -> None:
        """Asks the engine's sequence for the current hand (on the worker); `done` gets it as
        (hand slot, placement) pairs, or None when the hand cannot be placed."""
        slots, send = self.position_job()
        movetime = self.movetime()

        def work():
            send(self.engine)
            return self.engine.go(movetime=movetime)

        def answered(result) -> None:
            self.search_running = False
            self.hint_button.config(text="Hint")
            done(None if result.lost else [(slots[p.slot - 1], p) for p in result.placements])

        def failed(err: BaseException) -> None:
            self.search_running = False
            self.hint_button.config(text="Hint")
            self.engine_failed(err)

        self.search_running = True
        self.calls.call(work, answered, failed)

    def stop_search(self) -> None:
        """Stop: the running search answers at once with what it has (`stop`)."""
        if self.search_running:
            stop_search(self.engine)

    def show_hint(self) -> None:
        if self.search_running:
            self.stop_search()  # the button reads Stop while the hint is searched
            return
        if self.analysing or self.autoplay or self.engine_dead is not None:
            return

        def shown(seq) -> None:
            self.hint = seq or []
            self.status(f"hint ({self.agent_name()}): "
                        + ", ".join(f"piece {s + 1} at r{p.row}c{p.col}" for s, p in self.hint)
                        if seq else f"no sequence places the hand ({self.agent_name()})")
            self.redraw()

        self.status(f"thinking ({self.agent_name()})...")
        self.search(shown)
        self.hint_button.config(text="Stop")

    def toggle_engine(self) -> None:
        if self.engine_dead is not None or self.replay_states is not None:
            return
        if self.autoplay:
            self.stop_engine()
        elif not self.search_running:
            self.autoplay = True
            self.engine_button.config(text="Stop Engine")
            self.undo_button.config(state="disabled")
            self.status(f"the engine plays ({self.agent_name()})")
            self.autoplay_job = self.root.after(10, self.engine_step)

    def stop_engine(self) -> None:
        """Ends the engine's own play at once (a search running is told to stop)."""
        was_playing = self.autoplay
        self.autoplay = False
        self.pending = []
        if self.autoplay_job is not None:
            self.root.after_cancel(self.autoplay_job)
            self.autoplay_job = None
        if was_playing:
            self.stop_search()
        self.engine_button.config(text="Start Engine")
        self.undo_button.config(state="normal")
        if self.hint and not self.analysing:
            self.hint = []  # the outline of a placement that will not be played now
            self.redraw()

    def engine_step(self) -> None:
        """One beat of the engine demo: show the next placement, then play it."""
        self.autoplay_job = None
        if not self.autoplay:
            return
        if not self.pending:
            self.search(self.engine_answered)
            return
        slot, placement = self.pending.pop(0)

        def placed(ok: bool) -> None:
            if not ok:
                if self.autoplay:
                    self.engine_failed(RuntimeError(f"engine's own placement {placement} was refused"))
                return
            if not self.autoplay:  # the game ended on this placement, or Stop
                return
            if self.pending:
                self.hint = self.pending[:1]
                self.redraw()
            self.autoplay_job = self.root.after(self.delay, self.engine_step)

        self.place(slot, placement.row - 1, placement.col - 1, placed)

    def engine_answered(self, seq: Optional[List[Tuple[int, Placement]]]) -> None:
        if not self.autoplay:
            return  # stopped while it thought
        if seq is None:
            self.game_over()
            return
        self.pending = list(seq)
        self.hint = list(seq[:1])  # preview of the first placement
        self.redraw()
        self.autoplay_job = self.root.after(self.delay // 2, self.engine_step)

    # --- drawing -----------------------------------------------------------------------------

    def on_resize(self, event) -> None:
        layout = Layout.fit(event.width, event.height)
        if layout != self.layout:
            self.layout = layout
            self.redraw()

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
        label_font = ("Helvetica", max(7, L.cell // 5))
        board = self.shown_board if self.shown_board is not None else self.game.board
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
        # The hint (or the chosen analysis line): each cell labelled with its tray slot number.
        for slot, placement in self.hint:
            pid = self.game.hand[slot]
            if pid is None:
                continue
            colour = COLOURS["hint"][slot % 3]
            for r, col in cells_of(self.catalogue[pid], placement.row - 1, placement.col - 1):
                x0, y0, x1, y1 = self.cell_box(r, col)
                c.create_rectangle(x0 + 3, y0 + 3, x1 - 3, y1 - 3, outline=colour, width=3, tags="hint")
                c.create_text((x0 + x1) // 2, (y0 + y1) // 2, text=str(slot + 1), fill=colour,
                              font=("Helvetica", max(8, L.cell * 3 // 10), "bold"), tags=("hint", f"hintlabel{slot + 1}"))
        c.create_line(0, L.hand_y - 8, L.width, L.hand_y - 8, fill=COLOURS["grid"])
        for slot in range(3):
            # Tray slot numbers, in the colour the hint uses for the slot's piece.
            x = slot * L.width // 3 + 8
            c.create_text(x, L.hand_y - 4, text=str(slot + 1), anchor="nw", fill=COLOURS["hint"][slot],
                          font=("Helvetica", max(9, L.cell // 4), "bold"), tags=("slotnumber", f"slotnumber{slot + 1}"))
            if self.analysing and slot == self.selected_slot:
                c.create_rectangle(slot * L.width // 3 + 3, L.hand_y - 5, (slot + 1) * L.width // 3 - 3,
                                   L.hand_y + L.hand_h - 2, outline=COLOURS["selected"], width=2, dash=(4, 2),
                                   tags="selectedslot")
        for slot, pid in self.remaining():
            if (self.drag and self.drag["slot"] == slot) or slot in self.shown_played:
                continue
            piece = self.catalogue[pid]
            x0, y0 = self.hand_origin(slot, piece)
            colour = COLOURS["piece"] if self.fits[slot] else COLOURS["grey"]
            for r, col in piece.cells:
                x, y = x0 + col * L.hand_cell, y0 + r * L.hand_cell
                c.create_rectangle(x, y, x + L.hand_cell, y + L.hand_cell, fill=colour, outline="white",
                                   tags=("hand", f"hand{slot}", "grey" if not self.fits[slot] else "live"))
        self.score_var.set(f"Score: {self.game.score}")
        self.draw_flash()
        if self.drag:
            self.draw_drag()

    def flash(self, cells: List[int]) -> None:
        """Shows the cleared cells for a moment (redraws meanwhile keep them)."""
        self.flashing = self.flashed = list(cells)
        self.draw_flash()

        def done() -> None:
            if self.flashing is cells or self.flashing == cells:
                self.flashing = []
                self.canvas.delete("flash")

        self.root.after(180, done)

    def draw_flash(self) -> None:
        for k in self.flashing:
            x0, y0, x1, y1 = self.cell_box(*divmod(k, 9))
            self.canvas.create_rectangle(x0 + 2, y0 + 2, x1 - 2, y1 - 2, fill="#ffd54a", outline="", tags="flash")

    def drop_cell(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        """Board cell (row, col) for the dragged piece's top-left, or None when off the board."""
        d = self.drag
        assert d is not None
        L = self.layout
        piece = self.catalogue[self.game.hand[d["slot"]]]
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
        piece = self.catalogue[self.game.hand[d["slot"]]]
        target = self.drop_cell(d["x"], d["y"])
        if target is not None:
            # Shaded preview of where it would land. Whether it may land there is the engine's
            # answer to `play`; a preview over filled cells is just drawn in a warning colour.
            cells = cells_of(piece, *target)
            clash = any(self.game.board[r * 9 + col] == "#" for r, col in cells)
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
        for slot, pid in self.remaining():
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
        if self.analysing:
            self.edit_press(event.x, event.y)
            return
        if self.autoplay or self.replay_states is not None or self.placing:
            return
        slot = self.slot_at(event.x, event.y)
        if slot is None:
            return
        if not self.fits[slot]:
            self.status("that piece fits nowhere")
            return
        piece = self.catalogue[self.game.hand[slot]]
        x0, y0 = self.hand_origin(slot, piece)
        scale = self.layout.cell / self.layout.hand_cell
        # Keep the grab point under the cursor as the piece grows to board size.
        self.drag = {"slot": slot, "dx": (event.x - x0) * scale, "dy": (event.y - y0) * scale, "x": event.x, "y": event.y}
        self.hint = []
        self.redraw()

    def on_motion(self, event) -> None:
        if self.analysing:
            self.edit_motion(event.x, event.y)
            return
        if self.drag:
            self.drag["x"], self.drag["y"] = event.x, event.y
            self.draw_drag()

    def on_release(self, event) -> None:
        self.paint = None
        if not self.drag:
            return
        self.drag["x"], self.drag["y"] = event.x, event.y
        target = self.drop_cell(event.x, event.y)
        slot = self.drag["slot"]
        self.drag = None
        self.redraw()
        if target is not None:
            self.place(slot, *target)

    def on_right_press(self, event) -> None:
        """In the analysis board: empties the tray slot clicked."""
        slot = self.tray_slot_at(event.x, event.y)
        if self.analysing and slot is not None:
            self.game.hand[slot] = None
            self.selected_slot = slot
            self.position_edited()

    def pixel_of_hand_piece(self, slot: int) -> Tuple[int, int]:
        """Centre of the first cell of a hand piece (for scripted drags)."""
        piece = self.catalogue[self.game.hand[slot]]
        x0, y0 = self.hand_origin(slot, piece)
        r, col = piece.cells[0]
        h = self.layout.hand_cell
        return x0 + col * h + h // 2, y0 + r * h + h // 2

    def pixel_for_drop(self, slot: int, row: int, col: int) -> Tuple[int, int]:
        """Where to release a piece grabbed by `pixel_of_hand_piece` to put its top-left on (row, col)."""
        piece = self.catalogue[self.game.hand[slot]]
        r, c = piece.cells[0]
        x0, y0, x1, y1 = self.cell_box(row + r, col + c)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def cell_centre(self, row: int, col: int) -> Tuple[int, int]:
        x0, y0, x1, y1 = self.cell_box(row, col)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def tray_centre(self, slot: int) -> Tuple[int, int]:
        L = self.layout
        return slot * L.width // 3 + L.width // 6, L.hand_y + L.hand_h // 2

    # --- errors ------------------------------------------------------------------------------

    def error(self, text: str, title: str = "Blockudoku") -> None:
        """Shows an error in a dialog (not modal: the window stays usable, tests go on)."""
        self.status(text)
        self.dialogs.error(text, title)

    @property
    def last_error(self) -> str:
        """The text of the last error dialog (tests read it)."""
        return self.dialogs.last_error

    @property
    def error_window(self) -> Optional[tk.Toplevel]:
        return self.dialogs.window

    def unsaved(self) -> bool:
        """A game in progress that closing would lose (placements made, no record loaded)."""
        return self.replay_states is None and self.game.placed > 0 and not self.analysing

    def ask_close(self) -> None:
        """Closing the window: asks first when a game is in progress, then ends the engine."""
        if self.unsaved():
            self.dialogs.ask_close(f"The game in progress ({self.game.score} points) is not saved. Close anyway?",
                                   self.close)
        else:
            self.close()

    def close(self) -> None:
        """Stops any search, ends the worker and the engine, and closes the window."""
        self.closed = True
        self.stop_engine()
        self.stop_search()
        self.calls.close()
        self.busy.show(False)
        try:
            self.root.destroy()
        except tk.TclError:
            pass

    def window_closed(self) -> bool:
        return self.closed

    def report_exception(self, kind, value, tb) -> None:
        """A failure in a callback: a dialog with its one-line reason, not a traceback."""
        self.error(f"{kind.__name__}: {value}", "Unexpected error")

    # --- analysis board ----------------------------------------------------------------------

    def build_analysis_frame(self, root: tk.Misc) -> None:
        """The analysis board's controls, palette and panel (shown in analysis mode only)."""
        f = self.analysis_frame = tk.Frame(root, bd=1, relief="groove")
        top = tk.Frame(f)
        top.pack(fill="x", padx=4, pady=(2, 0))
        tk.Label(top, text="Analysis board", font=("Helvetica", 10, "bold")).pack(side="left")
        self.leave_button = tk.Button(top, text="Back to the game", command=self.leave_analysis)
        self.leave_button.pack(side="right")
        # The lines first: they are what Analyse is for, so they stay on screen.
        self.analysis_title = tk.StringVar(value="")
        tk.Label(f, textvariable=self.analysis_title, anchor="w").pack(fill="x", padx=4)
        self.panel = tk.Listbox(f, height=4, font=("Courier", 8), activestyle="none", exportselection=False)
        self.panel.pack(fill="x", padx=4)
        self.panel.bind("<<ListboxSelect>>", lambda _e: self.show_analysis_line())
        tk.Label(f, text="line, slot@cell, eval, next hand dead, points", anchor="w", fg=COLOURS["label"],
                 font=("Helvetica", 8)).pack(fill="x", padx=4)
        stepper = tk.Frame(f)
        stepper.pack(fill="x", padx=4)
        tk.Button(stepper, text="<", width=2, command=lambda: self.step_line(-1)).pack(side="left")
        tk.Button(stepper, text=">", width=2, command=lambda: self.step_line(1)).pack(side="left")
        self.line_step_var = tk.StringVar(value="")
        tk.Label(stepper, textvariable=self.line_step_var, anchor="w").pack(side="left", padx=4)
        row1 = Flow(f)
        row1.pack(fill="x", padx=4, pady=2)
        self.edit_score_var = tk.StringVar(value="0")
        self.edit_streak_var = tk.StringVar(value="0")
        self.lines_var = tk.StringVar(value="3")
        pairs = []
        for text, var, width in (("Score", self.edit_score_var, 6), ("Streak", self.edit_streak_var, 3)):
            pair = tk.Frame(row1)
            tk.Label(pair, text=text).pack(side="left")
            tk.Entry(pair, textvariable=var, width=width).pack(side="left", padx=(2, 0))
            pairs.append(pair)
        pair = tk.Frame(row1)
        tk.Label(pair, text="Lines").pack(side="left")
        tk.Spinbox(pair, from_=1, to=8, textvariable=self.lines_var, width=2).pack(side="left", padx=(2, 0))
        pairs.append(pair)
        self.analyse_button = tk.Button(row1, text="Analyse", width=7, command=self.analyse)
        pairs += [self.analyse_button, tk.Button(row1, text="Clear", command=self.clear_board)]
        row1.add(*pairs)
        row2 = tk.Frame(f)
        row2.pack(fill="x", padx=4, pady=2)
        tk.Label(row2, text="Position").pack(side="left")
        self.position_var = tk.StringVar(value="")
        entry = tk.Entry(row2, textvariable=self.position_var, width=10)
        entry.pack(side="left", fill="x", expand=True, padx=2)
        entry.bind("<Return>", lambda _e: self.paste_position())
        tk.Button(row2, text="Set", command=self.paste_position).pack(side="left")
        rows = (len(self.piece_ids) + PALETTE_COLUMNS - 1) // PALETTE_COLUMNS
        self.palette = tk.Canvas(f, width=PALETTE_COLUMNS * PALETTE_BOX, height=rows * PALETTE_BOX, bg="white",
                                 highlightthickness=0)
        self.palette.pack(pady=2)
        self.palette.bind("<ButtonPress-1>", self.on_palette)
        self.draw_palette()

    def draw_palette(self) -> None:
        p = self.palette
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

    def palette_pixel(self, pid: int) -> Tuple[int, int]:
        k = self.piece_ids.index(pid)
        return (k % PALETTE_COLUMNS) * PALETTE_BOX + PALETTE_BOX // 2, (k // PALETTE_COLUMNS) * PALETTE_BOX + PALETTE_BOX // 2

    def on_palette(self, event) -> None:
        k = (event.y // PALETTE_BOX) * PALETTE_COLUMNS + event.x // PALETTE_BOX
        if 0 <= event.x < PALETTE_COLUMNS * PALETTE_BOX and 0 <= k < len(self.piece_ids):
            self.set_slot(self.selected_slot, self.piece_ids[k])

    def set_slot(self, slot: int, pid: Optional[int]) -> None:
        """Puts catalogue piece `pid` in tray slot `slot` (0-2); the next slot is selected."""
        self.game.hand[slot] = pid
        self.selected_slot = (slot + 1) % 3
        self.position_edited()

    def toggle_analysis(self) -> None:
        if self.analysing:
            self.leave_analysis()
        else:
            self.enter_analysis()

    def enter_analysis(self) -> None:
        """The analysis board, starting from the position on screen (a game or a replay)."""
        if self.analysing:
            return
        self.stop_engine()
        self.game_before = Game(self.game.board, list(self.game.hand), self.game.score, self.game.streak,
                                self.game.placed)
        self.analysing = True
        self.analysis_button.config(text="Game")
        for w in (self.engine_button, self.hint_button, self.undo_button):
            w.config(state="disabled")
        self.edit_score_var.set(str(self.game.score))
        self.edit_streak_var.set(str(self.game.streak))
        self.selected_slot = next((s for s in range(3) if self.game.hand[s] is None), 0)
        # The game's own buttons give way to the analysis board's (they do not apply there).
        self.game_buttons.pack_forget()
        self.analysis_frame.pack(side="top", fill="x", pady=(4, 4))
        self.position_edited()
        self.status("analysis board: click or drag cells, pick a tray slot then a piece, Analyse")

    def leave_analysis(self) -> None:
        """Back to the game as it was before the analysis board."""
        if not self.analysing:
            return
        self.analysing = False
        self.analysis_frame.pack_forget()
        self.game_buttons.pack(fill="x", pady=(0, 2), before=self.settings_row)
        self.analysis_button.config(text="Analysis")
        for w in (self.engine_button, self.hint_button, self.undo_button):
            w.config(state="normal")
        if self.game_before is not None:
            self.game = self.game_before
            self.game_before = None
        self.hint, self.analysis = [], []
        self.line_at, self.shown_board, self.shown_played = None, None, set()
        self.after_change()
        self.status("back to the game")

    def edit_press(self, x: float, y: float) -> None:
        cell = self.board_cell_at(x, y)
        if cell is not None:
            k = cell[0] * 9 + cell[1]
            self.paint = "." if self.game.board[k] == "#" else "#"
            self.paint_cell(k)
            return
        slot = self.tray_slot_at(x, y)
        if slot is not None:
            self.selected_slot = slot
            self.redraw()
            self.status(f"slot {slot + 1} selected: pick its piece in the palette (right-click empties it)")

    def edit_motion(self, x: float, y: float) -> None:
        cell = self.board_cell_at(x, y)
        if self.paint is not None and cell is not None:
            self.paint_cell(cell[0] * 9 + cell[1])

    def paint_cell(self, k: int) -> None:
        if self.game.board[k] != self.paint:
            b = self.game.board
            self.game.board = b[:k] + self.paint + b[k + 1:]
            self.position_edited()

    def clear_board(self) -> None:
        self.game.board = "." * 81
        self.position_edited()

    def read_score_streak(self) -> Optional[Tuple[int, int]]:
        try:
            score, streak = int(self.edit_score_var.get()), int(self.edit_streak_var.get())
            if score < 0 or streak < 0:
                raise ValueError
        except ValueError:
            self.error("Score and streak must be whole numbers, 0 or more.")
            return None
        return score, streak

    def position_edited(self) -> None:
        """The edited position changed: the last answer no longer holds."""
        self.hint, self.analysis = [], []
        self.line_at, self.shown_board, self.shown_played = None, None, set()
        self.line_step_var.set("")
        self.panel.delete(0, "end")
        self.analysis_title.set("")
        self.fits = [True, True, True]
        self.position_var.set(self.position_text())
        self.redraw()

    def position_text(self) -> str:
        pieces = self.game.hand if any(p is not None for p in self.game.hand) else [1]
        return BlockudokuEngine.position_line(self.game.board, pieces, self.game.score, self.game.streak)

    def paste_position(self) -> None:
        """Sets the board, hand, score and streak from a `position` line (the engine checks it)."""
        text = self.position_var.get().strip()
        line = text if text.startswith("position") else "position " + text

        def accepted(_) -> None:
            try:
                state = BlockudokuEngine.parse_state(line)
                by_shape = {p.shape: pid for pid, p in self.catalogue.items()}
                hand: List[Optional[int]] = []
                for tok in state.pieces:
                    if tok is None:
                        hand.append(None)
                    elif tok.isdigit() and int(tok) in self.catalogue:
                        hand.append(int(tok))
                    else:
                        shape = Piece.from_shape(tok).shape
                        if shape not in by_shape:
                            raise ValueError(f"piece {tok} is not one of the catalogue's")
                        hand.append(by_shape[shape])
            except (ValueError, EngineProblem) as err:
                self.error(f"Not a position: {err}")
                return
            self.game.board = state.board
            self.game.hand = (hand + [None, None, None])[:3]
            self.game.score, self.game.streak = state.score, state.streak
            self.edit_score_var.set(str(state.score))
            self.edit_streak_var.set(str(state.streak))
            self.position_edited()

        def refused(err: BaseException) -> None:
            if isinstance(err, EngineError):
                self.error(f"The engine refuses that position: {err.message}")
            else:
                self.engine_failed(err)

        self.calls.call(lambda: self.engine.command(line), accepted, refused)

    def analyse(self) -> None:
        """Sends the edited position and `analyse`; fills the panel and draws line 1. While
        it runs, the button stops it."""
        if self.search_running:
            self.stop_search()
            return
        numbers = self.read_score_streak()
        if numbers is None:
            return
        self.game.score, self.game.streak = numbers
        if not any(p is not None for p in self.game.hand):
            self.error("The hand is empty: pick a tray slot, then a piece in the palette.")
            return
        try:
            lines = int(self.lines_var.get())
        except ValueError:
            lines = 3
        board, hand, score, streak, movetime = (self.game.board, list(self.game.hand), self.game.score,
                                                self.game.streak, self.movetime())

        def work():
            # The whole tray, `-` for an empty slot: the answer's slots are the tray's.
            self.engine.position(board, hand, score, streak)
            answer = self.engine.analyse(movetime=movetime, lines=lines)
            # Each line placement by placement: the board after each one, with its clears.
            steps = []
            for line in answer:
                boards = []
                for k in range(1, len(line.placements) + 1):
                    self.engine.position(board, hand, score, streak)
                    boards.append(self.engine.play(line.placements[:k]).board)
                steps.append(boards)
            return answer, steps

        def refused(err: BaseException) -> None:
            self.search_running = False
            self.analyse_button.config(text="Analyse")
            if isinstance(err, EngineError):
                self.error(f"The engine refuses: {err.message}")
            else:
                self.engine_failed(err)

        def answered(result) -> None:
            self.search_running = False
            self.analyse_button.config(text="Analyse")
            if self.analysing and (self.game.board, self.game.hand) == (board, hand):
                self.analysis, self.analysis_boards = result
                self.show_analysis()

        self.search_running = True
        self.analyse_button.config(text="Stop")
        self.status("analysing...")
        self.calls.call(work, answered, refused)

    def show_analysis(self) -> None:
        """Fills the panel with the engine's lines and shows line 1."""
        self.position_var.set(self.position_text())
        self.panel.delete(0, "end")
        agent = self.agent_var.get() or "engine"
        objective = self.choice_vars["Objective"].get() if "Objective" in self.choice_vars else ""
        ms = self.movetime()
        self.analysis_title.set(f"{agent}" + (f", {objective}" if objective else "")
                                + (f", {ms} ms" if ms else ", bare") + f": {len(self.analysis)} line(s)")
        if not self.analysis:
            self.hint = []
            self.panel.insert("end", "the hand cannot be placed: the game ends here")
            self.status("no line places the hand")
            self.redraw()
            return
        for k, line in enumerate(self.analysis, 1):
            moves = " ".join(str(p) for p in line.placements)
            self.panel.insert("end", f"{k} {moves} {line.eval} {100 * line.dead_chance:.3f}% +{line.points}")
        self.panel.selection_set(0)
        self.show_analysis_line()

    def show_analysis_line(self) -> None:
        """The line chosen in the panel, from its first placement (step through it with < >)."""
        chosen = self.panel.curselection()
        if not chosen or not self.analysis:
            return
        self.line_at = (chosen[0], 0)
        self.show_line_step()

    def step_line(self, delta: int) -> None:
        if self.line_at is None:
            return
        i, k = self.line_at
        self.line_at = (i, max(0, min(k + delta, len(self.analysis[i].placements))))
        self.show_line_step()

    def show_line_step(self) -> None:
        """The board before placement k+1 of the chosen line (after the earlier ones and their
        clears, as the engine played them), with that placement drawn in its slot's colour."""
        i, k = self.line_at
        line = self.analysis[i]
        n = len(line.placements)
        self.shown_board = self.game.board if k == 0 else self.analysis_boards[i][k - 1]
        self.hint = [(line.placements[k].slot - 1, line.placements[k])] if k < n else []
        self.shown_played = {p.slot - 1 for p in line.placements[:k]}
        self.line_step_var.set(f"placement {k + 1} of {n}" if k < n else f"after all {n}")
        self.status(f"line {i + 1}: " + ", ".join(f"piece {p.slot} at r{p.row}c{p.col}" for p in line.placements)
                    + f"; next hand dead {line.dead}/{line.deals} = {100 * line.dead_chance:.3f}%,"
                    f" {line.points} points")
        self.redraw()

    # --- records -----------------------------------------------------------------------------

    def record(self) -> Record:
        """The game on screen as a record (an open game: no result line)."""
        rec = Record(set_ids=list(self.piece_ids), scoring=self.scoring_var.get() or "blockudoku",
                     comment="blockudoku_gui.py")
        rec.games.append(RecordGame(index="0", seed=self.seed(), events=list(self.events)))
        return rec

    def save_record(self, path: str) -> None:
        engine_set = self.piece_ids == list(range(1, 48))
        try:
            with open(path, "w") as f:
                f.write(format_record(self.record(), self.catalogue, engine_set))
        except OSError as err:
            self.error(f"Cannot save {path}: {err.strerror}")
            return
        self.status(f"saved {path}")

    def ask_save_record(self) -> None:
        path = filedialog.asksaveasfilename(parent=self.root, defaultextension=".bkr",
                                            filetypes=[("Blockudoku records", "*.bkr"), ("All files", "*")])
        if path:
            self.save_record(path)

    def ask_load_record(self) -> None:
        path = filedialog.askopenfilename(parent=self.root, filetypes=[("Blockudoku records", "*.bkr"), ("All files", "*")])
        if path:
            self.load_record(path)

    def load_record(self, path: str, game_index: int = 0) -> bool:
        """Replays game `game_index` of a record through the engine (on the worker); the replay
        bar then steps through it, and a record of several games offers a choice of game.
        False (with a dialog) when the file cannot be read; a game that does not replay is
        reported in a dialog when the engine has answered."""
        try:
            with open(path) as f:
                rec = parse_record(f.read(), self.catalogue)
            game = rec.games[game_index]
        except OSError as err:
            self.error(f"Cannot read {path}: {err.strerror}")
            return False
        except (RecordError, IndexError) as err:
            self.error(f"{path}: {err}")
            return False
        if self.analysing:
            self.leave_analysis()
        self.stop_engine()
        if rec.scoring != (self.scoring_var.get() or "blockudoku"):
            self.set_scoring(rec.scoring)

        def refused(err: BaseException) -> None:
            if isinstance(err, EngineError):
                self.error(f"{path}: the record has an illegal step: {err.message} ({err.command})")
            else:
                self.engine_failed(err)

        def replayed(states: List[Game]) -> None:
            self.record_path, self.record_games = path, rec.games
            self.replay_states = states
            self.replay_labels = self.replay_move_labels(game)
            self.replay_scale.config(to=len(states) - 1)
            self.replay_title.set(f"{path.rsplit('/', 1)[-1]}: game {game_index + 1} of {len(rec.games)}"
                                  + (f", seed {game.seed}" if game.seed is not None else ""))
            if len(rec.games) > 1:
                names = [f"{k + 1}: seed {g.seed}" if g.seed is not None else f"{k + 1}" for k, g in enumerate(rec.games)]
                self.game_pick_box.config(values=names)
                self.game_pick_var.set(names[game_index])
                self.game_pick.pack(fill="x", padx=4, pady=(0, 2))
            else:
                self.game_pick.pack_forget()
            if game.seed is not None:
                self.seed_var.set(str(game.seed))  # the Seed field matches the game shown
            self.replay_bar.pack(side="top", fill="x", pady=(4, 0), after=self.settings_row)
            self.replay_jump(len(states) - 1)
            self.status(f"loaded game {game_index + 1} of {len(rec.games)} from {path.rsplit('/', 1)[-1]}")

        self.calls.call(lambda: self.replay_through_engine(game), replayed, refused)
        return True

    def pick_game(self) -> None:
        """Another game of the loaded record, chosen in the Game box."""
        index = int(self.game_pick_var.get().split(":")[0]) - 1
        if self.replay_states is not None and 0 <= index < len(self.record_games):
            self.load_record(self.record_path, index)

    def replay_through_engine(self, game: RecordGame) -> List[Game]:
        """Every position of the game: the start, then after each placement (the engine's)."""
        state = Game(hand=[None, None, None])
        states: List[Game] = []
        self.engine.newgame()
        for kind, items in game.events:
            if kind == "hand":
                if any(p is not None for p in state.hand):
                    raise EngineError("a hand dealt before the last one was played", "hand")
                state = Game(state.board, (list(items) + [None, None, None])[:3], state.score, state.streak, state.placed)
                # The new hand is shown with the placement that emptied the last one.
                if states:
                    states[-1] = state
                else:
                    states.append(state)
                continue
            for placement in items:
                self.engine.position(state.board, state.hand, state.score, state.streak)
                after = self.engine.play([placement])
                hand = list(state.hand)
                hand[placement.slot - 1] = None
                state = Game(after.board, hand, after.score, after.streak, state.placed + 1)
                states.append(state)
        if not states:
            raise EngineError("the game has no hand", "hand")
        return states

    def replay_move_labels(self, game: RecordGame) -> List[str]:
        labels = ["start"]
        for kind, items in game.events:
            if kind == "play":
                labels += [str(p) for p in items]
        return labels

    def build_replay_bar(self, root: tk.Misc) -> None:
        bar = self.replay_bar = tk.Frame(root, bd=1, relief="groove")
        self.replay_title = tk.StringVar(value="")
        tk.Label(bar, textvariable=self.replay_title, anchor="w", justify="left",
                 wraplength=PANEL_W - 30).pack(fill="x", padx=4)
        row = Flow(bar, gap=2)
        row.pack(fill="x", padx=4)
        self.replay_var = tk.StringVar(value="")
        row.add(tk.Button(row, text="|<", command=lambda: self.replay_jump(0)),
                tk.Button(row, text="<", command=lambda: self.replay_jump(self.replay_at - 1)),
                tk.Button(row, text=">", command=lambda: self.replay_jump(self.replay_at + 1)),
                tk.Button(row, text=">|", command=lambda: self.replay_jump(len(self.replay_states or [0]) - 1)),
                tk.Label(row, textvariable=self.replay_var, width=12, anchor="w"),
                tk.Button(row, text="Close", command=self.new_game))
        self.replay_scale = tk.Scale(bar, from_=0, to=0, orient="horizontal", showvalue=False,
                                     command=self.on_scale)
        self.replay_scale.pack(fill="x", padx=4)
        # A record of several games: which one is shown.
        self.game_pick = tk.Frame(bar)
        tk.Label(self.game_pick, text="Game").pack(side="left")
        self.game_pick_var = tk.StringVar(value="")
        self.game_pick_box = ttk.Combobox(self.game_pick, textvariable=self.game_pick_var, width=18, state="readonly")
        self.game_pick_box.pack(side="left", padx=2)
        self.game_pick_box.bind("<<ComboboxSelected>>", lambda _e: self.pick_game())

    def on_scale(self, value: str) -> None:
        if int(float(value)) != self.replay_at:  # not the echo of replay_jump's own set()
            self.replay_jump(int(float(value)))

    def replay_jump(self, k: int) -> None:
        """Shows the position after placement `k` of the loaded record (0: the start)."""
        if self.replay_states is None:
            return
        if self.analysing:
            self.leave_analysis()
        k = max(0, min(k, len(self.replay_states) - 1))
        self.replay_at = k
        s = self.replay_states[k]
        self.game = Game(s.board, list(s.hand), s.score, s.streak, s.placed)
        if int(float(self.replay_scale.get())) != k:
            self.replay_scale.set(k)
        label = self.replay_labels[k] if k < len(self.replay_labels) else ""
        self.replay_var.set(f"{k}/{len(self.replay_states) - 1} {label}")
        self.hint = []
        self.fits = [True, True, True]
        self.redraw()

    def close_replay(self) -> None:
        if self.replay_states is not None:
            self.replay_states = None
            self.replay_bar.pack_forget()

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
    parser.add_argument("--analysis", action="store_true", help="open on the analysis board")
    parser.add_argument("--load", metavar="FILE", help="open a game record and replay it (protocol/records.md)")
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
    try:
        catalogue = load_catalogue(args.pieces) if args.pieces else engine.catalogue()
    except (OSError, ValueError, EngineProblem) as err:
        engine.quit()
        parser.error(f"--pieces {args.pieces}: {err}" if args.pieces else f"the engine's catalogue: {err}")
    try:
        root = tk.Tk()
    except tk.TclError as err:
        engine.quit()
        parser.exit(2, f"blockudoku_gui.py: cannot open a window: {err}\n")
    app = BlockudokuApp(root, engine, catalogue, seed=args.seed, movetime=args.movetime, delay=args.delay)
    if args.load:
        app.load_record(args.load)  # a record that does not replay is shown in a dialog
    if args.analysis:
        app.enter_analysis()
    try:
        root.mainloop()
    finally:
        app.engine.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
