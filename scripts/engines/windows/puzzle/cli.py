"""The command line of scripts/sudoku_puzzle_gui.py: the puzzle window alone."""
from __future__ import annotations

import argparse
import os
import tkinter as tk
from typing import List, Optional

from ...cli import HelpFormatter
from ...tools import DIFFICULTIES, SudokuTools
from ..run import INTERRUPTED, run_window
from .model import SIZE_OF_SHAPE
from .window import PuzzleApp

USAGE = "The classic single-player sudoku in a Tkinter window, with sudoku-agent as its referee and solver."


def main(argv: Optional[List[str]] = None) -> int:
    """scripts/sudoku_puzzle_gui.py: its exit status (INTERRUPTED after Ctrl-C in the terminal, at any moment)."""
    try:
        return run(argv)
    except KeyboardInterrupt:
        return INTERRUPTED


def run(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=USAGE, formatter_class=HelpFormatter)
    parser.add_argument("--engine", help="sudoku-agent binary, the referee and solver "
                                         "(default: $ENGINE_BIN_DIR, target/release, PATH)")
    parser.add_argument("--board", default="3x3", choices=sorted(SIZE_OF_SHAPE),
                        help="block shape m x n of the generated puzzles")
    parser.add_argument("--difficulty", default="easy", choices=DIFFICULTIES, help="difficulty of New")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first generated puzzle")
    parser.add_argument("--file", help="start from this puzzle file instead")
    args = parser.parse_args(argv)
    try:
        tools = SudokuTools(args.engine)
    except FileNotFoundError as err:
        parser.error(str(err))
    try:
        root = tk.Tk()
    except tk.TclError as err:
        parser.exit(2, f"sudoku_puzzle_gui.py: cannot open a window: {err}\n")
    app = PuzzleApp(root, tools, shape=args.board, difficulty=args.difficulty, seed=args.seed)
    if args.file:
        app.open_path(os.path.abspath(args.file))

    def close() -> None:
        app.close()
        root.destroy()

    return run_window(root, close)
