"""scripts/go_latency.py against the real engine: it plays, times and reports."""
import re
import subprocess
import sys
from pathlib import Path

from engine_testing import bin_dir

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


def test_go_latency_names_another_agent():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--rounds", "5", "--seed", "3", "--agent", "strong",
                           "--engine", str(bin_dir() / "blockudoku")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("go latency, agent strong: 5 searches in "), proc.stdout
    bad = subprocess.run([sys.executable, str(SCRIPT), "--agent", "best"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "--agent" in bad.stderr


def test_go_latency_times_a_positions_file(tmp_path):
    # The format `blockudoku crises --positions-file` writes: board, streak, 0-based hand.
    positions = tmp_path / "pos.txt"
    crowded = "#" * 40 + "." * 41
    positions.write_text(f"{'.' * 81} 0 0 1 2\n\n{crowded} 2 46 27 3\n")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--positions", str(positions), "--agent", "strong",
                           "--engine", str(bin_dir() / "blockudoku")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"go latency, agent strong: 2 searches on the positions of {positions}: "), \
        proc.stdout
    for bad in [f"{'.' * 81} 0 0 1 47\n", f"{'.' * 80} 0 0 1 2\n", f"{'.' * 81} 0 0 1\n", ""]:
        positions.write_text(bad)
        proc = subprocess.run([sys.executable, str(SCRIPT), "--positions", str(positions)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "--positions" in proc.stderr, (bad, proc.stderr)
        assert len(proc.stderr.strip().splitlines()[-1]) < 200


def test_go_latency_rejects_bad_rounds():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--rounds", "0"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--rounds must be at least 1" in proc.stderr
