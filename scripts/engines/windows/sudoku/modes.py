"""The window of scripts/sudoku_gui.py and its command line: `Window` shows the game of the Mode
chosen (a competitive `SudokuApp`, or the classic puzzle), `main` parses the options, refuses
bad ones in one line before a window opens, and runs the window.

The puzzle game is the package's too (engines/windows/puzzle/).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tkinter as tk
from typing import List, Optional

from ... import MODES, EngineProblem, SudokuEngine, find_binary
from ...cli import HelpFormatter, check_option_values
from ...tools import DIFFICULTIES, SudokuTools
from ..dialogs import Dialogs
from ..engine_calls import EngineCalls, Wait
from .names import HUMAN, BoardSizeError, block_shape
from ..puzzle import SIZE_OF_SHAPE, PuzzleApp
from ..run import INTERRUPTED, run_window
from ..supervision import end_engines
from .window import SudokuApp


class Window:
    """The window's game: a competitive-sudoku SudokuApp or the puzzle game (PuzzleApp),
    switched by the Mode choice."""

    def __init__(self, root: tk.Tk, args: argparse.Namespace):
        self.root = root
        self.args = args
        self.engine_argv = args.engine.split() if args.engine else None
        self.app: Optional[object] = None
        self.calls: Optional[EngineCalls] = None  # starts the engine of a mode chosen in the window
        self.stop_button: Optional[tk.Button] = None  # ends that start

    def close(self) -> None:
        if self.app is not None:
            try:
                self.app.close()
            except tk.TclError:
                pass  # the window is gone already
            if isinstance(self.app, SudokuApp):
                end_engines([self.app.engine], timeout=3.0)
            self.app = None

    def start(self, mode: str, file: Optional[str] = None, background: bool = False) -> Optional[object]:
        """Shows the game of `mode` (EngineProblem when its engine cannot start). With
        `background` (a mode chosen in the window) the engine starts on a worker thread and the
        game shows when it is ready (None is returned)."""
        self.close()
        args = self.args
        if mode == "puzzle":
            tools = SudokuTools(self.engine_argv[0] if self.engine_argv else None)
            app = PuzzleApp(self.root, tools, shape=args.board, difficulty=args.difficulty, seed=args.seed,
                          on_switch=self.switch, other_modes=MODES)
            if file:
                app.open_path(os.path.abspath(file))
            self.app = app
            return app
        if not background:
            return self.competitive(SudokuEngine(self.engine_argv), mode, file)
        self.start_engine(mode, file)
        return None

    def start_engine(self, mode: str, file: Optional[str]) -> None:
        """The engine of `mode` starts on a worker thread; meanwhile the window says so beside a
        Stop button (`stop_button`) that ends the start. A start stopped or failed brings the
        puzzle back (a failure with its reason in a dialog)."""
        if self.calls is None:
            self.calls = EngineCalls(self.root)
        wait = Wait(own_button=True)
        note = tk.Frame(self.root)
        tk.Label(note, text="starting the engine...").pack(side="left")
        self.stop_button = tk.Button(note, text="Stop", command=wait.stop)
        self.stop_button.pack(side="left", padx=8)
        note.pack(expand=True)

        def started(engine: SudokuEngine) -> None:
            note.destroy()
            self.competitive(engine, mode, file)

        def failed(err: BaseException) -> None:
            note.destroy()
            self.start("puzzle")
            if not wait.stopped.is_set():
                Dialogs(self.root, "Competitive Sudoku").error(f"cannot start the engine: {err}")

        self.calls.call(lambda: SudokuEngine(self.engine_argv, on_start=wait.begin), started, failed, wait)

    def switch(self, mode: str) -> None:
        """The Mode choice of the window: another game in the same window."""
        self.start(mode, background=True)

    def competitive(self, engine: SudokuEngine, mode: str, file: Optional[str]) -> "SudokuApp":
        args = self.args
        app = SudokuApp(self.root, engine, board=args.board, mode=mode, players=(args.player1, args.player2),
                        movetime=args.movetime,
                        on_switch=self.switch)
        if file:
            app.new_game(os.path.abspath(file))
        self.app = app
        return app


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Competitive Sudoku front end driving sudoku-agent through its protocol,\n"
                                                 "or (--mode puzzle) the classic sudoku with the engine as its referee and solver.",
                                     formatter_class=HelpFormatter)
    parser.add_argument("--engine", help="agent command (default: sudoku-agent from $ENGINE_BIN_DIR or target/release)")
    parser.add_argument("--board", default="3x3", help="block shape m x n (3x3), or the grid it makes (9x9); "
                                                       "puzzle: 2x2, 2x3, 3x3, 3x4, 4x4")
    parser.add_argument("--mode", default="classic", choices=MODES + ("puzzle",), help="play mode, or the puzzle")
    parser.add_argument("--file", help="start from a board file (either course-framework format); puzzle mode: a puzzle file")
    parser.add_argument("--load", help="open a game record (protocol/records.md) to step through and analyse")
    parser.add_argument("--player1", default=HUMAN, help="'human' or one of the engine's agents (its Agent option)")
    parser.add_argument("--player2", default="default", help="'human' or one of the engine's agents")
    parser.add_argument("--movetime", type=int, default=500, help="agent time per move in ms")
    parser.add_argument("--difficulty", default="easy", choices=DIFFICULTIES, help="puzzle mode: difficulty of New")
    parser.add_argument("--seed", type=int, default=1, help="puzzle mode: seed of the first generated puzzle")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """scripts/sudoku_gui.py: its exit status (INTERRUPTED after Ctrl-C in the terminal, at any moment)."""
    try:
        return run(argv)
    except KeyboardInterrupt:
        return INTERRUPTED


def run(argv: Optional[List[str]] = None) -> int:
    """scripts/sudoku_gui.py: the window of the chosen mode, or one line on a bad option (exit 2)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        m, n = block_shape(args.board)
    except BoardSizeError as err:
        parser.error(str(err))
    args.board = f"{m}x{n}"
    if args.engine:
        program = args.engine.split()[0] if args.engine.split() else ""
        if not (shutil.which(program) or os.path.isfile(program)):
            print(f"sudoku_gui: --engine '{args.engine}': no such program", file=sys.stderr)
            return 2
    if args.mode == "puzzle" and args.board not in SIZE_OF_SHAPE:
        parser.error(f"--board {args.board}: the puzzle mode has the boards "
                     + ", ".join(f"{shape} ({grid} grid)" for shape, grid in SIZE_OF_SHAPE.items()))
    if args.load and args.mode == "puzzle":
        parser.error("--load opens a Competitive Sudoku game record, not a puzzle")
    agents = [p for p in (args.player1, args.player2) if p != HUMAN]
    if args.mode != "puzzle" and agents:
        try:
            command = args.engine.split() if args.engine else [str(find_binary("sudoku-agent"))]
        except FileNotFoundError as err:
            parser.error(str(err))
        refusal = check_option_values(command, SudokuEngine, [("Agent", agents)], "sudoku_gui")
        if refusal:
            parser.error(refusal)
    try:
        root = tk.Tk()
    except tk.TclError as err:
        print(f"sudoku_gui: no display to open the window on ({err})", file=sys.stderr)
        return 2
    window = Window(root, args)
    try:
        app = window.start(args.mode, args.file)
    except (EngineProblem, OSError) as err:
        text = " ".join(str(err).split())
        print(f"sudoku_gui: cannot start the engine {' '.join(window.engine_argv or ['sudoku-agent'])}: {text}",
              file=sys.stderr)
        root.destroy()
        return 2
    if args.load and isinstance(app, SudokuApp):
        app.load_game(os.path.abspath(args.load))

    def close() -> None:
        window.close()
        root.destroy()

    return run_window(root, close)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    return _parser().parse_args(argv)
