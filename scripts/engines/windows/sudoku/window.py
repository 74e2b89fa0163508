"""The Competitive Sudoku window (scripts/sudoku_gui.py), made of parts that each hold their
own state and are given what they need when they are made:

- model.py: `SudokuGame` and `Screen`, the game and what the window shows of it (no Tk)
- controller.py: `SudokuController`, every search (hints, the agents' moves on their own engines)
- board.py: `BoardView`, the board, the lists and values beside it, the mouse and keys (a view)
- play.py: `GamePlay`, moves through the referee, Hint and the agents' turns
- records.py: `GameRecords`, game records, saved, loaded and stepped through
- names.py: board sizes, cell and move names; modes.py: the window of the script (competitive
  game or puzzle) and its command line
- ../supervision.py: the status line and the engine's supervision (death, Restart engine)

This module builds the window (header, the board beside its side panel, the settings, the status
line), puts the parts together, sets up a new game, and closes the game.
"""
from __future__ import annotations

import os
import tkinter as tk
from tkinter import filedialog
from typing import Callable, Optional, Tuple

from ... import EngineError, SudokuEngine, SudokuState
from ..dialogs import Dialogs
from ..engine_calls import BusyIndicator, EngineCalls, Wait
from ..layout import BoardAndPanel, ScrollPanel, open_on_screen
from ..supervision import EngineSupervision, SupervisionHooks
from .board import BoardInput, BoardView
from .controller import SudokuController, Table
from .model import Screen, SudokuGame
from .names import (ANALYSIS_FONT, ANALYSIS_LINES, HINT_TEXT, HUMAN, NO_ANALYSIS, BoardSizeError, block_shape,
                    engine_reason, size_name)
from .play import GamePlay, PlayHooks
from .records import GameRecords, RecordHooks
from .settings import GameSettings, SettingsCommands

PANEL_W = 320  # the side panel: values, hint, moves, the game's settings
# The size the window asks for on a 1366x768 screen: it opens scaled to the screen it is on
# (within it; layout.opening_size); every control stays reachable down to MIN_SIZE (the side
# panel moves below the board and scrolls).
START_SIZE = (820, 600)
MIN_SIZE = (640, 480)


class SudokuApp:
    """A game of Competitive Sudoku on `root`, refereed by `engine` (watched and restarted by its
    supervision); `on_switch("puzzle")` is called when the puzzle mode is chosen."""

    def __init__(self, root: tk.Tk, engine: SudokuEngine, board: str = "3x3", mode: str = "classic",
                 players: Tuple[str, str] = (HUMAN, "default"), movetime: int = 500,
                 on_switch: Optional[Callable[[str], None]] = None):
        self.root = root
        # Called with "puzzle" when that mode is chosen (the window then shows the puzzle game).
        self.on_switch = on_switch
        self.closed = False
        self.screen = Screen()
        self.calls = EngineCalls(root, on_error=lambda err: self.engine_failed(err))
        # The one part that asks the engines to search (hints, the agents' moves).
        self.controller = SudokuController(engine, self.calls, Table(
            on_thinking=lambda on: self.hint_button.config(text="Stop" if on else HINT_TEXT),
            show_info=lambda info: self.play.show_info(info), failed=lambda err: self.engine_failed(err)))
        self.dialogs = Dialogs(root, "Competitive Sudoku")
        self.board_file: Optional[str] = None

        side = self.build_frame(root)
        self.build_play_column(side)
        self.settings = GameSettings(side, board, mode, on_switch is not None, self.agents, players, movetime,
                                     SettingsCommands(
                                         new_game=self.new_game, board_file=self.choose_file,
                                         save=lambda: self.records.choose_save(), load=lambda: self.records.choose_load(),
                                         players_changed=lambda: self.root.after(50, self.maybe_agent_move)))
        self.records = GameRecords(side, self.screen, self.controller, self.board, RecordHooks(
            status=self.status, show_error=self.show_error, refused=self.supervision.engine_refused,
            engine_dead=lambda: self.engine_dead is not None, players=self.settings.players,
            humans=self.settings.humans,
            start_from=self.start_from, clear_analysis=lambda: self.analysis_var.set(NO_ANALYSIS),
            agent_move=self.maybe_agent_move))
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
            resumed=lambda: self.play.refresh(), died=lambda err: self.controller.cancel(),
            closed=lambda: self.closed), (560, 460))
        root.report_callback_exception = self.supervision.report_exception

        body = BoardAndPanel(root, board_min=280)
        body.pack(padx=8, fill="both", expand=True)
        self.board = BoardView(body, self.screen, self.score_var, self.turn_var, BoardInput(
            choose_value=lambda v: self.play.choose_value(v), pass_turn=lambda: self.play.pass_turn(),
            hint=self.show_hint, goto=lambda k: self.records.goto(k),
            human_to_move=lambda: self.play.human_to_move(), player_kind=self.player_kind))
        self.canvas = self.board.canvas
        root.bind("<Key>", self.board.on_key)
        root.protocol("WM_DELETE_WINDOW", self.ask_close)
        self.panel = ScrollPanel(body, width=PANEL_W)
        body.place_parts(self.canvas, self.panel)
        return self.panel.inner

    def build_play_column(self, side: tk.Frame) -> None:
        """The values, Hint and its analysis, the legend, the move list with its steps, the
        taboo list."""
        self.board.build_values(side)
        self.hint_button = tk.Button(side, text=HINT_TEXT, command=self.show_hint)
        self.hint_button.pack(fill="x", pady=(2, 0))
        self.analysis_var = tk.StringVar(value=NO_ANALYSIS)
        # A fixed height, room for all show_info writes (score and depth, and the line on the
        # rows left): the controls below do not move as it changes, and no line of it is cut.
        self.analysis_label = tk.Label(side, textvariable=self.analysis_var, justify="left", anchor="nw",
                                       wraplength=PANEL_W - 20, height=ANALYSIS_LINES, font=ANALYSIS_FONT)
        self.analysis_label.pack(fill="x")
        self.board.build_lists(side)
        self.play = GamePlay(self.root, self.screen, self.controller, self.board, self.analysis_var,
                             self.analysis_label, self.analysis_agent, PlayHooks(
                                 status=self.status, refused=self.supervision.engine_refused,
                                 player_kind=self.player_kind, movetime=lambda: self.settings.movetime(),
                                 usable=lambda: not self.closed and self.engine_dead is None,
                                 asking=lambda: self.dialogs.asking))

    # --- what the parts are given of the window ----------------------------------------------

    @property
    def engine(self) -> SudokuEngine:
        return self.controller.engine

    def set_engine(self, engine: SudokuEngine) -> None:  # a restarted engine (supervision)
        self.controller.engine = engine

    def resume_job(self) -> Callable[[SudokuEngine], None]:
        """What a restarted referee is told: the game on screen."""
        return self.controller.resume_job(self.game.setup, list(self.game.moves))

    def player_kind(self, player: int) -> str:
        return self.settings.player_kind(player)

    # --- the window's commands (tests call them by name) -------------------------------------

    def show_hint(self) -> None:
        self.play.show_hint()

    def maybe_agent_move(self) -> None:
        self.play.maybe_agent_move()

    def cancel_search(self) -> None:
        """Stops a search in progress at once (`stop`); its answer is dropped when it comes."""
        self.controller.cancel()

    def load_game(self, path: str, index: int = 0) -> bool:
        return self.records.load_game(path, index)

    @property
    def game(self) -> SudokuGame:
        return self.screen.game

    @property
    def thinking(self) -> bool:
        """A search (an agent's move or a hint) is running."""
        return self.controller.thinking

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
        return self.game.unsaved(self.screen.game_over)

    def close_window(self) -> None:
        self.close()
        try:
            self.root.destroy()
        except tk.TclError:
            pass

    def new_game(self, path: Optional[str] = None) -> None:
        size_var, mode_var = self.settings.size_var, self.settings.mode_var
        if mode_var.get() == "puzzle" and self.on_switch is not None and not path:
            self.on_switch("puzzle")
            return
        if self.engine_dead is not None:
            return  # the game on screen is kept until the engine is restarted
        if not path:
            try:
                m, n = block_shape(size_var.get())
            except BoardSizeError as err:
                self.show_error(str(err), "Board size")
                return
        self.cancel_search()
        self.screen.selected, self.screen.game_over = None, False
        self.board_file = path
        if path:
            setup = ("file", path)
        else:
            rows = "/".join(["." * (m * n)] * (m * n))
            try:
                setup = ("line", SudokuEngine.position_line(m, n, rows, mode=mode_var.get()))
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
            self.screen.shows(state)
            self.status("new game" + (f" from {os.path.basename(path)}" if path else ""))
            self.board.draw()
            self.maybe_agent_move()

        # An engine that does not answer is not searching: New game reads Stop, which ends it
        # (then reported, with Restart engine).
        wait = Wait(own_button=True)
        self.settings.new_offer.waiting(wait.stop)

        def ended(then: Callable[[object], None]) -> Callable[[object], None]:
            def end(value) -> None:
                self.settings.new_offer.end(wait.stop)
                then(value)
            return end

        self.controller.start(setup, ended(started), ended(refused), wait)

    def start_from(self, setup: Tuple[str, str], state: SudokuState) -> None:
        """The game now starts at `state` (what the engine read from `setup`): the Board and Mode
        choices follow it (a rows-mode board file shows rows)."""
        self.game.begin(setup, state, *self.settings.players())
        self.screen.hint = None
        self.analysis_var.set(NO_ANALYSIS)
        self.settings.size_var.set(size_name(state.m, state.n))
        self.settings.mode_var.set(state.mode)

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
