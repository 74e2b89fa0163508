"""The framework folder and the players of a match: finding the framework, reading a player
(`ours[:AGENT][@SECONDS]`, a framework player, a folder), copying the framework and installing
the players in the copy."""
from __future__ import annotations

import os
import pathlib
import re
import shutil
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

from .. import EngineProblem, SudokuEngine
from ..cli import rejected_values

# The course-framework player of this project (copied into each framework copy).
ADAPTER = pathlib.Path(__file__).resolve().parents[2] / "framework_player"
FRAMEWORK_VERSIONS = {"2024": "competitive-sudoku-2024", "2022": "competitive-sudoku-2022"}


class MatchError(Exception):
    """Something about the match set-up is wrong: one line for the user, exit code 2."""


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


