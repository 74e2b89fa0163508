"""One game of a framework match: a run of the framework's simulate_game.py, what it printed
(result, score, forfeit, moves), and the game as a record replayed through the engine."""
from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .. import SudokuEngine, SudokuMove, record
from .players import MatchError


@dataclass
class Game:
    number: int
    first: str
    second: str
    a_first: bool  # whether player A (the first one named) moved first
    opening: Optional[int] = None  # the opening's number in its suite (from 1)
    scores: Optional[Tuple[int, int]] = None
    result: Optional[str] = None  # "1", "2", "draw"; None when the game did not finish
    forfeit: str = ""  # the framework's line when a player lost by a bad or missing move
    error: str = ""
    seconds: float = 0.0
    output: List[str] = field(default_factory=list)
    # (player, row, col, value, taboo) for every move the framework announced (with --record).
    # (a pass has value 0)
    moves: List[Tuple[int, int, int, int, bool]] = field(default_factory=list)
    rewards: List[int] = field(default_factory=lambda: [0, 0])  # points per player, from the commentary

    @property
    def a_points(self) -> Optional[float]:
        if self.result is None:
            return None
        if self.result == "draw":
            return 0.5
        return 1.0 if (self.result == "1") == self.a_first else 0.0


def parse_game_output(game: Game, text: str) -> None:
    """Reads what simulate_game.py printed: the score line, the winner line, any forfeit."""
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"Score: (-?\d+) - (-?\d+)$", line)
        if m:
            game.scores = (int(m.group(1)), int(m.group(2)))
        if line.startswith("Error:") or line.startswith("No move was supplied"):
            game.forfeit = line
        m = re.search(r"Player ([12]) wins the game\.$", line)
        if m:
            game.result = m.group(1)
        elif line == "The game ends in a draw.":
            game.result = "draw"


MOVE_LINE = re.compile(r"Best move: \((\d+),\s*(\d+)\) -> (\d+)")


def parse_game_moves(game: Game, text: str) -> None:
    """The moves in the framework's running commentary (printed without --quiet): `Calculate a
    move for player N`, `Player N cannot move` (a pass), `Best move: (i,j) -> v`, `The sudoku has
    no solution after the move ...` when the move turned out taboo, and `Reward: r` (the
    points; the framework prints no `Score:` line then). A move of value 0 is no move at all."""
    player = 1
    for line in text.splitlines():
        line = line.strip()
        m = re.search(r"Calculate a move for player ([12])", line)
        if m:
            player = int(m.group(1))
            continue
        m = re.fullmatch(r"Player ([12]) cannot move", line)
        if m:
            game.moves.append((int(m.group(1)), -1, -1, 0, False))
            player = 3 - int(m.group(1))
            continue
        m = re.fullmatch(r"Reward: (-?\d+)", line)
        if m and game.moves:
            game.rewards[game.moves[-1][0] - 1] += int(m.group(1))
            continue
        m = MOVE_LINE.search(line)
        if m and int(m.group(3)) != 0:
            game.moves.append((player, int(m.group(1)), int(m.group(2)), int(m.group(3)), False))
            player = 3 - player
        elif line.startswith("The sudoku has no solution after the move") and game.moves:
            game.moves[-1] = game.moves[-1][:4] + (True,)


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def play_one(game: Game, copy: pathlib.Path, board: Optional[str], playmode: Optional[str],
             seconds: float, warmup: bool, running: "set[subprocess.Popen]", moves: bool = False) -> Game:
    cmd = [sys.executable, "simulate_game.py", "--first", game.first, "--second", game.second,
           "--time", str(seconds)]
    if not moves:  # the moves are only in the framework's commentary
        cmd += ["--quiet"]
    if board:
        cmd += ["--board", board]
    if playmode:
        cmd += ["--playmode", playmode]
    if warmup:
        cmd += ["--warm-up"]
    start = time.monotonic()
    # A generous guard against a hung framework: every square twice, with start-up time.
    limit = 120 + 2 * 256 * (seconds + 2)
    # Its own process group: the framework's player processes (and their engines) go with it.
    proc = subprocess.Popen(cmd, cwd=copy, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), start_new_session=True)
    running.add(proc)
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        out, err = proc.communicate()
        game.error = f"the framework did not finish the game within {limit:.0f} s"
    finally:
        running.discard(proc)
    game.seconds = time.monotonic() - start
    game.output = out.splitlines()[-20:]
    parse_game_output(game, out)
    if moves:
        parse_game_moves(game, out)
    if not game.error and (proc.returncode != 0 or game.result is None):
        tail = [l for l in (err or out).strip().splitlines() if l.strip()]
        game.error = f"simulate_game.py exited with code {proc.returncode}" + (f": {tail[-1][:300]}" if tail else "")
        if "occupied_squares1" in (err or ""):
            game.error += CLASSIC_2024_CRASH
    return game


# The 2024/25 framework (version 14) crashes in its own board printer in classic mode before
# the first move (`print_square` tests `square in gamestate.occupied_squares1`, which is None
# without allowed squares), so classic rules are played in the 2022/23 framework.
CLASSIC_2024_CRASH = (" (the framework's own board printer fails in classic mode, before any move;"
                      " play classic rules with --framework 2022)")


# --- records ------------------------------------------------------------------------------------

def start_setup(engine: pathlib.Path, board: Optional[str], copy: pathlib.Path, mode: str) -> "record.Setup":
    """The start position as the engine reads the board file (the record's setup)."""
    if board is None:
        raise MatchError("--record needs --board (the record starts from the board file)")
    if mode == "random":
        raise MatchError("--record: the framework draws the random mode's squares itself; use rows, border or classic")
    path = pathlib.Path(board)
    if not path.is_absolute():
        path = copy / path
    with SudokuEngine([str(engine)]) as eng:
        eng.command(f"position file {path} mode {mode}")
        return record.Setup.from_state(eng.state(), ("-", "-"), ("none", "none"))


def game_record(game: Game, setup: "record.Setup", engine: pathlib.Path, seconds: float,
                own: Optional[Dict[str, float]] = None) -> "record.GameRecord":
    """The game as a record: the framework's moves played through the engine's referee for the
    scores (the framework prints none after a forfeit). `own`: the players (by module name)
    that think a time of their own, not the framework's `seconds`."""
    own = own or {}
    times = tuple(f"movetime {round(own.get(name, seconds) * 1000)}" for name in (game.first, game.second))
    start = record.Setup(**{**setup.__dict__, "players": (game.first, game.second), "times": times})
    rec = record.GameRecord(game.number, start)
    scores = setup.scores
    final = None
    with SudokuEngine([str(engine)]) as eng:
        eng.command(start.position_line())
        for player, r, c, v, taboo in game.moves:
            move = SudokuMove(r, c, v) if v else None
            reply = eng.play(move) if move is not None else eng.play_none()
            rec.steps.append(record.Step(player, move, reply.outcome == "taboo" or taboo))
            scores = reply.scores
        final = record.Setup.from_state(eng.state(), ("-", "-"), ("none", "none")).position_line()
    if game.forfeit and game.result in ("1", "2"):
        rec.forfeit = (3 - int(game.result), game.forfeit)
    if game.result is not None:
        rec.result = (tuple(game.scores or scores), game.result)
    rec.final = final
    return rec


# --- the match ---------------------------------------------------------------------------------

