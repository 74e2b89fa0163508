#!/usr/bin/env python3
"""A match of N games between two players in the real Competitive Sudoku course framework.

The framework folder (2024/25 or 2022/23 version) is copied to a temporary folder, the players
are copied in, and each game is one run of the framework's own `simulate_game.py` (its referee,
its time limit: the player process is killed after --time seconds and its last proposed move
is played). Sides alternate: the first player named moves first in odd games. Printed: one
line per game, then W-D-L with a 95% Wilson interval of the score (a draw is half a point),
the same by side (as first, as second), and forfeits (a taboo-listed, invalid or missing move
loses the game in the framework).

A player is
  ours[:AGENT][@SECONDS]
                    this project's agent through scripts/framework_player (the sudoku-agent
                    binary; AGENT sets its `Agent` option, default --agent); with @SECONDS it
                    thinks that long per move (`go movetime`) and answers, instead of
                    thinking until the framework's deadline
  NAME              a player folder of the framework (greedy_player, random_player, ...)
  PATH              any folder holding a sudokuai.py (copied in under its folder name)

The framework gives both players one time per move (--time; it kills the player process then
and plays its last proposed move), so a time of one's own exists for our players only: it may
not exceed --time, and without --time the framework's time is the longest player time (at
least 0.5 s).

    python3 scripts/framework_match.py ours greedy_player --games 10 --board empty-3x3 \\
        --playmode rows --time 0.5
    python3 scripts/framework_match.py ours:default ours:territory --framework 2022 --board 2x3
    python3 scripts/framework_match.py ours@0.1 ours:territory@2 --board empty-3x3

The framework is --framework DIR (a framework folder, or a folder of them), or a version
(`2024`, `2022`) under $COMPETITIVE_SUDOKU_FRAMEWORK; by default the 2024 one there.

--openings FILE plays an opening suite (`position` lines, as `sudoku-lab openings` writes
them): each opening is written as a board file the framework takes and played twice, sides
swapped, and the summary says how many distinct games were played. What the frameworks can
start from: the 2022/23 one a board of givens with player 1 to move (classic openings with
no scores or taboo moves, whose filled cells become givens: in classic rules nobody owns a
cell, so the game is the same); the 2024/25 one a game state with the scores, the player to
move, taboo moves and allowed squares, in rows, border and random (its classic mode fails
before the first move), where it gives every filled cell to a player, so openings with
givens cannot be played there. Records are not read as openings here (`sudoku-lab replay`
prints their last positions as position lines).

    python3 scripts/framework_match.py ours greedy_player --openings suite.txt --time 0.5
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import pathlib
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

HERE = pathlib.Path(__file__).resolve().parent

from engines import EngineProblem, SudokuEngine, SudokuMove, find_binary, record
from engines.cli import HelpFormatter, missing_statistics, rejected_values

ADAPTER = HERE / "framework_player"
FRAMEWORK_VERSIONS = {"2024": "competitive-sudoku-2024", "2022": "competitive-sudoku-2022"}


class MatchError(Exception):
    """Something about the match set-up is wrong: one line for the user, exit code 2."""


# --- the framework and the players -------------------------------------------------------------

def find_framework(spec: Optional[str]) -> pathlib.Path:
    """The framework folder (the one holding simulate_game.py)."""
    root = os.environ.get("COMPETITIVE_SUDOKU_FRAMEWORK")
    if spec is None or spec in FRAMEWORK_VERSIONS:
        if not root:
            raise MatchError("no framework: give --framework DIR or set $COMPETITIVE_SUDOKU_FRAMEWORK "
                             "(the folder holding competitive-sudoku-2024)")
        path = pathlib.Path(root) / FRAMEWORK_VERSIONS[spec or "2024"]
    else:
        path = pathlib.Path(spec)
        if not (path / "simulate_game.py").is_file() and (path / FRAMEWORK_VERSIONS["2024"]).is_dir():
            path = path / FRAMEWORK_VERSIONS["2024"]
    if not (path / "simulate_game.py").is_file() or not (path / "competitive_sudoku").is_dir():
        raise MatchError(f"{path} is not a course framework folder (no simulate_game.py and competitive_sudoku/)")
    return path.resolve()


@dataclass
class Player:
    spec: str
    name: str  # the folder (module) name inside the framework copy
    kind: str  # "ours", "framework" or "folder"
    agent: Optional[str] = None
    source: Optional[pathlib.Path] = None
    # Our player's own time per move (`ours@SECONDS`), in milliseconds; None: until the
    # framework's deadline.
    movetime_ms: Optional[int] = None

    @property
    def seconds(self) -> Optional[float]:
        return None if self.movetime_ms is None else self.movetime_ms / 1000


# The engine's `go movetime` range (protocol/competitive-sudoku.md).
MAX_MOVETIME_MS = 86_400_000


def split_time(spec: str) -> Tuple[str, Optional[int]]:
    """`ours:territory@2` -> (`ours:territory`, 2000): the player and its own time in ms (a
    number after the last `@`; `ours@x` is refused, a folder named `a@b` stays whole)."""
    name, sep, seconds = spec.rpartition("@")
    is_ours = name == "ours" or name.startswith("ours:")
    if not sep or not (is_ours or re.fullmatch(r"[\d.]+", seconds)):
        return spec, None
    try:
        ms = round(float(seconds) * 1000)
    except ValueError:
        ms = 0
    if not 1 <= ms <= MAX_MOVETIME_MS:
        raise MatchError(f"player {spec!r}: the time after @ must be seconds from 0.001 to {MAX_MOVETIME_MS // 1000}")
    return name, ms


def parse_player(spec: str, framework: pathlib.Path, default_agent: str, other: Optional[Player] = None) -> Player:
    """The player `spec`; a folder whose name `other` uses for a different player is renamed.
    Two of the same (ours with the same agent and time, a framework player) share one module."""
    base, movetime_ms = split_time(spec)
    if base == "ours" or base.startswith("ours:"):
        agent = base.partition(":")[2] or default_agent
        if not re.fullmatch(r"[A-Za-z0-9_-]+", agent):
            raise MatchError(f"bad agent name {agent!r} in {spec!r}")
        name = "ours_" + agent.replace("-", "_") + (f"_{movetime_ms}ms" if movetime_ms else "")
        player = Player(spec, name, "ours", agent=agent, movetime_ms=movetime_ms)
    elif movetime_ms is not None:
        raise MatchError(f"player {spec!r}: only ours takes a time of its own (the framework gives its "
                         "players --time)")
    elif (framework / spec / "sudokuai.py").is_file() and "/" not in spec:
        player = Player(spec, spec, "framework")
    else:
        path = pathlib.Path(spec).expanduser()
        if not (path / "sudokuai.py").is_file():
            raise MatchError(f"player {spec!r}: not 'ours', not a player of {framework.name}, "
                             "and not a folder holding sudokuai.py")
        path = path.resolve()
        name = re.sub(r"\W", "_", path.name)
        if (framework / name).exists():
            name += "_ext"
        player = Player(spec, name, "folder", source=path)
    while other is not None and player.name == other.name and \
            (player.kind, player.agent, player.source, player.movetime_ms) != \
            (other.kind, other.agent, other.source, other.movetime_ms):
        player.name += "_b"
    return player


def check_agent(engine: pathlib.Path, agent: str, options: Dict[str, str]) -> None:
    """Fails early, in one line, when the engine does not have that agent or option value."""
    try:
        with SudokuEngine([str(engine)], startup_timeout=20) as probe:
            refused = rejected_values(probe, "Agent", [agent])
            if refused:
                raise MatchError(f"{engine.name} has no agent {agent!r} ({refused[0]})")
            for name, value in options.items():
                probe.setoption(name, value)
    except EngineProblem as err:
        raise MatchError(f"{engine}: {err}") from None


def install_players(copy: pathlib.Path, players: Sequence[Player], engine: pathlib.Path,
                    options: Dict[str, str]) -> None:
    """Puts the players into a framework copy. Ours is the adapter plus a thin module that sets
    its environment (engine, options) in the player process, so two of ours can differ."""
    for p in players:
        target = copy / p.name
        if p.kind == "framework" or target.exists():
            continue
        if p.kind == "folder":
            shutil.copytree(p.source, target, ignore=shutil.ignore_patterns("__pycache__"))
            continue
        target.mkdir()
        shutil.copy(ADAPTER / "sudokuai.py", target / "adapter.py")
        (target / "__init__.py").write_text("")
        settings = {"Agent": p.agent, **options}
        env = {"SUDOKU_AGENT_BIN": str(engine),
               "SUDOKU_AGENT_OPTIONS": ",".join(f"{k}={v}" for k, v in settings.items())}
        if p.movetime_ms is not None:
            # The adapter then sends `go movetime` and answers, instead of `go infinite`.
            env["SUDOKU_AGENT_MOVETIME"] = str(p.movetime_ms)
        (target / "sudokuai.py").write_text(
            "# Written by scripts/framework_match.py: the project's adapter with these settings.\n"
            "import os\n\n"
            "from .adapter import SudokuAI as _Adapter\n\n"
            f"SETTINGS = {env!r}\n\n\n"
            "class SudokuAI(_Adapter):\n"
            "    def compute_best_move(self, game_state) -> None:\n"
            "        os.environ.update(SETTINGS)  # in the framework's player process only\n"
            "        super().compute_best_move(game_state)\n")


def make_copy(framework: pathlib.Path, into: pathlib.Path) -> pathlib.Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pkl", "*-match-result.txt", ".git")
    shutil.copytree(framework, into, ignore=ignore, symlinks=True)
    return into


def resolve_board(spec: Optional[str], framework: pathlib.Path) -> Optional[str]:
    """A board file: a path, or a name in the framework's boards/ (`empty-2x3`, or just `2x3`)."""
    if spec is None:
        return None
    path = pathlib.Path(spec).expanduser()
    if path.is_file():
        return str(path.resolve())
    for name in (spec, f"{spec}.txt", f"empty-{spec}.txt"):
        if (framework / "boards" / name).is_file():
            return f"boards/{name}"
    raise MatchError(f"board {spec!r}: no such file, nor boards/{spec}[.txt] or boards/empty-{spec}.txt in {framework}")


# --- openings ---------------------------------------------------------------------------------

@dataclass
class Opening:
    """A position line of an opening suite, as the framework needs it."""
    line: str
    m: int
    n: int
    cells: List[Tuple[int, str]]  # (value, owner: '+', '-' or '' for a given), row by row
    mode: str
    turn: int
    scores: Tuple[int, int]
    taboo: List[Tuple[int, int, int]]
    allowed: Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]


def parse_opening(line: str) -> Opening:
    """A `position <m>x<n> <rows> [mode M] [turn T] [scores A B] [taboo ...] [allowed1 ...]
    [allowed2 ...]` line (protocol/sudoku.md); ValueError says what is wrong."""
    words = line.split()
    if len(words) < 3 or words[0] != "position" or not re.fullmatch(r"\d+x\d+", words[1]):
        raise ValueError("expected 'position <m>x<n> <rows> ...'")
    m, n = map(int, words[1].split("x"))
    size = m * n
    cells: List[Tuple[int, str]] = []
    for row in words[2].split("/"):
        for ch in re.findall(r"[^+-][+-]?", row):
            value = 0 if ch[0] in ".0" else int(ch[0], 36)
            if value > size:
                raise ValueError(f"value {ch[0]!r} does not fit a {m}x{n} board")
            cells.append((value, ch[1:]))
    if len(cells) != size * size:
        raise ValueError(f"{len(cells)} cells, a {m}x{n} board has {size * size}")
    mode, turn, scores, taboo, allowed = "classic", None, (0, 0), [], ([], [])
    key, k = None, 3
    while k < len(words):
        w = words[k]
        if w == "mode" and k + 1 < len(words):
            mode, k = words[k + 1], k + 2
        elif w == "turn" and k + 1 < len(words):
            turn, k = int(words[k + 1]), k + 2
        elif w == "scores" and k + 2 < len(words):
            scores, k = (int(words[k + 1]), int(words[k + 2])), k + 3
        elif w in ("taboo", "allowed1", "allowed2"):
            key, k = w, k + 1
        elif key == "taboo" and re.fullmatch(r"\d+,\d+=\d+", w):
            r, c, v = map(int, re.split("[,=]", w))
            taboo.append((r, c, v))
            k += 1
        elif key in ("allowed1", "allowed2") and re.fullmatch(r"\d+,\d+", w):
            allowed[int(key[-1]) - 1].append(tuple(map(int, w.split(","))))  # type: ignore[arg-type]
            k += 1
        else:
            raise ValueError(f"unexpected word {w!r}")
    if turn is None:
        owned = sum(1 for _, o in cells if o)
        turn = 1 if (owned + len(taboo)) % 2 == 0 else 2
    return Opening(line, m, n, cells, mode, turn, scores, taboo, allowed)


def read_openings(path: str) -> List[Opening]:
    try:
        lines = pathlib.Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise MatchError(f"--openings {path}: cannot read it ({err})") from None
    suite = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            suite.append(parse_opening(line))
        except ValueError as err:
            raise MatchError(f"--openings {path}: line {number}: {err}") from None
    if not suite:
        raise MatchError(f"--openings {path}: no opening in the file")
    if len({(o.m, o.n, o.mode) for o in suite}) > 1:
        raise MatchError(f"--openings {path}: the openings differ in board or mode (one file per board and mode)")
    return suite


def opening_board_file(o: Opening, has_playmode: bool) -> str:
    """The opening as a board file the framework starts from (MatchError when it cannot)."""
    size = o.m * o.n
    if not has_playmode:
        if o.mode != "classic" or o.turn != 1 or o.scores != (0, 0) or o.taboo:
            raise MatchError("the 2022/23 framework starts from a board of givens with player 1 to move: "
                             "it takes classic openings without scores or taboo moves, player 1 to move")
        rows = [" ".join(f"{v:>3}" if v else "  ." for v, _ in o.cells[r * size:(r + 1) * size]) for r in range(size)]
        return f"{o.m} {o.n}\n" + "\n".join(rows) + "\n"
    if o.mode == "classic":
        raise MatchError("the 2024/25 framework fails in classic mode before the first move: "
                         "play classic openings with --framework 2022")
    if any(v and not owner for v, owner in o.cells):
        raise MatchError("the 2024/25 framework gives every filled cell to a player: openings with givens "
                         "cannot be played in its modes")
    rows = [" ".join(f"{v}{owner}" if v else "." for v, owner in o.cells[r * size:(r + 1) * size])
            for r in range(size)]
    squares = lambda cells: ", ".join(f"({r},{c})" for r, c in cells)  # noqa: E731
    owned = [[(k // size, k % size) for k, (v, owner) in enumerate(o.cells) if v and owner == mark]
             for mark in "+-"]
    return (f"rows = {o.m}\ncolumns = {o.n}\nboard =\n" + "".join(f"   {row}\n" for row in rows)
            + f"taboo-moves = [{', '.join(f'({r},{c}) -> {v}' for r, c, v in o.taboo)}]\n"
            + f"scores = [{o.scores[0]}, {o.scores[1]}]\ncurrent-player = {o.turn}\n"
            + f"allowed-squares1 = {squares(o.allowed[0])}\nallowed-squares2 = {squares(o.allowed[1])}\n"
            + f"occupied-squares1 = {squares(owned[0])}\noccupied-squares2 = {squares(owned[1])}\n")


# --- one game ----------------------------------------------------------------------------------

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

def game_line(g: Game, a: str, b: str) -> str:
    """One game, players by label (`a` is the player named first on the command line)."""
    first, second = (a, b) if g.a_first else (b, a)
    head = f"game {g.number:>3}: {first} (1st) - {second} (2nd)"
    if g.result is None:
        return f"{head}  not finished: {g.error}"
    score = f"{g.scores[0]}-{g.scores[1]}" if g.scores else "forfeit" if g.forfeit else "?"
    who = "draw" if g.result == "draw" else f"{first if g.result == '1' else second} wins"
    line = f"{head}  {score:>7}  {who}"
    if g.forfeit:
        line += f"  [{g.forfeit}]"
    return line


def wdl(games: Sequence[Game]) -> Tuple[int, int, int, float]:
    pts = [g.a_points for g in games if g.a_points is not None]
    wins = sum(1 for p in pts if p == 1.0)
    draws = sum(1 for p in pts if p == 0.5)
    return wins, draws, len(pts) - wins - draws, sum(pts)


def summary(games: Sequence[Game], a: str, b: str) -> List[str]:
    from engines.batch.stats import wilson  # scipy: checked by main() before any game

    done = [g for g in games if g.result is not None]
    w, d, l, pts = wdl(done)
    n = len(done)
    lo, hi = wilson(pts, n)
    pct = f"{100 * pts / n:.1f}%" if n else "-"
    lines = [f"{a} vs {b}: {n} games, W-D-L {w}-{d}-{l}, score {pts:g}/{n} = {pct} (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"]
    sides = []
    for label, first in (("as first", True), ("as second", False)):
        sel = [g for g in done if g.a_first == first]
        sw, sd, sl, sp = wdl(sel)
        own = [g.scores[0 if first else 1] for g in sel if g.scores]
        other = [g.scores[1 if first else 0] for g in sel if g.scores]
        mean = f", mean score {sum(own) / len(own):.1f}-{sum(other) / len(other):.1f}" if own else ""
        share = f"{100 * sp / len(sel):.1f}%" if sel else "-"
        sides.append(f"{label} {sw}-{sd}-{sl} ({share}{mean})")
    lines.append(f"  {a}: " + "; ".join(sides))
    a_lost = sum(1 for g in done if g.forfeit and g.a_points == 0.0)
    b_lost = sum(1 for g in done if g.forfeit and g.a_points == 1.0)
    lines.append(f"  forfeits (games lost by a taboo-listed, invalid or missing move): {a} {a_lost}, {b} {b_lost}")
    failed = len(games) - n
    if failed:
        lines.append(f"  {failed} game(s) did not finish (reported above)")
    return lines


def parse_options(text: Optional[str]) -> Dict[str, str]:
    options: Dict[str, str] = {}
    for item in filter(None, (text or "").split(",")):
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise MatchError(f"--options: expected Name=value, got {item!r}")
        options[name.strip()] = value.strip()
    return options


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=HelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("player_a", help="ours[:AGENT][@SECONDS], a framework player name, or a player folder")
    parser.add_argument("player_b", help="the opponent, same forms")
    parser.add_argument("--framework", help="framework folder, or 2024/2022 under $COMPETITIVE_SUDOKU_FRAMEWORK")
    parser.add_argument("--games", type=int, help="games, sides alternating (default 2; with --openings two per "
                                                  "opening, more go round the suite again)")
    parser.add_argument("--openings", metavar="FILE",
                        help="an opening suite (position lines): each opening played twice, sides swapped; "
                             "instead of --board and --playmode")
    parser.add_argument("--board", help="board file, or a name in the framework's boards/ (empty-3x3, 2x3); "
                                        "default: the framework's own default")
    parser.add_argument("--playmode", choices=("classic", "rows", "border", "random"),
                        help="2024/25 framework only (its default: rows; its classic mode crashes in "
                             "the framework's own code: use --framework 2022 for classic rules)")
    parser.add_argument("--time", type=float,
                        help="the framework's seconds per move, for both players (default: the longest "
                             "ours@SECONDS, at least 0.5); ours@SECONDS thinks its own time within it")
    parser.add_argument("--agent", default="default", help="our agent for 'ours' without :AGENT")
    parser.add_argument("--threads", type=int, help="our agent's Threads option")
    parser.add_argument("--options", help="more of our agent's options: Name=value,Name=value")
    parser.add_argument("--engine", help="sudoku-agent binary (default: $ENGINE_BIN_DIR, target/release, PATH)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at the same time")
    parser.add_argument("--jsonl", help="append one JSON line per game to this file")
    parser.add_argument("--record", help="write every game as a record (protocol/records.md) to this file")
    parser.add_argument("--warm-up", action="store_true", help="pass --warm-up to the framework (first game)")
    args = parser.parse_args(argv)
    missing = missing_statistics("framework_match")
    if missing:
        print(missing, file=sys.stderr)
        return 2
    try:
        suite: List[Opening] = []
        texts: List[str] = []
        if args.openings:
            if args.board or args.record:
                raise MatchError("--openings sets the start of every game: no --board or --record with it")
            suite = read_openings(args.openings)
        if args.games is None:
            args.games = 2 * len(suite) if suite else 2
        if args.games < 1 or args.jobs < 1 or (args.time is not None and args.time <= 0):
            raise MatchError("--games and --jobs must be at least 1 and --time positive")
        framework = find_framework(args.framework)
        has_playmode = "--playmode" in (framework / "simulate_game.py").read_text(errors="replace")
        if args.playmode and not has_playmode:
            if args.playmode != "classic":
                raise MatchError(f"{framework.name} has no --playmode: it plays classic rules only")
            args.playmode = None
        if args.warm_up and "--warm-up" not in (framework / "simulate_game.py").read_text(errors="replace"):
            raise MatchError(f"{framework.name} has no --warm-up")
        board = resolve_board(args.board, framework)
        if suite:
            if args.playmode and args.playmode != suite[0].mode:
                raise MatchError(f"--playmode {args.playmode}: the openings are in {suite[0].mode} mode")
            texts = [opening_board_file(o, has_playmode) for o in suite]
            args.playmode = suite[0].mode if has_playmode else None
        options = parse_options(args.options)
        if args.threads is not None:
            if args.threads < 1:
                raise MatchError("--threads must be at least 1")
            options["Threads"] = str(args.threads)
        a = parse_player(args.player_a, framework, args.agent)
        b = parse_player(args.player_b, framework, args.agent, a)
        own = [p.seconds for p in (a, b) if p.seconds is not None]
        if args.time is None:
            args.time = max([0.5] + own)
        for p in (a, b):
            if p.seconds is not None and p.seconds > args.time:
                raise MatchError(f"player {p.spec!r}: its {p.seconds:g} s is longer than --time {args.time:g} "
                                 "(the framework kills every player at --time)")
        ours = [p for p in (a, b) if p.kind == "ours"]
        engine = None
        if ours:
            try:
                engine = pathlib.Path(args.engine).resolve() if args.engine else find_binary("sudoku-agent")
            except FileNotFoundError as err:
                raise MatchError(str(err)) from None
            if not engine.is_file():
                raise MatchError(f"{engine}: no such engine binary")
            for p in ours:
                check_agent(engine, p.agent, options)
        setup = None
        if args.record:
            if engine is None:
                try:
                    engine = pathlib.Path(args.engine).resolve() if args.engine else find_binary("sudoku-agent")
                except FileNotFoundError as err:
                    raise MatchError(f"--record needs the engine as referee: {err}") from None
            mode = args.playmode or ("rows" if has_playmode else "classic")
            try:
                setup = start_setup(engine, board, framework, mode)
            except EngineProblem as err:
                raise MatchError(f"--record: the engine cannot read the board: {err}") from None
    except MatchError as err:
        print(f"framework_match: {err}", file=sys.stderr)
        return 2

    mode = args.playmode or ("rows" if has_playmode else "classic")
    if suite:
        mode = suite[0].mode
    label_a, label_b = (a.name, b.name) if a.name != b.name else (a.name + " (A)", b.name + " (B)")
    def thinking(p: Player) -> str:
        return f"{p.seconds:g} s" if p.seconds is not None else "until the deadline"

    times = f"{args.time:g} s per move"
    if a.seconds is not None or b.seconds is not None:
        times += f" ({label_a} thinks {thinking(a)}, {label_b} {thinking(b)})"
    start = f"{len(suite)} openings of {args.openings}" if suite else f"board {board or 'default'}"
    print(f"{label_a} vs {label_b}: {args.games} games in {framework.name}, {start}, "
          f"mode {mode}, {times}", flush=True)
    jsonl = open(args.jsonl, "a") if args.jsonl else None
    running: "set[subprocess.Popen]" = set()
    games: List[Game] = []
    lock = threading.Lock()
    with tempfile.TemporaryDirectory(prefix="framework-match-") as tmp:
        opening_files = []
        for k, text in enumerate(texts):
            path = pathlib.Path(tmp) / f"opening-{k + 1}.txt"
            path.write_text(text)
            opening_files.append(str(path))
        # One framework copy per parallel game: the framework writes files into its folder.
        copies: "queue.Queue[pathlib.Path]" = queue.Queue()
        for k in range(min(args.jobs, args.games)):
            copy = make_copy(framework, pathlib.Path(tmp) / f"framework{k + 1}")
            install_players(copy, [a, b], engine, options)
            copies.put(copy)

        def run(number: int) -> Game:
            a_first = number % 2 == 1
            game = Game(number, a.name if a_first else b.name, b.name if a_first else a.name, a_first)
            start = board
            if suite:
                # Games 2k-1 and 2k play opening k, sides swapped.
                k = (number - 1) // 2 % len(suite)
                game.opening, start = k + 1, opening_files[k]
            copy = copies.get()
            try:
                # With a suite the moves are read too: they tell the distinct games apart.
                play_one(game, copy, start, args.playmode, args.time, args.warm_up and number == 1, running,
                         moves=setup is not None or bool(suite))
            finally:
                copies.put(copy)
            if setup is not None and game.scores is None and game.result is not None and not game.forfeit:
                # Without --quiet the framework prints its rewards instead of the score line.
                game.scores = (setup.scores[0] + game.rewards[0], setup.scores[1] + game.rewards[1])
            elif suite and game.forfeit:
                game.scores = None  # the running commentary's last score: not the game's result
            elif suite and game.scores is None and game.result is not None:
                o = suite[game.opening - 1]  # type: ignore[operator]
                game.scores = (o.scores[0] + game.rewards[0], o.scores[1] + game.rewards[1])
            return game

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
        try:
            futures = [pool.submit(run, k) for k in range(1, args.games + 1)]
            for fut in concurrent.futures.as_completed(futures):
                game = fut.result()
                with lock:
                    games.append(game)
                    print(game_line(game, label_a, label_b), flush=True)
                    if jsonl is not None:
                        row = asdict(game)
                        for key in ("moves", "rewards"):  # the record's material, not the JSON line's
                            row.pop(key)
                        if not suite:
                            row.pop("opening")
                        row.update(player_a=label_a, player_b=label_b, a_points=game.a_points,
                                      framework=framework.name, board=board, playmode=mode, time=args.time,
                                      time_a=a.seconds or args.time, time_b=b.seconds or args.time)
                        jsonl.write(json.dumps(row) + "\n")
                        jsonl.flush()
        except KeyboardInterrupt:
            # Games not started are dropped, running ones killed (their frameworks with them).
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in list(running):
                kill_group(proc)
            pool.shutdown(wait=True)
            print(f"interrupted after {len(games)} of {args.games} games", file=sys.stderr)
            return 130
        finally:
            pool.shutdown(wait=True)
            if jsonl is not None:
                jsonl.close()
    games.sort(key=lambda g: g.number)
    if setup is not None:
        try:
            own = {p.name: p.seconds for p in (a, b) if p.seconds is not None}
            records = [game_record(g, setup, engine, args.time, own) for g in games]
        except EngineProblem as err:
            print(f"framework_match: --record: the engine refused a move of the framework: {err}", file=sys.stderr)
            return 1
        pathlib.Path(args.record).write_text(record.format_records(
            records, f"framework_match: {label_a} vs {label_b} in {framework.name}"))
    for line in summary(games, label_a, label_b):
        print(line)
    if suite:
        finished = [g for g in games if g.result is not None]
        distinct = len({(g.opening, tuple(g.moves)) for g in finished})
        print(f"  distinct games: {distinct} of {len(finished)} (different openings or moves)")
    return 1 if any(g.result is None for g in games) else 0


if __name__ == "__main__":
    sys.exit(main())
