"""The Blockudoku window (scripts/blockudoku_gui.py), made of parts that each hold their own
state and are given what they need when they are made:

- model.py: `Screen`, the game and what the window shows of it (no Tk)
- controller.py: `EngineController`, every engine search (Hint, the engine's own play)
- settings.py: the settings row (a view); canvas.py: the board and the tray (a view)
- game.py: `GameFlow`, the game's flow (deals, placements, fits, game over, undo)
- analysis.py: the analysis board (palette.py: its pieces, lines.py: its lines)
- records.py: game records, saved, loaded and stepped through
- ../supervision.py: the status line and the engine's supervision (death, Restart engine)

This module builds the window (menu, header, the board beside its side panel, the status line),
puts the parts together, and holds `main`, the command line of scripts/blockudoku_gui.py.
"""
from __future__ import annotations

import argparse
import tkinter as tk
from typing import Dict, List, Optional

from ... import BlockudokuEngine, EngineError, EngineProblem, Piece, piece_set
from ...cli import HelpFormatter
from ..dialogs import Dialogs
from ..engine_calls import BusyIndicator, EngineCalls, StopOffer
from ..layout import BoardAndPanel, Flow, ScrollPanel, open_on_screen
from ..run import INTERRUPTED, run_window
from ..supervision import EngineSupervision, SupervisionHooks
from .analysis import AnalysisBoard, AnalysisHooks
from .canvas import PANEL_W, BoardCanvas, CanvasInput
from .controller import EngineController, Table
from .game import FlowHooks, GameFlow
from .model import Game, Screen
from .records import RecordHooks, RecordReplay
from .settings import SettingsRow

STATUS_WRAP = (620, 500)  # status line width in pixels: alone, and beside Restart engine
# The size the window asks for on a 1366x768 screen: it opens scaled to the screen it is on
# (within it; layout.opening_size); every control stays reachable down to MIN_SIZE (the side
# panel moves below the board and scrolls).
START_SIZE = (900, 640)
MIN_SIZE = (640, 480)


class BlockudokuApp:
    """The Blockudoku window, on `root`, driving `engine` (watched and restarted by its
    supervision); hands are dealt from `catalogue`."""

    def __init__(self, root: tk.Tk, engine: BlockudokuEngine, catalogue: Dict[int, Piece], seed: Optional[int] = None,
                 movetime: int = 0, delay: int = 350):
        self.root, self.catalogue = root, catalogue
        self.screen = Screen(sorted(catalogue))
        self.closed = False
        panel = self.build_frame(root)
        self.build_game_buttons(panel)
        self.settings = SettingsRow(panel, engine.options, engine.settings, seed, movetime,
                                    on_choice=self.set_option, on_seed=self.new_game)
        self.settings.frame.pack(fill="x", pady=(2, 0))
        self.controller = EngineController(root, engine, self.calls, self.settings, self.controller_table(), delay)
        self.build_parts(panel)
        root.protocol("WM_DELETE_WINDOW", self.ask_close)
        self.new_game()

    def build_frame(self, root: tk.Tk) -> tk.Frame:
        """The menu, the header (score, busy bar), the status line and the board beside its
        side panel (the canvas is put in it by build_parts); returns the panel's frame."""
        root.title("Blockudoku")
        open_on_screen(root, START_SIZE, MIN_SIZE)
        self.dialogs = Dialogs(root, "Blockudoku")
        self.calls = EngineCalls(root, on_error=lambda err: self.supervision.engine_failed(err))

        menubar = tk.Menu(root)
        game_menu = tk.Menu(menubar, tearoff=False)
        game_menu.add_command(label="New game", command=self.new_game)
        game_menu.add_command(label="Save record...", command=lambda: self.records.ask_save_record())
        game_menu.add_command(label="Load record...", command=lambda: self.records.ask_load_record())
        menubar.add_cascade(label="Game", menu=game_menu)
        root.config(menu=menubar)

        header = tk.Frame(root)
        header.pack(side="top", fill="x", padx=8, pady=(4, 0))
        self.score_var = tk.StringVar(value="Score: 0")
        tk.Label(header, textvariable=self.score_var, font=("Helvetica", 18, "bold")).pack(side="left")
        self.busy = BusyIndicator(header, self.calls)
        self.busy.frame.pack(side="right")

        self.supervision = EngineSupervision(root, root, self.calls, self.dialogs, SupervisionHooks(
            engine=lambda: self.engine, set_engine=self.set_engine, resume_job=lambda: self.controller.choices_job(),
            resumed=lambda: self.flow.after_change(), problem=lambda err: self.stop_engine(),
            died=lambda err: self.stop_engine(), closed=lambda: self.closed), STATUS_WRAP)
        root.report_callback_exception = self.supervision.report_exception

        body = self.body = BoardAndPanel(root, board_min=290)
        body.pack(side="top", fill="both", expand=True, padx=8, pady=4)
        self.side = ScrollPanel(body, width=PANEL_W)
        return self.side.inner

    def build_game_buttons(self, panel: tk.Frame) -> None:
        """The game's own buttons (the analysis board puts its own in their place)."""
        buttons = self.game_buttons = Flow(panel)
        buttons.pack(fill="x", pady=(0, 2))
        # Fixed widths: a button's text changes (Start/Stop) without moving its neighbours.
        self.engine_button = tk.Button(buttons, text="Start Engine", width=11, command=self.toggle_engine)
        self.hint_button = tk.Button(buttons, text="Hint", width=5, command=self.show_hint)
        self.undo_button = tk.Button(buttons, text="Undo", width=5, command=self.undo)
        self.new_button = tk.Button(buttons, text="New game", width=8)
        self.new_offer = StopOffer(self.new_button, self.new_game)
        self.analysis_button = tk.Button(buttons, text="Analysis", width=8, command=self.toggle_analysis)
        buttons.add(self.engine_button, self.hint_button, self.undo_button, self.new_button, self.analysis_button)

    def controller_table(self) -> Table:
        """What the engine controller is given of the window."""
        return Table(position_job=lambda: self.flow.position_job(), place=lambda *a: self.flow.place(*a),
                     game_over=lambda: self.flow.game_over(), show_hint=self.show_engine_hint, status=self.status,
                     failed=self.engine_failed, asking=lambda: self.dialogs.asking,
                     may_hint=lambda: not self.screen.analysing and self.engine_dead is None,
                     may_play=lambda: self.engine_dead is None and self.screen.replay_states is None,
                     on_hint=lambda on: self.hint_button.config(text="Stop" if on else "Hint"),
                     on_play=self.show_engine_play)

    def build_parts(self, panel: tk.Frame) -> None:
        """The canvas, the game flow, the records' bar and the analysis board."""
        s, status, refused = self.screen, self.status, self.supervision.engine_refused
        show_error = self.show_error
        self.board = BoardCanvas(self.body, s, self.catalogue, self.score_var, CanvasInput(
            drop=lambda *a: self.flow.place(*a), may_drag=lambda: not self.autoplay,
            edit_press=lambda *a: self.analysis.edit_press(*a), edit_drag=lambda c: self.analysis.edit_drag(c),
            edit_release=lambda: self.analysis.edit_release(), edit_empty=lambda k: self.analysis.edit_empty(k),
            status=status))
        self.canvas = self.board.canvas
        self.body.place_parts(self.canvas, self.side)
        self.flow = GameFlow(self.root, s, self.catalogue, self.settings, self.controller, self.board, FlowHooks(
            status=status, refused=refused, engine_dead=lambda: self.engine_dead is not None,
            leave_modes=self.leave_modes, waiting=self.new_offer.waiting, waited=self.new_offer.end))
        self.records = RecordReplay(self.root, panel, s, self.catalogue, self.settings, self.controller, self.board,
                                    RecordHooks(status=status, show_error=show_error, refused=refused,
                                                leave_analysis=self.leave_analysis, new_game=self.new_game))
        self.analysis = AnalysisBoard(panel, s, self.catalogue, self.settings, self.controller, self.board,
                                      AnalysisHooks(status=status, show_error=show_error, refused=refused,
                                                    after_change=self.flow.after_change, show_board=self.show_board))

    # --- what the parts are given of the window ----------------------------------------------

    def leave_modes(self) -> None:
        """A new game: the analysis board and a record (loading or loaded) give way."""
        self.analysis.leave()
        self.records.stop_replay()
        self.records.close_replay()

    def show_board(self, analysing: bool) -> None:
        """The analysis board's controls in place of the game's buttons, or back."""
        self.analysis_button.config(text="Game" if analysing else "Analysis")
        for w in (self.engine_button, self.hint_button, self.undo_button):
            w.config(state="disabled" if analysing else "normal")
        if analysing:
            self.game_buttons.pack_forget()
            self.analysis.frame.pack(side="top", fill="x", pady=(4, 4))
        else:
            self.analysis.frame.pack_forget()
            self.game_buttons.pack(fill="x", pady=(0, 2), before=self.settings.frame)

    def set_engine(self, engine: BlockudokuEngine) -> None:  # a restarted engine (supervision)
        self.controller.engine = engine

    def show_engine_hint(self, seq) -> None:
        self.screen.hint = seq
        self.board.redraw()

    def show_engine_play(self, playing: bool) -> None:
        """The engine's play started (Stop Engine, no Undo) or ended."""
        self.engine_button.config(text="Stop Engine" if playing else "Start Engine")
        self.undo_button.config(state="disabled" if playing else "normal")
        if not playing and self.screen.hint and not self.screen.analysing:
            self.screen.hint = []  # the outline of a placement that will not be played now
            self.board.redraw()
        if not playing:
            self.flow.play_ended()

    # --- the window's commands (its buttons and menu; tests call them by name) ---------------

    def new_game(self) -> None:
        self.flow.new_game()

    def undo(self) -> None:
        self.flow.undo()

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

    def toggle_analysis(self) -> None:
        self.analysis.toggle()

    def enter_analysis(self) -> None:
        self.analysis.enter()

    def leave_analysis(self) -> None:
        self.analysis.leave()

    def load_record(self, path: str, game_index: int = 0) -> bool:
        return self.records.load_record(path, game_index)

    def save_record(self, path: str) -> None:
        self.records.save_record(path)

    # --- what the window shows (tests read it) -----------------------------------------------

    @property
    def engine(self) -> BlockudokuEngine:
        return self.controller.engine

    @property
    def autoplay(self) -> bool:
        """The engine plays on its own (Start Engine)."""
        return self.controller.playing

    @property
    def game(self) -> Game:
        return self.screen.game

    @property
    def engine_dead(self):
        return self.supervision.engine_dead

    @property
    def status_var(self) -> tk.StringVar:
        return self.supervision.status_var

    def status(self, text: str) -> None:
        self.supervision.status(text)

    def show_error(self, text: str) -> None:
        self.supervision.show_error(text)

    def engine_failed(self, err: BaseException) -> None:
        self.supervision.engine_failed(err)

    @property
    def last_error(self) -> str:
        """The text of the last error dialog (tests read it)."""
        return self.dialogs.last_error

    @property
    def error_window(self) -> Optional[tk.Toplevel]:
        return self.dialogs.window

    # --- closing -----------------------------------------------------------------------------

    def unsaved(self) -> bool:
        return self.screen.unsaved()

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
        self.records.stop_replay()
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
