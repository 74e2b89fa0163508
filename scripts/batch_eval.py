#!/usr/bin/env python3
"""Batch evaluation: many `sudoku-lab arena` or `blockudoku-lab selfplay` jobs in parallel.

A job is one point of the grid (agents x opponents x boards x modes x time limits x seeds for
Competitive Sudoku; agents x scoring rules x seeds for Blockudoku). Each job runs the engine's
own referee in a worker process with `--jsonl`, and its result (parameters, per-game records,
summary) is appended as one JSON line to --out. A run that is interrupted resumes where it
stopped: jobs already in --out are skipped (--fresh starts over). A job whose engine is killed
(or crashes) is reported once and run again (--retries, default 1); one that still fails is
not written as done, so the next run of the same command does it. At the end a summary table is printed, and --plot
DIR writes PNG charts (win rate with 95% confidence intervals per opponent and board; the
Blockudoku survival curve; hazard or score over the units with its 95% band).

Work units that distribute well (engines/batch/units.py): `--pairs N` plays N game pairs per setting
(same board, sides swapped), `--chains N --exposure R` plays N Blockudoku chains of R counted
rounds each (a new game after a death; `--burn-in B` leaves each game's first B rounds out;
`--probes exact` has the engine drive each chain and measure the probe, the exact chance of a
dead next hand at every counted round, `--split K` with crisis splitting: the summary adds the
probe hazard with its interval over the units and the probe and window ratios between agents);
each unit is seeded from the run's seed (`--seeds`) and its index. `--ray ADDRESS` runs the
units as Ray tasks (`local`: a private Ray with --jobs CPUs; else a cluster's address), with
the same results file, progress and summary; without it Ray is not imported. The summary
gives exact Poisson intervals of the hazard, a rate ratio with p-value between Blockudoku
agents, Elo from game pairs (pentanomial) and, with `--sprt elo0,elo1,alpha,beta`, a
sequential test that stops the run when it decides.

    python3 scripts/batch_eval.py sudoku --agents default --opponents greedy,seed \\
        --boards 2x3,3x3 --modes classic,rows --movetimes 50 --seeds 1-4 --games 10 \\
        --jobs 2 --out scripts/out/sudoku.jsonl --plot scripts/out
    python3 scripts/batch_eval.py blockudoku --agents default,seed --seeds 1-4 --games 5 \\
        --max-rounds 2000 --jobs 2 --out scripts/out/blockudoku.jsonl --plot scripts/out
    python3 scripts/batch_eval.py blockudoku --agents default,original --chains 40 --exposure 2000 \\
        --ray local --jobs 2 --out scripts/out/chains.jsonl
    python3 scripts/batch_eval.py blockudoku --agents strong,default --chains 8 --exposure 25000 \\
        --burn-in 100 --probes exact --split 16 --jobs 2 --out scripts/out/probes.jsonl
    python3 scripts/batch_eval.py sudoku --opponents greedy --boards 2x3 --movetimes 50 --pairs 200 \\
        --sprt 0,50,0.05,0.05 --ray 127.0.0.1:6379 --out scripts/out/pairs.jsonl
    python3 scripts/batch_eval.py sudoku --opponents default@20 --movetimes 100 --pairs 50 \\
        --openings crates/sudoku-lab/data/openings/3x3-rows.txt --out scripts/out/openings.jsonl

With --openings every summary row also says how many of its games were distinct (different
move sequences or starts): games repeated move for move add nothing to a match.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
from typing import Optional, Sequence

from engines import BlockudokuEngine, SudokuEngine, find_binary
from engines.batch.jobs import blockudoku_jobs, check_files, check_probes, parse_list, sudoku_jobs
from engines.batch.results import ResultsBusy, hold_results_file
from engines.cli import HelpFormatter, check_option_values, missing_statistics
from engines.batch.units import RayUnavailable


TERMS = """\
terms:
  agent     a player of the engine (its Agent option): the ones evaluated (--agents) and,
            in Competitive Sudoku, the ones they play against (--opponents); the engine is
            asked for its agents before any work starts
  setting   one combination of the grid: agent x opponent x board x mode x movetime
            (sudoku) or agent x scoring rule (blockudoku)
  job       one unit of work, run in its own engine process and written as one JSON line to
            --out: by default --games games of one setting and seed (`arena` or `selfplay`);
            with --pairs one game pair, with --chains one chain of --exposure rounds
  summary   the jobs of a setting pooled over seeds: score or hazard with 95% intervals
"""


def engine_beside(lab: str) -> Optional[str]:
    """The engine of the lab's build (`sudoku-agent` beside `sudoku-lab`), which is asked for
    its agents before the run; None when there is none to ask."""
    beside = pathlib.Path(lab).with_name("sudoku-agent")
    return str(beside) if beside.is_file() else None


def engine_refusal(args, binary: Optional[str]) -> Optional[str]:
    """The engine's answer when it lacks an agent (opponent, objective, scoring rule) the
    grid names, in one line; None when it has them all (or cannot be asked)."""
    if binary is None:
        return None
    if args.game == "sudoku":
        # `cmd:<command line>` agents are programs of their own: nothing to ask; `NAME@MS` is
        # agent NAME at its own time per move.
        names = [a.split("@")[0] for a in parse_list(args.agents) + parse_list(args.opponents)
                 if not a.startswith("cmd:")]
        return check_option_values([binary], SudokuEngine, [("Agent", names)], "batch_eval")
    # selfplay --agent takes NAME, NAME:OBJECTIVE and either with /weight=value overrides.
    agents = [a.split("/")[0] for a in parse_list(args.agents)]
    wanted = [("Agent", [a.partition(":")[0] for a in agents]), ("Objective", [a.partition(":")[2] for a in agents]),
              ("Scoring", parse_list(args.scorings or ""))]
    # The jobs run the measuring tools (`blockudoku-lab`); the engine beside them answers.
    engine = pathlib.Path(binary).with_name("blockudoku")
    return check_option_values([str(engine) if engine.is_file() else binary], BlockudokuEngine, wanted, "batch_eval")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=TERMS, formatter_class=HelpFormatter)
    sub = parser.add_subparsers(dest="game", required=True, metavar="{sudoku,blockudoku}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--out", required=True, metavar="FILE",
                        help="results: one JSON line per finished job, appended; a run of the same command "
                             "resumes from it (e.g. scripts/out/batch.jsonl)")
    common.add_argument("--agents", default="default", help="comma-separated agents to evaluate")
    common.add_argument("--seeds", default="1", help="seeds: 1,2,3 or 1-8 (with --pairs/--chains: the run's seeds)")
    common.add_argument("--games", type=int, default=10, help="games per job (not with --pairs or --chains)")
    common.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="jobs run at the same time (--ray local: its CPUs; --ray ADDRESS: not used, every "
                             "CPU of the cluster takes jobs)")
    common.add_argument("--plot", metavar="DIR", help="write PNG charts into DIR")
    common.add_argument("--engine", help="the program the jobs run: blockudoku-lab, or sudoku-lab for Competitive "
                                         "Sudoku (default: from $ENGINE_BIN_DIR or target/release)")
    common.add_argument("--timeout", type=float, help="seconds before a job is killed (default: no limit)")
    common.add_argument("--retries", type=int, default=1,
                        help="runs of a job again when its engine is killed or crashes")
    common.add_argument("--fresh", action="store_true", help="start over: forget the jobs already in --out")
    common.add_argument("--ray", metavar="ADDRESS",
                        help="run the jobs as Ray tasks: 'local' (a private Ray with --jobs CPUs) or a cluster's "
                             "address such as 127.0.0.1:6379 (from 'ray start --head'); needs the ray extra")
    common.add_argument("--worker-engine", metavar="PATH",
                        help="with --ray: the path on every worker node of the program the jobs run (blockudoku, "
                             "or sudoku-lab for Competitive Sudoku; default: it is shipped to the workers in "
                             "Ray's runtime environment)")
    s = sub.add_parser("sudoku", parents=[common], formatter_class=HelpFormatter, epilog=TERMS,
                       help="Competitive Sudoku: sudoku-lab arena jobs",
                       description="Competitive Sudoku: each job is one `sudoku-lab arena` run, an agent of\n"
                                   "--agents (--first) against one of --opponents (--second), sides swapping.")
    s.add_argument("--opponents", default="greedy",
                   help="comma-separated agents the evaluated ones play against (arena --second)")
    s.add_argument("--boards", help="block shapes or board files, comma-separated (default 3x3)")
    s.add_argument("--modes", help="play modes, comma-separated: classic, rows, border, random (default classic)")
    s.add_argument("--openings", metavar="FILE",
                   help="an opening suite (sudoku-lab arena --openings: position lines or records, one board and "
                        "mode): each opening is played twice, sides swapped; with --pairs, pair K plays opening "
                        "K modulo the suite's size; instead of --boards, --modes and --givens")
    s.add_argument("--movetimes", default="100", help="ms per move, comma-separated")
    s.add_argument("--givens", help="random givens per board, e.g. 20-40")
    s.add_argument("--pairs", type=int, help="units of one game pair (same board, sides swapped): this many per "
                                             "setting and seed (instead of --games per job)")
    s.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA",
                   help="with --pairs and one setting: stop when the SPRT of Elo ELO1 against ELO0 decides")
    b = sub.add_parser("blockudoku", parents=[common], formatter_class=HelpFormatter, epilog=TERMS,
                       help="Blockudoku: blockudoku-lab selfplay jobs",
                       description="Blockudoku: each job is one `blockudoku-lab selfplay` run of an agent of --agents\n"
                                   "(NAME, NAME:OBJECTIVE or NAME/weight=value, as selfplay --agent takes them).")
    b.add_argument("--scorings", help="comma-separated scoring rules (default: the engine's)")
    b.add_argument("--max-rounds", type=int, default=1000, help="round cap per game")
    b.add_argument("--pieces", help="piece set file (selfplay --pieces)")
    b.add_argument("--chains", type=int, help="units of one fixed-exposure chain: this many per agent, scoring and "
                                              "seed (instead of --games per job; --max-rounds is not used)")
    b.add_argument("--exposure", type=int, default=10000, help="counted rounds per chain")
    b.add_argument("--burn-in", type=int, default=0, help="rounds at the start of each game not counted")
    b.add_argument("--probes", help="with --chains: the engine drives each chain (selfplay --chain-rounds) and "
                                    "measures at every counted round the chance that the next hand dies: exact or "
                                    "a number of sampled hands; the summary adds the probe hazard")
    b.add_argument("--split", type=int, help="with --probes: crisis splitting with this many copies (selfplay --split)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    missing = missing_statistics("batch_eval")
    if missing:
        print(missing, file=sys.stderr)
        return 2
    # These need the statistics (engines/batch/stats.py, scipy).
    from engines.batch.plot import plot
    from engines.batch.pool import run
    from engines.batch.sprt import Sprt
    from engines.batch.summary import print_table, summarise

    sprt = None
    try:
        jobs = sudoku_jobs(args) if args.game == "sudoku" else blockudoku_jobs(args)
        if getattr(args, "sprt", None):
            settings = {(j["agent"], j["opponent"], j["board"], j["mode"], j["movetime"]) for j in jobs}
            if not args.pairs or len(settings) != 1:
                raise ValueError("--sprt needs --pairs and a single agent, opponent, board, mode and movetime")
            sprt = Sprt(args.sprt, jobs)
        if args.game == "blockudoku" and args.chains and (args.exposure < 1 or args.burn_in < 0):
            raise ValueError("--exposure must be at least 1 and --burn-in at least 0")
        if args.game == "blockudoku":
            check_probes(args)
        check_files(args)
    except ValueError as err:
        print(f"batch_eval: bad arguments ({err})", file=sys.stderr)
        return 2
    try:
        binary = args.engine or str(find_binary("sudoku-lab" if args.game == "sudoku" else "blockudoku-lab"))
    except FileNotFoundError as err:
        print(f"batch_eval: {err}", file=sys.stderr)
        return 2
    refusal = engine_refusal(args, engine_beside(binary) if args.game == "sudoku" else binary)
    if refusal:
        print(f"batch_eval: {refusal}", file=sys.stderr)
        return 2
    if args.ray and not args.worker_engine and not os.path.isfile(binary):
        print(f"batch_eval: --ray ships the engine to the workers, but {binary} is not a file "
              "(give --engine, or --worker-engine for a path on the workers)", file=sys.stderr)
        return 2
    try:
        hold_results_file(pathlib.Path(args.out), fresh=args.fresh)
        results = run(jobs, binary, pathlib.Path(args.out), args.jobs, args.timeout, max(0, args.retries),
                      ray_address=args.ray, worker_engine=args.worker_engine, sprt=sprt)
    except KeyboardInterrupt:
        return 130
    except ImportError as err:
        print(f"batch_eval: --ray needs the ray package (python3 -m pip install -e 'scripts[ray]'): {err}",
              file=sys.stderr)
        return 2
    except (RayUnavailable, ResultsBusy) as err:
        print(f"batch_eval: {err}", file=sys.stderr)
        return 2
    results = [r for r in results if r["game"] == args.game]
    if sprt is not None and sprt.verdict is not None:
        # The decision and the summary cover the same pairs: the units up to the deciding one.
        counted = set(sprt.keys[:sprt.pairs])
        results = [r for r in results if r["key"] in counted]
    rows = summarise([r for r in results if r.get("exit_code") == 0])
    print_table(rows, baseline=parse_list(args.agents)[0] if parse_list(args.agents) else None)
    if sprt is not None:
        print(sprt.line())
    failed = [r for r in results if r.get("exit_code") != 0]
    if failed:
        print(f"{len(failed)} of {len(results)} jobs failed (reported above); run the same command again to redo them",
              file=sys.stderr)
    if args.plot:
        for path in plot(rows, pathlib.Path(args.plot)):
            print(f"wrote {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
