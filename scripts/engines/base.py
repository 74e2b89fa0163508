"""The part both engine drivers share: a child process speaking a line protocol.

Modelled on python-chess's `chess.engine`: every wait has a timeout, and what the driver holds
of the engine's output is bounded:
- reading: the start-up timeout (10 s) for the handshake and each request's answer; for `go`,
  one deadline for the whole search, its limit plus a margin (`go movetime 100`: 0.1 s + 2 s),
  after which the driver sends `stop`, waits `stop_grace` (1 s) for the `bestmove` and
  otherwise kills the engine, and raises `EngineTimeout`;
- writing: a command the engine does not take in within `write_timeout` (by default the
  start-up timeout; an engine that stopped reading, once the 64 KB pipe is full) kills the
  engine and raises `EngineTimeout` (POSIX; elsewhere writes block);
- one line of the engine's output longer than `max_line_bytes` (1 MiB, the protocols' own line
  limit; the line end not counted) is not kept: the driver kills the engine and the waiting call
  raises `ProtocolViolation` (later calls `EngineDied`), so an engine printing without end costs
  at most 1 MiB.
An engine that exits becomes an `EngineDied` carrying its exit code and the end of its stderr,
and an `error ...` line becomes an `EngineError`.

Each answer is matched to its request. Every request (`go`, `play`, `position`, ...) is written
behind an `isready`, in the same write: the lines before that `readyok` were printed after the
answer to an earlier request was complete (a second `bestmove` for one `go`, a `bestmove` after
the `error` that already answered it), so they answer nothing we asked. They are discarded,
kept in `stray_lines` with the request they came after, and logged as warnings on the `engines`
logger; they never become the answer to a later request or its error. Commands that have no
reply on success (`position`, `setoption`, `newgame`) are followed by a second `isready`, so an
`error` they cause is reported by the call that caused it, and by no other.
"""
from __future__ import annotations

import collections
import logging
import os
import pathlib
import queue
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field, fields
from typing import Callable, ClassVar, Deque, Dict, List, Optional, Pattern, Sequence, Tuple, Union

from .errors import EngineDied, EngineError, EngineProblem, EngineTimeout, ProtocolViolation

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
# Where stray lines (answers to no request) are reported.
LOG = logging.getLogger("engines")


class MoveNotation:
    """A move written as whole numbers in a fixed pattern (a placement, a sudoku move).

    A subclass is a frozen dataclass of int fields, in the order its `_RE` groups capture
    them; `_FORMAT` writes them back by name and `_KIND` names the move in errors."""

    _RE: ClassVar[Pattern[str]]
    _FORMAT: ClassVar[str]
    _KIND: ClassVar[str]

    @classmethod
    def parse(cls, text: str):
        """The move written as `text` (e.g. `2@r1c3`, `0,4=7`); ProtocolViolation otherwise."""
        m = cls._RE.fullmatch(text.strip())
        if not m:
            raise ProtocolViolation(f"not a {cls._KIND}: {text!r}")
        return cls(*(int(g) for g in m.groups()))

    def __str__(self) -> str:
        return self._FORMAT.format(**{f.name: getattr(self, f.name) for f in fields(self)})


@dataclass
class EngineOption:
    """One `option name <N> type <T> default <D> [min <a> max <b>] [var <v>]...` line."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    choices: List[str] = field(default_factory=list)

    @staticmethod
    def parse(line: str) -> "EngineOption":
        """Reads one `option ...` line of the `hello` answer; ProtocolViolation when malformed."""
        tokens = line.split()
        if tokens[:2] != ["option", "name"]:
            raise ProtocolViolation(f"not an option line: {line!r}")
        # The name may contain spaces: it runs up to the `type` keyword.
        try:
            type_at = tokens.index("type", 2)
        except ValueError:
            raise ProtocolViolation(f"option line without a type: {line!r}") from None
        opt = EngineOption(name=" ".join(tokens[2:type_at]), type="")
        # Every keyword takes exactly one token, so a value may itself be a keyword
        # (`default default var default var seed` for an option whose choices include `default`).
        rest = tokens[type_at:]
        if len(rest) % 2:
            raise ProtocolViolation(f"option keyword without a value: {line!r}")
        for key, value in zip(rest[0::2], rest[1::2]):
            if key == "type":
                opt.type = value
            elif key == "default":
                opt.default = "" if value == "<empty>" else value
            elif key in ("min", "max"):
                try:
                    setattr(opt, key, int(value))
                except ValueError:
                    raise ProtocolViolation(f"non-integer {key} in {line!r}") from None
            elif key == "var":
                opt.choices.append(value)
            else:
                raise ProtocolViolation(f"unknown option keyword {key!r} in {line!r}")
        return opt


def parse_info(line: str) -> Dict[str, object]:
    """`info nodes 10 pv 1@r1c1 2@r5c5` -> {'nodes': 10, 'pv': ['1@r1c1', '2@r5c5']}.

    `pv` and `string` take the rest of the line; a key followed by a number takes it (as an
    int or float); a key followed by another word is a flag (e.g. `score 12 exact`) and is True.
    """
    tokens = line.split()[1:]
    info: Dict[str, object] = {}
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key in ("pv", "string"):
            rest = tokens[i + 1:]
            info[key] = rest if key == "pv" else " ".join(rest)
            break
        value = _number(tokens[i + 1]) if i + 1 < len(tokens) else None
        if isinstance(value, (int, float)):
            info[key] = value
            i += 2
        else:
            info[key] = True
            i += 1
    return info


def _number(text: str) -> object:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def find_binary(name: str) -> pathlib.Path:
    """Where the engine `name` is: $ENGINE_BIN_DIR, then target/release, then $PATH."""
    env_dir = os.environ.get("ENGINE_BIN_DIR")
    candidates = []
    if env_dir:
        candidates.append(pathlib.Path(env_dir) / name)
    candidates.append(REPO_ROOT / "target" / "release" / name)
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    found = shutil.which(name)
    if found:
        return pathlib.Path(found)
    raise FileNotFoundError(
        f"{name} not found in {', '.join(str(c.parent) for c in candidates)} or on PATH: "
        "run 'cargo build --release' or set ENGINE_BIN_DIR"
    )


def set_parent_death_signal() -> None:
    """Runs in a child process before exec (`preexec_fn`): on Linux, have the kernel kill it
    (SIGKILL) when the process that started it dies; elsewhere it does nothing. Linux ties the
    signal to the thread that started the child, so an engine must be started on a thread that
    outlives its use (the main thread, a window's worker, a pool's thread): when that thread
    ends, the engine is killed.

    The one home of this rule for the package (the drivers here, the batch evaluation's work
    units): the course framework kills the player process at the deadline, and an interrupted
    batch run its workers; without this the engine would search on as an orphan until it
    notices the end of its input.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass


class LineEngine:
    """A running engine: send lines, read lines with timeouts, typed errors.

    Subclasses set `binary_name` and `protocol_name` and add the game's commands, each written
    with `request`, `ask` or `command` so that its answer is matched to it (lines an earlier
    request left behind go to `stray_lines`; see the module's docstring).
    """

    binary_name = ""
    protocol_name = ""
    protocol_version = 1
    # Time allowed on top of a search limit before we call it a hang: process start-up,
    # pipe latency, and a loaded CI machine.
    default_margin = 2.0
    # A `go` with no limit at all (and not `infinite`) should still end; after this we give up.
    unlimited_search_timeout = 60.0
    # After a search timed out: how long `stop` may take to bring the `bestmove`.
    stop_grace = 1.0
    # The longest line of output kept (bytes, the line end not counted): the protocols' own
    # limit on a line. A longer one kills the engine (the module's docstring).
    max_line_bytes = 1 << 20

    def __init__(
        self,
        command: Union[None, str, os.PathLike, Sequence[Union[str, os.PathLike]]] = None,
        *,
        startup_timeout: float = 10.0,
        write_timeout: Optional[float] = None,
        margin: Optional[float] = None,
        handshake: bool = True,
        options: Optional[Dict[str, object]] = None,
        die_with_parent: bool = True,
        cwd: Optional[Union[str, os.PathLike]] = None,
        on_start: Optional[Callable[["LineEngine"], None]] = None,
    ):
        if command is None:
            command = [find_binary(self.binary_name)]
        elif isinstance(command, (str, os.PathLike)):
            command = [command]
        self.argv = [str(c) for c in command]
        self.startup_timeout = startup_timeout
        self.write_timeout = startup_timeout if write_timeout is None else write_timeout
        self.cwd = cwd
        self.margin = self.default_margin if margin is None else margin
        self.id: Dict[str, str] = {}
        self.options: Dict[str, EngineOption] = {}
        # Options set through setoption(), in order, so respawn() can set them again.
        self.settings: Dict[str, object] = {}
        self.protocol: Optional[str] = None
        self._write_lock = threading.Lock()
        self._lines: "queue.Queue[Union[None, str, ProtocolViolation]]" = queue.Queue()
        self._stderr: Deque[str] = collections.deque(maxlen=50)
        # The last lines of the conversation, `> ` sent and `< ` received as in the protocol
        # docs' transcripts (tests read it to see what a front end told the engine).
        self.transcript: Deque[str] = collections.deque(maxlen=2000)
        # Lines that answered no request (the last 200), each as (the request whose answer came
        # before it, the line): see the module's docstring.
        self.stray_lines: Deque[Tuple[str, str]] = collections.deque(maxlen=200)
        self._answered = "hello"
        self._searching = False
        # When a line last went to the engine or came from it (time.monotonic()): a front end
        # reads from it how long the engine has been silent on what it was asked.
        self.last_exchange = time.monotonic()
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                preexec_fn=set_parent_death_signal if die_with_parent and os.name == "posix" else None,
            )
        except OSError as err:
            raise EngineDied(None, str(err), "start") from err
        self._nonblocking_stdin = os.name == "posix"
        if self._nonblocking_stdin:
            os.set_blocking(self.proc.stdin.fileno(), False)  # type: ignore[union-attr]
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        try:
            if on_start is not None:
                on_start(self)  # the process runs: a front end may end it during the handshake
            if handshake:
                self.hello()
            for name, value in (options or {}).items():
                self.setoption(name, value)
        except BaseException:
            self.kill()
            raise

    # --- plumbing -------------------------------------------------------------------------

    def _read_stdout(self) -> None:
        """Queues each line the engine prints; one over `max_line_bytes` kills the engine and
        queues a ProtocolViolation instead (only its first 60 bytes are kept)."""
        assert self.proc.stdout is not None
        cap = self.max_line_bytes
        while True:
            raw = self.proc.stdout.readline(cap + 2)
            if not raw:
                break
            if len(raw.rstrip(b"\r\n")) > cap:
                head = raw[:60].decode("utf-8", "replace")
                self.transcript.append(f"< {head}... (cut: over {cap} bytes)")
                self._lines.put(ProtocolViolation(
                    f"the engine printed a line longer than {cap} bytes, starting {head!r}: engine killed"))
                self.proc.kill()
                break
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self.last_exchange = time.monotonic()
            self.transcript.append("< " + line)
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in iter(self.proc.stderr.readline, b""):
            self._stderr.append(raw.decode("utf-8", "replace"))

    def death(self, command: str = "") -> EngineDied:
        """The EngineDied of this ended process (its exit code and the end of its stderr), for
        the call that found it gone: `command` names what was being asked (a front end that
        notices an idle engine gone says "(idle)")."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        time.sleep(0.01)  # let the stderr reader catch the last words
        return EngineDied(code, "".join(self._stderr), command)

    def send(self, line: str) -> None:
        """Writes one line to the engine (no sync point: for `stop`, and for callers that read
        the answer themselves)."""
        self._write([line])

    def _write(self, lines: Sequence[str]) -> None:
        """Writes lines to the engine in one write, so no other thread's line comes between."""
        for line in lines:
            if "\n" in line or "\r" in line:
                raise ValueError("a command is one line")
        with self._write_lock:
            self.transcript.extend("> " + line for line in lines)
            try:
                self._write_bytes("".join(line + "\n" for line in lines).encode())
            except (BrokenPipeError, ValueError, OSError):
                raise self.death(lines[-1]) from None
            finally:
                self.last_exchange = time.monotonic()

    def _write_bytes(self, data: bytes) -> None:
        """Writes `data` to the engine's input; on POSIX gives up after `write_timeout` (the
        engine is killed and EngineTimeout raised: it stopped reading)."""
        assert self.proc.stdin is not None
        if not self._nonblocking_stdin:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        deadline = time.monotonic() + self.write_timeout
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                self.kill()
                raise EngineTimeout(
                    f"the engine took in {len(data) - len(view)} of {len(data)} bytes within "
                    f"{self.write_timeout:.1f} s (it stopped reading): engine killed")

    def request(
        self, line: str, done: Callable[[str], bool], timeout: Optional[float] = None,
        on_line: Optional[Callable[[str], None]] = None, then: Sequence[str] = (),
    ) -> List[str]:
        """Sends `line` behind a sync point (and the lines of `then` after it, in the same
        write) and reads its answer: the lines up to and including the first for which `done`
        is true (`timeout` defaults to the startup timeout). Lines left over from earlier
        requests are discarded first (`stray_lines`)."""
        self._write(["isready", line, *then])
        try:
            self._discard_stray(line)
            return self.read_until(done, self.startup_timeout if timeout is None else timeout, line, on_line)
        finally:
            self._answered = line

    def ask(self, line: str) -> str:
        """Sends `line` behind a sync point; its one-line answer (EngineError for an `error`)."""
        answer = self.request(line, lambda _: True)[-1]
        if answer.split()[:1] == ["error"]:
            raise EngineError(answer.partition(" ")[2].strip(), line)
        return answer

    def _discard_stray(self, command: str, timeout: Optional[float] = None) -> List[str]:
        """Reads up to the `readyok` of an `isready` just written; the lines before it answer
        no request: kept in `stray_lines`, logged, and returned."""
        stray = self.read_until(lambda l: l.strip() == "readyok",
                                self.startup_timeout if timeout is None else timeout, command)[:-1]
        for line in stray:
            self.stray_lines.append((self._answered, line))
            LOG.warning("%s: discarded %r, printed after the answer to %r", self.name, line, self._answered)
        return stray

    def read_line(self, timeout: Optional[float], command: str = "") -> str:
        """The next line the engine prints; EngineTimeout or EngineDied otherwise."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineTimeout(f"no answer to {command!r} within {timeout:.1f} s") from None
        if line is None:
            self._lines.put(None)  # every later read sees the end too
            raise self.death(command)
        if isinstance(line, ProtocolViolation):
            raise line
        return line

    def read_until(
        self, done: Callable[[str], bool], timeout: Optional[float], command: str = "",
        on_line: Optional[Callable[[str], None]] = None,
    ) -> List[str]:
        """Lines up to and including the first one for which `done` is true."""
        deadline = None if timeout is None else time.monotonic() + timeout
        seen: List[str] = []
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self.read_line(left, command)
            seen.append(line)
            if on_line is not None:
                on_line(line)
            if done(line):
                return seen

    # --- commands common to both protocols ---------------------------------------------------

    def hello(self) -> None:
        """The handshake: reads id, protocol and option lines up to `hello ok`."""
        self.send("hello")
        lines = self.read_until(lambda l: l.strip() == "hello ok", self.startup_timeout, "hello")
        for line in lines[:-1]:
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "id" and len(tokens) >= 2:
                self.id[tokens[1]] = " ".join(tokens[2:])
            elif tokens[0] == "protocol":
                self.protocol = " ".join(tokens[1:])
            elif tokens[0] == "option":
                opt = EngineOption.parse(line)
                self.options[opt.name] = opt
            elif tokens[0] == "error":
                raise EngineError(" ".join(tokens[1:]), "hello")
        if self.protocol_name:
            expected = f"{self.protocol_name} {self.protocol_version}"
            if self.protocol != expected:
                raise ProtocolViolation(f"engine speaks {self.protocol!r}, expected {expected!r}")

    @property
    def name(self) -> str:
        """The engine's name from its `id name` line (the binary's name without one)."""
        return self.id.get("name", self.binary_name)

    def sync(self, command: str = "", timeout: Optional[float] = None) -> List[str]:
        """`isready` -> `readyok`; returns the lines before it, which answer no request (they
        are kept in `stray_lines` and logged, never raised)."""
        self.send("isready")
        return self._discard_stray(command or "isready", timeout)

    def isready(self, timeout: float = 5.0) -> float:
        """Pings the engine; returns the round-trip time in seconds."""
        start = time.monotonic()
        self.sync("isready", timeout)
        return time.monotonic() - start

    def command(self, line: str) -> List[str]:
        """Sends a command that has no reply on success, between two sync points; returns the
        lines it printed (`show`'s drawing), raising EngineError for an `error` among them."""
        lines = self.request(line, lambda l: l.strip() == "readyok", then=["isready"])[:-1]
        return self._no_error(lines, line)

    @staticmethod
    def _no_error(lines: List[str], line: str) -> List[str]:
        """`lines`, the answer to `line`; EngineError for an `error` among them."""
        for answer in lines:
            if answer.split()[:1] == ["error"]:
                raise EngineError(answer.partition(" ")[2].strip(), line)
        return lines

    def setoption(self, name: str, value: object) -> None:
        """`setoption name <name> value <value>` (True/False as `true`/`false`); EngineError
        when the engine refuses it. Kept in `settings`, so a respawned engine gets it again.

        >>> engine.setoption("Threads", 2)                       # doctest: +SKIP
        """
        if isinstance(value, bool):
            value = "true" if value else "false"
        self.command(f"setoption name {name} value {value}")
        self.settings.pop(name, None)
        self.settings[name] = value

    def respawn(self, on_start: Optional[Callable[["LineEngine"], None]] = None):
        """A new process of the same engine (same command and timeouts) with the options this
        one was given through setoption(); the old one is killed if it still runs. The caller
        gives it the position again. `on_start(engine)` is told of the new process before its
        handshake (a front end that may stop a slow start kills it)."""
        self.kill()
        return type(self)(self.argv, startup_timeout=self.startup_timeout, write_timeout=self.write_timeout,
                          margin=self.margin, cwd=self.cwd, options=dict(self.settings), on_start=on_start)

    def newgame(self) -> None:
        """`newgame`: the engine forgets the game (position, and what it learnt searching it)."""
        self.command("newgame")

    def show(self) -> List[str]:
        """The engine's drawing of the current position, as lines."""
        return self.command("show")

    def stop(self) -> None:
        """Ends a running search early (its `bestmove` still comes to the `go` call)."""
        self.send("stop")

    def _go_line(self, movetime: Optional[int], nodes: Optional[int], infinite: bool, extra: Dict[str, Optional[int]]) -> str:
        parts = ["go"]
        for key, value in [("movetime", movetime), ("nodes", nodes)] + list(extra.items()):
            if value is not None:
                if int(value) < 0:
                    raise ValueError(f"{key} must not be negative")
                parts += [key, str(int(value))]
        if infinite:
            parts.append("infinite")
        return " ".join(parts)

    def _search(
        self, line: str, movetime: Optional[int], infinite: bool, timeout: Optional[float],
        stop_after: Optional[float], on_line: Callable[[str], None], cancel: Optional[threading.Event] = None,
    ) -> List[str]:
        """Runs one `go` line to its `bestmove`; returns every line it printed. `cancel`: an
        event another thread may set to stop the search, before it starts too: when it is set
        by the time the `go` line is written, `stop` follows at once (a `stop` sent earlier
        would reach an engine not yet searching and be lost)."""
        if timeout is None:
            if infinite:
                timeout = None if stop_after is None else stop_after + self.margin
            elif movetime is not None:
                timeout = movetime / 1000.0 + self.margin
            else:
                timeout = self.unlimited_search_timeout
        timer = None
        if infinite and stop_after is not None:
            timer = threading.Timer(stop_after, self._stop_quietly)
            timer.daemon = True
        errors: List[str] = []

        def watch(l: str) -> None:
            if l.split()[:1] == ["error"]:
                errors.append(l.partition(" ")[2].strip())
            on_line(l)

        # One deadline for the sync point and the search: an engine that answers nothing (stopped,
        # hung) is given up after the search's limit plus the margin.
        deadline = None if timeout is None else time.monotonic() + timeout
        self._searching = True
        try:
            # Behind a sync point, as every request (the module's docstring).
            self._write(["isready", line])
            if cancel is not None and cancel.is_set():
                self._stop_quietly()
            if timer is not None:
                timer.start()
            self._discard_stray(line, self.startup_timeout if timeout is None else min(timeout, self.startup_timeout))
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            # An invalid `go` is answered with an `error` line and no bestmove at all.
            lines = self.read_until(lambda l: l.split()[:1] == ["bestmove"] or bool(errors), left, line, watch)
        except EngineTimeout:
            # Get the engine back in step before reporting the hang: its `bestmove`, arriving
            # during the next request's sync point, would be reported as a stray line. An
            # engine that does not answer `stop` either is killed.
            self._stop_quietly()
            try:
                self.read_until(lambda l: l.split()[:1] == ["bestmove"], self.stop_grace, "stop")
            except EngineProblem:
                self.kill()
            raise
        finally:
            self._answered = line
            self._searching = False
            if timer is not None:
                timer.cancel()
        if errors:
            raise EngineError(errors[0], line)
        return lines

    def _stop_quietly(self) -> None:
        try:
            self.send("stop")
        except EngineProblem:
            pass

    # --- ending ----------------------------------------------------------------------------

    def quit(self, timeout: float = 3.0) -> Optional[int]:
        """Asks the engine to end; kills it if it does not within `timeout`. Returns the exit code."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()  # type: ignore[union-attr]
            except (EngineProblem, OSError):
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    close = quit

    def kill(self) -> None:
        """Ends the process at once (SIGKILL), without asking."""
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc.poll() is None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __del__(self) -> None:
        proc = getattr(self, "proc", None)
        if proc is not None and proc.poll() is None:
            try:
                proc.kill()
                proc.wait(timeout=1)
            except Exception:
                pass
