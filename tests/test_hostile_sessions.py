"""Hostile input to the protocol loop both engines share (engine-kit's session): bounded
memory on endless lines (C13), `setoption` read one way (C14), `go infinite` holding its
answer and every other line until `stop` (C6, C7), and `quit` or the end of input ending
every search (C7). The one-line cases live in data/hostile/sessions-replies.txt."""
import ast
import pathlib
import queue
import re
import subprocess
import threading
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "hostile"
ENGINES = ["blockudoku", "sudoku-agent"]
EMPTY9 = "/".join(["........."] * 9)
# A position per engine, set before each case.
POSITION = {"blockudoku": "position empty pieces 28 8 1", "sudoku-agent": "position 2x2 1.../..../..../...."}
# A position with a long search, for `go infinite`.
SEARCH_POSITION = {"blockudoku": "position empty pieces 33 34 35", "sudoku-agent": f"position 3x3 {EMPTY9}"}
# Generous: the searches below end within seconds; the bound only turns a hang into a failure.
TIMEOUT = 60


@pytest.fixture
def binary(request):
    return request.getfixturevalue({"blockudoku": "blockudoku_bin", "sudoku-agent": "sudoku_bin"}[request.param])


class Engine:
    """The engine process with a reader thread, so reads can time out."""

    def __init__(self, binary):
        self.proc = subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.lines: "queue.Queue" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, data):
        self.proc.stdin.write(data if isinstance(data, bytes) else data.encode() + b"\n")
        self.proc.stdin.flush()

    def read(self):
        """The next line that is not a search's progress (`propose`, `info`)."""
        while True:
            try:
                line = self.lines.get(timeout=TIMEOUT)
            except queue.Empty:
                pytest.fail("engine did not answer in time")
            if line is None:
                pytest.fail(f"engine exited (code {self.proc.wait()})")
            if not line.startswith(("propose ", "info ")):
                return line

    def lines_within(self, seconds):
        """The lines (progress left out) printed within `seconds`; a correct engine that
        prints none cannot fail this however busy the machine is."""
        got = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None or not line.startswith(("propose ", "info ")):
                got.append(line)
        return got

    def finish(self):
        """Closes stdin; the exit code and the lines printed after that (progress left out)."""
        self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail("engine still running after the end of its input")
        rest = []
        while (line := self.lines.get(timeout=TIMEOUT)) is not None:
            if not line.startswith(("propose ", "info ")):
                rest.append(line)
        return code, rest

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def reply_cases():
    cases = []
    for number, text in enumerate((DATA / "sessions-replies.txt").read_text().splitlines(), 1):
        if not text.strip() or text.startswith("#"):
            continue
        engine, line, reply = (part.strip() for part in text.split(" | ", 2))
        data = b""
        for term in line.split(" + "):
            m = re.fullmatch(r'(b".*")(?: \* (\d+))?', term)
            assert m, f"sessions-replies.txt line {number}: {line!r}"
            data += ast.literal_eval(m.group(1)) * int(m.group(2) or 1)
        for name in ENGINES if engine == "both" else [engine]:
            assert name in ENGINES, f"sessions-replies.txt line {number}: {engine!r}"
            cases.append(pytest.param(name, data, None if reply == "(no reply)" else reply,
                                      id=f"{name}-line{number}"))
    return cases


@pytest.mark.parametrize("binary,data,reply", reply_cases(), indirect=["binary"])
def test_one_line(binary, data, reply):
    with Engine(binary) as engine:
        name = pathlib.Path(binary).name
        engine.send(POSITION[name])
        engine.send(data + b"\n")
        engine.send("isready")
        got = engine.read()
        if reply is None:
            assert got == "readyok"
        else:
            pattern = re.escape(reply).replace(r"\*", ".*")
            assert re.fullmatch(pattern, got), got
            assert engine.read() == "readyok"
        code, rest = engine.finish()
        assert (code, rest) == (0, [])


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
def test_an_endless_line_costs_no_memory(binary):
    """Two gigabytes of zero bytes without a newline under a 1 GB address space: one error,
    and the engine goes on."""
    script = f"ulimit -v 1000000; (head -c 2000000000 /dev/zero; printf '\\nisready\\n') | '{binary}'"
    proc = subprocess.run(["bash", "-c", script], capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-300:]
    assert proc.stdout.decode().splitlines() == ["error line longer than 1048576 bytes, skipped", "readyok"]


# Lines sent while a `go infinite` runs; each waits for the bestmove, which waits for `stop`.
WAITING_LINES = {
    "blockudoku": ["frobnicate", "show", "position empty pieces 1", "go nodes 5"],
    "sudoku-agent": ["frobnicate", "show", "position 2x2 1.../..../..../....", "go depth 1"],
}


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
@pytest.mark.parametrize("waiting", range(4))
def test_go_infinite_answers_only_at_stop(binary, waiting):
    name = pathlib.Path(binary).name
    line = WAITING_LINES[name][waiting]
    with Engine(binary) as engine:
        engine.send(SEARCH_POSITION[name])
        engine.send("go infinite")
        # `isready` is answered at once while the search runs and nothing waits before it.
        engine.send("isready")
        assert engine.read() == "readyok"
        # No bestmove may come for the line sent now, nor for the `isready` behind it.
        engine.send(line)
        engine.send("isready")
        assert engine.lines_within(0.5) == []
        engine.send("stop")
        assert engine.read().startswith("bestmove ")
        # Then the waiting lines are answered in order (a `go` gives its own bestmove).
        replies = []
        while (got := engine.read()) != "readyok":
            replies.append(got)
        if line == "frobnicate":
            assert replies == ["error unknown command 'frobnicate'"]
        elif line == "show":
            assert len(replies) > 9 and not any(r.startswith(("bestmove", "error")) for r in replies)
        elif line.startswith("go"):
            # A `go` counts as answered once its search started: its bestmove may come
            # after the `readyok`.
            if not replies:
                replies.append(engine.read())
            assert len(replies) == 1 and replies[0].startswith("bestmove ")
        else:
            assert replies == []
        engine.send("quit")
        code, _ = engine.finish()
        assert code == 0


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
def test_lines_beyond_ten_thousand_waiting_are_skipped(binary):
    """During `go infinite` at most 10,000 lines wait: the next one is skipped at once with
    one error, so a client cannot fill the memory with waiting lines."""
    name = pathlib.Path(binary).name
    with Engine(binary) as engine:
        engine.send(SEARCH_POSITION[name])
        engine.send("go infinite")
        engine.send(b"frobnicate\n" * 10_001)
        assert engine.read() == "error line skipped: 10000 lines already wait for the running search"
        engine.send("stop")
        assert engine.read().startswith("bestmove ")
        engine.send("isready")
        replies = []
        while (got := engine.read()) != "readyok":
            replies.append(got)
        assert replies == ["error unknown command 'frobnicate'"] * 10_000
        assert engine.finish()[0] == 0


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
def test_long_lines_waiting_for_a_search_cost_no_memory(binary):
    """800 lines of a megabyte each sent during `go infinite`, under a 600 MB address space:
    they wait as their one-line replies, not as their text."""
    name = pathlib.Path(binary).name
    script = (f"ulimit -v 600000; (printf '%s\\ngo infinite\\n' '{SEARCH_POSITION[name]}'; "
              f"python3 -c \"import sys; [sys.stdout.write('a' * 1000000 + chr(10)) for _ in range(800)]\"; "
              f"printf 'stop\\nisready\\n') | '{binary}'")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-300:]
    out = [l for l in proc.stdout.decode().splitlines() if not l.startswith(("propose ", "info "))]
    assert out[0].startswith("bestmove ") and out[-1] == "readyok"
    assert out[1:-1] == ["error unknown command '" + "a" * 40 + "...'"] * 800


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
def test_valid_megabyte_lines_waiting_for_a_search_stay_within_memory(binary):
    """300 valid lines of a megabyte each (a long taboo list, a padded `show`) sent during `go
    infinite`, under a 1 GB address space: they wait as text, at most 64 MiB of it; each line
    beyond that is skipped at once with one error, the others are answered after `stop`."""
    name = pathlib.Path(binary).name
    head, unit = ("position 2x2 ..../..../..../.... taboo", " 0,0=1") if name == "sudoku-agent" else ("show", "      ")
    repeat = (1_000_000 - len(head)) // len(unit)
    waiting = (64 << 20) // (len(head) + len(unit) * repeat)
    script = (f"ulimit -v 1000000; (printf '%s\\ngo infinite\\n' '{SEARCH_POSITION[name]}'; "
              f"python3 -c \"import sys; [sys.stdout.write('{head}' + '{unit}' * {repeat} + chr(10)) for _ in range(300)]\"; "
              f"printf 'stop\\nisready\\n') | '{binary}'")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-300:]
    out = [l for l in proc.stdout.decode().splitlines() if not l.startswith(("propose ", "info "))]
    skipped = "error line skipped: the lines waiting for the running search already hold 64 MiB"
    assert out[:300 - waiting] == [skipped] * (300 - waiting)
    assert out[300 - waiting].startswith("bestmove ") and out[-1] == "readyok"
    answers = out[301 - waiting:-1]
    if name == "sudoku-agent":
        assert answers == []
    else:
        assert len(answers) == waiting * 11 and answers[0] == "   1 2 3 4 5 6 7 8 9"


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
def test_isready_behind_a_go_that_started_is_answered_at_once(binary):
    """A `go` counts as answered once its search started (C7): an `isready` waiting behind a
    `go` is answered as soon as that search starts, not when it ends."""
    name = pathlib.Path(binary).name
    with Engine(binary) as engine:
        engine.send(SEARCH_POSITION[name])
        engine.send("go infinite")
        engine.send("go infinite")
        engine.send("isready")
        assert engine.lines_within(0.3) == []
        engine.send("stop")
        assert engine.read().startswith("bestmove ")
        # The second `go infinite` runs now, and holds its bestmove until the next `stop`.
        assert engine.read() == "readyok"
        engine.send("stop")
        assert engine.read().startswith("bestmove ")
        engine.send("quit")
        assert engine.finish() == (0, [])


def _task_count_and_rss(pid):
    """Threads of the process (/proc/<pid>/task) and its resident memory in kB."""
    tasks = len(list(pathlib.Path(f"/proc/{pid}/task").iterdir()))
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))
    return tasks, rss


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
def test_ten_thousand_stopped_searches_leave_no_thread_behind(binary):
    """A front end starting and stopping analyses all evening: 10,000 times `go movetime
    86400000` then `stop`. The engine keeps at most 8 threads and flat memory (a search's
    clock is no thread of its own)."""
    name = pathlib.Path(binary).name
    with Engine(binary) as engine:
        engine.send(SEARCH_POSITION[name])
        figures = []
        for rounds in (1000, 9000):
            # A `stop` acts on the search running when it is read: one pair at a time.
            for _ in range(rounds):
                engine.send(b"go movetime 86400000\nstop\n")
                line = engine.read()
                assert line.startswith("bestmove "), line
            figures.append(_task_count_and_rss(engine.proc.pid))
        (tasks_1000, rss_1000), (tasks, rss) = figures
        assert tasks <= 8, figures
        assert rss - rss_1000 < 20_000, figures
        engine.send("quit")
        assert engine.finish()[0] == 0


@pytest.mark.parametrize("go", ["go depth 1000", "go nodes 18446744073709551615"])
@pytest.mark.parametrize("ending", ["end of input", "quit"])
def test_the_end_of_a_session_ends_a_search_without_a_clock(sudoku_bin, go, ending):
    """On the empty 9x9 board neither search would end within hours: `quit` or the end of
    input must stop it (after a grace of 2 s), and its bestmove still comes."""
    with Engine(sudoku_bin) as engine:
        engine.send(f"position 3x3 {EMPTY9}")
        engine.send(go)
        if ending == "quit":
            engine.send("quit")
        code, rest = engine.finish()
        assert code == 0
        assert len(rest) == 1 and rest[0].startswith("bestmove ")


@pytest.mark.parametrize("binary", ENGINES, indirect=True)
def test_a_piped_node_search_still_gets_its_exact_answer(binary):
    """The grace before `quit` stops a search without a clock: a script that pipes `go nodes`
    and closes its input gets the answer of the search run to its end."""
    name = pathlib.Path(binary).name
    go = "go nodes 2000"
    script = f"setoption name Threads value 1\n{SEARCH_POSITION[name]}\n{go}\n"
    piped = subprocess.run([str(binary)], input=script.encode(), capture_output=True, timeout=TIMEOUT)
    with Engine(binary) as engine:
        engine.send(script.encode())
        waited = engine.read()
        engine.send("quit")
        assert engine.finish()[0] == 0
    best = [l for l in piped.stdout.decode().splitlines() if l.startswith("bestmove")]
    assert best == [waited]
