#!/usr/bin/env python3
"""Runs scripts/framework_player like the course framework does, on a built-in scenario.

    PYTHONPATH=<stub>/<version>:scripts run_player.py <v2022|v2024> <scenario> <seconds>

Prints one JSON line: the position line the adapter sends, the last proposed move (or null),
and whether the engine process was gone after the player process was terminated.
"""
import json
import multiprocessing
import pathlib
import sys
import time

VERSION, SCENARIO, SECONDS = sys.argv[1], sys.argv[2], float(sys.argv[3])

# Found on PYTHONPATH: the stand-in framework folder (<VERSION>/) and scripts/ (framework_player),
# as in the framework, whose folder holds both.
from competitive_sudoku.sudoku import GameState, Move, SudokuBoard, TabooMove  # noqa: E402
from framework_player import sudokuai  # noqa: E402


def v(i, j, value, cls=Move):
    return cls((i, j), value) if VERSION == "v2024" else cls(i, j, value)


def scenario():
    if SCENARIO == "empty3x3":
        board = SudokuBoard(3, 3)
        if VERSION == "v2024":
            N = 9
            return GameState(SudokuBoard(3, 3), board, [], [], [0, 0], 1,
                             [(0, j) for j in range(N)], [(N - 1, j) for j in range(N)], [], [])
        return GameState(SudokuBoard(3, 3), board, [], [], [0, 0])
    if SCENARIO == "midgame2x2":
        # 2x2: player 1 put 1 on (0,0), player 2 put 2 on (3,3), player 1 tried a taboo move.
        initial = SudokuBoard(2, 2)
        board = SudokuBoard(2, 2)
        moves = [v(0, 0, 1), v(3, 3, 2), v(0, 1, 1, TabooMove)]
        for m in moves[:2]:
            if VERSION == "v2024":
                board.put(m.square, m.value)
            else:
                board.put(m.i, m.j, m.value)
        taboo = [v(0, 1, 1, TabooMove)]
        if VERSION == "v2024":
            return GameState(initial, board, taboo, moves, [0, 0], 2,
                             [(0, j) for j in range(4)], [(3, j) for j in range(4)], [(0, 0)], [(3, 3)])
        return GameState(initial, board, taboo, moves, [0, 0])
    raise SystemExit(f"unknown scenario {SCENARIO}")


def engine_children(pid):
    """Pids of live processes whose parent is `pid` (Linux /proc)."""
    out = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def main():
    state = scenario()
    player = sudokuai.SudokuAI()
    player.best_move = multiprocessing.Array("i", [0, 0, 0])
    player.lock = multiprocessing.Lock()
    process = multiprocessing.Process(target=player.compute_best_move, args=(state,))
    process.start()
    time.sleep(SECONDS)
    children = engine_children(process.pid)
    player.lock.acquire()
    process.terminate()
    player.lock.release()
    process.join()
    time.sleep(0.2)
    alive = [pid for pid in children if pathlib.Path(f"/proc/{pid}").exists()
             and (pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z")]
    i, j, value = list(player.best_move)
    print(json.dumps({
        "position": sudokuai.position_line(state),
        "move": None if value == 0 else [i, j, value],
        "engine_pids": children,
        "engine_alive_after_kill": alive,
    }))


if __name__ == "__main__":
    main()
