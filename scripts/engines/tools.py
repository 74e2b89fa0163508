"""The puzzle tools of `sudoku-solver` (`solve`, `count`, `check`, `generate`) as Python calls,
plus the referee's rule check of single entries through the competitive-sudoku protocol of
`sudoku-agent`.

Every sudoku rule stays in the engine: this module only writes grids in the tools' notation,
runs the binary and reads its answers.

    tools = SudokuTools()                      # sudoku-agent and sudoku-solver found like the drivers do
    grid = tools.generate("3x3", difficulty="easy", seed=7)[0]
    tools.solve(grid)                          # Solution(status="unique", grid=...)
    tools.rule_problem(grid, 0, 0, 5)          # None, or "value is already in the row"
    tools.candidates(grid)                     # {(r, c): [values breaking no rule]}
"""
from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import threading
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from .base import find_binary
from .errors import EngineProblem
from .sudoku import parse_value_char, value_char

Cell = Tuple[int, int]
# Block shapes the front end offers, as the tools name them: `MxN` = blocks of M rows and N columns.
SHAPES = ("2x2", "2x3", "3x3", "3x4", "4x4")
DIFFICULTIES = ("easy", "medium", "hard")


class ToolError(EngineProblem):
    """A tool refused its input (`error: ...` on stderr) or did not answer as documented."""


class ToolStopped(ToolError):
    """The run was ended by `SudokuTools.stop` before it answered."""


@dataclass(frozen=True)
class Grid:
    """A sudoku grid: blocks of `m` rows and `n` columns, `m*n` rows of `m*n` values (0 = empty)."""

    m: int
    n: int
    values: Tuple[Tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return self.m * self.n

    @property
    def shape(self) -> str:
        return f"{self.m}x{self.n}"

    @staticmethod
    def empty(m: int, n: int) -> "Grid":
        return Grid(m, n, tuple((0,) * (m * n) for _ in range(m * n)))

    @staticmethod
    def from_rows(m: int, n: int, rows: Sequence[Sequence[int]]) -> "Grid":
        return Grid(m, n, tuple(tuple(int(v) for v in row) for row in rows))

    @staticmethod
    def parse(text: str) -> "Grid":
        """Reads the tools' notation: 81 characters (`.` or `0` empty) or `MxN <rows joined by />`.

        Only the notation is read here; whether the grid keeps the rules is the engine's call.
        """
        words = text.split()
        if len(words) == 1 and len(words[0]) == 81:
            flat = [0 if ch in ".0" else parse_value_char(ch) for ch in words[0]]
            return Grid(3, 3, tuple(tuple(flat[r * 9:(r + 1) * 9]) for r in range(9)))
        if len(words) != 2 or "x" not in words[0].lower():
            raise ValueError("a puzzle is 81 characters or 'MxN <rows>' (rows joined by '/')")
        try:
            m, n = (int(x) for x in words[0].lower().split("x"))
        except ValueError:
            raise ValueError(f"bad block shape {words[0]!r}") from None
        size = m * n
        rows = []
        for row in words[1].split("/"):
            cells = [0 if ch in ".0" else parse_value_char(ch) for ch in row if ch not in "+-"]
            if len(cells) != size:
                raise ValueError(f"a row of {len(cells)} cells in a {size}x{size} grid")
            rows.append(tuple(cells))
        if len(rows) != size:
            raise ValueError(f"{len(rows)} rows in a {size}x{size} grid")
        return Grid(m, n, tuple(rows))

    def rows(self) -> str:
        return "/".join("".join(value_char(v) for v in row) for row in self.values)

    def notation(self) -> str:
        """`MxN rows`, or the 81-character line for 9x9."""
        if (self.m, self.n) == (3, 3):
            return self.rows().replace("/", "")
        return f"{self.shape} {self.rows()}"

    def args(self) -> List[str]:
        return [f"{self.shape}", self.rows()]

    def get(self, r: int, c: int) -> int:
        return self.values[r][c]

    def with_value(self, r: int, c: int, value: int) -> "Grid":
        rows = [list(row) for row in self.values]
        rows[r][c] = value
        return Grid.from_rows(self.m, self.n, rows)

    def empty_cells(self) -> List[Cell]:
        return [(r, c) for r, row in enumerate(self.values) for c, v in enumerate(row) if not v]

    def filled(self) -> int:
        return sum(1 for row in self.values for v in row if v)


@dataclass(frozen=True)
class Solution:
    """What `solve` says: `unique` (with the solution), `multiple` (with the first one found),
    `unsettled` (a solution, but the search for a second one passed the solver's node budget)
    or `none`."""

    status: str
    grid: Optional[Grid]


def _solver_beside(engine: str) -> str:
    """The `sudoku-solver` of the same build as the engine `engine`: the one beside it, else
    (an engine installed elsewhere) the one found like the drivers find binaries. A missing
    engine gives the missing program beside it, so the first call names it."""
    beside = pathlib.Path(engine).with_name("sudoku-solver")
    if beside.is_file() or not pathlib.Path(engine).is_file():
        return str(beside)
    try:
        return str(find_binary("sudoku-solver"))
    except FileNotFoundError:
        return str(beside)


def _kill(proc: subprocess.Popen) -> None:
    """Ends a tool run and what it started (its process group on POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


class SudokuTools:
    """Runs `sudoku-solver <tool> ...` for the puzzle tools and `sudoku-agent` for the
    referee's rule (one short process per call). Each run ends after `timeout` seconds
    (ToolError), or at once when `stop` is called from any thread (ToolStopped)."""

    def __init__(self, engine: Union[None, str, os.PathLike] = None, timeout: float = 60.0,
                 solver: Union[None, str, os.PathLike] = None):
        self.engine = str(engine) if engine is not None else str(find_binary("sudoku-agent"))
        if solver is not None:
            self.binary = str(solver)
        elif engine is not None:
            self.binary = _solver_beside(self.engine)
        else:
            self.binary = str(find_binary("sudoku-solver"))
        self.timeout = timeout
        self._lock = threading.Lock()
        self._running: Set[subprocess.Popen] = set()
        self._stopped: Set[subprocess.Popen] = set()

    def stop(self) -> None:
        """Ends every run in progress at once (each raises ToolStopped); later runs go on."""
        with self._lock:
            for proc in self._running:
                _kill(proc)
            self._stopped |= self._running

    # --- plumbing ------------------------------------------------------------------------------

    def _run(self, args: Sequence[str], stdin: Optional[str] = None, ok_codes: Iterable[int] = (0,),
             program: Optional[str] = None) -> str:
        program = program or self.binary
        name = pathlib.Path(program).name
        try:
            # A process group of its own (POSIX), so that stop() ends a wrapper's children too.
            proc = subprocess.Popen([program, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, start_new_session=os.name == "posix")
        except OSError as err:
            raise ToolError(f"cannot run {program}: {err}") from None
        with self._lock:
            self._running.add(proc)
        try:
            stdout, stderr = proc.communicate(stdin, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            proc.communicate()
            raise ToolError(f"{name} {args[0] if args else ''} took longer than {self.timeout:g} s") from None
        finally:
            with self._lock:
                self._running.discard(proc)
                stopped = proc in self._stopped
                self._stopped.discard(proc)
        if stopped:
            raise ToolStopped(f"{name} {args[0] if args else ''} stopped")
        proc = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
        if proc.returncode not in tuple(ok_codes) or (proc.stderr.strip() and not proc.stdout.strip()):
            message = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit code {proc.returncode}"
            if message.startswith("error:"):
                message = message[len("error:"):].strip()
            raise ToolError(message)
        return proc.stdout

    # --- the tools ------------------------------------------------------------------------------

    def solve(self, grid: Grid, max_nodes: Optional[int] = None) -> Solution:
        """The solver's answer; `max_nodes` bounds the search for a second solution (the
        solver's own default when None): past it the status is `unsettled`."""
        budget = [] if max_nodes is None else ["--max-nodes", str(int(max_nodes))]
        out = self._run(["solve", *budget, *grid.args()]).strip()
        if out == "no solution":
            return Solution("none", None)
        status = "unique"
        for suffix, said in (("multiple solutions", "multiple"), ("uniqueness not settled", "unsettled")):
            if out.endswith(suffix):
                status, out = said, out[: -len(suffix)].strip()
        return Solution(status, Grid.parse(out))

    def count(self, grid: Grid, limit: int = 2) -> int:
        out = self._run(["count", "--limit", str(limit), *grid.args()]).strip()
        try:
            return int(out.split()[-1])
        except (ValueError, IndexError):
            raise ToolError(f"count answered {out!r}") from None

    def check(self, grid: Grid) -> Tuple[bool, str]:
        """(True, "ok") for a complete valid grid, else (False, "row 0 is not filled (...)")."""
        out = self._run(["check", *grid.args()], ok_codes=(0, 1)).strip()
        if out == "ok":
            return True, out
        if out.startswith("invalid:"):
            return False, out[len("invalid:"):].strip()
        raise ToolError(f"check answered {out!r}")

    def generate(self, shape: str = "3x3", difficulty: Optional[str] = None, seed: int = 1, count: int = 1,
                 clues: Optional[int] = None) -> List[Grid]:
        args = ["generate", "--shape", shape, "--seed", str(int(seed)), "--count", str(int(count))]
        if difficulty:
            args += ["--difficulty", difficulty]
        if clues is not None:
            args += ["--clues", str(int(clues))]
        out = self._run(args)
        return [Grid.parse(line) for line in out.splitlines() if line.strip()]

    # --- the referee's rule, through the protocol -------------------------------------------------

    def rule_problems(self, grid: Grid, moves: Sequence[Tuple[int, int, int]]) -> List[Optional[str]]:
        """For each move (r, c, v) on `grid` alone: None when the engine's referee accepts it,
        else its reason ("value is already in the row", "cell is already filled", ...).

        One `sudoku-agent` protocol session: the position (the grid's values as givens, classic
        mode), then `play r,c=v` for each move, the position set again before every move.
        """
        position = f"position {grid.shape} {grid.rows()}"
        lines = [position, "isready"]
        for r, c, v in moves:
            lines += [position, f"play {r},{c}={v}"]
        lines.append("quit")
        out = self._run([], stdin="\n".join(lines) + "\n", program=self.engine).splitlines()
        out = [l for l in out if l.strip()]
        if not out or out[0] != "readyok":
            reason = out[0] if out else "no answer"
            raise ToolError(reason[len("error "):] if reason.startswith("error ") else reason)
        replies = out[1:]
        if len(replies) != len(moves):
            raise ToolError(f"{len(replies)} answers to {len(moves)} moves")
        problems: List[Optional[str]] = []
        for line in replies:
            if line.startswith("played "):
                problems.append(None)  # placed, or taboo (unsolvable): no row/column/block rule broken
            elif line.startswith("error "):
                reason = line[len("error "):]
                if reason.startswith("play:"):  # `error <command>: <what>` (protocol/README.md, C2)
                    reason = reason[len("play:"):].strip()
                problems.append(reason[len("illegal move:"):].strip() if reason.startswith("illegal move:") else reason)
            else:
                raise ToolError(f"unexpected answer {line!r}")
        return problems

    def rule_problem(self, grid: Grid, r: int, c: int, value: int) -> Optional[str]:
        """None when `value` may go on the empty cell (r, c) of `grid`, else why not."""
        return self.rule_problems(grid, [(r, c, value)])[0]

    def candidates(self, grid: Grid) -> Dict[Cell, List[int]]:
        """For every empty cell, the values the referee would accept there."""
        cells = grid.empty_cells()
        moves = [(r, c, v) for r, c in cells for v in range(1, grid.size + 1)]
        problems = self.rule_problems(grid, moves) if moves else []
        out: Dict[Cell, List[int]] = {cell: [] for cell in cells}
        for (r, c, v), problem in zip(moves, problems):
            if problem is None:
                out[(r, c)].append(v)
        return out
