"""Hostile input to the Competitive Sudoku tools and documents: endless and corrupt files,
absurd sizes, positions and puzzles that take long (cases in
tests/data/hostile/sudoku-tools.txt, run with at most 1 GB of memory), openings printed as
they are found, `0` as an
empty cell in `position` (accepted by the engine and written in the protocol grammar), and
the game numbers of protocol/records.md (from 1, as the engines number them)."""
import pathlib
import re
import resource
import subprocess

import pytest
from engine_testing import bin_dir

ROOT = pathlib.Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "hostile" / "sudoku-tools.txt"
MEMORY_LIMIT = 1 << 30


def cases():
    for line in CASES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            code, text, command = (part.strip() for part in line.split("|", 2))
            yield pytest.param(int(code), text, command.split(), id=command)


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.mark.parametrize("code,text,command", list(cases()))
def test_tool_refuses_hostile_input(code, text, command):
    program = bin_dir() / command[0]
    proc = subprocess.run([str(program), *command[1:]], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          stdin=subprocess.DEVNULL, preexec_fn=limit_memory)
    assert proc.returncode == code, proc.stderr
    if code == 0:
        assert proc.stderr == "" and text in proc.stdout, proc.stdout[-300:]
        return
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], proc.stderr


def test_openings_are_printed_as_they_are_found():
    """`openings --count 1000000 | head`: the first openings come at once, the suite is not
    held to the end, and a closed output ends the run with one line."""
    proc = subprocess.Popen([str(bin_dir() / "sudoku-lab"), "openings", "--count", "1000000"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=limit_memory)
    try:
        first = [proc.stdout.readline() for _ in range(3)]
        assert first[0].startswith("# sudoku-lab openings") and all(l.startswith("position 3x3 ") for l in first[1:])
        proc.stdout.close()
        assert proc.wait(timeout=60) == 1
        assert proc.stderr.read() == "error: cannot write to standard output\n"
    finally:
        proc.kill()
        proc.wait()


def test_endless_standard_input_is_refused():
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([str(bin_dir() / "sudoku-solver"), "count"], stdin=zero, capture_output=True, text=True,
                              timeout=60, preexec_fn=limit_memory)
    assert proc.returncode == 1 and proc.stderr == "error: standard input: larger than 32 MB, the most the tools read\n"


def test_zero_is_an_empty_cell_in_the_engine_and_the_grammar():
    grammar = (ROOT / "protocol" / "competitive-sudoku.md").read_text()
    row = next(l for l in grammar.splitlines() if l.startswith("| `position <m>x<n> <rows>"))
    assert "`.` or `0` (empty)" in row, row
    script = "position 2x2 10../..../..../...0\nshow\nquit\n"
    proc = subprocess.run([str(bin_dir() / "sudoku-agent")], input=script, capture_output=True, text=True,
                          timeout=30)
    assert "error" not in proc.stdout and "rows 1.../..../..../....\n" in proc.stdout, proc.stdout


def test_records_document_numbers_games_from_1():
    text = (ROOT / "protocol" / "records.md").read_text()
    assert not re.search(r"(?m)^game 0\b", text), "an example numbers a game 0"
    assert "from 0" not in "".join(l for l in text.splitlines() if l.startswith("| `game <N>"))
