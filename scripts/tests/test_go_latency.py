"""scripts/go_latency.py against the real engine: it plays, times and reports."""
import re
import subprocess
import sys
from pathlib import Path

from conftest import bin_dir

SCRIPT = Path(__file__).resolve().parent.parent / "go_latency.py"


def test_go_latency_reports_percentiles():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--rounds", "20", "--seed", "3",
                           "--engine", str(bin_dir() / "blockudoku")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    m = re.fullmatch(r"go latency: 20 searches in \d+ games, seed 3: median ([\d.]+) ms, "
                     r"p90 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms\n", proc.stdout)
    assert m, proc.stdout
    median, p90, p99, most = (float(x) for x in m.groups())
    assert 0 < median <= p90 <= p99 <= most


def test_go_latency_rejects_bad_rounds():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--rounds", "0"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--rounds must be at least 1" in proc.stderr
