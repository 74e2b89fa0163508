"""Stand-in for the 2022/23 framework's competitive_sudoku.sudoku."""


class Move:
    def __init__(self, i: int, j: int, value: int):
        self.i, self.j, self.value = i, j, value

    def __str__(self):
        return f"({self.i},{self.j}) -> {self.value}"

    def __eq__(self, other):
        return (self.i, self.j, self.value) == (other.i, other.j, other.value)


class TabooMove(Move):
    pass


class SudokuBoard:
    empty = 0

    def __init__(self, m: int = 3, n: int = 3):
        self.m, self.n, self.N = m, n, m * n
        self.squares = [SudokuBoard.empty] * (self.N * self.N)

    def rc2f(self, i, j):
        return i * self.N + j

    def put(self, i, j, value):
        self.squares[self.rc2f(i, j)] = value

    def get(self, i, j):
        return self.squares[self.rc2f(i, j)]


class GameState:
    def __init__(self, initial_board, board, taboo_moves, moves, scores):
        self.initial_board, self.board = initial_board, board
        self.taboo_moves, self.moves, self.scores = taboo_moves, moves, scores

    def current_player(self):
        return 1 if len(self.moves) % 2 == 0 else 2
