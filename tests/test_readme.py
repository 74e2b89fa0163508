"""The README's commands run: every shell block of README.md is marked with what it is, and
each marked command is run here with small sizes, so a command in the README cannot rot.

Markers (an HTML comment on the line before a ```sh block):
  run        every line is run from the repository root and must exit 0
  window     a window: started under a display, it must still be up after a few seconds
  framework  needs the course framework ($COMPETITIVE_SUDOKU_FRAMEWORK), else skipped
  ray        needs the `ray` extra installed, else skipped
  suite      the test command itself (not run from here)

scripts/README.md's ```python blocks marked `python` (the driver's examples) are run as
scripts with the harness on the path and must exit 0 without a traceback.
"""
import os
import pathlib
import re
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"^<!-- readme-test: (\w+) -->$")
KINDS = {"run", "window", "framework", "ray", "suite"}
MAX_LINES = 250

# Smaller sizes for the test run: (option, value). Each option's value in a command is
# replaced; options not in the command are left alone.
SMALL = {
    "--games": "2",
    "--max-rounds": "60",
    "--count": "1",
    "--seeds": "1",
    "--rounds": "50",
    "--time": "0.2",
}


def blocks():
    """(kind, commands, line number) of every ```sh block, kind None when unmarked."""
    lines = README.read_text().splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.strip() != "```sh":
            continue
        marker = MARKER.match(lines[i - 1].strip()) if i > 0 else None
        body = []
        for text in lines[i + 1:]:
            if text.strip() == "```":
                break
            body.append(text)
        found.append((marker.group(1) if marker else None, [c for c in body if c.strip()], i + 1))
    return found


def output_files():
    """The files the README's commands write (`--out`, `--jsonl`, `--record`): a test keeps
    them in its scratch folder, also where a later command reads them back."""
    text = README.read_text()
    return sorted(set(re.findall(r"(?<!\S)(?:--out|--jsonl|--record) (\S+)", text)))


def shrink(command: str, scratch: pathlib.Path) -> str:
    """The command with the sizes of SMALL and its files in the scratch folder."""
    for option, value in SMALL.items():
        command = re.sub(rf"(?<!\S){option} \S+", f"{option} {value}", command)
    for name in output_files():
        command = re.sub(rf"(?<!\S){re.escape(name)}(?!\S)", str(scratch / pathlib.Path(name).name),
                         command)
    return command


def commands(kind: str):
    return [(line, command) for k, cmds, line in blocks() if k == kind for command in cmds]


def test_readme_is_short_and_every_block_is_marked():
    text = README.read_text().splitlines()
    assert len(text) <= MAX_LINES, f"README.md has {len(text)} lines, at most {MAX_LINES}"
    found = blocks()
    assert len(found) >= 8
    for kind, cmds, line in found:
        assert kind in KINDS, f"README.md line {line}: sh block without a known readme-test marker"
        assert cmds, f"README.md line {line}: empty block"
    assert [c for _, c in commands("suite")] == ["bash tests/run-all.sh"]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("readme")


@pytest.fixture(scope="module")
def ran(scratch):
    """Every `run` command, run once in order: (line, command as run, finished process)."""
    results = []
    for line, command in commands("run"):
        small = shrink(command, scratch)
        done = subprocess.run(["bash", "-c", small], cwd=ROOT, capture_output=True, text=True,
                              timeout=300)
        results.append((line, small, done))
    return results


def test_setup_and_quick_start_commands_run(ran):
    assert len(ran) >= 5
    for line, small, done in ran:
        assert done.returncode == 0, (
            f"README.md line {line}: {small}\nexit {done.returncode}\n{done.stdout[-2000:]}"
            f"\n{done.stderr[-2000:]}")
        assert "Traceback" not in done.stderr, f"README.md line {line}: {done.stderr[-2000:]}"


def test_window_commands_start(display, ran, scratch):
    """Each window opens and stays up (a record it loads was written by a `run` command)."""
    cmds = commands("window")
    assert len(cmds) >= 3
    for line, command in cmds:
        small = shrink(command, scratch)
        proc = subprocess.Popen(["bash", "-c", f"exec {small}"], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(4)
            alive = proc.poll() is None
        finally:
            proc.terminate()
            try:
                _, err = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
        assert alive, f"README.md line {line}: {small} ended at once:\n{err[-2000:]}"
        assert "Traceback" not in err, f"README.md line {line}: {err[-2000:]}"


def ray_missing():
    probe = subprocess.run([sys.executable, "-c", "import ray"], capture_output=True)
    return probe.returncode != 0


# Commands that need what a clone does not bring: (kind, why it is skipped, test of absence).
NEEDS = {
    "framework": ("$COMPETITIVE_SUDOKU_FRAMEWORK is not set: the course framework is not here",
                  lambda: not os.environ.get("COMPETITIVE_SUDOKU_FRAMEWORK")),
    "ray": ("ray is not installed (python3 -m pip install -e 'scripts[batch,ray]')", ray_missing),
}


@pytest.mark.parametrize("kind", sorted(NEEDS))
def test_commands_with_outside_needs_run(kind, tmp_path):
    why, missing = NEEDS[kind]
    if missing():
        pytest.skip(why)
    cmds = commands(kind)
    assert cmds
    for line, command in cmds:
        small = shrink(command, tmp_path)
        done = subprocess.run(["bash", "-c", small], cwd=ROOT, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, f"README.md line {line}: {small}\n{done.stdout}\n{done.stderr}"


SCRIPTS_README = ROOT / "scripts" / "README.md"


def python_examples():
    """(code, line number) of every ```python block of scripts/README.md marked `python`."""
    lines = SCRIPTS_README.read_text().splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.strip() != "```python" or not i or lines[i - 1].strip() != "<!-- readme-test: python -->":
            continue
        body = []
        for text in lines[i + 1:]:
            if text.strip() == "```":
                break
            body.append(text)
        found.append(("\n".join(body) + "\n", i + 1))
    return found


def test_driver_examples_run():
    examples = python_examples()
    assert len(examples) >= 2
    for code, line in examples:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=str(ROOT / "scripts")))
        assert done.returncode == 0 and "Traceback" not in done.stderr, (
            f"scripts/README.md line {line}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        assert "refused:" in done.stdout, f"scripts/README.md line {line}: the error example did not run"
