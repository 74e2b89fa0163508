"""The Blockudoku window of scripts/blockudoku_gui.py, one module a concern (window.py lists
them): `BlockudokuApp` is the window, `main` its command line."""
from .window import MIN_SIZE, START_SIZE, BlockudokuApp, main

__all__ = ["BlockudokuApp", "MIN_SIZE", "START_SIZE", "main"]
