"""Stand-in for the 2024/25 framework's competitive_sudoku.sudokuai."""


class SudokuAI(object):
    def __init__(self):
        self.best_move = [0, 0, 0]
        self.lock = None
        self.player_number = -1

    def compute_best_move(self, game_state) -> None:
        raise NotImplementedError

    def propose_move(self, move) -> None:
        (i, j), value = move.square, move.value
        if self.lock:
            self.lock.acquire()
        self.best_move[0], self.best_move[1], self.best_move[2] = i, j, value
        if self.lock:
            self.lock.release()
