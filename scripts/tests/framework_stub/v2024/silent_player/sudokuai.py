"""A stand-in framework player that never proposes a move (it loses by forfeit)."""
import competitive_sudoku.sudokuai


class SudokuAI(competitive_sudoku.sudokuai.SudokuAI):
    def compute_best_move(self, game_state) -> None:
        pass
