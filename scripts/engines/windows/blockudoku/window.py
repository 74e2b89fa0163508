"""The Blockudoku window (scripts/blockudoku_gui.py): `BlockudokuApp` owns the game (model.py,
no Tk), the settings row (settings.py, a view) and the engine controller (controller.py: Hint,
the engine's own play, every search, each given its parts in its constructor); the other parts
of this subpackage, each one concern, are still mixed into the window's class and read and set
its state (each part's docstring names what it reads):

- canvas.py: the board canvas (layout, drawing, the mouse)
- game.py: the game on screen and its flow (deals, placements, fits, game over, undo)
- analysis.py: the analysis board
- records.py: game records, saved, loaded and stepped through

This module builds the window (menu, header, the board beside its side panel, the status line),
handles errors and closing, and holds `main`, the command line of scripts/blockudoku_gui.py.
"""
from __future__ import annotations

import argparse
import threading
import tkinter as tk
from typing import Callable, Dict, List, Optional, Tuple

from ... import BlockudokuEngine, EngineDied, EngineError, EngineProblem, Piece, Placement, piece_set
from ...cli import HelpFormatter
from ..dialogs import Dialogs
from ..engine_calls import BusyIndicator, EngineCalls
from ..layout import BoardAndPanel, Flow, ScrollPanel, open_on_screen
from ..run import INTERRUPTED, run_window
from ..supervision import EngineSupervision
from .analysis import AnalysisBoard
from .canvas import CANVAS_H, CANVAS_W, PANEL_W, BoardCanvas, Layout
from .controller import EngineController, Table
from .game import GameFlow
from .model import Game, Snapshot
from .records import RecordReplay
from .settings import SettingsRow

STATUS_WRAP = (620, 500)  # status line width in pixels: alone, and beside Restart engine
# The size the window asks for on a 1366x768 screen: it opens scaled to the screen it is on
# (within it; layout.opening_size); every control stays reachable down to MIN_SIZE (the side
# panel moves below the board and scrolls).
START_SIZE = (900, 640)
MIN_SIZE = (640, 480)


class BlockudokuApp(BoardCanvas, GameFlow, AnalysisBoard, RecordReplay, EngineSupervision):
    """The Blockudoku window, on `root`, driving `engine` (watched and restarted by
    EngineSupervision); hands are dealt from `catalogue`."""

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
        self.catalogue = catalogue
        self.piece_ids = sorted(catalogue)
        self.game = Game()
        self.history: List[Snapshot] = []
        self.fits: List[bool] = [True, True, True]
        self.drag: Optional[dict] = None
        self.hint: List[Tuple[int, Placement]] = []
        self.games_finished: List[int] = []  # final scores, newest last (tests read this)
        self.game_over_window: Optional[tk.Toplevel] = None
        self.closed = False
        self.layout = Layout.fit(CANVAS_W, CANVAS_H)
        # The game as a record: ("hand", ids) and ("play", [Placement]) events, slots 1-3.
        self.events: List[Tuple[str, list]] = []
        self.saved_events: Optional[List[Tuple[str, list]]] = None  # the events last saved
        # Analysis board: on, the game it replaced, the selected tray slot, the last answer.
        self.analysing = False
        self.game_before: Optional[Game] = None
        self.selected_slot = 0
        self.paint: Optional[str] = None  # "#" or "." while a drag fills or empties cells
        self.analysis: list = []
        # A loaded record's positions (after each placement) and the one shown; None: playing.
        self.replay_states: Optional[List[Game]] = None
        self.replay_stop: Optional[threading.Event] = None  # set: the record loading stops (records.py)
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

        self.delay = delay

        panel = self.build_frame(root)
        self.build_game_buttons(panel)
        self.build_settings(panel, engine, seed, movetime)
        self.build_replay_bar(panel)
        self.build_analysis_frame(panel)
        root.protocol("WM_DELETE_WINDOW", self.ask_close)

        self.new_game()

    def build_frame(self, root: tk.Tk) -> tk.Frame:
        """The menu, the header (score, busy bar), the status line and the board beside its
        side panel; returns the panel's frame."""
        root.title("Blockudoku")
        open_on_screen(root, START_SIZE, MIN_SIZE)
        root.report_callback_exception = self.report_exception
        self.dialogs = Dialogs(root, "Blockudoku")
        self.calls = EngineCalls(root, on_error=self.engine_failed)
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

        self.engine_status_row(root, STATUS_WRAP)

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
        return self.side.inner

    def build_game_buttons(self, panel: tk.Frame) -> None:
        """The game's own buttons (the analysis board puts its own in their place)."""
        buttons = self.game_buttons = Flow(panel)
        buttons.pack(fill="x", pady=(0, 2))
        # Fixed widths: a button's text changes (Start/Stop) without moving its neighbours.
        self.engine_button = tk.Button(buttons, text="Start Engine", width=11, command=self.toggle_engine)
        self.hint_button = tk.Button(buttons, text="Hint", width=5, command=self.show_hint)
        self.undo_button = tk.Button(buttons, text="Undo", width=5, command=self.undo)
        self.new_button = tk.Button(buttons, text="New game", command=self.new_game)
        self.analysis_button = tk.Button(buttons, text="Analysis", width=8, command=self.toggle_analysis)
        buttons.add(self.engine_button, self.hint_button, self.undo_button, self.new_button, self.analysis_button)

    def build_settings(self, panel: tk.Frame, engine: BlockudokuEngine, seed: Optional[int], movetime: int) -> None:
        """The settings row (a view: settings.py) and the engine controller that reads it."""
        self.settings = SettingsRow(panel, engine.options, engine.settings, seed, movetime,
                                    on_choice=self.set_option, on_seed=self.new_game)
        self.settings_row = self.settings.frame
        self.settings_row.pack(fill="x", pady=(2, 0))
        # The fields tests and the records read by name.
        self.seed_var, self.seed_entry = self.settings.seed_var, self.settings.seed_entry
        self.movetime_var, self.agent_var = self.settings.movetime_var, self.settings.agent_var
        self.choice_boxes = self.settings.choice_boxes
        table = Table(position_job=self.position_job, place=self.place, game_over=self.game_over,
                      show_hint=self.show_engine_hint, status=self.status, failed=self.engine_failed,
                      asking=lambda: self.dialogs.asking,
                      may_hint=lambda: not self.analysing and self.engine_dead is None,
                      may_play=lambda: self.engine_dead is None and self.replay_states is None,
                      on_hint=lambda on: self.hint_button.config(text="Stop" if on else "Hint"),
                      on_play=self.show_engine_play)
        self.controller = EngineController(self.root, engine, self.calls, self.settings, table, self.delay)

    # --- the engine controller's (controller.py), as the window's buttons and tests name it --

    @property
    def engine(self) -> BlockudokuEngine:
        return self.controller.engine

    @engine.setter
    def engine(self, engine: BlockudokuEngine) -> None:  # a restarted engine (supervision)
        self.controller.engine = engine

    @property
    def autoplay(self) -> bool:
        """The engine plays on its own (Start Engine)."""
        return self.controller.playing

    def show_hint(self) -> None:
        self.controller.hint()

    def toggle_engine(self) -> None:
        self.controller.toggle()

    def stop_engine(self) -> None:
        self.controller.stop_play()

    def set_option(self, name: str, value: str) -> None:
        self.controller.set_option(name, value)

    def set_scoring(self, value: str) -> None:
        self.controller.set_option("Scoring", value)

    def show_engine_hint(self, seq: List[Tuple[int, Placement]]) -> None:
        self.hint = seq
        self.redraw()

    def show_engine_play(self, playing: bool) -> None:
        """The engine's play started (Stop Engine, no Undo) or ended."""
        self.engine_button.config(text="Stop Engine" if playing else "Start Engine")
        self.undo_button.config(state="disabled" if playing else "normal")
        if not playing and self.hint and not self.analysing:
            self.hint = []  # the outline of a placement that will not be played now
            self.redraw()

    # --- the engine's supervision (../supervision.py) ---------------------------------------

    def on_engine_problem(self, err: Exception) -> None:
        self.stop_engine()

    def on_engine_death(self, err: EngineDied) -> None:
        self.stop_engine()

    def resume_job(self) -> Callable[[BlockudokuEngine], None]:
        return self.controller.choices_job()  # a choice made while the engine was dead too

    def engine_resumed(self) -> None:
        self.after_change()  # sends the position; the game goes on where it was

    # --- errors and closing ------------------------------------------------------------------

    @property
    def last_error(self) -> str:
        """The text of the last error dialog (tests read it)."""
        return self.dialogs.last_error

    @property
    def error_window(self) -> Optional[tk.Toplevel]:
        return self.dialogs.window

    def unsaved(self) -> bool:
        """A game in progress that closing would lose: placements made since it was last saved
        (none when a record is shown or the analysis board is on)."""
        return (self.replay_states is None and self.game.placed > 0 and not self.analysing
                and self.events != self.saved_events)

    def ask_close(self) -> None:
        """Closing the window: asks first when a game is in progress, then ends the engine."""
        if self.unsaved():
            # The engine's own play waits while the question is open (engine_step).
            self.dialogs.ask_close(f"The game in progress ({self.game.score} points) is not saved. Close anyway?",
                                   self.close, self.controller.resume)
        else:
            self.close()

    def close(self) -> None:
        """Stops any search, ends the worker and the engine, and closes the window."""
        self.closed = True
        self.stop_engine()
        self.stop_replay()
        self.controller.stop_search()
        self.calls.close()
        self.busy.show(False)
        try:
            self.root.destroy()
        except tk.TclError:
            pass


def main(argv: Optional[List[str]] = None) -> int:
    """scripts/blockudoku_gui.py: its exit status (INTERRUPTED after Ctrl-C in the terminal, at any moment)."""
    try:
        return run(argv)
    except KeyboardInterrupt:
        return INTERRUPTED


def run(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Blockudoku front end driving the engine through its protocol.",
                                     formatter_class=HelpFormatter)
    parser.add_argument("--engine", help="engine command (default: blockudoku from $ENGINE_BIN_DIR or target/release)")
    parser.add_argument("--seed", type=int, help="seed for the deals (default: random)")
    parser.add_argument("--movetime", type=int, default=0, help="engine time per hand in ms (0: a bare go)")
    parser.add_argument("--agent", help="the engine's Agent option to start with (default: the engine's; "
                                        "an agent it does not have is refused before the window opens)")
    parser.add_argument("--delay", type=int, default=350, help="ms between animated engine placements")
    parser.add_argument("--pieces", help="piece set file to deal from, as blockudoku-lab selfplay --pieces reads it "
                                         "(default: the engine's 47 pieces)")
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
        catalogue = engine.catalogue()
        if args.pieces:
            catalogue = piece_set(args.pieces, catalogue)  # read by blockudoku-lab, as batch_eval.py's
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
        return run_window(root, app.close)
    finally:
        app.engine.quit()
