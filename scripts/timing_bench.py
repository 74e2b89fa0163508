#!/usr/bin/env python3
"""The engines' timing promises, measured as percentiles over many searches.

The protocols promise a `bestmove` at most 10 ms past `movetime`, `readyok` at once while a
search runs, a prompt `bestmove` after `stop`, and (Competitive Sudoku) a first `propose`
early. The test suite only checks that these things happen, with bounds a loaded machine
cannot break; this script measures how well they are kept, on an idle machine:

    python3 scripts/timing_bench.py blockudoku --searches 400 --seed 1
    python3 scripts/timing_bench.py sudoku --searches 400 --seed 1

For each search it sends a position (random hands on empty and crowded boards; empty sudoku
boards of several shapes and modes), then `go movetime T` (T cycling through --movetime) and
times, from writing the line to reading the reply: the overshoot of `bestmove` past T and the
first `propose` (sudoku). Every fourth search it also runs `go infinite`, sends `isready` 20 ms later
and `stop` once `readyok` is in, and times both replies. Prints one line per quantity with
the number of samples, median, p90, p99 and max in milliseconds; exits 1 if the engine broke
the protocol (no reply within 10 s, a dead process).

With `--record FILE` (sudoku only) the positions are those of a game record
(`protocol/records.md`) instead: the position before every step of every game in it (from
`sudoku-lab replay --positions`) gets one `go movetime T`, so the searches meet the boards of
a real game (sparse large boards, taboo lists) in order:

    python3 scripts/timing_bench.py sudoku --record game.txt --movetime 100
"""
from __future__ import annotations

import argparse
import queue
import random
import subprocess
import sys
import time
from typing import Callable, Dict, List, Tuple

from engines import find_binary
from engines.cli import HelpFormatter
from engines.timed import TimedProcess

BINARIES = {"blockudoku": "blockudoku", "sudoku": "sudoku-agent"}
REPLY_TIMEOUT = 10.0

# Crowded Blockudoku boards (the compliance suite's and the protocol transcript's).
CROWDED = [
    "######.../.########/###.#####/#.#######/####.####/#######.#/##.######/#####.###/########.",
    "##.##.##./#..#..#../........./##.##.##./#..#..#../........./##.##.##./#..#..#../.........",
]
SUDOKU = [
    "position 3x3 " + "/".join(["." * 9] * 9),
    "position 3x3 " + "/".join(["." * 9] * 9) + " mode rows",
    "position 2x3 " + "/".join(["." * 6] * 6),
    "position 3x4 " + "/".join(["." * 12] * 12) + " mode border",
]


class Timed(TimedProcess):
    """The engine under measurement: replies are awaited with a time limit, `error` fails."""

    def until(self, pred: Callable[[str], bool]) -> Tuple[float, List[str]]:
        seen: List[str] = []
        deadline = time.perf_counter() + REPLY_TIMEOUT
        while True:
            try:
                stamp, line = self.lines.get(timeout=max(0.001, deadline - time.perf_counter()))
            except queue.Empty:
                raise RuntimeError(f"no expected reply within {REPLY_TIMEOUT:.0f} s; last lines {seen[-3:]}") from None
            if line is None:
                raise RuntimeError(f"the engine exited; last lines {seen[-3:]}")
            seen.append(line)
            if line.startswith("error"):
                raise RuntimeError(f"the engine answered {line!r}")
            if pred(line):
                return stamp, seen

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def positions(kind: str, rng: random.Random):
    """An endless supply of position lines for the engine kind."""
    while True:
        if kind == "sudoku":
            yield rng.choice(SUDOKU)
        else:
            board = rng.choice([None, None] + CROWDED)
            hand = " ".join(str(rng.randint(1, 47)) for _ in range(3))
            yield f"position board {board} pieces {hand}" if board else f"position empty pieces {hand}"


def summary(name: str, samples: List[float]) -> str:
    if not samples:
        return f"{name}: no samples"
    s = sorted(samples)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return (f"{name}: n {len(s)} median {pick(0.5):.2f} ms p90 {pick(0.9):.2f} ms "
            f"p99 {pick(0.99):.2f} ms max {s[-1]:.2f} ms")


def bench(kind: str, cmd: List[str], searches: int, movetimes: List[int], seed: int, threads: int) -> Dict[str, List[float]]:
    rng = random.Random(seed)
    out: Dict[str, List[float]] = {"overshoot": [], "propose": [], "isready": [], "stop": []}
    engine = Timed(cmd)
    try:
        engine.send(f"setoption name Threads value {threads}")
        feed = positions(kind, rng)
        for i in range(searches):
            engine.send(next(feed))
            engine.send("isready")
            engine.until(lambda l: l == "readyok")
            movetime = movetimes[i % len(movetimes)]
            sent = engine.send(f"go movetime {movetime}")
            if kind == "sudoku":
                stamp, lines = engine.until(lambda l: l.startswith(("propose", "bestmove")))
                if lines[-1].startswith("propose"):
                    out["propose"].append((stamp - sent) * 1000)
            stamp, lines = engine.until(lambda l: l.startswith("bestmove"))
            out["overshoot"].append((stamp - sent) * 1000 - movetime)
            if i % 4 == 3:
                engine.send("go infinite")
                time.sleep(0.02)
                sent = engine.send("isready")
                stamp, _ = engine.until(lambda l: l == "readyok")
                out["isready"].append((stamp - sent) * 1000)
                sent = engine.send("stop")
                stamp, _ = engine.until(lambda l: l.startswith("bestmove"))
                out["stop"].append((stamp - sent) * 1000)
    finally:
        engine.close()
    return out


def record_positions(path: str) -> List[str]:
    """The position before every step of every game of a record, as `position` lines, from the
    project's own referee (`sudoku-lab replay --positions`), whatever engine is timed."""
    proc = subprocess.run([str(find_binary("sudoku-lab")), "replay", "--positions", path],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"replay of {path}: {proc.stderr.strip()}")
    return [line.split(" ", 2)[2] for line in proc.stdout.splitlines() if line.startswith("before ")]


def bench_record(cmd: List[str], path: str, movetimes: List[int], threads: int) -> Dict[str, List[float]]:
    """`go movetime T` on every position of the games of a record, in order."""
    out: Dict[str, List[float]] = {"overshoot": [], "propose": []}
    engine = Timed(cmd)
    try:
        engine.send(f"setoption name Threads value {threads}")
        for i, position in enumerate(record_positions(path)):
            engine.send(position)
            engine.send("isready")
            engine.until(lambda l: l == "readyok")
            movetime = movetimes[i % len(movetimes)]
            sent = engine.send(f"go movetime {movetime}")
            stamp, lines = engine.until(lambda l: l.startswith(("propose", "bestmove")))
            if lines[-1].startswith("propose"):
                out["propose"].append((stamp - sent) * 1000)
                stamp, lines = engine.until(lambda l: l.startswith("bestmove"))
            out["overshoot"].append((stamp - sent) * 1000 - movetime)
    finally:
        engine.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    parser.add_argument("kind", choices=sorted(BINARIES), help="which engine")
    parser.add_argument("--engine", help="engine binary (default: $ENGINE_BIN_DIR, target/release, PATH)")
    parser.add_argument("--searches", type=int, default=400, help="timed `go movetime` searches")
    parser.add_argument("--movetime", default="20,100", help="comma-separated movetimes in ms, cycled")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions")
    parser.add_argument("--threads", type=int, default=1, help="engine Threads option")
    parser.add_argument("--record", metavar="FILE",
                        help="sudoku: time the positions of this game record instead (--searches, --seed unused)")
    args = parser.parse_args()
    if args.record and args.kind != "sudoku":
        parser.error("--record needs the sudoku engine")
    if args.searches < 1:
        parser.error("--searches must be at least 1")
    try:
        movetimes = [int(t) for t in args.movetime.split(",")]
        if not movetimes or min(movetimes) < 1:
            raise ValueError
    except ValueError:
        parser.error(f"--movetime needs positive integers separated by commas, got {args.movetime!r}")
    try:
        binary = args.engine or str(find_binary(BINARIES[args.kind]))
        if args.record:
            samples = bench_record([binary], args.record, movetimes, args.threads)
        else:
            samples = bench(args.kind, [binary], args.searches, movetimes, args.seed, args.threads)
    except (OSError, RuntimeError) as err:
        print(f"timing_bench: {err}", file=sys.stderr)
        return 1
    if args.record:
        over = sum(1 for t in samples["overshoot"] if t > 10)
        print(f"timing sudoku: {len(samples['overshoot'])} positions of {args.record}, movetime "
              f"{args.movetime} ms, threads {args.threads}; bestmove over movetime+10 ms: {over}")
    else:
        print(f"timing {args.kind}: {args.searches} searches, movetime {args.movetime} ms, "
              f"seed {args.seed}, threads {args.threads}")
    print(summary("movetime overshoot", samples["overshoot"]))
    if args.kind == "sudoku":
        print(summary("first propose", samples["propose"]))
    if args.record:
        return 0
    print(summary("isready while searching", samples["isready"]))
    print(summary("stop to bestmove", samples["stop"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
