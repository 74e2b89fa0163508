"""The Competitive Sudoku window (scripts/sudoku_gui.py): `SudokuApp` owns the game (model.py, no
Tk) and the engine controller (controller.py: every search, hints and the agents' moves, each
agent player's own engine, given its parts in its constructor); the other parts of this
subpackage, each one concern, are still mixed into the window's class and read and set its state
(each part's docstring names what it reads):

- names.py: board sizes, cell and move names
- board.py: the board's drawing, the lists and values beside it, mouse and keys
- play.py: moves through the referee, Hint and the agents' turns (asked of the controller)
- records.py: game records, saved, loaded and stepped through
- modes.py: the window of the script (competitive game or puzzle) and its command line

This module builds the window (header, the board beside its side panel, the status line), sets
up a new game, shows errors and closes the game.
"""
from __future__ import annotations

import os
import tkinter as tk
from tkinter import filedialog, ttk
from typing import Callable, Optional, Tuple

from ... import MODES, EngineError, SudokuEngine, SudokuMove, SudokuState
from ..dialogs import Dialogs, GameChoice
from ..engine_calls import BusyIndicator, EngineCalls, StopOffer, Wait
from ..layout import BoardAndPanel, Flow, ScrollPanel, open_on_screen
from ..supervision import EngineSupervision, SupervisionHooks
from .board import ALLOWED, BOARD_PX, COLOURS, HINT, LABELS_PX, SELECTED, SELECTED_OUTLINE, BoardView
from .names import (ANALYSIS_FONT, ANALYSIS_LINES, HINT_TEXT, HUMAN, NO_ANALYSIS, SIZES, BoardSizeError, block_shape,
                    engine_reason, size_name)
from .model import SudokuGame
from .controller import SudokuController, Table
from .play import GamePlay
from .records import GameRecords

PANEL_W = 320  # the side panel: values, hint, moves, the game's settings
# The size the window asks for on a 1366x768 screen: it opens scaled to the screen it is on
# (within it; layout.opening_size); every control stays reachable down to MIN_SIZE (the side
# panel moves below the board and scrolls).
START_SIZE = (820, 600)
MIN_SIZE = (640, 480)


class SudokuApp(BoardView, GamePlay, GameRecords):
    """A game of Competitive Sudoku on `root`, refereed by `engine` (watched and restarted by its
    supervision, ../supervision.py); `on_switch("puzzle")` is called when the puzzle mode is chosen."""

    def __init__(self, root: tk.Tk, engine: SudokuEngine, board: str = "3x3", mode: str = "classic",
                 players: Tuple[str, str] = (HUMAN, "default"), movetime: int = 500,
                 on_switch: Optional[Callable[[str], None]] = None):
        self.root = root
        # Called with "puzzle" when that mode is chosen (the window then shows the puzzle game).
        self.on_switch = on_switch
        self.closed = False
        self.state: Optional[SudokuState] = None
        self.selected: Optional[Tuple[int, int]] = None
        self.moving = False  # a move is with the referee: no other until it answers
        self.calls = EngineCalls(root, on_error=lambda err: self.engine_failed(err))
        # The one part that asks the engines to search (hints, the agents' moves).
        self.controller = SudokuController(engine, self.calls, Table(
            on_thinking=lambda on: self.hint_button.config(text="Stop" if on else HINT_TEXT),
            show_info=self.show_info, failed=lambda err: self.engine_failed(err)))
        self.dialogs = Dialogs(root, "Competitive Sudoku")
        self.last_reply = ""
        self.game_over = False
        self.board_file: Optional[str] = None
        # How the game on screen came about (model.py), so a restarted engine can be given it
        # again and a record can be saved.
        self.game = SudokuGame()
        self.hint: Optional[SudokuMove] = None
        self.board_px = BOARD_PX
        self.labels_px = LABELS_PX  # room for the row and column numbers: it grows with the board
        self.left = 0  # the blank left of the row numbers when the canvas is wider than tall

        side = self.build_frame(root)
        self.build_play_column(side)
        self.build_game_settings(side, board, mode)
        self.build_players(side, players, movetime)

        self.new_game()

    def build_frame(self, root: tk.Tk) -> tk.Frame:
        """The header (scores, whose turn, busy bar), the status line and the board beside its
        side panel; returns the panel's frame."""
        root.title("Competitive Sudoku")
        open_on_screen(root, START_SIZE, MIN_SIZE)
        agent_opt = self.engine.options.get("Agent")
        self.agents = list(agent_opt.choices) if agent_opt and agent_opt.choices else [agent_opt.default if agent_opt else "default"]
        self.analysis_agent = agent_opt.default if agent_opt and agent_opt.default else self.agents[0]

        top = tk.Frame(root)
        top.pack(fill="x", padx=8, pady=4)
        self.score_var = tk.StringVar()
        self.turn_var = tk.StringVar()
        tk.Label(top, textvariable=self.score_var, font=("Helvetica", 13, "bold")).pack(side="left")
        self.busy = BusyIndicator(top, self.calls)
        self.busy.frame.pack(side="right")
        tk.Label(top, textvariable=self.turn_var, font=("Helvetica", 10)).pack(side="right")

        self.supervision = EngineSupervision(root, root, self.calls, self.dialogs, SupervisionHooks(
            engine=lambda: self.engine, set_engine=self.set_engine, resume_job=self.resume_job,
            resumed=self.engine_resumed, died=self.on_engine_death, closed=lambda: self.closed), (560, 460))
        root.report_callback_exception = self.supervision.report_exception

        body = BoardAndPanel(root, board_min=280)
        body.pack(padx=8, fill="both", expand=True)
        side_px = BOARD_PX + LABELS_PX + 4
        self.canvas = tk.Canvas(body, width=side_px, height=side_px, bg=root.cget("bg"), highlightthickness=0)
        self.canvas.bind("<ButtonPress-1>", self.on_click)
        self.canvas.bind("<Configure>", self.on_resize)
        root.bind("<Key>", self.on_key)
        root.protocol("WM_DELETE_WINDOW", self.ask_close)
        self.panel = ScrollPanel(body, width=PANEL_W)
        body.place_parts(self.canvas, self.panel)
        return self.panel.inner

    def build_play_column(self, side: tk.Frame) -> None:
        """The values, Hint and its analysis, the legend, the move list with its steps, the
        taboo list."""
        # The values first: a click on a cell, then on a value (or a key) moves.
        self.values_frame = Flow(side, gap=0)
        self.values_frame.pack(fill="x")
        self.hint_button = tk.Button(side, text=HINT_TEXT, command=self.show_hint)
        self.hint_button.pack(fill="x", pady=(2, 0))
        self.analysis_var = tk.StringVar(value=NO_ANALYSIS)
        # A fixed height, room for all show_info writes (score and depth, and the line on the
        # rows left): the controls below do not move as it changes, and no line of it is cut.
        self.analysis_label = tk.Label(side, textvariable=self.analysis_var, justify="left", anchor="nw",
                                       wraplength=PANEL_W - 20, height=ANALYSIS_LINES, font=ANALYSIS_FONT)
        self.analysis_label.pack(fill="x")
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
        self.replay_buttons = {}
        for name, text, command in (("first", "|<", lambda: self.goto(0)), ("back", "<", lambda: self.goto(self.game.view - 1)),
                                    ("forward", ">", lambda: self.goto(self.game.view + 1)),
                                    ("last", ">|", lambda: self.goto(len(self.game.steps)))):
            self.replay_buttons[name] = tk.Button(replay, text=text, width=2, command=command)
            self.replay_buttons[name].pack(side="left")
        # A record of several games: which one is shown.
        self.game_choice = GameChoice(side, 10, self.pick_game)
        self.game_path = ""
        tk.Label(side, text="Taboo moves").pack(anchor="w")
        self.taboo_list = tk.Listbox(side, width=22, height=2)
        self.taboo_list.pack(fill="x")

    def build_game_settings(self, side: tk.Frame, board: str, mode: str) -> None:
        """Board size, mode, New game, and the board and record files."""
        chooser = Flow(side)
        chooser.pack(fill="x", pady=(4, 0))
        try:
            board = size_name(*block_shape(board))
        except BoardSizeError:
            pass  # new_game refuses it in a dialog
        self.size_var = tk.StringVar(value=board)
        board_pair = tk.Frame(chooser)
        tk.Label(board_pair, text="Board").pack(side="left")
        ttk.Combobox(board_pair, textvariable=self.size_var, values=SIZES, width=14).pack(side="left", padx=2)
        mode_pair = tk.Frame(chooser)
        tk.Label(mode_pair, text="Mode").pack(side="left")
        self.mode_var = tk.StringVar(value=mode)
        ttk.Combobox(mode_pair, textvariable=self.mode_var, values=MODES + (("puzzle",) if self.on_switch else ()), width=8,
                     state="readonly").pack(side="left", padx=2)
        self.new_button = tk.Button(chooser, text="New game")
        self.new_offer = StopOffer(self.new_button, self.new_game)
        chooser.add(board_pair, mode_pair, self.new_button,
                    tk.Button(chooser, text="Board file...", command=self.choose_file),
                    tk.Button(chooser, text="Save game...", command=self.choose_save),
                    tk.Button(chooser, text="Load game...", command=self.choose_load))

    def build_players(self, side: tk.Frame, players: Tuple[str, str], movetime: int) -> None:
        """Who plays each side (human or an agent) and the agents' time per move."""
        players_row = Flow(side)
        players_row.pack(fill="x", pady=2)
        self.player_vars = []
        pairs = []
        for p in (1, 2):
            pair = tk.Frame(players_row)
            tk.Label(pair, text=f"Player {p}", fg=COLOURS[p]).pack(side="left", padx=(0, 2))
            var = tk.StringVar(value=players[p - 1])
            ttk.Combobox(pair, textvariable=var, values=[HUMAN] + self.agents, width=9, state="readonly").pack(side="left")
            var.trace_add("write", lambda *_: self.root.after(50, self.maybe_agent_move))
            self.player_vars.append(var)
            pairs.append(pair)
        ms_pair = tk.Frame(players_row)
        tk.Label(ms_pair, text="ms/move").pack(side="left", padx=(0, 2))
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(ms_pair, from_=10, to=60000, increment=100, textvariable=self.movetime_var, width=6).pack(side="left")
        players_row.add(*pairs, ms_pair)

    # --- the supervision (../supervision.py): the status line, the engine's death, a restart --

    @property
    def engine_dead(self):
        return self.supervision.engine_dead

    @property
    def status_var(self) -> tk.StringVar:
        return self.supervision.status_var

    @property
    def restart_button(self) -> tk.Button:
        return self.supervision.restart_button

    def status(self, text: str) -> None:
        self.supervision.status(text)

    def show_error(self, text: str, title: Optional[str] = None) -> None:
        self.supervision.show_error(text, title)

    def engine_failed(self, err: BaseException) -> None:
        self.supervision.engine_failed(err)

    def engine_refused(self, err: BaseException, show) -> None:  # the engine's error to `show`
        self.supervision.engine_refused(err, show)

    # --- dialogs, closing, a new game --------------------------------------------------------

    @property
    def dialog(self) -> Optional[tk.Toplevel]:
        return self.dialogs.window

    @property
    def dialog_text(self) -> str:
        return self.dialogs.text

    def close_dialog(self) -> None:
        self.dialogs.close()

    def ask_close(self) -> None:
        """Closing the window: asks first when a game is in progress, then ends the engines."""
        if self.unsaved() and not self.closed:
            # The agents wait while the question is open (maybe_agent_move).
            self.dialogs.ask_close(f"The game in progress ({len(self.game.steps)} moves) is not saved. Close anyway?",
                                   self.close_window, self.maybe_agent_move)
        else:
            self.close_window()

    def unsaved(self) -> bool:
        """A game in progress that closing would lose: moves played since it was started,
        loaded or saved (stepping through the moves changes nothing)."""
        return self.game.unsaved(self.game_over)

    def close_window(self) -> None:
        self.close()
        try:
            self.root.destroy()
        except tk.TclError:
            pass

    def new_game(self, path: Optional[str] = None) -> None:
        if self.mode_var.get() == "puzzle" and self.on_switch is not None and not path:
            self.on_switch("puzzle")
            return
        if self.engine_dead is not None:
            return  # the game on screen is kept until the engine is restarted
        if not path:
            try:
                m, n = block_shape(self.size_var.get())
            except BoardSizeError as err:
                self.show_error(str(err), "Board size")
                return
        self.cancel_search()
        self.selected = None
        self.game_over = False
        self.board_file = path
        if path:
            setup = ("file", path)
        else:
            rows = "/".join(["." * (m * n)] * (m * n))
            try:
                setup = ("line", SudokuEngine.position_line(m, n, rows, mode=self.mode_var.get()))
            except ValueError as err:
                self.show_error(f"cannot set up that board: {err}", "Board")
                return

        def refused(err: BaseException) -> None:
            if isinstance(err, (ValueError, EngineError)):
                reason = engine_reason(getattr(err, "message", str(err)))
                what = f"cannot open the board file {os.path.basename(path)}" if path else "cannot set up that board"
                self.show_error(f"{what}: {reason}", "Board")
            else:
                self.engine_failed(err)

        def started(state: SudokuState) -> None:
            self.start_from(setup, state)
            self.state = state
            self.game_over = state.result is not None
            self.status("new game" + (f" from {os.path.basename(path)}" if path else ""))
            self.draw()
            self.maybe_agent_move()

        # An engine that does not answer is not searching: New game reads Stop, which ends it
        # (then reported, with Restart engine).
        wait = Wait()
        self.new_offer.waiting(wait.stop)

        def ended(then: Callable[[object], None]) -> Callable[[object], None]:
            def end(value) -> None:
                self.new_offer.end(wait.stop)
                then(value)
            return end

        self.controller.start(setup, ended(started), ended(refused), wait)

    def start_from(self, setup: Tuple[str, str], state: SudokuState) -> None:
        """The game now starts at `state` (what the engine read from `setup`): the Board and Mode
        choices follow it (a rows-mode board file shows rows)."""
        self.game.begin(setup, state, (self.player_kind(1), self.player_kind(2)), (self.time_text(1), self.time_text(2)))
        self.hint = None
        self.analysis_var.set(NO_ANALYSIS)
        self.size_var.set(size_name(state.m, state.n))
        self.mode_var.set(state.mode)

    def time_text(self, player: int) -> str:
        return "none" if self.player_kind(player) == HUMAN else f"movetime {self.movetime()}"

    def movetime(self) -> int:
        try:
            return max(1, int(self.movetime_var.get()))
        except ValueError:
            return 500

    def close(self) -> None:
        """Ends the game (and its search) and clears the window for another mode."""
        self.controller.cancel()
        self.closed = True
        self.calls.close()
        self.busy.show(False)
        self.controller.close()
        for child in self.root.winfo_children():
            child.destroy()
        self.root.unbind("<Key>")

    def choose_file(self) -> None:
        path = filedialog.askopenfilename(title="Board file", filetypes=[("Board files", "*.txt"), ("All files", "*")])
        if path:
            self.new_game(path)
