"""Course-framework player backed by the `sudoku-agent` engine.

Copy this folder into the course framework as `<name>/` (so the framework finds
`<name>/sudokuai.py`) and run e.g. `python simulate_game.py --first <name> --second greedy_player`.
Works with both framework versions: 2022/23 (`Move(i, j, value)`, `board.get(i, j)`,
`current_player()`) and 2024/25 (`Move((i, j), value)`, `board.get((i, j))`, `current_player`
attribute, allowed/occupied squares).

The framework runs `compute_best_move` in a process that it kills at the time limit and keeps
the last proposed move, so this turns the game state into a `position`, runs `go infinite`
and proposes every `propose` line as it arrives. The engine is started with PR_SET_PDEATHSIG
(and sees the end of its input) so it dies with this process.

Finding the engine, first match wins:
  $SUDOKU_AGENT_CMD        a full command line (e.g. "/path/sudoku-agent" or a wrapper)
  $SUDOKU_AGENT_BIN        path to the binary
  ./sudoku-agent           next to this file
  $ENGINE_BIN_DIR/sudoku-agent, then <repo>/target/release/sudoku-agent, then PATH
Options: $SUDOKU_AGENT_OPTIONS as `Name=value,Name=value` (e.g. `Threads=2,Agent=default`).
$SUDOKU_AGENT_MOVETIME (ms) makes it search for that long and return instead of waiting to be
killed (for harnesses that do not kill the player).
"""
from __future__ import annotations

import inspect
import os
import pathlib
import shlex
import shutil
import signal
import subprocess
import sys
from typing import List, Optional, Tuple

import competitive_sudoku.sudokuai
from competitive_sudoku.sudoku import Move

HERE = pathlib.Path(__file__).resolve().parent


def engine_command() -> List[str]:
    if os.environ.get("SUDOKU_AGENT_CMD"):
        return shlex.split(os.environ["SUDOKU_AGENT_CMD"])
    if os.environ.get("SUDOKU_AGENT_BIN"):
        return [os.environ["SUDOKU_AGENT_BIN"]]
    candidates = [HERE / "sudoku-agent"]
    if os.environ.get("ENGINE_BIN_DIR"):
        candidates.append(pathlib.Path(os.environ["ENGINE_BIN_DIR"]) / "sudoku-agent")
    candidates.append(HERE.parents[1] / "target" / "release" / "sudoku-agent")
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return [str(path)]
    found = shutil.which("sudoku-agent")
    if found:
        return [found]
    raise FileNotFoundError("sudoku-agent not found: set SUDOKU_AGENT_BIN or SUDOKU_AGENT_CMD")


# --- reading either framework version --------------------------------------------------------

def square_of(move) -> Tuple[int, int]:
    """(row, col) of a framework Move or TabooMove of either version."""
    square = getattr(move, "square", None)
    if square is not None:
        return int(square[0]), int(square[1])
    return int(move.i), int(move.j)


def cell_value(board, i: int, j: int) -> int:
    squares = getattr(board, "squares", None)
    if squares is not None:
        return int(squares[i * board.N + j])
    try:
        return int(board.get((i, j)))  # 2024/25
    except TypeError:
        return int(board.get(i, j))  # 2022/23


def current_player(game_state) -> int:
    player = game_state.current_player
    return int(player() if callable(player) else player)


def make_move(i: int, j: int, value: int):
    """A framework Move: `Move((i, j), value)` in 2024/25, `Move(i, j, value)` in 2022/23."""
    params = [p for p in inspect.signature(Move.__init__).parameters if p != "self"]
    if params and params[0] == "square":
        return Move((i, j), value)
    return Move(i, j, value)


def value_char(v: int) -> str:
    return "." if v <= 0 else str(v) if v <= 9 else chr(ord("A") + v - 10)


def owners_of(game_state, N: int) -> List[List[int]]:
    """Who filled each cell: 2024/25 says it (occupied squares); for 2022/23 the move history
    alternates between the players, starting with player 1."""
    owners = [[0] * N for _ in range(N)]
    occ1 = getattr(game_state, "occupied_squares1", None)
    occ2 = getattr(game_state, "occupied_squares2", None)
    if occ1 is not None or occ2 is not None:
        for player, squares in ((1, occ1 or []), (2, occ2 or [])):
            for i, j in squares:
                owners[i][j] = player
        return owners
    for k, move in enumerate(getattr(game_state, "moves", []) or []):
        if type(move).__name__ == "TabooMove":  # a taboo move fills nothing
            continue
        i, j = square_of(move)
        owners[i][j] = 1 if k % 2 == 0 else 2
    return owners


def infer_mode(game_state, N: int) -> str:
    mode = getattr(game_state, "playmode", None)
    if isinstance(mode, str) and mode:
        return mode
    a1 = getattr(game_state, "allowed_squares1", None)
    a2 = getattr(game_state, "allowed_squares2", None)
    if a1 is None and a2 is None:
        return "classic"
    s1, s2 = set(map(tuple, a1 or [])), set(map(tuple, a2 or []))
    if s1 == {(0, j) for j in range(N)} and s2 == {(N - 1, j) for j in range(N)}:
        return "rows"
    border = {(i, j) for i in range(N) for j in range(N) if i in (0, N - 1) or j in (0, N - 1)}
    if s1 == s2 == border:
        return "border"
    return "random"


def position_line(game_state) -> str:
    """The game state as one `position` command of protocol competitive-sudoku 1."""
    board = game_state.board
    m, n, N = board.m, board.n, board.N
    owners = owners_of(game_state, N)
    rows = []
    for i in range(N):
        text = []
        for j in range(N):
            v = cell_value(board, i, j)
            text.append(value_char(v))
            if v and owners[i][j]:
                text.append("+" if owners[i][j] == 1 else "-")
        rows.append("".join(text))
    mode = infer_mode(game_state, N)
    parts = ["position", f"{m}x{n}", "/".join(rows), "mode", mode, "turn", str(current_player(game_state)),
             "scores", str(int(game_state.scores[0])), str(int(game_state.scores[1]))]
    taboo = [f"{i},{j}={int(t.value)}" for t in game_state.taboo_moves for i, j in [square_of(t)]]
    if taboo:
        parts += ["taboo"] + taboo
    if mode != "classic":
        for key, attr in (("allowed1", "allowed_squares1"), ("allowed2", "allowed_squares2")):
            squares = getattr(game_state, attr, None)
            if squares is not None:
                parts += [key] + [f"{int(i)},{int(j)}" for i, j in squares]
    return " ".join(parts)


def move_on_board(text: str, board) -> Optional[Tuple[int, int, int]]:
    """(i, j, value) of the engine's move `i,j=value` when it names an empty cell of `board`
    and a value from 1 to N; None for anything else (an engine's junk never reaches the
    framework)."""
    square, sep, value = text.partition("=")
    parts = square.split(",")
    if not sep or len(parts) != 2 or not all(p.isdigit() for p in (*parts, value)):
        return None
    i, j, v = int(parts[0]), int(parts[1]), int(value)
    N = board.N
    if not (0 <= i < N and 0 <= j < N and 1 <= v <= N) or cell_value(board, i, j) != 0:
        return None
    return i, j, v


def _die_with_parent() -> None:
    """In the engine before exec (Linux): killed with this process, never orphaned.

    The same rule as `engines.base.set_parent_death_signal`, kept here on purpose: this folder
    is copied alone into the course framework, where the `engines` package is not installed."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass


class SudokuAI(competitive_sudoku.sudokuai.SudokuAI):
    """Proposes the engine's moves as the engine finds them."""

    def __init__(self):
        super().__init__()

    def compute_best_move(self, game_state) -> None:
        proc = subprocess.Popen(
            engine_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, preexec_fn=_die_with_parent if os.name == "posix" else None,
        )
        try:
            self._talk(proc, game_state)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    def _talk(self, proc: subprocess.Popen, game_state) -> None:
        def send(line: str) -> None:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()

        def read() -> Optional[str]:
            line = proc.stdout.readline()
            return line.strip() if line else None

        send("hello")
        while True:
            line = read()
            if line is None:
                raise RuntimeError("sudoku-agent ended during the handshake")
            if line == "hello ok":
                break
        for item in filter(None, os.environ.get("SUDOKU_AGENT_OPTIONS", "").split(",")):
            name, _, value = item.partition("=")
            send(f"setoption name {name.strip()} value {value.strip()}")
        send(position_line(game_state))
        movetime = os.environ.get("SUDOKU_AGENT_MOVETIME")
        send(f"go movetime {int(movetime)}" if movetime else "go infinite")
        while True:
            line = read()
            if line is None:
                return
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "error":
                # A position the engine refuses: say why on stderr; the framework will see no move.
                print(f"sudoku-agent: {line}", file=sys.stderr)
                if not movetime:
                    return
            elif tokens[0] in ("propose", "bestmove") and len(tokens) >= 2 and tokens[1] != "none":
                move = move_on_board(tokens[1], game_state.board)
                if move is None:
                    # Junk from the engine: keep the last legal proposal and go on reading.
                    print(f"sudoku-agent: ignored {line!r}: not a move on this board", file=sys.stderr)
                else:
                    self.propose_move(make_move(*move))
            if tokens[0] == "bestmove":
                return
