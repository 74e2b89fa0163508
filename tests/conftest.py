"""Shared fixtures for the end-to-end tests: they run the real release binaries."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "crates" / "rules" / "data"
BIN_DIR = pathlib.Path(os.environ.get("ENGINE_BIN_DIR", ROOT / "target" / "release"))

# Wall-clock bounds in tests check behaviour (a bestmove comes, stop is obeyed), never the
# protocols' millisecond promises: CI runs on 2 cores next to other work, where one
# descheduling can cost hundreds of ms (compliance.LOAD_SLACK_MS is the bound they use).
# scripts/timing_bench.py measures the promises themselves.

sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))


def binary(name: str) -> pathlib.Path:
    path = BIN_DIR / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run 'cargo build --release' first")
    return path


@pytest.fixture(scope="session")
def blockudoku_bin() -> pathlib.Path:
    return binary("blockudoku")


@pytest.fixture(scope="session")
def sudoku_bin() -> pathlib.Path:
    return binary("sudoku-agent")


@pytest.fixture(scope="session")
def data_dir() -> pathlib.Path:
    """The repository's data: the piece catalogue and the sudoku collections."""
    return DATA
