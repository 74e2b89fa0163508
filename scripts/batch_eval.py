#!/usr/bin/env python3
"""Batch evaluation: many `sudoku-agent arena` or `blockudoku selfplay` jobs in parallel.

A job is one point of the grid (agents x opponents x boards x modes x time limits x seeds for
Competitive Sudoku; agents x scoring rules x seeds for Blockudoku). Each job runs the engine's
own referee in a worker process with `--jsonl`, and its result (parameters, per-game records,
summary) is appended as one JSON line to --out. A run that is interrupted resumes where it
stopped: jobs already in --out are skipped (--fresh starts over). A job whose engine is killed
(or crashes) is reported once and run again (--retries, default 1); one that still fails is
not written as done, so the next run of the same command does it. At the end a summary table is printed, and --plot
DIR writes PNG charts (win rate with 95% confidence intervals per opponent and board; the
Blockudoku survival curve; hazard or score over the units with its 95% band).

Work units that distribute well (engines/units.py): `--pairs N` plays N game pairs per setting
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
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import itertools
import json
import os
import pathlib
import signal
import sys
import threading
import time
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engines.base import find_binary  # noqa: E402
from engines.stats import (  # noqa: E402
    elo_pentanomial, mean_interval, pentanomial, poisson_interval, rate_ratio, ratio_interval, sprt_bounds,
    sprt_decision, wilson,
)
from engines.units import (  # noqa: E402,F401
    RUNNING, RUNNING_LOCK, RayUnavailable, chain_counts, command_for, run_unit, unit_key,
)


# --- jobs ------------------------------------------------------------------------------------

def parse_list(text: str) -> List[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def parse_seeds(text: str) -> List[int]:
    """`1,2,5` or `1-4` or a mix: `1-3,7`."""
    seeds: List[int] = []
    for part in parse_list(text):
        if "-" in part[1:]:
            lo, hi = part.split("-", 1)
            seeds.extend(range(int(lo), int(hi) + 1))
        else:
            seeds.append(int(part))
    return seeds


def job_key(params: Dict[str, object]) -> str:
    return unit_key(params)


def sudoku_jobs(args) -> List[Dict[str, object]]:
    settings = list(itertools.product(
        parse_list(args.agents), parse_list(args.opponents), parse_list(args.boards),
        parse_list(args.modes), [int(t) for t in parse_list(args.movetimes)]))
    jobs = []
    if args.pairs:
        # Index outside the settings: every setting's first units come first (SPRT, streaming).
        for seed, index, (agent, opponent, board, mode, movetime) in itertools.product(
                parse_seeds(args.seeds), range(args.pairs), settings):
            job = {"game": "sudoku", "unit": "pair", "agent": agent, "opponent": opponent, "board": board,
                   "mode": mode, "movetime": movetime, "seed": seed, "index": index}
            if args.givens:
                job["givens"] = args.givens
            jobs.append(job)
        return jobs
    for (agent, opponent, board, mode, movetime), seed in itertools.product(settings, parse_seeds(args.seeds)):
        job = {"game": "sudoku", "agent": agent, "opponent": opponent, "board": board, "mode": mode,
               "movetime": movetime, "seed": seed, "games": args.games}
        if args.givens:
            job["givens"] = args.givens
        jobs.append(job)
    return jobs


def blockudoku_jobs(args) -> List[Dict[str, object]]:
    jobs = []
    scorings = parse_list(args.scorings) if args.scorings else [None]
    if args.chains:
        for seed, index, agent, scoring in itertools.product(
                parse_seeds(args.seeds), range(args.chains), parse_list(args.agents), scorings):
            job = {"game": "blockudoku", "unit": "chain", "agent": agent, "seed": seed,
                   "index": index, "exposure": args.exposure, "burn_in": args.burn_in}
            # Absent unless given: the keys of runs made without probes stay as they were.
            if args.probes:
                job["probes"] = args.probes
            if args.split:
                job["split"] = args.split
            jobs.append(with_rules(job, scoring, args.pieces))
        return jobs
    for agent, scoring, seed in itertools.product(parse_list(args.agents), scorings, parse_seeds(args.seeds)):
        jobs.append(with_rules({"game": "blockudoku", "agent": agent, "seed": seed, "games": args.games,
                                "max_rounds": args.max_rounds}, scoring, args.pieces))
    return jobs


def with_rules(job: Dict[str, object], scoring: Optional[str], pieces: Optional[str]) -> Dict[str, object]:
    """A Blockudoku job with its scoring rule and piece set, when not the engine's defaults
    (absent keys keep the job keys of runs made without them)."""
    if scoring is not None:
        job["scoring"] = scoring
    if pieces:
        job["pieces"] = pieces
    return job


def run_job(job: Dict[str, object], binary: str, tmp_dir: pathlib.Path, timeout: Optional[float]) -> Dict[str, object]:
    """Runs one job (unit) in its own engine process(es); returns its result line."""
    return run_unit(job, binary, str(tmp_dir), timeout)


# --- statistics ------------------------------------------------------------------------------

def game_points(rec: Dict[str, object]) -> float:
    """Points of the evaluated agent (the arena's `first`) in one game: 1, 0.5 or 0."""
    if "first_points" in rec:
        return float(rec["first_points"])  # type: ignore[arg-type]
    scores, side = rec.get("scores"), rec.get("first_player")
    if isinstance(scores, list) and side in (1, 2):
        mine, theirs = scores[side - 1], scores[2 - side]
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    raise ValueError(f"cannot tell who won: {rec}")


def blockudoku_game(rec: Dict[str, object], burn_in: int = 0) -> Tuple[int, bool]:
    """(rounds counted, death counted) of one self-play game record (after its burn-in)."""
    return chain_counts([rec], burn_in)[0]


def unit_order(res: Dict[str, object]) -> Tuple[int, int]:
    return int(res.get("seed", 0)), int(res.get("index", 0))  # type: ignore[arg-type]


def game_pairs(res: Dict[str, object]) -> List[float]:
    """Points of the evaluated agent in each complete pair of a job's games (games 1-2, 3-4, ...).

    The arena plays games 2k-1 and 2k on the same start position with sides swapped."""
    by_pair: Dict[int, List[float]] = {}
    for rec in res.get("records", []):  # type: ignore[union-attr]
        by_pair.setdefault((int(rec.get("game", 1)) - 1) // 2, []).append(game_points(rec))
    return [sum(p) for _, p in sorted(by_pair.items()) if len(p) == 2]


def summarise(results: Sequence[Dict[str, object]]) -> List[Dict[str, object]]:
    """Aggregates jobs (units) over seeds and indices into one row per setting."""
    groups: Dict[Tuple, List[Dict[str, object]]] = {}
    for res in results:
        if res["game"] == "sudoku":
            key = ("sudoku", res["agent"], res["opponent"], res["board"], res["mode"], res["movetime"], res.get("givens"))
        else:
            key = ("blockudoku", res["agent"], res.get("scoring"), res.get("max_rounds"), res.get("exposure"),
                   res.get("burn_in"), res.get("pieces"), res.get("probes"), res.get("split"))
        groups.setdefault(key, []).append(res)
    rows = []
    for key, items in groups.items():
        items = sorted(items, key=unit_order)
        records = [r for it in items for r in it.get("records", [])]
        failed = sum(1 for it in items if it.get("exit_code") != 0)
        if key[0] == "sudoku":
            pts = [game_points(r) for r in records]
            n = len(pts)
            wins = sum(1 for p in pts if p == 1.0)
            draws = sum(1 for p in pts if p == 0.5)
            lo, hi = wilson(sum(pts), n)
            forfeits = sum(1 for r in records if r.get("forfeit"))
            penta = pentanomial([p for it in items for p in game_pairs(it)])
            rows.append({"game": "sudoku", "agent": key[1], "opponent": key[2], "board": key[3], "mode": key[4],
                         "movetime": key[5], "givens": key[6], "games": n, "wins": wins, "draws": draws,
                         "losses": n - wins - draws, "score": (sum(pts) / n) if n else float("nan"),
                         "ci": (lo, hi), "forfeit_games": forfeits, "failed_jobs": failed,
                         "pentanomial": penta, "elo": elo_pentanomial(penta),
                         "series": [(sum(game_points(r) for r in it.get("records", [])), len(it.get("records", [])))
                                    for it in items]})
        elif key[7]:
            rows.append(probe_row(key, items, failed))
        else:
            burn_in = int(key[5] or 0)
            per_unit = [chain_counts(it.get("records", []), burn_in) for it in items]
            games = [g for unit in per_unit for g in unit]
            rounds = sum(g[0] for g in games)
            deaths = sum(1 for g in games if g[1])
            lo, hi = poisson_interval(deaths)
            rows.append({"game": "blockudoku", "agent": key[1], "scoring": key[2], "max_rounds": key[3],
                         "exposure": key[4], "burn_in": key[5], "pieces": key[6], "probes": None, "split": None,
                         "games": len(games), "deaths": deaths, "rounds": rounds,
                         "deaths_per_1000": 1000 * deaths / rounds if rounds else float("nan"),
                         "ci_per_1000": (1000 * lo / rounds, 1000 * hi / rounds) if rounds else (float("nan"),) * 2,
                         "mean_rounds": rounds / len(games) if games else float("nan"),
                         "game_lengths": games, "failed_jobs": failed,
                         "series": [(sum(1 for g in unit if g[1]), sum(g[0] for g in unit)) for unit in per_unit]})
    return rows


# The probe levels of the engine's `probe entries` line and of its records' `entries`, in order.
ENTRY_LEVELS = ("1e-6", "1e-5", "1e-4", "1e-3")


def probe_row(key: Tuple, items: Sequence[Dict[str, object]], failed: int) -> Dict[str, object]:
    """The row of chain units the engine drove with probes: one chain record per unit (its
    deaths, games, measured rounds, mean probe, entries into the probe levels and, with --split,
    windows opened)."""
    recs = [it["records"][0] for it in items if it.get("exit_code") == 0 and it.get("records")]
    deaths = sum(int(r["deaths"]) for r in recs)
    rounds = sum(int(r["rounds"]) for r in recs)
    games = sum(int(r["games"]) for r in recs)
    lo, hi = poisson_interval(deaths)
    windows = sum(int(r["windows"]) for r in recs) if recs and all(r.get("windows") is not None for r in recs) else None
    # The engine's `probe entries` levels (crates/blockudoku/README.md, "Chain runs"), summed
    # over the units.
    entries = ([sum(int(r["entries"][i]) for r in recs) for i in range(len(ENTRY_LEVELS))]
               if recs and all(r.get("entries") is not None for r in recs) else None)
    return {"game": "blockudoku", "agent": key[1], "scoring": key[2], "max_rounds": key[3],
            "exposure": key[4], "burn_in": key[5], "pieces": key[6], "probes": key[7], "split": key[8],
            "games": games, "deaths": deaths, "rounds": rounds,
            "deaths_per_1000": 1000 * deaths / rounds if rounds else float("nan"),
            "ci_per_1000": (1000 * lo / rounds, 1000 * hi / rounds) if rounds else (float("nan"),) * 2,
            "mean_rounds": rounds / games if games else float("nan"),
            # Every unit has the same exposure: the mean of the units' probes is the pooled one,
            # and the units are independent chains.
            "probe": mean_interval([float(r["probe"]) for r in recs]), "windows": windows, "entries": entries,
            "units": len(recs),
            "unit_probes": [float(r["probe"]) for r in recs],
            "game_lengths": [], "failed_jobs": failed,
            "series": [(int(r["deaths"]), int(r["rounds"])) for r in recs]}


def signed(x: float) -> str:
    return "+inf" if x == float("inf") else "-inf" if x == float("-inf") else f"{x:+.1f}"


def comparisons(rows: Sequence[Dict[str, object]], baseline: Optional[str]) -> List[str]:
    """Each Blockudoku agent's hazard over the baseline agent's, on the same settings."""
    blocku = [r for r in rows if r["game"] == "blockudoku" and r["rounds"]]
    same = ("scoring", "max_rounds", "exposure", "burn_in", "pieces", "probes", "split")
    lines, probes = [], []
    for r in sorted(blocku, key=lambda r: (r["agent"], str(r["scoring"]))):
        if r["agent"] == baseline:
            continue
        base = next((b for b in blocku if b["agent"] == baseline and all(b[k] == r[k] for k in same)), None)
        if base is None:
            continue
        ratio, (lo, hi), p = rate_ratio(r["deaths"], r["rounds"], base["deaths"], base["rounds"])
        lines.append(f"{r['agent']:<10} / {baseline:<10} {ratio:>9.3f} ({lo:.3f}-{hi:.3f}) {p:>10.3g}"
                     f"   ({r['deaths']} deaths in {r['rounds']} rounds vs {base['deaths']} in {base['rounds']})")
        if r["probes"]:
            (a, se_a, _, _), (b, se_b, _, _) = r["probe"], base["probe"]
            pr, plo, phi = ratio_interval(a, se_a, b, se_b)
            probes.append(f"{r['agent']} / {baseline}: probe ratio {pr:.3f} ({fmt_ci(plo, phi, lambda x: f'{x:.3f}')}, "
                          "normal on the log scale)")
            if r["windows"] is not None and base["windows"] is not None:
                wr, (wlo, whi), wp = rate_ratio(r["windows"], r["rounds"], base["windows"], base["rounds"])
                probes.append(f"{r['agent']} / {baseline}: window ratio {wr:.3f} ({wlo:.3f}-{whi:.3f}), "
                              f"p-value {wp:.3g} ({r['windows']} windows vs {base['windows']}, exact conditional, "
                              "windows taken as independent)")
            for level, a, b in zip(ENTRY_LEVELS, r.get("entries") or [], base.get("entries") or []):
                if a + b:
                    er, (elo, ehi), ep = rate_ratio(a, r["rounds"], b, base["rounds"])
                    probes.append(f"{r['agent']} / {baseline}: entries at {level} ratio {er:.3f} ({elo:.3f}-{ehi:.3f}), "
                                  f"p-value {ep:.3g} ({a} entries vs {b}, exact conditional, entries taken as independent)")
    if lines:
        lines.insert(0, "hazard ratio (95% CI, exact conditional binomial test)        p-value")
    return lines + probes


def sci(x: float) -> str:
    """x in three significant digits as the engine prints rates: 2.71e-6."""
    if x == 0:
        return "0"
    if x != x:
        return "nan"
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def fmt_ci(lo: float, hi: float, form) -> str:
    """`95% CI lo - hi`, each through `form`, or why there is no interval."""
    if lo != lo or hi != hi:
        return "no interval: fewer than 2 chains"
    return f"95% CI {form(lo)} - {form(hi)}"


def print_table(rows: Sequence[Dict[str, object]], out=sys.stdout, baseline: Optional[str] = None) -> None:
    sudoku = [r for r in rows if r["game"] == "sudoku"]
    if sudoku:
        head = f"{'agent':<10} {'opponent':<10} {'board':<8} {'mode':<8} {'ms':>5} {'games':>6} {'W-D-L':>11} {'score':>7} {'95% CI':>15} {'forfeit':>7}"
        print(head, file=out)
        print("-" * len(head), file=out)
        ordered = sorted(sudoku, key=lambda r: (r["agent"], r["opponent"], r["board"], r["mode"], r["movetime"]))
        for r in ordered:
            lo, hi = r["ci"]
            wdl = f"{r['wins']}-{r['draws']}-{r['losses']}"
            print(f"{r['agent']:<10} {r['opponent']:<10} {r['board']:<8} {r['mode']:<8} {r['movetime']:>5} {r['games']:>6} "
                  f"{wdl:>11} {100 * r['score']:>6.1f}% {100 * lo:>6.1f}-{100 * hi:>5.1f}% {r['forfeit_games']:>7}"
                  + (f"  ({r['failed_jobs']} failed jobs)" if r["failed_jobs"] else ""), file=out)
        if any(sum(r["pentanomial"]) for r in ordered):
            print("\nElo from game pairs (95% CI; pairs scoring 0, 0.5, 1, 1.5, 2 points)", file=out)
            for r in ordered:
                if sum(r["pentanomial"]):
                    value, lo, hi = r["elo"]
                    interval = "no interval: every pair scored alike" if lo != lo else f"{signed(lo)}..{signed(hi)}"
                    print(f"{r['agent']} vs {r['opponent']} {r['board']} {r['mode']} {r['movetime']} ms: "
                          f"{signed(value)} ({interval}), {sum(r['pentanomial'])} pairs "
                          f"{'-'.join(str(c) for c in r['pentanomial'])}", file=out)
    blocku = [r for r in rows if r["game"] == "blockudoku"]
    if blocku:
        if sudoku:
            print(file=out)
        head = f"{'agent':<10} {'scoring':<10} {'cap':>7} {'games':>6} {'deaths':>7} {'rounds':>10} {'deaths/1000 rounds (95% CI)':>30} {'mean rounds':>12}"
        print(head, file=out)
        print("-" * len(head), file=out)
        for r in sorted(blocku, key=lambda r: (r["agent"], str(r["scoring"]))):
            lo, hi = r["ci_per_1000"]
            cap = "chain" if r["exposure"] else str(r["max_rounds"] or "-")
            print(f"{r['agent']:<10} {str(r['scoring'] or '-'):<10} {cap:>7} {r['games']:>6} "
                  f"{r['deaths']:>7} {r['rounds']:>10} {r['deaths_per_1000']:>12.4f} ({lo:.4f}-{hi:.4f}) {r['mean_rounds']:>12.1f}"
                  + (f"  ({r['failed_jobs']} failed jobs)" if r["failed_jobs"] else ""), file=out)
        for r in sorted(blocku, key=lambda r: (r["agent"], str(r["scoring"]))):
            if r["probes"]:
                mean, _, lo, hi = r["probe"]
                how = "exact over every deal" if r["probes"] == "exact" else f"{r['probes']} sampled deals per round"
                # A rate is not negative: the interval's low end is clipped at 0.
                print(f"{r['agent']}" + (f" ({r['scoring']})" if r["scoring"] else "")
                      + f": probe hazard {sci(mean)} per round ({fmt_ci(max(0.0, lo), hi, sci)}, "
                      f"Student's t over {r['units']} chains; {how})"
                      + (f"; {r['windows']} split windows" if r["windows"] is not None else "")
                      + (f"; entries at {', '.join(f'{l}: {n}' for l, n in zip(ENTRY_LEVELS, r['entries']))}"
                         if r.get("entries") is not None else ""), file=out)
        for exposure, burn_in in sorted({(r["exposure"], r["burn_in"] or 0) for r in blocku if r["exposure"]}):
            print(f"chain: units of {exposure} counted rounds, a new game after each death"
                  + (f", the first {burn_in} rounds of each game not counted" if burn_in else ""), file=out)
        lines = comparisons(rows, baseline)
        if lines:
            print(file=out)
            for line in lines:
                print(line, file=out)


def plot(rows: Sequence[Dict[str, object]], out_dir: pathlib.Path) -> List[pathlib.Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    sudoku = [r for r in rows if r["game"] == "sudoku" and r["games"]]
    if sudoku:
        boards = sorted({(r["board"], r["mode"]) for r in sudoku})
        fig, axes = plt.subplots(1, len(boards), figsize=(4.5 * len(boards), 4), squeeze=False)
        for ax, (board, mode) in zip(axes[0], boards):
            sel = [r for r in sudoku if r["board"] == board and r["mode"] == mode]
            labels = sorted({(r["agent"], r["movetime"]) for r in sel})
            opponents = sorted({r["opponent"] for r in sel})
            width = 0.8 / max(1, len(labels))
            for k, label in enumerate(labels):
                xs, ys, lo_err, hi_err = [], [], [], []
                for x, opp in enumerate(opponents):
                    match = [r for r in sel if (r["agent"], r["movetime"]) == label and r["opponent"] == opp]
                    if match:
                        r = match[0]
                        xs.append(x + (k - (len(labels) - 1) / 2) * width)
                        ys.append(100 * r["score"])
                        lo_err.append(100 * (r["score"] - r["ci"][0]))
                        hi_err.append(100 * (r["ci"][1] - r["score"]))
                ax.bar(xs, ys, width, yerr=[lo_err, hi_err], capsize=3, label=f"{label[0]} {label[1]} ms")
            ax.set_xticks(range(len(opponents)))
            ax.set_xticklabels([f"vs {o}" for o in opponents])
            ax.set_ylim(0, 105)
            ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
            ax.set_title(f"{board} {mode}")
            ax.set_ylabel("score % (95% CI)")
            ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        path = out_dir / "sudoku-winrate.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    # Chains the engine drove (probes) have no per-game lengths: no survival curve.
    blocku = [r for r in rows if r["game"] == "blockudoku" and r["game_lengths"]]
    if blocku:
        fig, ax = plt.subplots(figsize=(6, 4))
        for r in blocku:
            # Kaplan-Meier: games that reached the round cap alive are censored, not deaths.
            games = sorted(r["game_lengths"])
            alive, at_risk = 1.0, len(games)
            xs, ys = [0], [1.0]
            for rounds, died in games:
                if died and at_risk:
                    xs.append(rounds)
                    ys.append(alive)
                    alive *= (at_risk - 1) / at_risk
                    xs.append(rounds)
                    ys.append(alive)
                at_risk -= 1
            xs.append(max([g[0] for g in games] + [1]))
            ys.append(alive)
            ax.plot(xs, ys, label=f"{r['agent']}" + (f" ({r['scoring']})" if r["scoring"] else ""))
        ax.set_xlabel("rounds")
        ax.set_ylabel("fraction of games still alive")
        ax.set_ylim(0, 1.05)
        ax.set_title("Blockudoku survival (capped games censored)")
        ax.legend()
        fig.tight_layout()
        path = out_dir / "blockudoku-survival.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    written += plot_over_units(plt, rows, out_dir)
    written += plot_probe_over_units(plt, rows, out_dir)
    return written


def plot_probe_over_units(plt, rows: Sequence[Dict[str, object]], out_dir: pathlib.Path) -> List[pathlib.Path]:
    """Probe units: the probe hazard over the units (in seed and index order) with its 95% band."""
    sel = [r for r in rows if r["game"] == "blockudoku" and r.get("probes") and r["units"]]
    if not sel:
        return []
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in sel:
        xs, ys, los, his = [], [], [], []
        for i in range(2, len(r["unit_probes"]) + 1):
            mean, _, lo, hi = mean_interval(r["unit_probes"][:i])
            xs.append(i)
            ys.append(mean)
            los.append(max(0.0, lo))
            his.append(hi)
        line, = ax.plot(xs, ys, label=r["agent"] + (f" ({r['scoring']})" if r["scoring"] else ""))
        ax.fill_between(xs, los, his, color=line.get_color(), alpha=0.2)
    ax.set_xlabel("units (chains) done, in seed and index order")
    ax.set_ylabel("probe hazard per round (95% CI)")
    ax.set_ylim(bottom=0)
    ax.set_title("Blockudoku probe hazard over units")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "blockudoku-probe.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return [path]


def plot_over_units(plt, rows: Sequence[Dict[str, object]], out_dir: pathlib.Path) -> List[pathlib.Path]:
    """The running estimate over the units (in seed and index order) with its 95% band:
    Blockudoku hazard with the exact Poisson interval, Competitive Sudoku score with Wilson's."""
    written = []
    for game, name, ylabel in (("blockudoku", "blockudoku-hazard.png", "deaths per 1000 rounds (95% CI)"),
                               ("sudoku", "sudoku-score.png", "score % (95% CI)")):
        sel = [r for r in rows if r["game"] == game and r["series"]]
        if not sel:
            continue
        fig, ax = plt.subplots(figsize=(6, 4))
        for r in sel:
            xs, ys, los, his = [], [], [], []
            num = den = 0.0
            for i, (a, b) in enumerate(r["series"], 1):
                num, den = num + a, den + b
                if not den:
                    continue
                if game == "blockudoku":
                    lo, hi = poisson_interval(int(num))
                    ys.append(1000 * num / den)
                    los.append(1000 * lo / den)
                    his.append(1000 * hi / den)
                else:
                    lo, hi = wilson(num, int(den))
                    ys.append(100 * num / den)
                    los.append(100 * lo)
                    his.append(100 * hi)
                xs.append(i)
            if game == "blockudoku":
                label = r["agent"] + (f" ({r['scoring']})" if r["scoring"] else "")
            else:
                label = f"{r['agent']} vs {r['opponent']} {r['board']} {r['mode']} {r['movetime']} ms"
            line, = ax.plot(xs, ys, label=label)
            ax.fill_between(xs, los, his, color=line.get_color(), alpha=0.2)
        ax.set_xlabel("units (jobs) done, in seed and index order")
        ax.set_ylabel(ylabel)
        if game == "sudoku":
            ax.set_ylim(0, 100)
            ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
        else:
            ax.set_ylim(bottom=0)
        ax.set_title("Blockudoku hazard over units" if game == "blockudoku" else "Competitive Sudoku score over units")
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / name
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


# --- running ----------------------------------------------------------------------------------

def load_done(out: pathlib.Path) -> Dict[str, Dict[str, object]]:
    """Results already written; a torn last line (killed mid-write) is dropped from the file."""
    done: Dict[str, Dict[str, object]] = {}
    if not out.exists():
        return done
    good_lines = []
    torn = False
    for line in out.read_text().splitlines():
        if not line.strip():
            continue
        try:
            res = json.loads(line)
        except json.JSONDecodeError:
            torn = True
            continue
        if res.get("exit_code") == 0 and "key" in res:
            done[res["key"]] = res
            good_lines.append(line)
        else:
            torn = True  # failed jobs are run again
    if torn:
        out.write_text("".join(l + "\n" for l in good_lines))
    return done


class Progress:
    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.stream = stream
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.lock = threading.Lock()
        self.draw()

    def step(self, label: str) -> None:
        with self.lock:
            self.done += 1
            self.draw(label)

    def draw(self, label: str = "") -> None:
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        elapsed = time.monotonic() - self.start
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0
        text = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} jobs {elapsed:5.0f}s eta {eta:4.0f}s"
        if self.tty:
            self.stream.write("\r" + text + (" " + label)[:40].ljust(40))
            if self.done == self.total:
                self.stream.write("\n")
        elif label:
            self.stream.write(text + " " + label + "\n")
        self.stream.flush()


def failure_reason(res: Dict[str, object]) -> str:
    """Why a job failed, in one line: `engine killed by SIGKILL`, `engine exited with code 2: ...`."""
    code = res.get("exit_code")
    detail = str(res.get("error") or "").strip().splitlines()
    last = detail[-1][:300] if detail else ""
    if code is None:
        return last or "the engine could not be run"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"engine killed by {name}" + (f" ({last})" if last else "")
    return f"engine exited with code {code}" + (f": {last}" if last else "")


def job_label(job: Dict[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in job.items() if k not in ("game", "games"))


HELD: Dict[str, object] = {}


def hold_results_file(out: pathlib.Path) -> None:
    """One run at a time per results file: a second one would run the same units again."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no check
        return
    if str(out) in HELD:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    lock = open(str(out) + ".lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise ResultsBusy(f"another batch_eval run is writing {out}; wait for it or give another --out")
    HELD[str(out)] = lock  # held until this process exits


class ResultsBusy(Exception):
    pass


class LocalUnits:
    """Units on this machine: a thread per job slot, each job's work in its own engine process."""

    def __init__(self, workers: int, binary: str, tmp_dir: pathlib.Path, timeout: Optional[float]):
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers))
        self.binary, self.tmp_dir, self.timeout = binary, tmp_dir, timeout
        self.pending: Dict[concurrent.futures.Future, Tuple[Dict[str, object], int]] = {}

    def capacity(self) -> int:
        return sys.maxsize  # all jobs queued at once; the pool runs --jobs of them at a time

    def submit(self, job: Dict[str, object], attempt: int) -> None:
        self.pending[self.pool.submit(run_job, job, self.binary, self.tmp_dir, self.timeout)] = (job, attempt)

    def wait(self) -> List[Tuple[Dict[str, object], int, Dict[str, object]]]:
        finished, _ = concurrent.futures.wait(self.pending, return_when=concurrent.futures.FIRST_COMPLETED)
        return [(*self.pending.pop(fut), fut.result()) for fut in finished]

    def stop(self) -> None:
        """Jobs not started are dropped and running engines killed."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        with RUNNING_LOCK:
            for proc in RUNNING:
                proc.kill()
        self.pending.clear()

    def close(self) -> None:
        self.pool.shutdown(wait=True)


class Sprt:
    """The sequential test of `--sprt elo0,elo1,alpha,beta` over game-pair units, taken in unit
    order (seed, then index) so a rerun decides at the same pair, whatever order units finish in."""

    def __init__(self, spec: str, jobs: Sequence[Dict[str, object]]):
        self.elo0, self.elo1, self.alpha, self.beta = (float(t) for t in spec.split(","))
        if not (0 < self.alpha < 1 and 0 < self.beta < 1) or self.elo0 >= self.elo1:
            raise ValueError(f"--sprt {spec}: need elo0 < elo1 and alpha, beta between 0 and 1")
        self.keys = [job_key(j) for j in jobs]
        self.counts = [0] * 5
        self.pairs = 0  # units of the prefix taken so far
        self.llr, self.verdict = 0.0, None

    def advance(self, done: Dict[str, Dict[str, object]]) -> Optional[str]:
        """Takes the finished units that extend the prefix; "H0"/"H1" once a bound is crossed."""
        while self.verdict is None and self.pairs < len(self.keys) and self.keys[self.pairs] in done:
            for points in game_pairs(done[self.keys[self.pairs]]):
                self.counts[int(round(points * 2))] += 1
            self.pairs += 1
            self.llr, self.verdict = sprt_decision(self.counts, self.elo0, self.elo1, self.alpha, self.beta)
        return self.verdict

    def line(self) -> str:
        lower, upper = sprt_bounds(self.alpha, self.beta)
        head = f"SPRT elo0 {self.elo0:g} elo1 {self.elo1:g} alpha {self.alpha:g} beta {self.beta:g}: "
        if self.verdict is None:
            return head + f"no decision after {self.pairs} pairs (LLR {self.llr:.2f}, bounds {lower:.2f} {upper:.2f})"
        bound = upper if self.verdict == "H1" else lower
        return head + (f"{self.verdict} accepted after {self.pairs} pairs (LLR {self.llr:.2f}, bound {bound:.2f}; "
                       f"{'elo1' if self.verdict == 'H1' else 'elo0'} is the likelier)")


def run(jobs: List[Dict[str, object]], binary: str, out: pathlib.Path, workers: int, timeout: Optional[float],
        retries: int = 1, ray_address: Optional[str] = None, worker_engine: Optional[str] = None,
        sprt: Optional[Sprt] = None) -> List[Dict[str, object]]:
    out.parent.mkdir(parents=True, exist_ok=True)
    hold_results_file(out)
    done = load_done(out)
    todo = [j for j in jobs if job_key(j) not in done]
    if done:
        print(f"resuming: {len(jobs) - len(todo)} of {len(jobs)} jobs already in {out}", file=sys.stderr)
    results = [done[job_key(j)] for j in jobs if job_key(j) in done]
    if sprt is not None and sprt.advance(done):
        return results
    if ray_address:
        from engines.ray_runner import RayUnits  # the only place Ray is imported

        pool = RayUnits(ray_address, workers, binary, worker_engine, todo, timeout)
    else:
        pool = LocalUnits(workers, binary, out.parent, timeout)
    progress = Progress(len(todo))
    queue = collections.deque(todo)
    try:
        while queue or pool.pending:
            while queue and len(pool.pending) < pool.capacity():
                pool.submit(queue.popleft(), 0)
            for job, attempt, res in pool.wait():
                label = job_label(job)
                code = res.get("exit_code")
                if code != 0:
                    # Reported here, once. A kill or crash (a signal) may not happen again:
                    # the job is run again; an exit code is the engine's answer, kept.
                    reason = failure_reason(res)
                    if code is not None and code < 0 and attempt < retries:
                        print(f"\njob {label}: {reason}; running it again ({attempt + 1} of {retries})",
                              file=sys.stderr)
                        pool.submit(job, attempt + 1)
                        continue
                    print(f"\njob failed ({label}): {reason}\n  command: {' '.join(res['command'])}\n"
                          "  not counted: the next run of the same command does it again", file=sys.stderr)
                    label = "FAILED " + label
                with out.open("a") as f:
                    f.write(json.dumps(res) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
                results.append(res)
                progress.step(label)
                if code == 0:
                    done[res["key"]] = res
            if sprt is not None and sprt.advance(done):
                print(f"\n{sprt.line()}: stopping", file=sys.stderr)
                pool.stop()
                break
    except KeyboardInterrupt:
        # Units not finished are dropped (running engines killed); their results were not
        # written, so the next run does them again.
        message = f"\ninterrupted: finished jobs are in {out}; run the same command again to resume"
        if ray_address:
            # Every finished unit is already on disk (fsync above): disconnect (which ends
            # this driver's tasks and a private `local` cluster, see RayUnits.stop) and leave
            # without Ray's exit hooks.
            print(message, file=sys.stderr)
            pool.close()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
        pool.stop()
        print(message, file=sys.stderr)
        raise
    finally:
        pool.close()
    return results


def check_probes(args) -> None:
    """--probes needs --chains and is exact or a number of hands; --split needs --probes, at least 2."""
    if args.probes is not None:
        if not args.chains:
            raise ValueError("--probes needs --chains")
        if args.probes != "exact" and not (args.probes.isdigit() and int(args.probes) >= 1):
            raise ValueError(f"--probes must be exact or a number of hands (at least 1), got {args.probes!r}")
    if args.split is not None:
        if args.probes is None:
            raise ValueError("--split needs --probes")
        if args.split < 2:
            raise ValueError(f"--split must be at least 2, got {args.split}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="game", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--agents", default="default", help="comma-separated agents to evaluate")
    common.add_argument("--seeds", default="1", help="seeds: 1,2,3 or 1-8 (with --pairs/--chains: the run's seeds)")
    common.add_argument("--games", type=int, default=10, help="games per job")
    common.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="jobs run at the same time (--ray local: its CPUs; --ray ADDRESS: not used, every "
                             "CPU of the cluster takes jobs)")
    common.add_argument("--out", default="scripts/out/batch.jsonl", help="JSON lines file (appended; resumes)")
    common.add_argument("--plot", metavar="DIR", help="write PNG charts into DIR")
    common.add_argument("--engine", help="engine binary (default: from $ENGINE_BIN_DIR or target/release)")
    common.add_argument("--timeout", type=float, help="seconds before a job is killed")
    common.add_argument("--retries", type=int, default=1,
                        help="runs of a job again when its engine is killed or crashes (default 1)")
    common.add_argument("--fresh", action="store_true", help="start over: forget the jobs already in --out")
    common.add_argument("--ray", metavar="ADDRESS",
                        help="run the jobs as Ray tasks: 'local' (a private Ray with --jobs CPUs) or a cluster's "
                             "address such as 127.0.0.1:6379 (from 'ray start --head')")
    common.add_argument("--worker-engine", metavar="PATH",
                        help="with --ray: the engine binary's path on every worker node (default: --engine is "
                             "shipped to the workers in Ray's runtime environment)")
    s = sub.add_parser("sudoku", parents=[common], help="sudoku-agent arena jobs")
    s.add_argument("--opponents", default="greedy")
    s.add_argument("--boards", default="3x3", help="block shapes or board files, comma-separated")
    s.add_argument("--modes", default="classic", help="classic,rows,border,random")
    s.add_argument("--movetimes", default="100", help="ms per move, comma-separated")
    s.add_argument("--givens", help="random givens per board, e.g. 20-40")
    s.add_argument("--pairs", type=int, help="units of one game pair (same board, sides swapped): this many per "
                                             "setting and seed (instead of --games per job)")
    s.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA",
                   help="with --pairs and one setting: stop when the SPRT of Elo ELO1 against ELO0 decides")
    b = sub.add_parser("blockudoku", parents=[common], help="blockudoku selfplay jobs")
    b.add_argument("--scorings", help="comma-separated scoring rules (default: the engine's)")
    b.add_argument("--max-rounds", type=int, default=1000, help="round cap per game")
    b.add_argument("--pieces", help="piece set file (selfplay --pieces)")
    b.add_argument("--chains", type=int, help="units of one fixed-exposure chain: this many per agent, scoring and "
                                              "seed (instead of --games per job; --max-rounds is not used)")
    b.add_argument("--exposure", type=int, default=10000, help="counted rounds per chain (default 10000)")
    b.add_argument("--burn-in", type=int, default=0, help="rounds at the start of each game not counted (default 0)")
    b.add_argument("--probes", help="with --chains: the engine drives each chain (selfplay --chain-rounds) and "
                                    "measures at every counted round the chance that the next hand dies: exact or "
                                    "a number of sampled hands; the summary adds the probe hazard")
    b.add_argument("--split", type=int, help="with --probes: crisis splitting with this many copies (selfplay --split)")
    args = parser.parse_args(argv)

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
    except ValueError as err:
        print(f"batch_eval: bad arguments ({err})", file=sys.stderr)
        return 2
    try:
        binary = args.engine or str(find_binary("sudoku-agent" if args.game == "sudoku" else "blockudoku"))
    except FileNotFoundError as err:
        print(f"batch_eval: {err}", file=sys.stderr)
        return 2
    if args.ray and not args.worker_engine and not os.path.isfile(binary):
        print(f"batch_eval: --ray ships the engine to the workers, but {binary} is not a file "
              "(give --engine, or --worker-engine for a path on the workers)", file=sys.stderr)
        return 2
    try:
        hold_results_file(pathlib.Path(args.out))
        if args.fresh and pathlib.Path(args.out).exists():
            pathlib.Path(args.out).unlink()
        results = run(jobs, binary, pathlib.Path(args.out), args.jobs, args.timeout, max(0, args.retries),
                      ray_address=args.ray, worker_engine=args.worker_engine, sprt=sprt)
    except KeyboardInterrupt:
        return 130
    except ImportError as err:
        print(f"batch_eval: --ray needs the ray package (pip install ray): {err}", file=sys.stderr)
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
