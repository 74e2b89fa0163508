"""Smoke test: both engine binaries are built and start; the engine binaries carry no lab."""
import subprocess


def test_blockudoku_starts_and_ends_on_eof(blockudoku_bin):
    proc = subprocess.run([str(blockudoku_bin)], input=b"", capture_output=True, timeout=10)
    assert proc.returncode == 0


def test_sudoku_agent_starts_and_ends_on_eof(sudoku_bin):
    proc = subprocess.run([str(sudoku_bin)], input=b"", capture_output=True, timeout=10)
    assert proc.returncode == 0


def test_blockudoku_engine_binary_carries_no_measuring_tool(blockudoku_bin, blockudoku_lab_bin):
    # The engine keeps the protocol and `bench`; the measuring tools are `blockudoku-lab`'s.
    engine = subprocess.run([str(blockudoku_bin), "--help"], capture_output=True, text=True, timeout=10).stdout
    lab = subprocess.run([str(blockudoku_lab_bin), "--help"], capture_output=True, text=True, timeout=10).stdout
    assert "bench" in engine
    for tool in ("selfplay", "crises", "crowded", "replay"):
        assert tool not in engine, engine
        assert tool in lab, lab
