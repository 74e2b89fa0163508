"""Hostile input for Blockudoku, case by case from tests/data/hostile/blockudoku.txt: error
lines escaped as protocol/blockudoku.md promises, `play` at the score and streak limits,
one error per bad legacy request, `blockudoku-lab replay` on endless and corrupt records
(protocol/records.md) and the lab's other input files, each run with at most 1 GB of address
space."""
import ast
import pathlib
import resource
import subprocess

import pytest

CASES_FILE = pathlib.Path(__file__).parent / "data" / "hostile" / "blockudoku.txt"
MEMORY_LIMIT = 1 << 30


def load_cases():
    """The cases of the file: (kind, title, input lines, expected lines, exit code, path)."""
    cases = []
    for raw in CASES_FILE.read_text(encoding="utf-8").splitlines():
        if raw.startswith("case "):
            kind, _, title = raw[len("case "):].partition(": ")
            cases.append({"kind": kind, "title": title, "send": [], "want": [], "exit": None, "path": None,
                          "args": None})
        elif raw.startswith("> "):
            line, _, times = raw[2:].rpartition(" * ")
            if line and times.isdigit():
                cases[-1]["send"].extend([ast.literal_eval(line)] * int(times))
            else:
                cases[-1]["send"].append(ast.literal_eval(raw[2:]))
        elif raw.startswith("< "):
            cases[-1]["want"].append(raw[2:])
        elif raw.startswith("exit "):
            cases[-1]["exit"] = int(raw[len("exit "):])
        elif raw.startswith("path "):
            cases[-1]["path"] = raw[len("path "):]
        elif raw.startswith("args "):
            cases[-1]["args"] = raw[len("args "):].split()
        elif raw.strip() and not raw.startswith("#"):
            raise ValueError(f"{CASES_FILE}: cannot read line {raw!r}")
    return cases


CASES = load_cases()


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def test_the_case_file_has_every_kind():
    assert {c["kind"] for c in CASES} == {"engine", "legacy", "replay", "lab"}


@pytest.mark.parametrize("case", CASES, ids=[f"{c['kind']}: {c['title']}" for c in CASES])
def test_hostile_case(case, blockudoku_bin, blockudoku_lab_bin, tmp_path):
    if case["kind"] in ("engine", "legacy"):
        tail = [b"isready", b"quit"] if case["kind"] == "engine" else []
        data = b"\n".join(case["send"] + tail) + b"\n"
        proc = subprocess.run([str(blockudoku_bin)], input=data, capture_output=True, timeout=60,
                              preexec_fn=limit_memory)
        want = case["want"] + (["readyok"] if case["kind"] == "engine" else [])
        assert proc.stdout.decode("utf-8", "replace").splitlines() == want
        assert proc.returncode == 0 and proc.stderr == b""
        return
    path = case["path"]
    if path is None:
        record = tmp_path / "record.bkr"
        record.write_bytes(b"\n".join(case["send"]) + b"\n")
        path = str(record)
    args = [a.replace("FILE", path) for a in case["args"]] if case["kind"] == "lab" else ["replay", path]
    proc = subprocess.run([str(blockudoku_lab_bin), *args], capture_output=True, timeout=60,
                          preexec_fn=limit_memory)
    want = [line.replace("FILE", path) for line in case["want"]]
    assert proc.stderr.decode("utf-8", "replace").splitlines() == want
    assert proc.returncode == case["exit"]
