"""Shared fixtures for the end-to-end tests: they run the real release binaries."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
BIN_DIR = pathlib.Path(os.environ.get("ENGINE_BIN_DIR", ROOT / "target" / "release"))

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
def shared_dir() -> pathlib.Path:
    return SHARED
