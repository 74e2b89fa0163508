"""The Competitive Sudoku window of scripts/sudoku_gui.py, one module a concern (window.py lists
them): `SudokuApp` is a game in the window, `Window` the window that switches between the
competitive game and the puzzle, `main` its command line."""
from .modes import Window, main, parse_args
from .names import SIZES, BoardSizeError, block_shape, cell_name, move_name, size_name
from .window import MIN_SIZE, START_SIZE, SudokuApp

__all__ = [
    "BoardSizeError", "MIN_SIZE", "SIZES", "START_SIZE", "SudokuApp", "Window", "block_shape", "cell_name", "main",
    "move_name", "parse_args", "size_name",
]
