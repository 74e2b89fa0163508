"""batch_eval.py work units on one machine: fixed-exposure chains, game pairs, SPRT; no Ray imported."""
import json
import os
import subprocess
import sys

from engine_testing import FAKE, SCRIPTS, bin_dir, real_binary

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
    real_binary("sudoku-lab")
    args = ["sudoku", "--agents", "greedy", "--opponents", "random", "--boards", "2x2", "--movetimes", "10",
            "--pairs", "40", "--sprt", "0,150,0.05,0.05", "--jobs", "2", "--engine", str(bin_dir() / "sudoku-lab")]
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
    one = run_batch(*args[:-4], "--jobs", "1", "--engine", str(bin_dir() / "sudoku-lab"), "--out", str(tmp_path / "b.jsonl"))
    assert one.stdout == proc.stdout


def test_without_ray_option_ray_is_not_imported(tmp_path):
    code = ("import runpy, sys; batch_eval = runpy.run_path(sys.argv[1]); "
            "rc = batch_eval['main'](['blockudoku', '--chains', '1', '--exposure', '50', '--engine', sys.argv[2], "
            "'--out', sys.argv[3]]); print('ray' in sys.modules, rc)")
    # This checkout's package, whatever else is installed (`python3 -c` puts no scripts/ on the path).
    env = dict(os.environ, PYTHONPATH=str(SCRIPTS))
    proc = subprocess.run([sys.executable, "-c", code, str(BATCH), str(FAKE), str(tmp_path / "x.jsonl")],
                          capture_output=True, text=True, timeout=120, env=env)
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
    with open(out, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a run still going would
        proc = run_batch("blockudoku", "--chains", "1", "--exposure", "50", "--engine", str(FAKE), "--out", str(out))
    assert proc.returncode == 2 and "another batch_eval run is writing" in proc.stderr and out.read_text() == ""
    proc = run_batch("blockudoku", "--chains", "1", "--exposure", "50", "--engine", str(FAKE), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy.jsonl"]  # no lock file left behind


def test_a_missing_file_is_refused_before_any_job_runs(tmp_path):
    out = tmp_path / "x.jsonl"
    for args in (["sudoku", "--boards", "3x3," + str(tmp_path / "no-board.txt")],
                 ["blockudoku", "--pieces", str(tmp_path / "no-pieces.txt")]):
        proc = run_batch(*args, "--seeds", "1-3", "--engine", str(FAKE), "--out", str(out))
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert "No such file" in proc.stderr and "again" not in proc.stderr and not out.exists()


def test_probe_chains_pool_the_engines_own_chain_records(tmp_path):
    # With --probes the engine drives each chain: the unit's record is the one `selfplay
    # --chain-rounds` writes for the unit's seed, and the summary pools those records.
    engine = real_binary("blockudoku-lab")
    hard = SCRIPTS.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    out = tmp_path / "probes.jsonl"
    args = ["blockudoku", "--agents", "default,default/nofit=36000", "--chains", "3", "--exposure", "400",
            "--burn-in", "10", "--probes", "exact", "--split", "4", "--pieces", str(hard), "--seeds", "3",
            "--jobs", "2", "--engine", str(engine), "--out", str(out), "--plot", str(tmp_path / "charts")]
    proc = run_batch(*args)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "charts" / "blockudoku-probe.png").stat().st_size > 0
    units = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(units) == 6 and all(len(u["records"]) == 1 for u in units)
    from engines.batch.units import derive_seed

    first = next(u for u in units if u["agent"] == "default/nofit=36000" and u["index"] == 1)
    direct = tmp_path / "direct.jsonl"
    subprocess.run([str(engine), "selfplay", "--games", "1", "--seed", str(derive_seed(3, 1)), "--chain-rounds", "400",
                    "--burn-in", "10", "--probes", "exact", "--split", "4", "--pieces", str(hard),
                    "--agent", "default/nofit=36000", "--jsonl", str(direct)], check=True, capture_output=True)
    assert json.loads(direct.read_text()) == first["records"][0]
    lines = proc.stdout.splitlines()
    for agent in ("default", "default/nofit=36000"):
        recs = [u["records"][0] for u in units if u["agent"] == agent]
        assert all(r["rounds"] == 400 for r in recs)
        mean = sum(r["probe"] for r in recs) / 3
        line = next(l for l in lines if l.startswith(f"{agent}: probe hazard "))
        mantissa, exponent = f"{mean:.2e}".split("e")
        assert f"probe hazard {mantissa}e{int(exponent)} per round (95% CI " in line, line
        assert "Student's t over 3 chains; exact over every deal" in line
        entries = [sum(r["entries"][i] for r in recs) for i in range(4)]
        assert line.endswith(f"; {sum(r['windows'] for r in recs)} split windows; entries at 1e-6: {entries[0]}, "
                             f"1e-5: {entries[1]}, 1e-4: {entries[2]}, 1e-3: {entries[3]}"), line
        row = next(l for l in lines if l.startswith(agent + " "))
        assert f" {sum(r['deaths'] for r in recs)} " in row and " 1200 " in row
    assert any(l.startswith("default/nofit=36000 / default: probe ratio ") for l in lines)
    assert any(l.startswith("default/nofit=36000 / default: window ratio ") for l in lines)
    assert any(l.startswith("default/nofit=36000 / default: entries at 1e-6 ratio ") for l in lines)
    # Units already in the results file are not run again: the same summary.
    again = run_batch(*args)
    assert again.returncode == 0 and again.stdout == proc.stdout


def test_bad_probe_options_are_one_line(tmp_path):
    out = str(tmp_path / "x.jsonl")
    for args, says in ((["--probes", "exact"], "--probes needs --chains"),
                       (["--chains", "1", "--probes", "0"], "--probes must be exact or a number"),
                       (["--chains", "1", "--split", "4"], "--split needs --probes"),
                       (["--chains", "1", "--probes", "exact", "--split", "1"], "--split must be at least 2")):
        proc = run_batch("blockudoku", *args, "--out", out)
        assert proc.returncode == 2 and says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, args


def test_hazard_panels_share_one_scale():
    """Two agents with hazards ten times apart: their panels have one y scale, from 0 to above
    the higher band, so they compare; each title ends with the final estimate."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from engines.batch.plot import over_units_figure

    rows = [{"game": "blockudoku", "agent": "low", "scoring": "", "series": [(1, 1000)] * 10},
            {"game": "blockudoku", "agent": "high", "scoring": "", "series": [(10, 1000)] * 10}]
    fig = over_units_figure(plt, "blockudoku", rows)
    try:
        low, high = fig.axes[0], fig.axes[1]
        assert low.get_ylim() == high.get_ylim() and low.get_ylim()[0] == 0 and low.get_ylim()[1] > 10
        assert low.get_title().startswith("low: 1.0 (") and "after 10 units" in high.get_title()
    finally:
        plt.close(fig)
