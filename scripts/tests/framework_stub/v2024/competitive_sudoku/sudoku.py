"""Stand-in for the 2024/25 framework's competitive_sudoku.sudoku."""
from typing import List, Optional, Tuple

Square = Tuple[int, int]


class Move:
    def __init__(self, square: Square, value: int):
        self.square, self.value = square, value

    def __str__(self):
        return f"{self.square} -> {self.value}"

    def __eq__(self, other):
        return (self.square, self.value) == (other.square, other.value)


class TabooMove(Move):
    pass


class SudokuBoard:
    empty = 0

    def __init__(self, m: int = 3, n: int = 3):
        self.m, self.n, self.N = m, n, m * n
        self.squares = [SudokuBoard.empty] * (self.N * self.N)

    def square2index(self, square: Square) -> int:
        return square[0] * self.N + square[1]

    def put(self, square: Square, value: int) -> None:
        self.squares[self.square2index(square)] = value

    def get(self, square: Square) -> int:
        return self.squares[self.square2index(square)]


class GameState:
    def __init__(self, initial_board=None, board=None, taboo_moves=None, moves=None, scores=None,
                 current_player: int = 1, allowed_squares1: Optional[List[Square]] = None,
                 allowed_squares2: Optional[List[Square]] = None,
                 occupied_squares1: Optional[List[Square]] = None,
                 occupied_squares2: Optional[List[Square]] = None):
        self.initial_board, self.board = initial_board, board
        self.taboo_moves = taboo_moves or []
        self.moves = moves or []
        self.scores = scores or [0, 0]
        self.current_player = current_player
        self.allowed_squares1, self.allowed_squares2 = allowed_squares1, allowed_squares2
        self.occupied_squares1, self.occupied_squares2 = occupied_squares1, occupied_squares2
