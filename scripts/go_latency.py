#!/usr/bin/env python3
"""Latency of a bare `go` (no limits) on positions from self-play, through the protocol.

Plays seeded self-play games against the real `blockudoku` binary with `Threads 1`: each
round deals three random catalogue pieces, sends `position`, times `go` from the moment the
line is sent to the moment `bestmove` arrives (so the figure includes pipe and parsing
overhead), and applies the answer with `play`. `--agent` sets the engine's `Agent` option
(the summary names it unless it is `default`); `--positions FILE` times one bare `go` on each
position of a `blockudoku-lab crises --positions-file` file instead of playing games. Prints the
number of searches and the median, 90th and 99th percentile and maximum in milliseconds
(figures: crates/blockudoku/README.md, "Strength and speed").

    python3 scripts/go_latency.py --rounds 2000 --seed 1
"""
import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from engines import BlockudokuEngine, EngineError, EngineProblem
from engines.cli import HelpFormatter


def read_positions(path: Path):
    """The positions of a `crises --positions-file` file: (board, streak, catalogue ids)."""
    positions = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split()
        try:
            if len(fields) != 5 or len(fields[0]) != 81:
                raise ValueError
            hand = [int(f) + 1 for f in fields[2:]]
            streak = int(fields[1])
            if not all(1 <= i <= 47 for i in hand) or streak < 0:
                raise ValueError
        except ValueError:
            raise ValueError(f"line {number} is not `board streak a b c` (81 cells, hand 0-46)") from None
        positions.append((fields[0], streak, hand))
    if not positions:
        raise ValueError("no positions")
    return positions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    parser.add_argument("--rounds", type=int, default=1000, help="searches to time (self-play rounds)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dealt pieces")
    parser.add_argument("--engine", help="path of the blockudoku binary (default: $ENGINE_BIN_DIR, target/release, PATH)")
    parser.add_argument("--agent", default="default", help="the engine's Agent option (the engine lists its agents)")
    parser.add_argument("--positions", type=Path,
                        help="time one bare go on each position of this file instead of playing games (the "
                             "format `blockudoku-lab crises --positions-file` writes: `board streak a b c` per line, "
                             "the hand as 0-based indices into the 47 pieces)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    positions = None
    if args.positions is not None:
        try:
            positions = read_positions(args.positions)
        except (OSError, ValueError) as e:
            parser.error(f"--positions {args.positions}: {e}")
    rng = random.Random(args.seed)
    times = []
    games = 1
    command = [args.engine] if args.engine else None
    try:
        engine = BlockudokuEngine(command)
    except (EngineProblem, FileNotFoundError) as err:
        print(f"go_latency: {err}", file=sys.stderr)
        return 1
    with engine:
        engine.setoption("Threads", 1)
        try:
            engine.setoption("Agent", args.agent)
        except EngineError as err:
            parser.error(f"--agent {args.agent}: {err.message}")
        for board, streak, hand in positions or []:
            engine.position(board=board, pieces=hand, streak=streak)
            started = time.perf_counter()
            engine.go()
            times.append((time.perf_counter() - started) * 1000.0)
        board = None
        while positions is None and len(times) < args.rounds:
            hand = [rng.randint(1, 47) for _ in range(3)]
            engine.position(board=board, pieces=hand)
            started = time.perf_counter()
            result = engine.go()
            times.append((time.perf_counter() - started) * 1000.0)
            if result.lost:
                games += 1
                board = None
                continue
            board = engine.play(result.placements).board
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    who = "" if args.agent == "default" else f", agent {args.agent}"
    where = f"on the positions of {args.positions}" if positions is not None else \
        f"in {games} games, seed {args.seed}"
    print(f"go latency{who}: {len(times)} searches {where}: median "
          f"{statistics.median(times):.2f} ms, p90 {pick(0.9):.2f} ms, p99 {pick(0.99):.2f} ms, "
          f"max {times[-1]:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
