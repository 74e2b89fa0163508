"""A stand-in framework player: the first empty square, the smallest value not already in its
row, column or block (no look-ahead, no solvability check)."""
import competitive_sudoku.sudokuai
from competitive_sudoku.sudoku import Move


class SudokuAI(competitive_sudoku.sudokuai.SudokuAI):
    def compute_best_move(self, game_state) -> None:
        board = game_state.board
        m, n, N = board.m, board.n, board.N
        for i in range(N):
            for j in range(N):
                if board.get((i, j)):
                    continue
                seen = {board.get((i, k)) for k in range(N)} | {board.get((k, j)) for k in range(N)}
                bi, bj = i - i % m, j - j % n
                seen |= {board.get((bi + a, bj + b)) for a in range(m) for b in range(n)}
                for value in range(1, N + 1):
                    if value not in seen:
                        self.propose_move(Move((i, j), value))
                        return
