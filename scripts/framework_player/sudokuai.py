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
Options: $SUDOKU_AGENT_OPTIONS as `Name=value,Name=value` (e.g. `Threads=2,Agent=default`); an
option the engine refuses is named on stderr and the engine plays on with its default.
$SUDOKU_AGENT_MOVETIME (a whole number of ms, at least 1) makes it search for that long and
return instead of waiting to be killed (for harnesses that do not kill the player): it then
gives the start-up (handshake, options, position) at most SETUP_TIMEOUT (10 s) and the search
the movetime plus MARGIN (2 s), and returns after that even from an engine that hangs, keeping
its last legal proposal.

What it proposes: only an engine line `propose i,j=v` or `bestmove i,j=v` with ASCII digits
(at most 6 each) naming an empty cell of the board and a value from 1 to N; anything else is
named on stderr and skipped, and the reading goes on, so the last legal proposal counts. A
position the engine refuses (an `error` before the `readyok` that follows it) is named on
stderr and no search starts: nothing is proposed. A setting that cannot be read (a movetime
that is not a whole number of at least 1, an option item without `=`) is named in one line on
stderr and nothing is proposed. A line of engine output longer than MAX_LINE (1 MiB) ends the
conversation (the engine is killed; the proposals so far stand).
"""
from __future__ import annotations

import inspect
import os
import pathlib
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional, Tuple

import competitive_sudoku.sudokuai
from competitive_sudoku.sudoku import Move

HERE = pathlib.Path(__file__).resolve().parent
# With SUDOKU_AGENT_MOVETIME: the longest wait for the handshake, the options and the position
# (seconds), and the time past the movetime before the player gives up on `bestmove`.
SETUP_TIMEOUT = 10.0
MARGIN = 2.0
# The longest line of engine output read (bytes): the protocol's own line limit.
MAX_LINE = 1 << 20
MOVE_RE = re.compile(r"([0-9]{1,6}),([0-9]{1,6})=([0-9]{1,6})")


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
    """(i, j, value) of the engine's move `i,j=value` (ASCII digits, at most 6 each) when it
    names an empty cell of `board` and a value from 1 to N; None for anything else (an
    engine's junk, `²` or a number of thousands of digits included, never reaches the
    framework)."""
    m = MOVE_RE.fullmatch(text)
    if m is None:
        return None
    i, j, v = (int(g) for g in m.groups())
    N = board.N
    if not (0 <= i < N and 0 <= j < N and 1 <= v <= N) or cell_value(board, i, j) != 0:
        return None
    return i, j, v


class Setting(ValueError):
    """An environment setting that cannot be read (named in one line on stderr)."""


def movetime_setting() -> Optional[int]:
    """$SUDOKU_AGENT_MOVETIME as milliseconds (None when unset or empty); Setting otherwise."""
    text = os.environ.get("SUDOKU_AGENT_MOVETIME", "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 9 or int(text) < 1:
        raise Setting(f"SUDOKU_AGENT_MOVETIME must be a whole number of milliseconds from 1, not {text!r}")
    return int(text)


def option_settings() -> Dict[str, str]:
    """$SUDOKU_AGENT_OPTIONS (`Name=value,Name=value`) as a dict; Setting for an item without
    `=` or without a name."""
    options = {}
    for item in filter(None, (i.strip() for i in os.environ.get("SUDOKU_AGENT_OPTIONS", "").split(","))):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise Setting(f"SUDOKU_AGENT_OPTIONS items are Name=value, not {item!r}")
        options[name.strip()] = value.strip()
    return options


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


class EngineLines:
    """The engine's output lines, read on a thread so every wait can have a deadline."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            raw = self.proc.stdout.readline(MAX_LINE + 2)
            if not raw:
                break
            if len(raw.rstrip(b"\r\n")) > MAX_LINE:
                print(f"sudoku-agent: a line over {MAX_LINE} bytes: engine stopped", file=sys.stderr)
                break
            self.lines.put(raw.decode("utf-8", "replace").strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read(self, deadline: Optional[float]) -> Optional[str]:
        """The next line; None at the end of the output or when the deadline has passed."""
        try:
            line = self.lines.get(timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)
        return line

    def until_ready(self, deadline: Optional[float]) -> Optional[List[str]]:
        """Sends `isready`; the `error` lines before `readyok` (None when it never came)."""
        self.send("isready")
        errors = []
        while True:
            line = self.read(deadline)
            if line is None:
                return None
            if line == "readyok":
                return errors
            if line.split()[:1] == ["error"]:
                errors.append(line)


class SudokuAI(competitive_sudoku.sudokuai.SudokuAI):
    """Proposes the engine's moves as the engine finds them (the module's docstring)."""

    def __init__(self):
        super().__init__()

    def compute_best_move(self, game_state) -> None:
        try:
            movetime, options = movetime_setting(), option_settings()
        except Setting as err:
            print(f"sudoku-agent: {err}", file=sys.stderr)
            return
        proc = subprocess.Popen(
            engine_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent if os.name == "posix" else None,
        )
        try:
            self._talk(EngineLines(proc), game_state, movetime, options)
        except (BrokenPipeError, OSError):
            pass  # the engine ended: the proposals so far stand
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    def _talk(self, engine: EngineLines, game_state, movetime: Optional[int], options: Dict[str, str]) -> None:
        setup_deadline = None if movetime is None else time.monotonic() + SETUP_TIMEOUT
        engine.send("hello")
        while (line := engine.read(setup_deadline)) != "hello ok":
            if line is None:
                print("sudoku-agent: no handshake (`hello ok`) from the engine", file=sys.stderr)
                return
        for name, value in options.items():
            engine.send(f"setoption name {name} value {value}")
        for error in engine.until_ready(setup_deadline) or []:
            print(f"sudoku-agent: an option was refused: {error}", file=sys.stderr)
        engine.send(position_line(game_state))
        errors = engine.until_ready(setup_deadline)
        if errors is None or errors:
            print(f"sudoku-agent: the engine refused the position: {(errors or ['no answer'])[0]}", file=sys.stderr)
            return
        engine.send(f"go movetime {movetime}" if movetime else "go infinite")
        self._propose(engine, game_state, None if movetime is None else time.monotonic() + movetime / 1000 + MARGIN)

    def _propose(self, engine: EngineLines, game_state, deadline: Optional[float]) -> None:
        """Proposes each legal move the search names, up to its `bestmove` (or the deadline)."""
        while (line := engine.read(deadline)) is not None:
            tokens = line.split()
            if tokens[:1] == ["error"]:
                print(f"sudoku-agent: {line}", file=sys.stderr)
                return
            if tokens[:1] in (["propose"], ["bestmove"]) and len(tokens) >= 2 and tokens[1] != "none":
                move = move_on_board(tokens[1], game_state.board)
                if move is None:
                    # Junk from the engine: keep the last legal proposal and go on reading.
                    print(f"sudoku-agent: ignored {line[:80]!r}: not a move on this board", file=sys.stderr)
                else:
                    self.propose_move(make_move(*move))
            if tokens[:1] == ["bestmove"]:
                return
