"""Test support shared by the end-to-end tests (tests/) and the harness tests (scripts/tests/).

A pytest plugin: the repository's pytest.ini puts scripts/tests on the path and loads it
(`-p engine_testing`), so its fixtures reach both test folders without a conftest.py, and
tests import its helpers by name (`from engine_testing import bin_dir, real_engine`). It lives
with the tests, not in the `engines` package: it serves a checkout (the binaries are the
checkout's release build, or $ENGINE_BIN_DIR) and its fake engine is a file of this folder.

Wall-clock bounds in the tests check behaviour (a bestmove comes, stop is obeyed), never the
protocols' millisecond promises: CI runs on 2 cores next to other work, where one
descheduling can cost hundreds of ms (tests/compliance.py's LOAD_SLACK_MS is the bound they
use); scripts/timing_bench.py measures the promises themselves.
"""
from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time
from typing import List, Optional, Tuple

import pytest

from engines.base import REPO_ROOT, LineEngine

ROOT = REPO_ROOT
SCRIPTS = ROOT / "scripts"
# The repository's data: the piece catalogue and the sudoku collections.
DATA = ROOT / "crates" / "rules" / "data"
ARTIFACTS = ROOT / "tests" / "artifacts"
# A scriptable stand-in engine for either protocol (run as a program, see its docstring).
FAKE = pathlib.Path(__file__).resolve().parent / "fake_engine.py"


def bin_dir() -> pathlib.Path:
    """Where the engine binaries under test are: $ENGINE_BIN_DIR, else target/release."""
    return pathlib.Path(os.environ.get("ENGINE_BIN_DIR", ROOT / "target" / "release"))


def real_binary(name: str) -> pathlib.Path:
    """The real binary's path (a test failure when it is missing)."""
    path = bin_dir() / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run 'cargo build --release' first")
    return path


def real_engine(name: str, engine_class):
    """The real binary, started and handshaken (a failure when it is missing or mute)."""
    return engine_class([str(real_binary(name))], startup_timeout=5)


def fake_command(*args: str) -> List[str]:
    """The command line of the fake engine with its arguments (protocol, then a fault)."""
    return [sys.executable, str(FAKE), *args]


# --- fixtures -----------------------------------------------------------------------------

@pytest.fixture(scope="session")
def blockudoku_bin() -> pathlib.Path:
    return real_binary("blockudoku")


@pytest.fixture(scope="session")
def blockudoku_lab_bin() -> pathlib.Path:
    return real_binary("blockudoku-lab")


@pytest.fixture(scope="session")
def sudoku_bin() -> pathlib.Path:
    return real_binary("sudoku-agent")


@pytest.fixture(scope="session")
def sudoku_lab_bin() -> pathlib.Path:
    """The Competitive Sudoku measuring tools (arena, replay, solve-game, ...)."""
    return real_binary("sudoku-lab")


@pytest.fixture(scope="session")
def sudoku_solver_bin() -> pathlib.Path:
    """The sudoku puzzle command line (solve, count, check, generate, bench-solver)."""
    return real_binary("sudoku-solver")


@pytest.fixture(scope="session")
def data_dir() -> pathlib.Path:
    """The repository's data: the piece catalogue and the sudoku collections."""
    return DATA


@pytest.fixture(scope="module")
def tools():
    """The real puzzle tools (sudoku-solver) and referee (sudoku-agent)."""
    from engines.tools import SudokuTools

    return SudokuTools(real_binary("sudoku-agent"), timeout=30, solver=real_binary("sudoku-solver"))


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    """tests/artifacts, where screenshots go (CI keeps them)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def display():
    """A DISPLAY for Tkinter: the current one, or a private Xvfb; skip if neither can be had."""
    try:
        import tkinter  # noqa: F401 (only whether it imports)
    except ImportError:
        pytest.skip("this Python has no tkinter")
    if os.environ.get("DISPLAY") and _tk_works():
        yield os.environ["DISPLAY"]
        return
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        pytest.skip("no display and no Xvfb (bash tests/run-all.sh installs it)")
    proc = None
    for number in range(91, 120):
        if os.path.exists(f"/tmp/.X{number}-lock"):
            continue
        proc = subprocess.Popen([xvfb, f":{number}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        old = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = f":{number}"
        for _ in range(50):
            time.sleep(0.1)
            if proc.poll() is not None:
                break
            if _tk_works():
                break
        if proc.poll() is None and _tk_works():
            break
        proc.kill()
        proc.wait()
        proc = None
        if old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old
    if proc is None:
        pytest.skip("could not start Xvfb")
    try:
        yield os.environ["DISPLAY"]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def _tk_works() -> bool:
    # In a child process: a failed Tk() in this process can leave Tcl in a bad state.
    probe = subprocess.run([sys.executable, "-c", "import tkinter; tkinter.Tk().destroy()"],
                           capture_output=True, timeout=20)
    return probe.returncode == 0


# --- helpers for the Tkinter tests ----------------------------------------------------------

def screenshot(widget, path: pathlib.Path) -> pathlib.Path:
    """Saves a PNG of a Tk window from the X server (Pillow's ImageGrab)."""
    from PIL import ImageGrab

    widget.update()
    x, y = widget.winfo_rootx(), widget.winfo_rooty()
    w, h = widget.winfo_width(), widget.winfo_height()
    image = ImageGrab.grab(bbox=(x, y, x + w, y + h), xdisplay=os.environ["DISPLAY"])
    image.save(path)
    return path


@pytest.fixture
def tk_root(display):
    """A Tk root window on the test display, destroyed afterwards."""
    import tkinter as tk

    root = tk.Tk()
    yield root
    try:
        root.destroy()
    except tk.TclError:
        pass


class EngineCallOnTkThread(RuntimeError):
    """A window called the engine on its Tk thread (under `forbid_tk_thread`): the window would
    freeze until the answer came."""


class _TkGuard:
    """What `forbid_tk_thread` watches: the Tk thread of the first window started (None: no
    guard), and the commands sent from it."""

    thread: Optional[threading.Thread] = None
    active = False
    calls: List[str] = []


@pytest.fixture
def forbid_tk_thread():
    """Once a window has started (its EngineCalls made), every engine command but `stop` (Stop)
    and `quit` (the window closing) sent from its (the Tk) thread raises EngineCallOnTkThread:
    the windows must ask their engines on a worker thread. The test's own calls from then on go
    inside `with direct():`. Fails the test if a window broke the rule. The driver and the
    windows know nothing of this: their methods are wrapped here for the test."""
    from engines.tools import SudokuTools
    from engines.windows.engine_calls import EngineCalls

    _TkGuard.calls, _TkGuard.thread, _TkGuard.active = [], None, True
    run, write, calls_init = SudokuTools._run, LineEngine._write, EngineCalls.__init__

    def on_tk_thread(what: str) -> None:
        if _TkGuard.thread is threading.current_thread():
            _TkGuard.calls.append(what)
            raise EngineCallOnTkThread(f"{what!r} sent on the Tk thread")

    def guarded_write(engine, lines):
        for line in lines:
            if line not in ("stop", "quit"):
                on_tk_thread(line)
        return write(engine, lines)

    def guarded_run(tools, args, *rest, **kwargs):
        # The sudoku tools are one-shot runs of the engine binary: the same rule holds.
        on_tk_thread("sudoku-agent " + " ".join(args))
        return run(tools, args, *rest, **kwargs)

    def recording_init(calls, root, *args, **kwargs):
        if _TkGuard.active and _TkGuard.thread is None:
            _TkGuard.thread = threading.current_thread()
        calls_init(calls, root, *args, **kwargs)

    SudokuTools._run, LineEngine._write, EngineCalls.__init__ = guarded_run, guarded_write, recording_init
    try:
        yield
    finally:
        SudokuTools._run, LineEngine._write, EngineCalls.__init__ = run, write, calls_init
        _TkGuard.thread, _TkGuard.active = None, False
    assert not _TkGuard.calls, f"engine calls on the Tk thread: {_TkGuard.calls}"


@contextlib.contextmanager
def direct():
    """A test's own engine calls from the Tk thread (not the window's), under forbid_tk_thread."""
    saved = _TkGuard.thread
    _TkGuard.thread = None
    try:
        yield
    finally:
        _TkGuard.thread = saved if _TkGuard.active else None


def settle(app, seconds: float = 60.0) -> bool:
    """Runs the Tk event loop until the window's engine calls are all answered and delivered
    (`app.calls.idle`); a generous limit, so a loaded machine only makes it slower."""
    pump(app.root)
    ok = wait_for(app.root, lambda: app.calls.idle, seconds)
    pump(app.root)
    return ok


def inside_screen(root) -> bool:
    """True when the whole window lies on its screen."""
    root.update_idletasks()
    x, y = root.winfo_x(), root.winfo_y()
    return (x >= 0 and y >= 0 and x + root.winfo_width() <= root.winfo_screenwidth()
            and y + root.winfo_height() <= root.winfo_screenheight())


def pump(root, seconds: float = 0.0) -> None:
    """Runs the Tk event loop for a while (after() jobs included)."""
    end = time.monotonic() + seconds
    while True:
        root.update()
        if time.monotonic() >= end:
            return
        time.sleep(0.005)


def wait_for(root, condition, seconds: float) -> bool:
    """Runs the Tk event loop until `condition()` holds (True) or `seconds` pass (False)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pump(root, 0.02)
        if condition():
            return True
    return False


def live_processes() -> List[Tuple[int, str, int, int]]:
    """(pid, name, parent pid, session id) of every live (not zombie) process, from Linux /proc."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            found.append((int(entry.name), name, int(fields[1]), int(fields[3])))
    return found
