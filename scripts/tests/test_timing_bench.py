"""scripts/timing_bench.py against the real engines: it searches, times and reports percentiles.

Only the report's shape and sample counts are checked: the figures themselves belong in
scripts/README.md, measured on an idle machine."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
from engine_testing import bin_dir

SCRIPT = Path(__file__).resolve().parent.parent / "timing_bench.py"
ROW = r"(?P<name>[a-z ]+): n (?P<n>\d+) median (-?[\d.]+) ms p90 (-?[\d.]+) ms p99 (-?[\d.]+) ms max (-?[\d.]+) ms"


@pytest.mark.parametrize("kind,binary", [("blockudoku", "blockudoku"), ("sudoku", "sudoku-agent")])
def test_timing_bench_reports_each_promise(kind, binary):
    proc = subprocess.run([sys.executable, str(SCRIPT), kind, "--searches", "8", "--seed", "2",
                           "--engine", str(bin_dir() / binary)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"timing {kind}: 8 searches, movetime 20,100 ms, seed 2, threads 1"
    rows = {}
    for line in lines[1:]:
        m = re.fullmatch(ROW, line)
        assert m, line
        values = [float(v) for v in m.groups()[2:]]
        assert values == sorted(values), line
        rows[m["name"]] = int(m["n"])
    expected = {"movetime overshoot": 8, "isready while searching": 2, "stop to bestmove": 2}
    if kind == "sudoku":
        expected["first propose"] = 8
    assert rows == expected


def test_timing_bench_rejects_bad_arguments():
    for args in (["sudoku", "--searches", "0"], ["sudoku", "--movetime", "20,x"]):
        proc = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "timing_bench.py: error:" in proc.stderr


def test_timing_bench_reports_a_missing_engine():
    proc = subprocess.run([sys.executable, str(SCRIPT), "sudoku", "--engine", "/nonexistent/engine"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stderr.startswith("timing_bench: ") and proc.stderr.count("\n") == 1


def test_timing_bench_times_every_position_of_a_record(tmp_path):
    record = tmp_path / "games.txt"
    arena = subprocess.run([str(bin_dir() / "sudoku-lab"), "arena", "--first", "default", "--second", "greedy",
                            "--board", "2x2", "--mode", "rows", "--games", "2", "--nodes", "50",
                            "--record", str(record), "--quiet"], capture_output=True, text=True, timeout=120)
    assert arena.returncode == 0, arena.stderr
    steps = sum(1 for line in record.read_text().splitlines() if line.startswith("move "))
    proc = subprocess.run([sys.executable, str(SCRIPT), "sudoku", "--record", str(record), "--movetime", "10",
                           "--engine", str(bin_dir() / "sudoku-agent")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert re.fullmatch(rf"timing sudoku: {steps} positions of .*games\.txt, movetime 10 ms, threads 1; "
                        r"bestmove over movetime\+10 ms: \d+", lines[0]), lines[0]
    m = re.fullmatch(ROW, lines[1])
    assert m and m["name"] == "movetime overshoot" and int(m["n"]) == steps, lines[1]
    assert lines[2].startswith("first propose: ")


def test_timing_bench_reports_a_bad_record(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("competitive-sudoku-record 2\n")
    proc = subprocess.run([sys.executable, str(SCRIPT), "sudoku", "--record", str(bad),
                           "--engine", str(bin_dir() / "sudoku-agent")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stderr.startswith("timing_bench: ") and proc.stderr.count("\n") == 1
    proc = subprocess.run([sys.executable, str(SCRIPT), "blockudoku", "--record", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--record needs the sudoku engine" in proc.stderr
