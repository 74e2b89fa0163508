"""The puzzle window's moves and the engine's help: clicks and keys, entries judged by the
engine's referee, pencil marks, and Hint, Check, Solve and the candidates, each asked of the
engine's tools on the worker thread. Hint reads Stop while the tools work: Stop ends their run
at once (`SudokuTools.stop`). `PuzzleMoves` changes the `Puzzle` (model.py) the window shows and
has the window redraw it.
"""
from __future__ import annotations

import time
import tkinter as tk
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Set, Tuple

from ...sudoku import value_char
from ...tools import Grid, Solution
from ..engine_calls import EngineCalls
from .board import PuzzleBoard
from .controller import PuzzleController
from .model import Cell, Puzzle, cell_name, clock

# How long the engine's tools work before Hint turns into Stop (ms): a quick answer does not
# make the button flicker.
STOP_AFTER_MS = 300


@dataclass
class MovesHooks:
    """What the moves need of the window, each one function."""

    puzzle: Callable[[], Puzzle]  # the puzzle on screen (a new one replaces it)
    redraw: Callable[[], None]
    status: Callable[[str, bool], None]  # text, and whether it is an error
    solved: Callable[[str], None]  # the engine confirmed the full grid: the banner says this
    closed: Callable[[], bool]


@dataclass
class MovesChoices:
    """The window's switches the moves read, and the buttons they change."""

    pencil_var: tk.BooleanVar  # a value is a pencil mark
    show_all_var: tk.BooleanVar  # the candidates are drawn
    animate_var: tk.BooleanVar  # Solve fills the grid cell by cell
    hint_button: tk.Button  # reads Stop while the tools work
    values_frame: tk.Misc  # the value buttons go here (a Flow)


class PuzzleMoves:
    """The player's moves on the puzzle of `hooks` (`board`: where a click lands) and the
    engine's help, asked of `controller` (whose worker is `calls`) on `root`; Solve animates a
    cell every `animate_ms` ms."""

    def __init__(self, root: tk.Misc, controller: PuzzleController, calls: EngineCalls, board: PuzzleBoard,
                 choices: MovesChoices, hooks: MovesHooks, animate_ms: int = 30):
        self.root, self.controller, self.board = root, controller, board
        self.choices, self.hooks, self.animate_ms = choices, hooks, animate_ms
        self.refused = 0  # entries the referee refused (tests read it)
        self.animation: List[Tuple[Cell, int]] = []
        self.candidate_cache: Dict[str, Dict[Cell, list]] = {}
        self.candidate_pending: Optional[str] = None
        calls.on_busy.append(self.busy_changed)

    @property
    def puzzle(self) -> Puzzle:
        return self.hooks.puzzle()

    def status(self, text: str, error: bool = False) -> None:
        self.hooks.status(text, error)

    def redraw(self) -> None:
        self.hooks.redraw()

    # --- clicks and keys ------------------------------------------------------------------------

    def on_click(self, event) -> None:
        cell = self.board.cell_at(event.x, event.y)
        if cell is not None:
            self.puzzle.selected = cell
            self.redraw()

    def on_key(self, event) -> None:
        keysym = event.keysym
        if keysym in ("BackSpace", "Delete", "0", "period", "KP_0", "KP_Delete"):
            self.erase()
            return
        moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
        if keysym in moves:
            r, c = self.puzzle.selected or (0, 0)
            dr, dc = moves[keysym]
            size = self.puzzle.givens.size
            self.puzzle.selected = ((r + dr) % size, (c + dc) % size)
            self.redraw()
            return
        # The keysym, not the character: with Ctrl held the character is a control code.
        ch = (keysym[3:] if keysym.startswith("KP_") else keysym if len(keysym) == 1 else event.char or "").upper()
        if len(ch) != 1:
            return
        if ch == "H":  # never a value here (16x16 at most: 1-9, A-G)
            self.hint()
            return
        if ch.isdigit():
            value = int(ch)
        elif "A" <= ch <= "Z":
            value = ord(ch) - ord("A") + 10
        else:
            return
        if 1 <= value <= self.puzzle.givens.size:
            self.enter(value, pencil=bool(event.state & 0x4) or None)

    def draw_value_buttons(self) -> None:
        size = self.puzzle.givens.size
        if len(self.choices.values_frame.items) == size + 1:
            return
        self.choices.values_frame.clear()
        frame = self.choices.values_frame
        buttons = [tk.Button(frame, text=value_char(v), width=1, padx=6, command=lambda v=v: self.enter(v))
                   for v in range(1, size + 1)]
        buttons.append(tk.Button(frame, text="Erase", command=self.erase))
        frame.add(*buttons)

    # --- entries -------------------------------------------------------------------------------

    def editable_cell(self, given: str) -> Optional[Cell]:
        """The selected cell if the player may change it; else None, with the reason (`given`
        says why a given cannot be) in the status line."""
        cell = self.puzzle.selected
        if cell is None:
            self.status("click a cell first")
            return None
        if self.puzzle.givens.get(*cell):
            self.status(f"{cell_name(cell)} is a given: {given}", error=True)
            return None
        if self.puzzle.solved:
            self.status("the puzzle is solved: Reset or New to play again")
            return None
        return cell

    def enter(self, value: int, pencil: Optional[bool] = None) -> bool:
        """The value button or key: a pencil mark toggled, or an entry the referee accepts."""
        cell = self.editable_cell("it cannot be changed")
        if cell is None:
            return False
        if self.choices.pencil_var.get() if pencil is None else pencil:
            if cell in self.puzzle.entries:
                self.status("pencil marks go on empty cells")
                return False
            on = self.puzzle.toggle_mark(cell, value)
            self.status(f"pencil mark {value_char(value)} {'on' if on else 'off'} at {cell_name(cell)}")
            self.redraw()
            return True
        self.place(cell, value)
        return True

    def place(self, cell: Cell, value: int, quiet: bool = False, hint: bool = False) -> None:
        """Puts `value` on `cell` once the engine's referee accepts it on the grid without the
        cell's old entry (asked on the worker)."""
        base = self.puzzle.grid().with_value(cell[0], cell[1], 0)
        puzzle = self.puzzle

        def judged(problem: Optional[str]) -> None:
            if self.puzzle is not puzzle:
                return  # another puzzle meanwhile
            if problem is not None:
                if not quiet:
                    self.refused += 1
                    if hint:
                        self.status(f"hint: {value_char(value)} belongs at {cell_name(cell)}, but your entries "
                                    "already break it: press Check", error=True)
                    else:
                        self.status(f"{value_char(value)} refused at {cell_name(cell)}: {problem}", error=True)
                self.redraw()
                return
            puzzle.put(cell, value, hint)
            if not quiet:
                self.status(f"{'hint: ' if hint else ''}{value_char(value)} at {cell_name(cell)}")
            self.changed()

        self.controller.judge(base, cell, value, judged,
                              lambda err: self.status(f"the engine could not judge that entry: {err}", error=True))

    def erase(self) -> bool:
        """Removes the player's own entry (or the pencil marks) on the selected cell; never a given."""
        cell = self.editable_cell("givens cannot be removed")
        if cell is None:
            return False
        done = self.puzzle.erase(cell)
        if done is None:
            self.status(f"{cell_name(cell)} is empty")
            return False
        self.status(done)
        self.redraw()
        return True

    def changed(self) -> None:
        """After an entry: a full grid is shown to the engine's `check`."""
        grid = self.puzzle.grid()
        self.redraw()
        if grid.filled() != grid.size * grid.size or self.puzzle.solved:
            return
        self.controller.check(grid, lambda result: self.checked(grid, *result))

    def checked(self, grid: Grid, ok: bool, why: str) -> None:
        """The engine's `check` of a full grid: the banner when it holds."""
        puzzle = self.puzzle
        if puzzle.grid() != grid or puzzle.solved:
            return
        if ok:
            puzzle.solved_after = time.monotonic() - puzzle.started
            puzzle.solved_by = puzzle.solved_by or "you"
            who = "by the engine " if puzzle.solved_by == "engine" else ""
            self.hooks.solved(f"SOLVED {who}in {clock(puzzle.solved_after)}")
            self.status(f"Solved {who}in {clock(puzzle.solved_after)}: the engine's check says the grid is valid.")
        else:
            self.status(f"the grid is full but not valid: {why}", error=True)
        self.redraw()

    # --- help from the engine ------------------------------------------------------------------

    def busy_changed(self, busy: bool) -> None:
        """Hint reads Stop while the engine's tools have been working for STOP_AFTER_MS."""
        if busy:
            self.root.after(STOP_AFTER_MS, self.offer_stop)
        elif not self.hooks.closed():
            self.choices.hint_button.config(text="Hint")

    def offer_stop(self) -> None:
        if not self.hooks.closed() and not self.controller.idle:
            self.choices.hint_button.config(text="Stop")

    def hint_or_stop(self) -> None:
        """The Hint button: Stop while the engine works (its tool runs end at once), else Hint."""
        if self.choices.hint_button.cget("text") == "Stop":
            self.controller.stop()
            self.status("stopped: the engine was asked no further")
        else:
            self.hint()

    def with_reference(self, use: Callable[[Grid], None]) -> bool:
        """Calls `use` with the solution Hint and Solve go by, once known: the puzzle's own, or
        for a puzzle with several solutions one that keeps the player's entries (when there is
        one; asked on the worker). False (and nothing called) once solved or without a solution."""
        solution = self.puzzle.solution
        if self.puzzle.solved:
            return False
        if solution is None or solution.status == "none":
            self.status("This puzzle has no solution.", error=True)
            return False
        if solution.status != "multiple":
            use(solution.grid)
            return True
        grid, own = self.puzzle.grid(), solution.grid

        def found(current: Solution) -> None:
            use(current.grid if current.grid is not None else own)

        self.controller.solve(grid, found, lambda err: self.status(f"solve failed: {err}", error=True))
        return True

    def hint(self) -> bool:
        """One correct value: on the selected cell if it is empty or wrong, else the first empty cell."""
        def give(answer: Grid) -> None:
            cell = self.puzzle.hint_cell(answer)
            if cell is None:
                self.status("no empty cell left: press Check to find the wrong entries")
                return
            self.puzzle.selected = cell
            self.place(cell, answer.get(*cell), hint=True)

        return self.with_reference(give)

    def check(self) -> Optional[Set[Cell]]:
        """Marks the entries that contradict the unique solution; returns them."""
        solution = self.puzzle.solution
        if solution is None or solution.status != "unique":
            self.status("Check needs a puzzle with exactly one solution; this one has "
                        + ("none." if solution is None or solution.status == "none" else "several."), error=True)
            return None
        wrong, message = self.puzzle.check(solution.grid)
        self.status(message, error=wrong)
        self.redraw()
        return set(self.puzzle.wrong)

    def solve(self) -> bool:
        """Fills the grid with the engine's solution, cell by cell when animated."""
        def fill(answer: Grid) -> None:
            self.stop_animation()
            todo = self.puzzle.to_fill(answer)
            self.puzzle.solved_by = "engine"
            if self.choices.animate_var.get() and self.animate_ms > 0:
                self.animation = todo
                self.status("the engine is filling the grid...")
                self.redraw()
                self.root.after(self.animate_ms, self.animate_step)
            else:
                for cell, value in todo:
                    self.puzzle.entries[cell] = value
                self.puzzle.marks, self.puzzle.wrong = {}, set()
                self.changed()

        return self.with_reference(fill)

    def animate_step(self) -> None:
        if self.hooks.closed() or not self.animation:
            return
        cell, value = self.animation.pop(0)
        self.puzzle.put(cell, value)
        if self.animation:
            self.redraw()
            self.root.after(self.animate_ms, self.animate_step)
        else:
            self.changed()

    def stop_animation(self) -> None:
        self.animation = []

    @property
    def animating(self) -> bool:
        return bool(self.animation)

    def candidates(self) -> Optional[Dict[Cell, List[int]]]:
        """The referee's candidates for the grid on screen, when known; asked on the worker."""
        grid = self.puzzle.grid()
        key = grid.notation()
        if key in self.candidate_cache:
            return self.candidate_cache[key]
        if self.candidate_pending != key:
            self.candidate_pending = key

            def known(result: Dict[Cell, List[int]]) -> None:
                if key == self.candidate_pending:
                    self.candidate_pending = None
                self.candidate_cache[key] = result
                if self.choices.show_all_var.get():
                    self.redraw()

            def failed(err: BaseException) -> None:
                if key == self.candidate_pending:
                    self.candidate_pending = None
                self.status(f"candidates: {err}", error=True)

            self.controller.candidates(grid, known, failed)
        return None
