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
Blockudoku survival curve).

    python3 scripts/batch_eval.py sudoku --agents default --opponents greedy,seed \\
        --boards 2x3,3x3 --modes classic,rows --movetimes 50 --seeds 1-4 --games 10 \\
        --jobs 2 --out scripts/out/sudoku.jsonl --plot scripts/out
    python3 scripts/batch_eval.py blockudoku --agents default,seed --seeds 1-4 --games 5 \\
        --max-rounds 2000 --jobs 2 --out scripts/out/blockudoku.jsonl --plot scripts/out
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import itertools
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engines.base import find_binary  # noqa: E402
from engines.stats import poisson_interval, wilson  # noqa: E402


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
    return json.dumps(params, sort_keys=True)


def sudoku_jobs(args) -> List[Dict[str, object]]:
    jobs = []
    for agent, opponent, board, mode, movetime, seed in itertools.product(
        parse_list(args.agents), parse_list(args.opponents), parse_list(args.boards),
        parse_list(args.modes), [int(t) for t in parse_list(args.movetimes)], parse_seeds(args.seeds),
    ):
        job = {"game": "sudoku", "agent": agent, "opponent": opponent, "board": board, "mode": mode,
               "movetime": movetime, "seed": seed, "games": args.games}
        if args.givens:
            job["givens"] = args.givens
        jobs.append(job)
    return jobs


def blockudoku_jobs(args) -> List[Dict[str, object]]:
    jobs = []
    scorings = parse_list(args.scorings) if args.scorings else [None]
    for agent, scoring, seed in itertools.product(parse_list(args.agents), scorings, parse_seeds(args.seeds)):
        job = {"game": "blockudoku", "agent": agent, "seed": seed, "games": args.games,
               "max_rounds": args.max_rounds}
        if scoring is not None:
            job["scoring"] = scoring
        jobs.append(job)
    return jobs


def command_for(job: Dict[str, object], binary: str, jsonl: str) -> List[str]:
    if job["game"] == "sudoku":
        cmd = [binary, "arena", "--first", str(job["agent"]), "--second", str(job["opponent"]),
               "--board", str(job["board"]), "--mode", str(job["mode"]), "--games", str(job["games"]),
               "--movetime", str(job["movetime"]), "--seed", str(job["seed"]), "--threads", "1",
               "--quiet", "--jsonl", jsonl]
        if job.get("givens"):
            cmd += ["--givens", str(job["givens"])]
        return cmd
    cmd = [binary, "selfplay", "--games", str(job["games"]), "--seed", str(job["seed"]),
           "--threads", "1", "--agent", str(job["agent"]), "--jsonl", jsonl]
    if job.get("max_rounds"):
        cmd += ["--max-rounds", str(job["max_rounds"])]
    if job.get("scoring"):
        cmd += ["--scoring", str(job["scoring"])]
    return cmd


RUNNING: "set[subprocess.Popen]" = set()
RUNNING_LOCK = threading.Lock()


def run_job(job: Dict[str, object], binary: str, tmp_dir: pathlib.Path, timeout: Optional[float]) -> Dict[str, object]:
    """Runs one job in its own engine process; returns its result line."""
    digest = hashlib.sha1(job_key(job).encode()).hexdigest()[:16]
    jsonl = tmp_dir / f"job-{digest}.jsonl.tmp"
    if jsonl.exists():
        jsonl.unlink()
    cmd = command_for(job, binary, str(jsonl))
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as err:
        proc, code, stdout, stderr = None, None, "", str(err)
    if proc is not None:
        with RUNNING_LOCK:
            RUNNING.add(proc)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, _ = proc.communicate()
            code, stderr = None, f"timed out after {timeout} s"
        finally:
            with RUNNING_LOCK:
                RUNNING.discard(proc)
    elapsed = time.monotonic() - start
    games: List[Dict[str, object]] = []
    if jsonl.exists():
        for line in jsonl.read_text().splitlines():
            line = line.strip()
            if line:
                try:
                    games.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
        jsonl.unlink()
    result: Dict[str, object] = dict(job)
    result.update({"key": job_key(job), "command": cmd, "exit_code": code, "elapsed": round(elapsed, 3), "records": games})
    if code != 0:
        result["error"] = (stderr or stdout).strip()[-2000:]
    return result


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


def blockudoku_game(rec: Dict[str, object]) -> Tuple[int, bool]:
    """(rounds played, died) of one self-play game record."""
    rounds = rec.get("rounds", rec.get("rounds_played"))
    died = rec.get("died", rec.get("dead", rec.get("lost")))
    if rounds is None or died is None:
        raise ValueError(f"self-play record without rounds/died: {rec}")
    return int(rounds), bool(died)


def summarise(results: Sequence[Dict[str, object]]) -> List[Dict[str, object]]:
    """Aggregates jobs over seeds into one row per setting."""
    groups: Dict[Tuple, List[Dict[str, object]]] = {}
    for res in results:
        if res["game"] == "sudoku":
            key = ("sudoku", res["agent"], res["opponent"], res["board"], res["mode"], res["movetime"], res.get("givens"))
        else:
            key = ("blockudoku", res["agent"], res.get("scoring"), res.get("max_rounds"))
        groups.setdefault(key, []).append(res)
    rows = []
    for key, items in groups.items():
        records = [r for it in items for r in it.get("records", [])]
        failed = sum(1 for it in items if it.get("exit_code") != 0)
        if key[0] == "sudoku":
            pts = [game_points(r) for r in records]
            n = len(pts)
            wins = sum(1 for p in pts if p == 1.0)
            draws = sum(1 for p in pts if p == 0.5)
            lo, hi = wilson(sum(pts), n)
            forfeits = sum(1 for r in records if r.get("forfeit"))
            rows.append({"game": "sudoku", "agent": key[1], "opponent": key[2], "board": key[3], "mode": key[4],
                         "movetime": key[5], "givens": key[6], "games": n, "wins": wins, "draws": draws,
                         "losses": n - wins - draws, "score": (sum(pts) / n) if n else float("nan"),
                         "ci": (lo, hi), "forfeit_games": forfeits, "failed_jobs": failed})
        else:
            games = [blockudoku_game(r) for r in records]
            rounds = sum(g[0] for g in games)
            deaths = sum(1 for g in games if g[1])
            lo, hi = poisson_interval(deaths)
            rows.append({"game": "blockudoku", "agent": key[1], "scoring": key[2], "max_rounds": key[3],
                         "games": len(games), "deaths": deaths, "rounds": rounds,
                         "deaths_per_1000": 1000 * deaths / rounds if rounds else float("nan"),
                         "ci_per_1000": (1000 * lo / rounds, 1000 * hi / rounds) if rounds else (float("nan"),) * 2,
                         "mean_rounds": rounds / len(games) if games else float("nan"),
                         "game_lengths": games, "failed_jobs": failed})
    return rows


def print_table(rows: Sequence[Dict[str, object]], out=sys.stdout) -> None:
    sudoku = [r for r in rows if r["game"] == "sudoku"]
    if sudoku:
        head = f"{'agent':<10} {'opponent':<10} {'board':<8} {'mode':<8} {'ms':>5} {'games':>6} {'W-D-L':>11} {'score':>7} {'95% CI':>15} {'forfeit':>7}"
        print(head, file=out)
        print("-" * len(head), file=out)
        for r in sorted(sudoku, key=lambda r: (r["agent"], r["opponent"], r["board"], r["mode"], r["movetime"])):
            lo, hi = r["ci"]
            wdl = f"{r['wins']}-{r['draws']}-{r['losses']}"
            print(f"{r['agent']:<10} {r['opponent']:<10} {r['board']:<8} {r['mode']:<8} {r['movetime']:>5} {r['games']:>6} "
                  f"{wdl:>11} {100 * r['score']:>6.1f}% {100 * lo:>6.1f}-{100 * hi:>5.1f}% {r['forfeit_games']:>7}"
                  + (f"  ({r['failed_jobs']} failed jobs)" if r["failed_jobs"] else ""), file=out)
    blocku = [r for r in rows if r["game"] == "blockudoku"]
    if blocku:
        if sudoku:
            print(file=out)
        head = f"{'agent':<10} {'scoring':<10} {'cap':>7} {'games':>6} {'deaths':>7} {'rounds':>10} {'deaths/1000 rounds (95% CI)':>30} {'mean rounds':>12}"
        print(head, file=out)
        print("-" * len(head), file=out)
        for r in sorted(blocku, key=lambda r: (r["agent"], str(r["scoring"]))):
            lo, hi = r["ci_per_1000"]
            print(f"{r['agent']:<10} {str(r['scoring'] or '-'):<10} {str(r['max_rounds'] or '-'):>7} {r['games']:>6} "
                  f"{r['deaths']:>7} {r['rounds']:>10} {r['deaths_per_1000']:>12.4f} ({lo:.4f}-{hi:.4f}) {r['mean_rounds']:>12.1f}"
                  + (f"  ({r['failed_jobs']} failed jobs)" if r["failed_jobs"] else ""), file=out)


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
    blocku = [r for r in rows if r["game"] == "blockudoku" and r["games"]]
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


def run(jobs: List[Dict[str, object]], binary: str, out: pathlib.Path, workers: int, timeout: Optional[float],
        retries: int = 1) -> List[Dict[str, object]]:
    out.parent.mkdir(parents=True, exist_ok=True)
    done = load_done(out)
    todo = [j for j in jobs if job_key(j) not in done]
    if done:
        print(f"resuming: {len(jobs) - len(todo)} of {len(jobs)} jobs already in {out}", file=sys.stderr)
    results = [done[job_key(j)] for j in jobs if job_key(j) in done]
    progress = Progress(len(todo))
    write_lock = threading.Lock()
    # Threads are enough here: each job's work happens in its own engine process.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        pending = {pool.submit(run_job, j, binary, out.parent, timeout): (j, 0) for j in todo}
        try:
            while pending:
                finished, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in finished:
                    job, attempt = pending.pop(fut)
                    res = fut.result()
                    label = job_label(job)
                    code = res.get("exit_code")
                    if code != 0:
                        # Reported here, once. A kill or crash (a signal) may not happen again:
                        # the job is run again; an exit code is the engine's answer, kept.
                        reason = failure_reason(res)
                        if code is not None and code < 0 and attempt < retries:
                            print(f"\njob {label}: {reason}; running it again ({attempt + 1} of {retries})",
                                  file=sys.stderr)
                            pending[pool.submit(run_job, job, binary, out.parent, timeout)] = (job, attempt + 1)
                            continue
                        print(f"\njob failed ({label}): {reason}\n  command: {' '.join(res['command'])}\n"
                              "  not counted: the next run of the same command does it again", file=sys.stderr)
                        label = "FAILED " + label
                    with write_lock, out.open("a") as f:
                        f.write(json.dumps(res) + "\n")
                        f.flush()
                        os.fsync(f.fileno())
                    results.append(res)
                    progress.step(label)
        except KeyboardInterrupt:
            # Jobs not started are dropped and running engines killed; their results were not
            # written, so the next run does them again.
            pool.shutdown(wait=False, cancel_futures=True)
            with RUNNING_LOCK:
                for proc in RUNNING:
                    proc.kill()
            print(f"\ninterrupted: finished jobs are in {out}; run the same command again to resume", file=sys.stderr)
            raise
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="game", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--agents", default="default", help="comma-separated agents to evaluate")
    common.add_argument("--seeds", default="1", help="seeds: 1,2,3 or 1-8")
    common.add_argument("--games", type=int, default=10, help="games per job")
    common.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="jobs run at the same time")
    common.add_argument("--out", default="scripts/out/batch.jsonl", help="JSON lines file (appended; resumes)")
    common.add_argument("--plot", metavar="DIR", help="write PNG charts into DIR")
    common.add_argument("--engine", help="engine binary (default: from $ENGINE_BIN_DIR or target/release)")
    common.add_argument("--timeout", type=float, help="seconds before a job is killed")
    common.add_argument("--retries", type=int, default=1,
                        help="runs of a job again when its engine is killed or crashes (default 1)")
    common.add_argument("--fresh", action="store_true", help="start over: forget the jobs already in --out")
    s = sub.add_parser("sudoku", parents=[common], help="sudoku-agent arena jobs")
    s.add_argument("--opponents", default="greedy")
    s.add_argument("--boards", default="3x3", help="block shapes or board files, comma-separated")
    s.add_argument("--modes", default="classic", help="classic,rows,border,random")
    s.add_argument("--movetimes", default="100", help="ms per move, comma-separated")
    s.add_argument("--givens", help="random givens per board, e.g. 20-40")
    b = sub.add_parser("blockudoku", parents=[common], help="blockudoku selfplay jobs")
    b.add_argument("--scorings", help="comma-separated scoring rules (default: the engine's)")
    b.add_argument("--max-rounds", type=int, default=1000, help="round cap per game")
    args = parser.parse_args(argv)

    try:
        jobs = sudoku_jobs(args) if args.game == "sudoku" else blockudoku_jobs(args)
    except ValueError as err:
        print(f"batch_eval: bad number in the arguments ({err})", file=sys.stderr)
        return 2
    try:
        binary = args.engine or str(find_binary("sudoku-agent" if args.game == "sudoku" else "blockudoku"))
    except FileNotFoundError as err:
        print(f"batch_eval: {err}", file=sys.stderr)
        return 2
    if args.fresh and pathlib.Path(args.out).exists():
        pathlib.Path(args.out).unlink()
    try:
        results = run(jobs, binary, pathlib.Path(args.out), args.jobs, args.timeout, max(0, args.retries))
    except KeyboardInterrupt:
        return 130
    results = [r for r in results if r["game"] == args.game]
    rows = summarise([r for r in results if r.get("exit_code") == 0])
    print_table(rows)
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
