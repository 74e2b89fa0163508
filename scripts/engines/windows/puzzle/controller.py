"""The puzzle window's engine controller: the one part that asks the engine's tools
(`SudokuTools`: generate, solve, the referee's judgement of an entry, check, candidates), each
call on the worker thread of the window's `EngineCalls`, its answer handed back on the Tk
thread; Stop ends the tools' runs at once. It touches no widget."""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from ...tools import Grid, Solution, SudokuTools, ToolError
from ..engine_calls import EngineCalls
from .model import Cell

Failed = Callable[[BaseException], None]


class PuzzleController:
    """The engine's `tools`, asked through `calls`."""

    def __init__(self, tools: SudokuTools, calls: EngineCalls):
        self.tools, self.calls = tools, calls

    @property
    def idle(self) -> bool:
        return self.calls.idle

    def stop(self) -> None:
        """Stop: the tools' run ends at once (its call fails)."""
        self.tools.stop()

    def solve_with_entries(self, grid: Grid, entries: Optional[Dict[Cell, int]] = None) -> Tuple[Solution, Dict[Cell, int]]:
        """On the worker: the engine's solution of `grid`, and of `entries` those its referee
        accepts, in order."""
        solution = self.tools.solve(grid)
        accepted: Dict[Cell, int] = {}
        played = grid
        for (r, c), value in (entries or {}).items():
            if not grid.get(r, c) and self.tools.rule_problem(played, r, c, value) is None:
                accepted[(r, c)] = value
                played = played.with_value(r, c, value)
        return solution, accepted

    def load(self, grid: Grid, entries: Optional[Dict[Cell, int]], done: Callable[[tuple], None],
             failed: Failed) -> None:
        """`done((solution, accepted entries))` of a puzzle to show."""
        self.calls.call(lambda: self.solve_with_entries(grid, entries), done, failed)

    def generate(self, shape: str, difficulty: str, seed: int, done: Callable[[tuple], None], failed: Failed) -> None:
        """`done((grid, solution, {}))` of a new puzzle from the engine's `generate`."""
        def work():
            grid = self.tools.generate(shape, difficulty=difficulty, seed=seed)[0]
            return (grid,) + self.solve_with_entries(grid)

        self.calls.call(work, done, failed)

    def judge(self, grid: Grid, cell: Cell, value: int, done: Callable[[Optional[str]], None], failed: Failed) -> None:
        """`done(the referee's reason to refuse value on cell of grid, or None)`."""
        self.calls.call(lambda: self.tools.rule_problem(grid, cell[0], cell[1], value), done, failed)

    def check(self, grid: Grid, done: Callable[[Tuple[bool, str]], None]) -> None:
        """`done((valid, why not))` of a full grid (a tool error is a why not)."""
        def work() -> Tuple[bool, str]:
            try:
                return self.tools.check(grid)
            except ToolError as err:
                return False, str(err)

        self.calls.call(work, done)

    def solve(self, grid: Grid, done: Callable[[Solution], None], failed: Failed) -> None:
        self.calls.call(lambda: self.tools.solve(grid), done, failed)

    def candidates(self, grid: Grid, done: Callable[[Dict[Cell, List[int]]], None], failed: Failed) -> None:
        self.calls.call(lambda: self.tools.candidates(grid), done, failed)
