"""A short run of the end-to-end protocol fuzzer (tests/fuzz_engines.py) against both real
binaries, and proof that the harness fails: fake engines that break the protocol in one
way each must be caught. The 10-minute runs are in tests/README.md, section "Fuzzing"."""
import pathlib
import subprocess
import sys

import pytest

FUZZ = pathlib.Path(__file__).resolve().parent / "fuzz_engines.py"


def fuzz(engine, binary, seconds, seed, *extra, timeout=180):
    cmd = [sys.executable, str(FUZZ), engine, "--seconds", str(seconds), "--seed", str(seed)]
    cmd += ["--bin", str(binary), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


def test_fuzz_blockudoku(blockudoku_bin):
    code, out = fuzz("blockudoku", blockudoku_bin, 10, 7)
    assert code == 0, out
    assert out.strip().splitlines()[-1].endswith("seed 7, no failure"), out


def test_fuzz_sudoku(sudoku_bin):
    code, out = fuzz("sudoku", sudoku_bin, 10, 7)
    assert code == 0, out
    assert out.strip().splitlines()[-1].endswith("seed 7, no failure"), out


# A minimal engine for either protocol: it answers hello, isready, go (one bestmove none) and
# one-shot lines, says `error unknown command '<word>'` to words it does not know and ignores
# the rest. FAULT breaks it in one way.
FAKE = r'''
import sys
from fuzz_engines import rust_tokens  # split like the real engines
kind, fault = sys.argv[1], sys.argv[2]
HELLO = {
    "blockudoku": ["id name blockudoku", "id version 0", "protocol blockudoku 1",
                   "option name Threads type spin default 1 min 1 max 64",
                   "option name Scoring type combo default blockudoku var blockudoku",
                   "option name Agent type combo default default var default", "hello ok"],
    "sudoku": ["id name sudoku-agent", "id version 0", "protocol competitive-sudoku 1",
               "option name Threads type spin default 1 min 1 max 256",
               "option name Agent type combo default default var default",
               "option name Seed type spin default 0 min 0 max 9", "hello ok"],
}[kind]
KNOWN = {"hello", "isready", "go", "quit", "position", "play", "show", "stop", "newgame",
         "setoption", "eval"}
def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
n = 0
for raw in sys.stdin.buffer:
    toks = rust_tokens(raw)
    if not toks:
        continue
    n += 1
    cmd = toks[0]
    if fault == "hang" and n > 40:
        continue
    if fault == "undocumented" and n == 40:
        say("info string hello there")
    if cmd == "hello":
        for line in HELLO:
            say(line)
    elif cmd == "isready":
        say("readyok")
    elif cmd == "play" and toks[1:] == ["none"] and kind == "sudoku":
        say("passed scores 0 0 turn 2")
    elif cmd == "quit" and len(toks) == 1:
        break
    elif cmd == "go":
        say("bestmove none")
        if fault == "double":
            say("bestmove none")
    elif len(cmd) >= 9 and set(cmd) <= set(".#01/") and kind == "blockudoku":
        say("bestmove none")
    elif cmd not in KNOWN:
        cmd = cmd.encode("unicode_escape").decode("ascii")
        say("error unknown command '%s'" % cmd)
'''


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    path = tmp_path_factory.mktemp("fake") / "fake_engine.py"
    path.write_text(FAKE)
    return path


def fake_bin(tmp_path, fake, kind, fault):
    script = tmp_path / f"fake-{kind}-{fault}"
    script.write_text(f"#!/bin/sh\nPYTHONPATH={FUZZ.parent} exec {sys.executable} {fake} {kind} {fault}\n")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("kind", ["blockudoku", "sudoku"])
def test_a_well_behaved_fake_engine_passes(tmp_path, fake, kind):
    code, out = fuzz(kind, fake_bin(tmp_path, fake, kind, "none"), 3, 1, "--hang-seconds", "5")
    assert code == 0, out


@pytest.mark.parametrize(
    "fault, message",
    [
        ("undocumented", "undocumented reply: 'info string hello there'"),
        ("double", "a bestmove without a search"),
        ("hang", "no reply within 2 s"),
    ],
)
@pytest.mark.parametrize("kind", ["blockudoku", "sudoku"])
def test_the_fuzzer_catches_a_broken_engine(tmp_path, fake, kind, fault, message):
    code, out = fuzz(kind, fake_bin(tmp_path, fake, kind, fault), 5, 1, "--hang-seconds", "2")
    assert code == 1, out
    assert message in out, out
    assert "FAILED" in out.strip().splitlines()[-1], out
