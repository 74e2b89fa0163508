#!/usr/bin/env python3
"""The classic single-player sudoku in a Tkinter window, with `sudoku-agent` as its referee and solver.

Also `python3 scripts/sudoku_gui.py --mode puzzle` (or the Mode choice in that window). Every
rule is the engine's: an entry is accepted only when the engine's referee accepts it, the
candidates are the values it accepts, the solution comes from `solve`, a full grid is confirmed
by `check`, and New asks `generate`.

Keys: 1-9 and A-G enter a value on the selected cell, Ctrl+value toggles a pencil mark,
BackSpace/Delete/0/. erase your entry, the arrow keys move the selection, H gives a hint.

    python3 scripts/sudoku_puzzle_gui.py [--engine PATH] [--board 3x3] [--difficulty easy] [--seed 1] [--file F]

The window is the package's (engines/windows/puzzle/).
"""
import sys

from engines.windows.puzzle import MIN_SIZE, SHAPE_OF_SIZE, SIZE_OF_SHAPE, PuzzleApp, load_premade, main, read_puzzle_file

__all__ = ["MIN_SIZE", "PuzzleApp", "SHAPE_OF_SIZE", "SIZE_OF_SHAPE", "load_premade", "main", "read_puzzle_file"]

if __name__ == "__main__":
    sys.exit(main())
