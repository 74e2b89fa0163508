"""A framework match from its command line: the plan (players, framework, start, time) checked
before any game, the games played (in parallel copies of the framework), then the summary, the
JSON lines and the records. Each step is one function; scripts/framework_match.py runs `main`."""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import pathlib
import queue
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Sequence

from .. import EngineProblem, find_binary, record
from ..cli import HelpFormatter, missing_statistics
from .games import Game, game_record, kill_group, play_one, start_setup
from .openings import Opening, opening_board_file, read_openings
from .players import MatchError, Player, check_agent, find_framework, install_players, make_copy, parse_player, \
    resolve_board
from .report import game_line, summary


@dataclass
class Plan:
    """A checked match: who plays, in which framework, from which start, for how long."""

    a: Player
    b: Player
    framework: pathlib.Path
    has_playmode: bool
    board: Optional[str]
    mode: str
    options: Dict[str, str]
    engine: Optional[pathlib.Path]
    suite: List[Opening] = field(default_factory=list)
    texts: List[str] = field(default_factory=list)  # the openings as board files
    setup: Optional[record.Setup] = None  # the start as the engine reads it (--record)

    @property
    def labels(self):
        same = self.a.name == self.b.name
        return (self.a.name + " (A)", self.b.name + " (B)") if same else (self.a.name, self.b.name)


def parse_options(text: Optional[str]) -> Dict[str, str]:
    options: Dict[str, str] = {}
    for item in filter(None, (text or "").split(",")):
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise MatchError(f"--options: expected Name=value, got {item!r}")
        options[name.strip()] = value.strip()
    return options


def build_parser(doc: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0], formatter_class=HelpFormatter,
                                     epilog="\n\n".join(doc.split("\n\n")[1:]))
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
    return parser


def the_framework(args) -> tuple:
    """The framework folder and whether it has modes (--playmode); its flags checked."""
    framework = find_framework(args.framework)
    simulate = (framework / "simulate_game.py").read_text(errors="replace")
    has_playmode = "--playmode" in simulate
    if args.playmode and not has_playmode:
        if args.playmode != "classic":
            raise MatchError(f"{framework.name} has no --playmode: it plays classic rules only")
        args.playmode = None
    if args.warm_up and "--warm-up" not in simulate:
        raise MatchError(f"{framework.name} has no --warm-up")
    return framework, has_playmode


def the_players(args, framework: pathlib.Path, options: Dict[str, str]) -> tuple:
    """Both players, their own times within --time (which defaults to the longest), and our
    engine (checked to have each of our agents)."""
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
    if ours or args.record:
        engine = the_engine(args.engine, "" if ours else "--record needs the engine as referee: ")
    for p in ours:
        check_agent(engine, p.agent, options)
    return a, b, engine


def the_engine(spec: Optional[str], why: str) -> pathlib.Path:
    try:
        engine = pathlib.Path(spec).resolve() if spec else find_binary("sudoku-agent")
    except FileNotFoundError as err:
        raise MatchError(f"{why}{err}") from None
    if not engine.is_file():
        raise MatchError(f"{engine}: no such engine binary")
    return engine


def plan_match(args) -> Plan:
    """Every check before a game is played (MatchError: one line, exit 2)."""
    suite: List[Opening] = []
    if args.openings:
        if args.board or args.record:
            raise MatchError("--openings sets the start of every game: no --board or --record with it")
        suite = read_openings(args.openings)
    if args.games is None:
        args.games = 2 * len(suite) if suite else 2
    if args.games < 1 or args.jobs < 1 or (args.time is not None and args.time <= 0):
        raise MatchError("--games and --jobs must be at least 1 and --time positive")
    framework, has_playmode = the_framework(args)
    board = resolve_board(args.board, framework)
    texts: List[str] = []
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
    a, b, engine = the_players(args, framework, options)
    mode = suite[0].mode if suite else args.playmode or ("rows" if has_playmode else "classic")
    plan = Plan(a, b, framework, has_playmode, board, mode, options, engine, suite, texts)
    if args.record:
        try:
            plan.setup = start_setup(engine, board, framework, mode)
        except EngineProblem as err:
            raise MatchError(f"--record: the engine cannot read the board: {err}") from None
    return plan


def announce(plan: Plan, args) -> None:
    """The match's first line: who, how many games, where, from what, how long."""
    label_a, label_b = plan.labels

    def thinking(p: Player) -> str:
        return f"{p.seconds:g} s" if p.seconds is not None else "until the deadline"

    times = f"{args.time:g} s per move"
    if plan.a.seconds is not None or plan.b.seconds is not None:
        times += f" ({label_a} thinks {thinking(plan.a)}, {label_b} {thinking(plan.b)})"
    start = f"{len(plan.suite)} openings of {args.openings}" if plan.suite else f"board {plan.board or 'default'}"
    print(f"{label_a} vs {label_b}: {args.games} games in {plan.framework.name}, {start}, "
          f"mode {plan.mode}, {times}", flush=True)


def play_numbered(plan: Plan, args, number: int, copies: "queue.Queue[pathlib.Path]", opening_files: List[str],
                  running: "set[subprocess.Popen]") -> Game:
    """Game `number` (from 1): player A moves first in odd games; with a suite, games 2k-1 and
    2k play opening k, sides swapped. Its scores completed from the start's when the framework
    printed only the rewards."""
    a, b, suite, setup = plan.a, plan.b, plan.suite, plan.setup
    a_first = number % 2 == 1
    game = Game(number, a.name if a_first else b.name, b.name if a_first else a.name, a_first)
    start = plan.board
    if suite:
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


def jsonl_row(plan: Plan, args, game: Game) -> str:
    """The game as one JSON line of --jsonl."""
    label_a, label_b = plan.labels
    row = asdict(game)
    for key in ("moves", "rewards"):  # the record's material, not the JSON line's
        row.pop(key)
    if not plan.suite:
        row.pop("opening")
    row.update(player_a=label_a, player_b=label_b, a_points=game.a_points, framework=plan.framework.name,
               board=plan.board, playmode=plan.mode, time=args.time, time_a=plan.a.seconds or args.time,
               time_b=plan.b.seconds or args.time)
    return json.dumps(row)


def play_games(plan: Plan, args, tmp: pathlib.Path, games: List[Game]) -> bool:
    """Plays the games, --jobs at a time, each in a framework copy of its own (the framework
    writes into its folder), printing each as it ends; False when interrupted (Ctrl-C: games
    not started dropped, running ones killed)."""
    opening_files = []
    for k, text in enumerate(plan.texts):
        path = tmp / f"opening-{k + 1}.txt"
        path.write_text(text)
        opening_files.append(str(path))
    copies: "queue.Queue[pathlib.Path]" = queue.Queue()
    for k in range(min(args.jobs, args.games)):
        copy = make_copy(plan.framework, tmp / f"framework{k + 1}")
        install_players(copy, [plan.a, plan.b], plan.engine, plan.options)
        copies.put(copy)
    running: "set[subprocess.Popen]" = set()
    lock = threading.Lock()
    jsonl = open(args.jsonl, "a") if args.jsonl else None
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    try:
        futures = [pool.submit(play_numbered, plan, args, k, copies, opening_files, running)
                   for k in range(1, args.games + 1)]
        for fut in concurrent.futures.as_completed(futures):
            game = fut.result()
            with lock:
                games.append(game)
                print(game_line(game, *plan.labels), flush=True)
                if jsonl is not None:
                    jsonl.write(jsonl_row(plan, args, game) + "\n")
                    jsonl.flush()
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in list(running):
            kill_group(proc)
        pool.shutdown(wait=True)
        print(f"interrupted after {len(games)} of {args.games} games", file=sys.stderr)
        return False
    finally:
        pool.shutdown(wait=True)
        if jsonl is not None:
            jsonl.close()
    return True


def finish(plan: Plan, args, games: List[Game]) -> int:
    """The records (--record), the summary, the distinct games of a suite; the exit status (1
    when a game did not finish)."""
    games.sort(key=lambda g: g.number)
    label_a, label_b = plan.labels
    if plan.setup is not None:
        try:
            own = {p.name: p.seconds for p in (plan.a, plan.b) if p.seconds is not None}
            records = [game_record(g, plan.setup, plan.engine, args.time, own) for g in games]
        except EngineProblem as err:
            print(f"framework_match: --record: the engine refused a move of the framework: {err}", file=sys.stderr)
            return 1
        pathlib.Path(args.record).write_text(record.format_records(
            records, f"framework_match: {label_a} vs {label_b} in {plan.framework.name}"))
    for line in summary(games, label_a, label_b):
        print(line)
    if plan.suite:
        finished = [g for g in games if g.result is not None]
        distinct = len({(g.opening, tuple(g.moves)) for g in finished})
        print(f"  distinct games: {distinct} of {len(finished)} (different openings or moves)")
    return 1 if any(g.result is None for g in games) else 0


def main(argv: Optional[Sequence[str]] = None, doc: str = "") -> int:
    args = build_parser(doc or __doc__).parse_args(argv)
    missing = missing_statistics("framework_match")
    if missing:
        print(missing, file=sys.stderr)
        return 2
    try:
        plan = plan_match(args)
    except MatchError as err:
        print(f"framework_match: {err}", file=sys.stderr)
        return 2
    announce(plan, args)
    games: List[Game] = []
    with tempfile.TemporaryDirectory(prefix="framework-match-") as tmp:
        if not play_games(plan, args, pathlib.Path(tmp), games):
            return 130
    return finish(plan, args, games)
