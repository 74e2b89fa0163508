"""The scripts' command lines: usage without their required arguments, defaults in --help,
agent names refused by the engine before any work starts."""
import subprocess
import sys
import time

import pytest

from engine_testing import SCRIPTS, bin_dir

# Every program in scripts/ (each runs as `python3 scripts/NAME.py`).
TOOLS = sorted(p.name for p in SCRIPTS.glob("*.py"))


def run(script, *args, timeout=60):
    return subprocess.run([sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("args", [["batch_eval.py"], ["batch_eval.py", "sudoku"], ["batch_eval.py", "blockudoku"],
                                  ["framework_match.py"], ["timing_bench.py"]])
def test_missing_required_arguments_print_usage(args, tmp_path):
    proc = subprocess.run([sys.executable, str(SCRIPTS / args[0]), *args[1:]], capture_output=True, text=True,
                          timeout=30, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("usage:"), proc.stderr
    assert "required" in proc.stderr
    assert not any(tmp_path.iterdir()), "nothing may be written"


@pytest.mark.parametrize("script", TOOLS)
def test_help_shows_defaults(script):
    proc = run(script, "--help")
    assert proc.returncode == 0 and proc.stdout.startswith("usage:"), proc.stderr
    if script != "batch_eval.py":  # its options are under its two games: see the next test
        assert "(default: " in proc.stdout, proc.stdout


@pytest.mark.parametrize("game", ["sudoku", "blockudoku"])
def test_batch_help_explains_its_terms(game):
    out = run("batch_eval.py", game, "--help").stdout
    assert "(default: 1)" in out  # --seeds
    for term in ("agent ", "job ", "setting ", "--opponents"):
        assert term in out, term


@pytest.mark.parametrize("args, refused", [
    (["sudoku", "--opponents", "greedy,nosuch"], "unknown agent 'nosuch'"),
    (["sudoku", "--agents", "seed,nobody"], "unknown agent 'nobody'"),
    (["blockudoku", "--agents", "default,nobody:points"], "unknown agent 'nobody'"),
    (["blockudoku", "--agents", "default:sideways"], "sideways"),
    (["blockudoku", "--scorings", "classic,backwards"], "backwards"),
])
def test_batch_refuses_unknown_agents_before_any_job(args, refused, tmp_path):
    game = args[0]
    engine = bin_dir() / ("sudoku-agent" if game == "sudoku" else "blockudoku")
    out = tmp_path / "out.jsonl"
    started = time.monotonic()
    proc = run("batch_eval.py", *args, "--engine", str(engine), "--games", "50", "--out", str(out))
    assert proc.returncode == 2 and refused in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists() and time.monotonic() - started < 20


def test_latency_tool_refuses_an_unknown_agent():
    proc = run("go_latency.py", "--agent", "nobody", "--engine", str(bin_dir() / "blockudoku"))
    assert proc.returncode == 2 and "unknown agent 'nobody'" in proc.stderr, proc.stderr


@pytest.mark.parametrize("script, args, refused", [
    ("sudoku_gui.py", ["--player2", "nobody"], "unknown agent 'nobody'"),
    ("blockudoku_gui.py", ["--agent", "nobody"], "unknown agent 'nobody'"),
])
def test_front_ends_refuse_an_unknown_agent_before_the_window(script, args, refused):
    engine = bin_dir() / ("sudoku-agent" if script == "sudoku_gui.py" else "blockudoku")
    proc = run(script, *args, "--engine", str(engine))
    assert proc.returncode == 2 and refused in proc.stderr, proc.stderr


@pytest.mark.parametrize("module", ["blockudoku_gui", "sudoku_gui", "sudoku_puzzle_gui"])
def test_each_front_end_has_a_main(module):
    import importlib

    assert callable(importlib.import_module(module).main)
