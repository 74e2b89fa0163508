"""The puzzle game on screen, without Tk: the givens, the player's entries, pencil marks and the
hints placed, the engine's solution, the clock; and the puzzle files (premade collections, a
saved puzzle with its entries). Every rule is the engine's: this only keeps what it answered."""
from __future__ import annotations

import pathlib
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from ...sudoku import value_char
from ...tools import DIFFICULTIES, Grid, Solution

Cell = Tuple[int, int]
PUZZLE_DIR = pathlib.Path(__file__).resolve().parents[3] / "puzzles"
# Sizes as the window names them, and the block shape the tools take.
SIZE_OF_SHAPE = {"2x2": "4x4", "2x3": "6x6", "3x3": "9x9", "3x4": "12x12", "4x4": "16x16"}
SHAPE_OF_SIZE = {v: k for k, v in SIZE_OF_SHAPE.items()}


def load_premade(folder: pathlib.Path = PUZZLE_DIR) -> List[Tuple[str, Grid]]:
    """The premade puzzles: (label like '9x9 easy 2', grid), from <difficulty>.txt."""
    out: List[Tuple[str, Grid]] = []
    for difficulty in DIFFICULTIES:
        path = folder / f"{difficulty}.txt"
        if not path.exists():
            continue
        seen: Dict[str, int] = {}
        for line in path.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            grid = Grid.parse(line)
            size = SIZE_OF_SHAPE.get(grid.shape, grid.shape)
            seen[size] = seen.get(size, 0) + 1
            out.append((f"{size} {difficulty} {seen[size]}", grid))
    order = list(SIZE_OF_SHAPE.values())
    out.sort(key=lambda item: (order.index(item[0].split()[0]) if item[0].split()[0] in order else 99,))
    return out


def read_puzzle_file(text: str) -> Tuple[Grid, Dict[Cell, int]]:
    """The first puzzle of a file (81 characters or `MxN rows`, `#` comments), and the entries a
    `# entries <rows>` comment saved with it (values that are not givens)."""
    grid: Optional[Grid] = None
    entries: Dict[Cell, int] = {}
    saved: Optional[str] = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("# entries "):
            saved = line[len("# entries "):].strip()
        elif line and not line.startswith("#") and grid is None:
            grid = Grid.parse(line)
    if grid is None:
        raise ValueError("no puzzle in the file")
    if saved:
        played = Grid.parse(saved)
        if played.shape == grid.shape:
            for r in range(grid.size):
                for c in range(grid.size):
                    if played.get(r, c) and not grid.get(r, c):
                        entries[(r, c)] = played.get(r, c)
    return grid, entries


def clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else f"{seconds // 60}:{seconds % 60:02d}"


def cell_name(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def plural(count: int, word: str) -> str:
    """`1 entry`, `3 entries`: the count with the word, in the singular for one."""
    if count == 1:
        return f"1 {word}"
    return f"{count} {word[:-1]}ies" if word.endswith("y") else f"{count} {word}s"


@dataclass
class Puzzle:
    """One puzzle being played: its givens and label, the solution the engine found, the
    player's entries (hints included, listed in `hinted`), pencil marks, the entries Check found
    wrong, the selected cell, and the clock (stopped once the engine confirms the full grid)."""

    givens: Grid
    label: str = ""
    solution: Optional[Solution] = None
    entries: Dict[Cell, int] = field(default_factory=dict)
    hinted: Set[Cell] = field(default_factory=set)
    marks: Dict[Cell, Set[int]] = field(default_factory=dict)
    wrong: Set[Cell] = field(default_factory=set)
    selected: Optional[Cell] = None
    started: float = field(default_factory=time.monotonic)
    solved_after: Optional[float] = None
    solved_by: str = ""

    def grid(self) -> Grid:
        """The grid on screen: the givens and the player's entries."""
        rows = [list(row) for row in self.givens.values]
        for (r, c), v in self.entries.items():
            rows[r][c] = v
        return Grid.from_rows(self.givens.m, self.givens.n, rows)

    @property
    def solved(self) -> bool:
        return self.solved_after is not None

    def elapsed(self) -> float:
        return self.solved_after if self.solved_after is not None else time.monotonic() - self.started

    def restart_clock(self) -> None:
        self.started, self.solved_after, self.solved_by = time.monotonic(), None, ""

    def clear(self) -> None:
        """Clears the player's entries (hints included), marks and the clock; the givens stay."""
        self.entries, self.hinted, self.marks, self.wrong = {}, set(), {}, set()
        self.restart_clock()

    def put(self, cell: Cell, value: int, hint: bool = False) -> None:
        """An entry the engine's referee accepted."""
        self.entries[cell] = value
        self.marks.pop(cell, None)
        self.wrong.discard(cell)
        self.hinted.discard(cell)
        if hint:
            self.hinted.add(cell)

    def toggle_mark(self, cell: Cell, value: int) -> bool:
        """Toggles a pencil mark; True when it is now on."""
        marks = self.marks.setdefault(cell, set())
        marks.symmetric_difference_update({value})
        return value in marks

    def erase(self, cell: Cell) -> Optional[str]:
        """Removes the entry (or else the marks) on `cell`; what was done, None when it was empty."""
        if cell in self.entries:
            value = self.entries.pop(cell)
            self.hinted.discard(cell)
            self.wrong.discard(cell)
            return f"removed {value_char(value)} from {cell_name(cell)}"
        if self.marks.pop(cell, None):
            return f"pencil marks cleared at {cell_name(cell)}"
        return None

    def check(self, answer: Grid) -> Tuple[bool, str]:
        """Marks the entries that contradict `answer` (the unique solution) as wrong; (any
        wrong, the message). The values Hint placed are counted apart from the player's own."""
        self.wrong = {cell for cell, v in self.entries.items() if answer.get(*cell) != v}
        own = len(self.entries) - len(self.hinted & set(self.entries))
        hints = len(self.entries) - own
        from_hint = f" (and {hints} from Hint)" if hints else ""
        if self.wrong:
            wrong_own = len(self.wrong - self.hinted)
            verb = "contradicts" if wrong_own == 1 else "contradict"
            return True, f"{wrong_own} of your {plural(own, 'entry')} {verb} the solution (in red){from_hint}"
        agree = "your entry agrees" if own == 1 else f"all {own} of your entries agree"
        return False, f"{agree} with the solution{from_hint}"

    def hint_cell(self, answer: Grid) -> Optional[Cell]:
        """Where a hint goes: the selected cell if it is empty or wrong, else the first empty one."""
        cell = self.selected
        if cell is None or self.givens.get(*cell) or self.entries.get(cell) == answer.get(*cell):
            cell = next(iter(self.grid().empty_cells()), None)
        return cell

    def to_fill(self, answer: Grid) -> List[Tuple[Cell, int]]:
        """The cells Solve fills (the wrong entries removed first, so every value placed
        afterwards is accepted by the referee), in order."""
        grid = self.grid()
        todo = [((r, c), answer.get(r, c)) for r in range(grid.size) for c in range(grid.size)
                if grid.get(r, c) != answer.get(r, c)]
        for cell, _ in todo:
            self.entries.pop(cell, None)
        return todo

    def file_text(self) -> str:
        """The givens as one line the tools read, the entries in a `# entries` comment."""
        lines = ["# sudoku puzzle saved by scripts/sudoku_gui.py --mode puzzle", self.givens.notation()]
        if self.entries:
            lines.append(f"# entries {self.grid().shape} {self.grid().rows()}")
        return "\n".join(lines) + "\n"
