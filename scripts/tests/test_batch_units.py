"""batch_eval.py work units on one machine: fixed-exposure chains, game pairs, SPRT; no Ray imported."""
import json
import subprocess
import sys

from conftest import FAKE, SCRIPTS, bin_dir, real_binary

BATCH = SCRIPTS / "batch_eval.py"


def run_batch(*args):
    return subprocess.run([sys.executable, str(BATCH), *args], capture_output=True, text=True, timeout=300)


def test_chains_have_their_exposure_and_reproduce(tmp_path):
    out = tmp_path / "chains.jsonl"
    args = ["blockudoku", "--agents", "default", "--chains", "3", "--exposure", "700", "--burn-in", "40",
            "--seeds", "5", "--jobs", "2", "--engine", str(FAKE), "--out", str(out)]
    proc = run_batch(*args)
    assert proc.returncode == 0, proc.stderr
    units = [json.loads(l) for l in out.read_text().splitlines()]
    assert sorted(u["index"] for u in units) == [0, 1, 2]
    deaths = 0
    for unit in units:
        games = unit["records"]
        # The fake engine's games die after ~300 rounds: every chain restarts after deaths.
        assert len(games) > 1 and all(g["died"] for g in games[:-1])
        counted = [max(0, g["rounds"] - 40) for g in games]
        assert sum(counted) == 700  # exactly the unit's exposure
        assert games[-1]["rounds"] == 40 + 700 - sum(counted[:-1])  # the last game was capped there
        assert len({g["chain_seed"] for g in games}) == len(games)
        deaths += sum(1 for g in games if g["died"] and g["rounds"] > 40)
    row = next(l for l in proc.stdout.splitlines() if l.startswith("default"))
    assert " chain " in row and f" {deaths} " in row and " 2100 " in row
    assert "first 40 rounds of each game not counted" in proc.stdout

    # The same command again from scratch plays the same games.
    again = run_batch(*args, "--fresh")
    assert again.returncode == 0 and again.stdout == proc.stdout
    second = [json.loads(l) for l in out.read_text().splitlines()]
    assert {u["key"]: u["records"] for u in second} == {u["key"]: u["records"] for u in units}


def test_two_agents_get_a_rate_ratio(tmp_path):
    proc = run_batch("blockudoku", "--agents", "default,original", "--chains", "2", "--exposure", "500",
                     "--jobs", "2", "--engine", str(FAKE), "--out", str(tmp_path / "two.jsonl"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # The fake engine ignores the agent: same deals, same games, ratio 1 and p = 1.
    ratio = next(l for l in lines if l.startswith("original   / default"))
    assert "1.000 (" in ratio and ratio.split(")")[1].split()[0] == "1"


def test_game_pairs_and_sprt_stop_at_the_same_pair(tmp_path):
    real_binary("sudoku-agent")
    args = ["sudoku", "--agents", "greedy", "--opponents", "random", "--boards", "2x2", "--movetimes", "10",
            "--pairs", "40", "--sprt", "0,150,0.05,0.05", "--jobs", "2", "--engine", str(bin_dir() / "sudoku-agent")]
    proc = run_batch(*args, "--out", str(tmp_path / "a.jsonl"))
    assert proc.returncode == 0, proc.stderr
    sprt = next(l for l in proc.stdout.splitlines() if l.startswith("SPRT"))
    assert "accepted after" in sprt and "stopping" in proc.stderr
    pairs = int(sprt.split("after ")[1].split()[0])
    assert pairs < 40
    elo = next(l for l in proc.stdout.splitlines() if l.startswith("greedy vs random"))
    assert f"{pairs} pairs" in elo
    units = [json.loads(l) for l in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert all(len(u["records"]) == 2 and {r["first_player"] for r in u["records"]} == {1, 2} for u in units)
    assert all(u["records"][0]["start"] == u["records"][1]["start"] for u in units)
    # One job at a time finishes in index order: the decision and the summary are the same.
    one = run_batch(*args[:-4], "--jobs", "1", "--engine", str(bin_dir() / "sudoku-agent"), "--out", str(tmp_path / "b.jsonl"))
    assert one.stdout == proc.stdout


def test_without_ray_option_ray_is_not_imported(tmp_path):
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import batch_eval; "
            "rc = batch_eval.main(['blockudoku', '--chains', '1', '--exposure', '50', '--engine', sys.argv[2], "
            "'--out', sys.argv[3]]); print('ray' in sys.modules, rc)")
    proc = subprocess.run([sys.executable, "-c", code, str(SCRIPTS), str(FAKE), str(tmp_path / "x.jsonl")],
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip().splitlines()[-1] == "False 0", proc.stderr


def test_bad_unit_options_are_one_line(tmp_path):
    proc = run_batch("sudoku", "--sprt", "0,10,0.05,0.05", "--out", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 2 and "--sprt needs --pairs" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = run_batch("sudoku", "--pairs", "2", "--sprt", "10,0,0.05,0.05", "--out", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 2 and "elo0 < elo1" in proc.stderr
    proc = run_batch("blockudoku", "--chains", "2", "--exposure", "0", "--out", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 2 and "--exposure" in proc.stderr


def test_one_run_at_a_time_per_results_file(tmp_path):
    import fcntl

    out = tmp_path / "busy.jsonl"
    with open(str(out) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a run still going would
        proc = run_batch("blockudoku", "--chains", "1", "--exposure", "50", "--engine", str(FAKE), "--out", str(out))
    assert proc.returncode == 2 and "another batch_eval run is writing" in proc.stderr and not out.exists()
    proc = run_batch("blockudoku", "--chains", "1", "--exposure", "50", "--engine", str(FAKE), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
