"""scripts/batch_eval.py: a tiny parallel run, JSON lines, summary, plots, resume."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

from engine_testing import FAKE, SCRIPTS, bin_dir, live_processes, real_engine

from engines import BlockudokuEngine, SudokuEngine

BATCH = SCRIPTS / "batch_eval.py"


def run_batch(*args, env=None):
    proc = subprocess.run([sys.executable, str(BATCH), *args], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))
    return proc


def test_sudoku_batch_runs_resumes_and_plots(tmp_path):
    real_engine("sudoku-agent", SudokuEngine).quit()
    out = tmp_path / "sudoku.jsonl"
    args = ["sudoku", "--agents", "default", "--opponents", "greedy,random", "--boards", "2x2", "--modes",
            "classic,rows", "--movetimes", "10", "--seeds", "1-2", "--games", "2", "--jobs", "2",
            "--engine", str(bin_dir() / "sudoku-lab"), "--out", str(out)]
    proc = run_batch(*args, "--plot", str(tmp_path / "plots"))
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(lines) == 8  # 2 opponents x 2 modes x 2 seeds
    assert all(l["exit_code"] == 0 and len(l["records"]) == 2 for l in lines)
    assert "8/8 jobs" in proc.stderr
    table = proc.stdout
    assert "W-D-L" in table and table.count("default    greedy") == 2 and table.count("default    random") == 2
    assert (tmp_path / "plots" / "sudoku-winrate.png").stat().st_size > 1000

    # Interrupted run: drop two results and tear the last line, as a kill mid-write would.
    kept = out.read_text().splitlines()[:6]
    out.write_text("\n".join(kept) + "\n" + kept[-1][:40])
    proc = run_batch(*args)
    assert proc.returncode == 0, proc.stderr
    assert "resuming: 6 of 8 jobs" in proc.stderr and "2/2 jobs" in proc.stderr
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(lines) == 8 and len({l["key"] for l in lines}) == 8


def test_interrupted_run_resumes(tmp_path):
    """Ctrl-C in the middle: finished jobs stay in the file, the rerun does only the rest."""
    real_engine("sudoku-agent", SudokuEngine).quit()
    out = tmp_path / "interrupted.jsonl"
    # Twelve jobs of one game at 100 ms per move (about a second each): after the first two
    # finish the others take seconds more, so the interrupt arrives mid-run even when this
    # process waits to be scheduled on a loaded machine.
    args = [sys.executable, str(BATCH), "sudoku", "--opponents", "greedy", "--boards", "2x3", "--movetimes", "100",
            "--seeds", "1-12", "--games", "1", "--jobs", "2", "--engine", str(bin_dir() / "sudoku-lab"),
            "--out", str(out)]
    # Ctrl-C as a terminal sends it. A shell without job control starts background commands
    # (`.ci/run &`, nohup) with SIGINT ignored, which children inherit and Python then never
    # turns into KeyboardInterrupt: the child gets the default disposition back first.
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 300  # a hang guard, not a timing check
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 2):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in err, err
    done = len(out.read_text().splitlines())
    assert 2 <= done < 12, "the run should have been cut short"
    proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert f"resuming: {done} of 12 jobs" in proc.stderr
    assert len({json.loads(l)["key"] for l in out.read_text().splitlines()}) == 12


def test_blockudoku_batch_summary_and_survival_plot(tmp_path):
    out = tmp_path / "blockudoku.jsonl"
    proc = run_batch("blockudoku", "--agents", "default,seed", "--seeds", "1-3", "--games", "4", "--max-rounds", "500",
                     "--jobs", "2", "--engine", str(FAKE), "--out", str(out), "--plot", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(lines) == 6 and all(len(l["records"]) == 4 for l in lines)
    deaths = sum(r["died"] for l in lines if l["agent"] == "seed" for r in l["records"])
    rounds = sum(r["rounds"] for l in lines if l["agent"] == "seed" for r in l["records"])
    row = next(l for l in proc.stdout.splitlines() if l.startswith("seed"))
    assert f" {deaths} " in row and f" {rounds} " in row
    assert f"{1000 * deaths / rounds:.4f}" in row
    assert (tmp_path / "blockudoku-survival.png").stat().st_size > 1000


def test_blockudoku_batch_with_real_engine(tmp_path):
    real_engine("blockudoku", BlockudokuEngine).quit()
    out = tmp_path / "real.jsonl"
    proc = run_batch("blockudoku", "--agents", "default", "--seeds", "1-2", "--games", "2", "--max-rounds", "10",
                     "--jobs", "2", "--engine", str(bin_dir() / "blockudoku-lab"), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(lines) == 2 and all(len(l["records"]) == 2 for l in lines)
    rounds = sum(r["rounds"] for l in lines for r in l["records"])
    assert 0 < rounds <= 4 * 10
    assert f" {rounds} " in next(l for l in proc.stdout.splitlines() if l.startswith("default"))


def test_failed_jobs_are_reported_and_rerun(tmp_path):
    out = tmp_path / "bad.jsonl"
    args = ["sudoku", "--engine", sys.executable, "--seeds", "1", "--out", str(out)]
    proc = run_batch(*args)
    assert proc.returncode == 1 and "job failed" in proc.stderr
    proc = run_batch(*args)
    assert "resuming" not in proc.stderr  # a failed job is not counted as done


def test_stats():
    from engines.batch.jobs import parse_seeds
    from engines.batch.stats import poisson_interval, wilson

    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    lo, hi = poisson_interval(0)
    assert lo == 0 and 3.6 < hi < 3.8
    lo, hi = poisson_interval(100)
    assert 81 < lo < 82 and 121 < hi < 122
    assert parse_seeds("1-3,7") == [1, 2, 3, 7]


def engine_children(pid, name):
    """Pids of live processes called `name` whose parent is `pid` and that play games (not the
    engine that batch_eval asks for its agents before the run)."""
    return [child for child, comm, parent, _ in live_processes() if comm == name and parent == pid
            and b"arena" in command_line(child)]


def command_line(pid):
    try:
        return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def run_and_kill_one_engine(args):
    """Starts a batch run, SIGKILLs the first engine process it starts, lets it finish."""
    proc = subprocess.Popen([sys.executable, str(BATCH), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    killed = None
    while killed is None and time.monotonic() < deadline and proc.poll() is None:
        pids = engine_children(proc.pid, "sudoku-lab")
        if pids:
            time.sleep(0.2)  # in the middle of its games
            os.kill(pids[0], signal.SIGKILL)
            killed = pids[0]
        time.sleep(0.02)
    out, err = proc.communicate(timeout=120)
    assert killed is not None, f"no engine process seen: {err}"
    return proc.returncode, out, err


KILL_ARGS = ["sudoku", "--opponents", "greedy", "--boards", "2x3", "--movetimes", "40", "--seeds", "1-4",
             "--games", "2", "--jobs", "2"]


def test_engine_killed_mid_run_is_reported_once_and_run_again(tmp_path):
    real_engine("sudoku-agent", SudokuEngine).quit()
    out = tmp_path / "killed.jsonl"
    code, table, err = run_and_kill_one_engine(KILL_ARGS + ["--engine", str(bin_dir() / "sudoku-lab"), "--out", str(out)])
    assert code == 0, err
    assert err.count("killed by SIGKILL") == 1 and "running it again (1 of 1)" in err, err
    assert "Traceback" not in err and "failed" not in err
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(lines) == 4 and len({l["key"] for l in lines}) == 4
    assert all(l["exit_code"] == 0 and len(l["records"]) == 2 for l in lines)
    assert " 8 " in next(l for l in table.splitlines() if l.startswith("default"))  # 8 games counted


def test_engine_killed_without_retries_then_the_run_resumes(tmp_path):
    real_engine("sudoku-agent", SudokuEngine).quit()
    out = tmp_path / "resume.jsonl"
    args = KILL_ARGS + ["--engine", str(bin_dir() / "sudoku-lab"), "--out", str(out)]
    code, _, err = run_and_kill_one_engine(args + ["--retries", "0"])
    assert code == 1
    assert err.count("killed by SIGKILL") == 1 and err.count("job failed") == 1, err
    assert "1 of 4 jobs failed (reported above); run the same command again" in err and "Traceback" not in err
    proc = run_batch(*args)
    assert proc.returncode == 0, proc.stderr
    assert "resuming: 3 of 4 jobs" in proc.stderr and "1/1 jobs" in proc.stderr
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(lines) == 4 and len({l["key"] for l in lines}) == 4 and all(l["exit_code"] == 0 for l in lines)
    # --fresh starts over.
    proc = run_batch(*args, "--fresh", "--seeds", "1")
    assert proc.returncode == 0 and "resuming" not in proc.stderr
    assert len(out.read_text().splitlines()) == 1


def test_bad_arguments_are_one_line(tmp_path):
    proc = run_batch("sudoku", "--seeds", "one-two", "--out", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    proc = run_batch("sudoku", "--engine", "/nonexistent/engine", "--seeds", "1", "--out", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.count("job failed") == 1 and "/nonexistent/engine" in proc.stderr


def test_sudoku_batch_plays_an_opening_suite(tmp_path):
    """--openings: pair K plays opening K modulo the suite (two games, sides swapped), the
    board and mode come from the suite, and the summary counts the distinct games."""
    lab = bin_dir() / "sudoku-lab"
    made = subprocess.run([str(lab), "openings", "--board", "2x2", "--mode", "rows", "--count", "2", "--plies", "2",
                           "--seed", "3"], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    suite = tmp_path / "suite.txt"
    suite.write_text(made.stdout)
    starts = [l.split()[2] for l in made.stdout.splitlines() if l.startswith("position ")]
    out = tmp_path / "openings.jsonl"
    proc = run_batch("sudoku", "--opponents", "greedy", "--openings", str(suite), "--movetimes", "10", "--pairs", "3",
                     "--jobs", "2", "--engine", str(lab), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    units = sorted((json.loads(l) for l in out.read_text().splitlines()), key=lambda u: u["index"])
    assert [(u["board"], u["mode"], u["openings_count"]) for u in units] == [("2x2", "rows", 2)] * 3
    for u in units:
        assert "--opening" in u["command"] and u["command"][u["command"].index("--opening") + 1] == str(u["index"] % 2 + 1)
        assert [r["start"] for r in u["records"]] == [starts[u["index"] % 2]] * 2
        assert [r["first_player"] for r in u["records"]] == [1, 2]
    records = [r for u in units for r in u["records"]]
    distinct = len({(r["start"], r["history"]) for r in records})
    assert f"{distinct} of 6 games, openings {suite}" in proc.stdout, proc.stdout
    both = run_batch("sudoku", "--openings", str(suite), "--boards", "3x3", "--engine", str(lab),
                     "--out", str(tmp_path / "x.jsonl"))
    assert both.returncode == 2 and "--openings sets the board and mode" in both.stderr
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("position 2x2 ..../..../..../.... mode rows\nposition 3x3 "
                     + "/".join(["........."] * 9) + "\n")
    refused = run_batch("sudoku", "--openings", str(mixed), "--engine", str(lab), "--out", str(tmp_path / "y.jsonl"))
    assert refused.returncode == 2 and "differ in board or mode" in refused.stderr
