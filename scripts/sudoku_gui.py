#!/usr/bin/env python3
"""Competitive Sudoku in a Tkinter window: play against the agent, or watch two agents; step
through and analyse a saved game; or the classic single-player sudoku (`--mode puzzle`).

The board with its block lines and 1-based row and column numbers, each player's cells in their
colour, the squares the player to move may use (allowed-squares modes, when the engine reports
them), both scores, the move list (who played what, taboo moves marked) with buttons to step
through it, the taboo list, whose turn it is, a Hint button with an analysis panel (the
engine's score, depth and line as it searches), Save game / Load game (protocol/records.md), a
time-per-move setting and a board chooser (size, mode, board file). Click a cell, then a value,
to move. Every rule is the engine's: moves go through `play` and the window draws what `show`
reports.

    python3 scripts/sudoku_gui.py [--engine PATH] [--board 3x3|9x9] [--mode classic]
                                  [--player1 human] [--player2 default] [--movetime 500]
                                  [--file BOARD] [--load RECORD]
    python3 scripts/sudoku_gui.py --mode puzzle [--board 3x3] [--difficulty easy] [--seed 1] [--file F]

The Mode choice in the window switches between the competitive modes and `puzzle`. The window
itself is the package's (engines/windows/sudoku/ and engines/windows/puzzle/, one module a
concern).
"""
import sys

from engines.windows.sudoku import MIN_SIZE, SIZES, BoardSizeError, SudokuApp, Window, block_shape, main, parse_args

__all__ = ["BoardSizeError", "MIN_SIZE", "SIZES", "SudokuApp", "Window", "block_shape", "main", "parse_args"]

if __name__ == "__main__":
    sys.exit(main())
