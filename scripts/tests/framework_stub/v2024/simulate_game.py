#!/usr/bin/env python3
"""A stand-in for the 2024/25 framework's simulate_game.py, for scripts/framework_match.py's
tests: the same command line and the same result lines (`Score: a - b`, `Player 1 wins the
game.`, `The game ends in a draw.`, `Error: ... Player 2 wins the game.`, `No move was supplied.
...`), players run the same way (a process terminated after --time seconds; the last proposed
move counts). The referee is deliberately small: classic rules whatever --playmode says, a move
is valid when its square is empty and its value new to the row, column and block; one that leaves
the sudoku unsolvable (a small backtracking search) is taboo: not placed, the turn passes, and
proposing it again loses; a region completed scores 1, 3 or 7 for 1, 2 or 3 at once, and the game ends
when no empty square takes a value that is not taboo. Without --quiet it prints the real one's
running commentary of each move (`Calculate a move
for player N`, `Best move: (i,j) -> v`, `The sudoku has no solution after the move ...`,
`Reward: r`) and, as the real one does, no `Score:` line. `--board` files: only the block shape is read (`m n` on
the first line, or `rows = m` and `columns = n`); the board starts empty."""
import argparse
import importlib
import multiprocessing
import re
import sys
import time
from pathlib import Path

from competitive_sudoku.sudoku import GameState, Move, SudokuBoard, TabooMove


def valid_values(board, i, j):
    m, n, N = board.m, board.n, board.N
    if board.get((i, j)):
        return []
    seen = {board.get((i, k)) for k in range(N)} | {board.get((k, j)) for k in range(N)}
    bi, bj = i - i % m, j - j % n
    seen |= {board.get((bi + a, bj + b)) for a in range(m) for b in range(n)}
    return [v for v in range(1, N + 1) if v not in seen]


def solvable(board):
    """Whether the board can still be completed (the real framework asks its solver)."""
    N = board.N
    empty = [(i, j) for i in range(N) for j in range(N) if not board.get((i, j))]
    if not empty:
        return True
    i, j = min(empty, key=lambda sq: len(valid_values(board, *sq)))
    for value in valid_values(board, i, j):
        board.put((i, j), value)
        ok = solvable(board)
        board.put((i, j), 0)
        if ok:
            return True
    return False


def completed(board, i, j):
    m, n, N = board.m, board.n, board.N
    bi, bj = i - i % m, j - j % n
    regions = [[(i, k) for k in range(N)], [(k, j) for k in range(N)],
               [(bi + a, bj + b) for a in range(m) for b in range(n)]]
    return sum(all(board.get(sq) for sq in region) for region in regions)


def block_shape(path):
    if not path:
        return 2, 2
    text = Path(path).read_text()
    m = re.search(r"rows\s*=\s*(\d+)", text)
    n = re.search(r"columns\s*=\s*(\d+)", text)
    if m and n:
        return int(m.group(1)), int(n.group(1))
    first = text.split()
    return int(first[0]), int(first[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--first", default="first_fit_player")
    parser.add_argument("--second", default="first_fit_player")
    parser.add_argument("--time", type=float, default=0.5)
    parser.add_argument("--board")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--warm-up", action="store_true")
    parser.add_argument("--playmode", choices=["classic", "rows", "border", "random"], default="rows")
    args = parser.parse_args()
    m, n = block_shape(args.board)
    board = SudokuBoard(m, n)
    state = GameState(SudokuBoard(m, n), board, [], [], [0, 0], 1)
    players = []
    for number, name in ((1, args.first), (2, args.second)):
        player = importlib.import_module(name + ".sudokuai").SudokuAI()
        player.player_number = number
        player.lock = multiprocessing.Lock()
        player.best_move = multiprocessing.Array("i", [0, 0, 0])
        players.append(player)
    N = board.N
    def open_moves():
        return any(v for i in range(N) for j in range(N) for v in valid_values(board, i, j)
                   if TabooMove((i, j), v) not in state.taboo_moves)

    while open_moves():
        number = state.current_player
        player = players[number - 1]
        if not args.quiet:
            print(f"-----------------------------\nCalculate a move for player {number}")
        player.best_move[:] = [0, 0, 0]
        process = multiprocessing.Process(target=player.compute_best_move, args=(state,))
        process.start()
        time.sleep(args.time)
        player.lock.acquire()
        process.terminate()
        player.lock.release()
        process.join()
        i, j, value = player.best_move[:]
        if not args.quiet:
            print(f"Best move: ({i},{j}) -> {value}")
        if (i, j, value) == (0, 0, 0):
            print(f"No move was supplied. Player {3 - number} wins the game.")
            return
        if not (0 <= i < N and 0 <= j < N) or value not in valid_values(board, i, j):
            print(f"Error: ({i},{j}) -> {value} is not a valid move. Player {3 - number} wins the game.")
            return
        if TabooMove((i, j), value) in state.taboo_moves:
            print(f"Error: ({i},{j}) -> {value} is a taboo move. Player {3 - number} wins the game.")
            return
        board.put((i, j), value)
        if not solvable(board):
            board.put((i, j), 0)
            print(f"The sudoku has no solution after the move ({i},{j}) -> {value}.")
            state.taboo_moves.append(TabooMove((i, j), value))
            state.moves.append(TabooMove((i, j), value))
            state.current_player = 3 - number
            if not args.quiet:
                print("Reward: 0")
            continue
        state.moves.append(Move((i, j), value))
        reward = [0, 1, 3, 7][completed(board, i, j)]
        state.scores[number - 1] += reward
        state.current_player = 3 - number
        if not args.quiet:
            print(f"Reward: {reward}")
    if args.quiet:  # the real one prints the score line only in quiet mode
        print(f"Score: {state.scores[0]} - {state.scores[1]}")
    if state.scores[0] > state.scores[1]:
        print("Player 1 wins the game.")
    elif state.scores[0] == state.scores[1]:
        print("The game ends in a draw.")
    else:
        print("Player 2 wins the game.")


if __name__ == "__main__":
    sys.exit(main())
