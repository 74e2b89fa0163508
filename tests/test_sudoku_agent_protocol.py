"""End-to-end tests of `sudoku-agent`'s protocol: every transcript of
protocol/competitive-sudoku.md is replayed against the real binary, plus the timing rules
(propose early, movetime, isready and stop during a search) that transcripts cannot show."""
import pathlib
import queue
import re
import subprocess
import threading
import time

import pytest
from compliance import LOAD_SLACK_MS

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "protocol" / "competitive-sudoku.md"
EMPTY9 = "/".join(["." * 9] * 9)


def transcripts():
    """The ```transcript blocks of the protocol document, as (sent, expected) lists."""
    text = DOC.read_text()
    blocks = re.findall(r"```transcript\n(.*?)```", text, re.S)
    out = []
    for block in blocks:
        sent, expected = [], []
        for line in block.splitlines():
            if line.startswith("> "):
                sent.append(line[2:])
            elif line.startswith("<~ "):
                expected.append(("*", line[3:]))
            elif line.startswith("<+ "):
                expected.append(("+", line[3:]))
            elif line.startswith("< "):
                expected.append(("1", line[2:]))
            elif line.strip():
                raise AssertionError(f"transcript line without marker: {line!r}")
        out.append((sent, expected))
    return out


def pattern(text):
    return re.compile(re.escape(text).replace(r"\*", ".*") + r"\Z")


def matches(lines, expected):
    """True when the received lines fit the expected items (with repeats)."""
    if not expected:
        return not lines
    kind, text = expected[0]
    pat = pattern(text)
    if kind == "1":
        return bool(lines) and pat.match(lines[0]) is not None and matches(lines[1:], expected[1:])
    # Repeated item: try every count, fewest first for '*'.
    low = 0 if kind == "*" else 1
    count = 0
    while True:
        if count >= low and matches(lines[count:], expected[1:]):
            return True
        if count < len(lines) and pat.match(lines[count]):
            count += 1
        else:
            return False


TRANSCRIPTS = transcripts()


def test_document_has_transcripts():
    assert len(TRANSCRIPTS) >= 7


@pytest.mark.parametrize("index", range(len(TRANSCRIPTS)))
def test_transcript(sudoku_bin, index):
    sent, expected = TRANSCRIPTS[index]
    proc = subprocess.run(
        [str(sudoku_bin)],
        input="\n".join(sent) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert matches(lines, expected), "\n".join(["got:"] + lines + ["expected:"] + [f"{k} {t}" for k, t in expected])


class Agent:
    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, cwd=ROOT
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def until(self, pred, timeout=10):
        seen = []
        end = time.monotonic() + timeout
        while True:
            stamp, line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            seen.append(line)
            if pred(line):
                return stamp, seen

    def close(self):
        self.proc.stdin.close()
        assert self.proc.wait(timeout=5) == 0


@pytest.fixture
def agent(sudoku_bin):
    a = Agent(sudoku_bin)
    yield a
    a.close()


def test_propose_early_and_movetime(agent):
    for pos in [
        "position 3x3 " + EMPTY9,
        "position 3x3 " + EMPTY9 + " mode rows",
        "position 3x4 " + "/".join(["." * 12] * 12),
        "position 2x3 " + "/".join(["." * 6] * 6),
    ]:
        for movetime in (20, 100):
            agent.send(pos)
            sent = agent.send(f"go movetime {movetime}")
            first, _ = agent.until(lambda l: l.startswith("propose ") or l.startswith("bestmove"))
            stamp, lines = agent.until(lambda l: l.startswith("bestmove"))
            assert (first - sent) * 1000 < LOAD_SLACK_MS, f"first propose after {(first - sent) * 1000:.1f} ms"
            assert (stamp - sent) * 1000 <= movetime + LOAD_SLACK_MS, f"{pos} movetime {movetime}: {(stamp - sent) * 1000:.1f} ms"


def test_isready_and_stop_during_search(agent):
    agent.send("position 3x3 " + EMPTY9)
    agent.send("go infinite")
    time.sleep(0.1)
    sent = agent.send("isready")
    stamp, lines = agent.until(lambda l: l == "readyok" or l.startswith("bestmove"))
    assert lines[-1] == "readyok"
    assert (stamp - sent) * 1000 < LOAD_SLACK_MS
    agent.send("stop")
    _, lines = agent.until(lambda l: l.startswith("bestmove"))
    assert lines[-1] != "bestmove none"
    agent.send("isready")
    _, lines = agent.until(lambda l: l == "readyok")
    assert lines == ["readyok"], "a second bestmove or other output after stop"


def test_every_go_one_bestmove_and_safe(agent):
    """The bestmove of every agent is accepted by the referee (placed, never an error)."""
    for name in ("random", "greedy", "seed", "default", "territory", "mcts"):
        agent.send(f"setoption name Agent value {name}")
        for pos in ["position 3x3 " + EMPTY9, "position 2x2 1234/3412/2143/43.. scores 3 1"]:
            agent.send(pos)
            agent.send("go movetime 30")
            _, lines = agent.until(lambda l: l.startswith("bestmove"))
            move = lines[-1].split()[1]
            agent.send(pos)
            agent.send(f"play {move}")
            _, reply = agent.until(lambda l: True)
            assert reply[0].startswith("played"), (name, pos, reply)
            if name in ("seed", "default", "territory", "mcts"):
                assert " placed " in reply[0], (name, pos, reply)


def test_same_position_same_answer(sudoku_bin):
    script = "setoption name Threads value 1\n" + "".join(
        f"position {p}\ngo nodes 5000\n"
        for p in ["3x3 " + EMPTY9, "2x3 " + "/".join(["." * 6] * 6), "3x3 " + EMPTY9]
    )
    outs = []
    for _ in range(2):
        proc = subprocess.run([str(sudoku_bin)], input=script, capture_output=True, text=True, timeout=30)
        outs.append([l for l in proc.stdout.splitlines() if l.startswith("bestmove")])
    assert outs[0] == outs[1]
    assert outs[0][0] == outs[0][2]


def test_eof_during_search_exits(sudoku_bin):
    proc = subprocess.Popen([str(sudoku_bin)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write("position 3x3 " + EMPTY9 + "\ngo infinite\n")
    proc.stdin.flush()
    time.sleep(0.1)
    proc.stdin.close()
    assert proc.wait(timeout=5) == 0
    assert proc.stdout.read().splitlines()[-1].startswith("bestmove")
