"""The classic sudoku puzzle window (`python3 scripts/sudoku_gui.py --mode puzzle`, or
scripts/sudoku_puzzle_gui.py): model.py (the game, no Tk), board.py (the grid's drawing),
window.py (`PuzzleApp`, building the window and asking the engine's tools), moves.py (the
player's moves and the engine's help), cli.py (the command line)."""
from .cli import main
from .model import SHAPE_OF_SIZE, SIZE_OF_SHAPE, Puzzle, load_premade, read_puzzle_file
from .window import MIN_SIZE, START_SIZE, PuzzleApp

__all__ = ["MIN_SIZE", "PuzzleApp", "Puzzle", "SHAPE_OF_SIZE", "SIZE_OF_SHAPE", "START_SIZE", "load_premade", "main",
           "read_puzzle_file"]
