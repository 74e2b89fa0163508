"""Smoke test: both engine binaries are built and start."""
import subprocess


def test_blockudoku_starts_and_ends_on_eof(blockudoku_bin):
    proc = subprocess.run([str(blockudoku_bin)], input=b"", capture_output=True, timeout=10)
    assert proc.returncode == 0


def test_sudoku_agent_starts_and_ends_on_eof(sudoku_bin):
    proc = subprocess.run([str(sudoku_bin)], input=b"", capture_output=True, timeout=10)
    assert proc.returncode == 0
