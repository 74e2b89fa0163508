#!/usr/bin/env python3
"""Latency of a bare `go` (no limits) on positions from self-play, through the protocol.

Plays seeded self-play games against the real `blockudoku` binary with `Threads 1`: each
round deals three random catalogue pieces, sends `position`, times `go` from the moment the
line is sent to the moment `bestmove` arrives (so the figure includes pipe and parsing
overhead), and applies the answer with `play`. Prints the number of searches and the median,
90th and 99th percentile and maximum in milliseconds. Issue 3's target: median under 5 ms.

    python3 scripts/go_latency.py --rounds 2000 --seed 1
"""
import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engines import BlockudokuEngine  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000, help="searches to time (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dealt pieces")
    parser.add_argument("--engine", help="path of the blockudoku binary (default: found as the driver does)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    rng = random.Random(args.seed)
    times = []
    games = 1
    command = [args.engine] if args.engine else None
    with BlockudokuEngine(command) as engine:
        engine.setoption("Threads", 1)
        board = None
        while len(times) < args.rounds:
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
    print(f"go latency: {len(times)} searches in {games} games, seed {args.seed}: median "
          f"{statistics.median(times):.2f} ms, p90 {pick(0.9):.2f} ms, p99 {pick(0.99):.2f} ms, "
          f"max {times[-1]:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
