"""The classic single-player sudoku in a Tkinter window, with `sudoku-agent` as its referee and solver.

Started by `python3 scripts/sudoku_gui.py --mode puzzle` (or the Mode choice in the window).
Every rule is the engine's (scripts/engines/tools.py): an entry is accepted only when the
engine's referee accepts it (`play` of the competitive-sudoku protocol on the grid), the
candidates are the values it accepts, the solution comes from `solve` (with `no solution` or
`multiple solutions`), a full grid is confirmed by `check`, and New asks `generate`.

Keys: 1-9 and A-G enter a value on the selected cell, Ctrl+value toggles a pencil mark,
BackSpace/Delete/0/. erase your entry, the arrow keys move the selection, H gives a hint.

    python3 scripts/sudoku_puzzle_gui.py [--engine PATH] [--board 3x3] [--difficulty easy] [--seed 1] [--file F]
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
import tkinter as tk
from tkinter import filedialog, ttk
from typing import Callable, Dict, List, Optional, Set, Tuple

from engines.cli import HelpFormatter
from engines.windows import BoardAndPanel, EngineCalls, Flow, ScrollPanel
from engines.sudoku import value_char
from engines.tools import DIFFICULTIES, Grid, Solution, SudokuTools, ToolError

Cell = Tuple[int, int]
BOARD_PX = 468  # the grid's side at the window's first size; it follows the window
LABELS_PX = 18  # the row and column numbers left of and above the grid
PANEL_W = 290
# The window opens within a 1366x768 screen; every control stays reachable down to MIN_SIZE.
START_SIZE = (820, 600)
MIN_SIZE = (640, 480)
# How long the engine's tools work before Hint turns into Stop (ms).
STOP_AFTER_MS = 300
PUZZLE_DIR = pathlib.Path(__file__).resolve().parent / "puzzles"
# Sizes as the window names them, and the block shape the tools take.
SIZE_OF_SHAPE = {"2x2": "4x4", "2x3": "6x6", "3x3": "9x9", "3x4": "12x12", "4x4": "16x16"}
SHAPE_OF_SIZE = {v: k for k, v in SIZE_OF_SHAPE.items()}
COLOURS = {"given": "#111111", "entry": "#1f5fa8", "hint": "#1e8449", "wrong": "#c0392b",
           "mark": "#555555", "candidate": "#aaaaaa"}
FILL = {"plain": "white", "selected": "#ffe08a", "wrong": "#f7d4cf", "solved": "#d9f2dc"}


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


class PuzzleApp:
    """The puzzle game. `on_switch(mode)` (optional) is called when another game mode is chosen."""

    def __init__(self, root: tk.Tk, tools: SudokuTools, shape: str = "3x3", difficulty: str = "easy", seed: int = 1,
                 puzzle: Optional[Grid] = None, on_switch: Optional[Callable[[str], None]] = None,
                 other_modes: Tuple[str, ...] = (), animate_ms: int = 30):
        self.root = root
        self.tools = tools
        self.on_switch = on_switch
        self.animate_ms = animate_ms
        self.closed = False
        self.banner_shown = False
        self.givens = Grid.empty(3, 3)
        self.label = ""
        self.entries: Dict[Cell, int] = {}
        self.hinted: Set[Cell] = set()
        self.marks: Dict[Cell, Set[int]] = {}
        self.wrong: Set[Cell] = set()
        self.selected: Optional[Cell] = None
        self.solution: Optional[Solution] = None
        self.started = time.monotonic()
        self.solved_after: Optional[float] = None
        self.solved_by = ""
        self.refused = 0  # entries the referee refused (tests read it)
        self.animation: List[Tuple[Cell, int]] = []
        self.candidate_cache: Dict[str, Dict[Cell, List[int]]] = {}
        self.candidate_pending: Optional[str] = None
        # Every question to the engine's tools runs on this worker; answers come back here.
        self.calls = EngineCalls(root, on_error=lambda err: self.status(f"the engine failed: {err}", error=True))
        self.calls.on_busy.append(self.busy_changed)

        root.title("Sudoku puzzle")
        if not root.winfo_ismapped():
            root.geometry(f"{START_SIZE[0]}x{START_SIZE[1]}")
        root.minsize(*MIN_SIZE)
        self.board_px = BOARD_PX
        self.left = 0  # the blank left of the row numbers when the canvas is wider than tall
        self.top = top = tk.Frame(root)
        top.pack(fill="x", padx=8, pady=4)
        self.title_var = tk.StringVar()
        self.time_var = tk.StringVar(value="0:00")
        tk.Label(top, textvariable=self.title_var, font=("Helvetica", 14, "bold")).pack(side="left")
        tk.Label(top, textvariable=self.time_var, font=("Helvetica", 14)).pack(side="right")
        # The "solved" banner, in place of the title row: shown only when the engine confirms the full grid.
        self.banner_var = tk.StringVar()
        self.banner = tk.Label(root, textvariable=self.banner_var, font=("Helvetica", 18, "bold"),
                               bg="#1e8449", fg="white", pady=4)

        self.status_var = tk.StringVar()
        self.status_label = tk.Label(root, textvariable=self.status_var, fg="#444", anchor="w", justify="left",
                                     wraplength=600)
        self.status_label.pack(side="bottom", fill="x", padx=8, pady=(0, 6))

        self.body = body = BoardAndPanel(root, board_min=280)
        body.pack(fill="both", expand=True, padx=8)
        self.canvas = tk.Canvas(body, width=BOARD_PX + LABELS_PX + 4, height=BOARD_PX + LABELS_PX + 4, bg="white",
                                highlightthickness=0)
        self.canvas.bind("<ButtonPress-1>", self.on_click)
        self.canvas.bind("<Configure>", self.on_resize)
        root.bind("<Key>", self.on_key)
        self.panel = ScrollPanel(body, width=PANEL_W)
        body.place_parts(self.canvas, self.panel)
        side = self.panel.inner

        self.values_frame = Flow(side, gap=0)
        self.values_frame.pack(fill="x")

        options = tk.Frame(side)
        options.pack(fill="x", pady=2)
        self.pencil_var = tk.BooleanVar(value=False)
        self.show_all_var = tk.BooleanVar(value=False)
        self.animate_var = tk.BooleanVar(value=True)
        tk.Checkbutton(options, text="Pencil marks", variable=self.pencil_var).pack(anchor="w")
        tk.Checkbutton(options, text="Show all candidates", variable=self.show_all_var,
                       command=self.redraw).pack(anchor="w")
        tk.Checkbutton(options, text="Animate Solve", variable=self.animate_var).pack(anchor="w")

        actions = Flow(side)
        actions.pack(fill="x", pady=2)
        self.hint_button = tk.Button(actions, text="Hint", width=5, command=self.hint_or_stop)
        self.check_button = tk.Button(actions, text="Check", command=self.check)
        self.solve_button = tk.Button(actions, text="Solve", command=self.solve)
        self.reset_button = tk.Button(actions, text="Reset", command=self.reset)
        actions.add(self.hint_button, self.check_button, self.solve_button, self.reset_button,
                    tk.Button(actions, text="Open...", command=self.choose_open),
                    tk.Button(actions, text="Save...", command=self.choose_save))

        new_row = Flow(side)
        new_row.pack(fill="x", pady=2)
        size_pair = tk.Frame(new_row)
        tk.Label(size_pair, text="Size").pack(side="left")
        self.size_var = tk.StringVar(value=SIZE_OF_SHAPE.get(shape, "9x9"))
        ttk.Combobox(size_pair, textvariable=self.size_var, values=list(SHAPE_OF_SIZE), width=6,
                     state="readonly").pack(side="left", padx=2)
        self.difficulty_var = tk.StringVar(value=difficulty)
        difficulty_box = ttk.Combobox(new_row, textvariable=self.difficulty_var, values=DIFFICULTIES, width=7,
                                      state="readonly")
        seed_pair = tk.Frame(new_row)
        tk.Label(seed_pair, text="Seed").pack(side="left", padx=(0, 2))
        self.seed_var = tk.StringVar(value=str(seed))
        tk.Spinbox(seed_pair, from_=0, to=10**9, textvariable=self.seed_var, width=8).pack(side="left")
        self.new_button = tk.Button(new_row, text="New", command=self.new_puzzle)
        new_row.add(size_pair, difficulty_box, seed_pair, self.new_button)

        premade_row = Flow(side)
        premade_row.pack(fill="x", pady=2)
        self.premade = load_premade()
        labels = [label for label, _ in self.premade]
        self.premade_var = tk.StringVar(value="9x9 easy 1" if "9x9 easy 1" in labels else labels[0] if labels else "")
        premade_pair = tk.Frame(premade_row)
        tk.Label(premade_pair, text="Premade").pack(side="left")
        ttk.Combobox(premade_pair, textvariable=self.premade_var, values=labels, width=14,
                     state="readonly").pack(side="left", padx=2)
        items = [premade_pair, tk.Button(premade_row, text="Load", command=self.load_premade)]
        if on_switch is not None:
            self.mode_var = tk.StringVar(value="puzzle")
            mode_pair = tk.Frame(premade_row)
            tk.Label(mode_pair, text="Mode").pack(side="left")
            ttk.Combobox(mode_pair, textvariable=self.mode_var, values=("puzzle",) + tuple(other_modes), width=8,
                         state="readonly").pack(side="left", padx=2)
            items += [mode_pair, tk.Button(premade_row, text="Go", command=self.switch_mode)]
        premade_row.add(*items)

        if puzzle is not None:
            self.load(puzzle, "puzzle")
        else:
            self.new_puzzle()
        self.root.after(250, self.tick)

    # --- puzzles -------------------------------------------------------------------------------

    def grid(self) -> Grid:
        """The grid on screen: the givens and the player's entries."""
        rows = [list(row) for row in self.givens.values]
        for (r, c), v in self.entries.items():
            rows[r][c] = v
        return Grid.from_rows(self.givens.m, self.givens.n, rows)

    def load_job(self, grid: Grid, entries: Optional[Dict[Cell, int]] = None) -> Tuple[Solution, Dict[Cell, int]]:
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

    def load(self, grid: Grid, label: str, entries: Optional[Dict[Cell, int]] = None,
             then: Optional[Callable[[bool], None]] = None) -> None:
        """Shows a new puzzle once the engine has solved it (the old one stays, with the reason,
        when the engine refuses it); `then(shown)` follows."""
        def refused(err: BaseException) -> None:
            self.status(f"cannot load {label}: {err}", error=True)
            if then is not None:
                then(False)

        def solved(result) -> None:
            self.show(grid, label, *result)
            if then is not None:
                then(True)

        self.calls.call(lambda: self.load_job(grid, entries), solved, refused)

    def show(self, grid: Grid, label: str, solution: Solution, entries: Dict[Cell, int]) -> None:
        """The puzzle on screen: its givens, the solution the engine found, restored entries."""
        self.stop_animation()
        self.givens, self.label, self.solution = grid, label, solution
        self.entries, self.hinted, self.marks, self.wrong = dict(entries), set(), {}, set()
        self.selected = None
        self.restart_clock()
        size = SIZE_OF_SHAPE.get(grid.shape, f"{grid.size}x{grid.size}")
        self.title_var.set(f"{size}: {label}")
        if size in SHAPE_OF_SIZE:
            self.size_var.set(size)  # New brings another puzzle of this size
        self.draw_value_buttons()
        if solution.status == "none":
            self.status("This puzzle has no solution (the engine's solve): Hint, Check and Solve cannot help.", error=True)
        elif solution.status == "multiple":
            self.status("This puzzle has several solutions: Hint and Solve use one the engine found; "
                        "Check needs a unique solution.", error=True)
        else:
            self.status(f"{label}: {grid.filled()} givens, one solution. Click a cell, then a value.")
        self.redraw()

    def new_puzzle(self) -> None:
        """Asks the engine's `generate` for a puzzle of the chosen size, difficulty and seed."""
        shape = SHAPE_OF_SIZE.get(self.size_var.get(), "3x3")
        difficulty = self.difficulty_var.get()
        try:
            seed = int(self.seed_var.get())
        except ValueError:
            self.status("the seed is a whole number", error=True)
            return
        label = f"{difficulty}, seed {seed}"

        def work():
            grid = self.tools.generate(shape, difficulty=difficulty, seed=seed)[0]
            return (grid,) + self.load_job(grid)

        def made(result) -> None:
            self.show(result[0], label, *result[1:])
            self.seed_var.set(str(seed + 1))  # the next New brings another puzzle; the seed is in the title

        self.status(f"generating a {difficulty} puzzle...")
        self.calls.call(work, made, lambda err: self.status(f"generate failed: {err}", error=True))

    def load_premade(self) -> None:
        for label, grid in self.premade:
            if label == self.premade_var.get():
                self.load(grid, f"premade {label.split(' ', 1)[1]}")
                return

    def reset(self) -> None:
        """Clears the player's entries (hints included) and marks; the givens stay."""
        self.stop_animation()
        self.entries, self.hinted, self.marks, self.wrong = {}, set(), {}, set()
        self.restart_clock()
        self.status("reset: your entries are cleared")
        self.redraw()

    def restart_clock(self) -> None:
        self.started = time.monotonic()
        self.solved_after = None
        self.solved_by = ""
        if self.banner_shown:
            self.banner_shown = False
            self.banner.pack_forget()
            self.top.pack(fill="x", padx=8, pady=4, before=self.body)

    def elapsed(self) -> float:
        return self.solved_after if self.solved_after is not None else time.monotonic() - self.started

    def tick(self) -> None:
        if self.closed:
            return
        self.time_var.set(clock(self.elapsed()))
        self.root.after(250, self.tick)

    # --- the player's moves -------------------------------------------------------------------

    def on_click(self, event) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.selected = cell
            self.redraw()

    def on_key(self, event) -> None:
        keysym = event.keysym
        if keysym in ("BackSpace", "Delete", "0", "period", "KP_0", "KP_Delete"):
            self.erase()
            return
        moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
        if keysym in moves:
            r, c = self.selected or (0, 0)
            dr, dc = moves[keysym]
            size = self.givens.size
            self.selected = ((r + dr) % size, (c + dc) % size)
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
        if 1 <= value <= self.givens.size:
            self.enter(value, pencil=bool(event.state & 0x4) or None)

    def where(self, cell: Cell) -> str:
        return f"row {cell[0] + 1}, column {cell[1] + 1}"

    def editable_cell(self, given: str) -> Optional[Cell]:
        """The selected cell if the player may change it; else None, with the reason (`given`
        says why a given cannot be) in the status line."""
        if self.selected is None:
            self.status("click a cell first")
            return None
        cell = self.selected
        if self.givens.get(*cell):
            self.status(f"{self.where(cell)} is a given: {given}", error=True)
            return None
        if self.solved_after is not None:
            self.status("the puzzle is solved: Reset or New to play again")
            return None
        return cell

    def enter(self, value: int, pencil: Optional[bool] = None) -> bool:
        """The value button or key: a pencil mark toggled, or an entry the referee accepts."""
        cell = self.editable_cell("it cannot be changed")
        if cell is None:
            return False
        if self.pencil_var.get() if pencil is None else pencil:
            if cell in self.entries:
                self.status("pencil marks go on empty cells")
                return False
            marks = self.marks.setdefault(cell, set())
            marks.symmetric_difference_update({value})
            self.status(f"pencil mark {value_char(value)} {'on' if value in marks else 'off'} at {self.where(cell)}")
            self.redraw()
            return True
        self.place(cell, value)
        return True

    def place(self, cell: Cell, value: int, quiet: bool = False, hint: bool = False) -> None:
        """Puts `value` on `cell` once the engine's referee accepts it on the grid without the
        cell's old entry (asked on the worker)."""
        base = self.grid().with_value(cell[0], cell[1], 0)
        givens = self.givens

        def judged(problem: Optional[str]) -> None:
            if self.givens is not givens:
                return  # another puzzle meanwhile
            if problem is not None:
                if not quiet:
                    self.refused += 1
                    if hint:
                        self.status(f"hint: {value_char(value)} belongs at {self.where(cell)}, but your entries "
                                    "already break it: press Check", error=True)
                    else:
                        self.status(f"{value_char(value)} refused at {self.where(cell)}: {problem}", error=True)
                self.redraw()
                return
            self.entries[cell] = value
            self.marks.pop(cell, None)
            self.wrong.discard(cell)
            self.hinted.discard(cell)
            if hint:
                self.hinted.add(cell)
            if not quiet:
                self.status(f"{'hint: ' if hint else ''}{value_char(value)} at {self.where(cell)}")
            self.changed()

        self.calls.call(lambda: self.tools.rule_problem(base, cell[0], cell[1], value), judged,
                        lambda err: self.status(f"the engine could not judge that entry: {err}", error=True))

    def erase(self) -> bool:
        """Removes the player's own entry (or the pencil marks) on the selected cell; never a given."""
        cell = self.editable_cell("givens cannot be removed")
        if cell is None:
            return False
        if cell in self.entries:
            value = self.entries.pop(cell)
            self.hinted.discard(cell)
            self.wrong.discard(cell)
            self.status(f"removed {value_char(value)} from {self.where(cell)}")
        elif self.marks.pop(cell, None):
            self.status(f"pencil marks cleared at {self.where(cell)}")
        else:
            self.status(f"{self.where(cell)} is empty")
            return False
        self.redraw()
        return True

    def changed(self) -> None:
        """After an entry: a full grid is shown to the engine's `check`."""
        grid = self.grid()
        self.redraw()
        if grid.filled() != grid.size * grid.size or self.solved_after is not None:
            return

        def work() -> Tuple[bool, str]:
            try:
                return self.tools.check(grid)
            except ToolError as err:
                return False, str(err)

        def checked(result: Tuple[bool, str]) -> None:
            ok, why = result
            if self.grid() != grid or self.solved_after is not None:
                return
            if ok:
                self.solved_after = time.monotonic() - self.started
                self.solved_by = self.solved_by or "you"
                who = "by the engine " if self.solved_by == "engine" else ""
                self.banner_var.set(f"SOLVED {who}in {clock(self.solved_after)}")
                self.top.pack_forget()
                self.banner_shown = True
                self.banner.pack(fill="x", padx=8, pady=(4, 0), before=self.body)
                self.status(f"Solved {who}in {clock(self.solved_after)}: the engine's check says the grid is valid.")
                self.time_var.set(clock(self.solved_after))
            else:
                self.status(f"the grid is full but not valid: {why}", error=True)
            self.redraw()

        self.calls.call(work, checked)

    # --- help from the engine ------------------------------------------------------------------

    def with_reference(self, use: Callable[[Grid], None]) -> bool:
        """Calls `use` with the solution Hint and Solve go by, once known: the puzzle's own, or
        for a puzzle with several solutions one that keeps the player's entries (when there is
        one; asked on the worker). False (and nothing called) once solved or without a solution."""
        if self.solved_after is not None:
            return False
        if self.solution is None or self.solution.status == "none":
            self.status("This puzzle has no solution.", error=True)
            return False
        own = self.solution.grid
        if self.solution.status != "multiple":
            use(own)
            return True
        grid = self.grid()

        def found(current: Solution) -> None:
            use(current.grid if current.grid is not None else own)

        self.calls.call(lambda: self.tools.solve(grid), found,
                        lambda err: self.status(f"solve failed: {err}", error=True))
        return True

    def busy_changed(self, busy: bool) -> None:
        """Hint reads Stop while the engine's tools have been working for STOP_AFTER_MS (a
        quick answer does not make the button flicker)."""
        if busy:
            self.root.after(STOP_AFTER_MS, self.offer_stop)
        else:
            self.hint_button.config(text="Hint")

    def offer_stop(self) -> None:
        if not self.closed and not self.calls.idle:
            self.hint_button.config(text="Stop")

    def hint_or_stop(self) -> None:
        """The Hint button: Stop while the engine works (its tool runs end at once), else Hint."""
        if self.hint_button.cget("text") == "Stop":
            self.tools.stop()
            self.status("stopped: the engine was asked no further")
        else:
            self.hint()

    def hint(self) -> bool:
        """One correct value: on the selected cell if it is empty or wrong, else the first empty cell."""
        def give(answer: Grid) -> None:
            cell = self.selected
            if cell is None or self.givens.get(*cell) or self.entries.get(cell) == answer.get(*cell):
                cell = next(iter(self.grid().empty_cells()), None)
            if cell is None:
                self.status("no empty cell left: press Check to find the wrong entries")
                return
            self.selected = cell
            self.place(cell, answer.get(*cell), hint=True)

        return self.with_reference(give)

    def check(self) -> Optional[Set[Cell]]:
        """Marks the entries that contradict the unique solution; returns them."""
        if self.solution is None or self.solution.status != "unique":
            self.status("Check needs a puzzle with exactly one solution; this one has "
                        + ("none." if self.solution is None or self.solution.status == "none" else "several."),
                        error=True)
            return None
        answer = self.solution.grid
        self.wrong = {cell for cell, v in self.entries.items() if answer.get(*cell) != v}
        # The values Hint placed are the engine's, not the player's: counted apart.
        own = len(self.entries) - len(self.hinted & set(self.entries))
        hints = len(self.entries) - own
        from_hint = f" (and {hints} from Hint)" if hints else ""
        if self.wrong:
            wrong_own = len(self.wrong - self.hinted)
            self.status(f"{wrong_own} of your {own} entries contradict the solution (in red){from_hint}", error=True)
        else:
            self.status(f"all {own} of your entries agree with the solution{from_hint}")
        self.redraw()
        return set(self.wrong)

    def solve(self) -> bool:
        """Fills the grid with the engine's solution, cell by cell when animated."""
        def fill(answer: Grid) -> None:
            self.stop_animation()
            grid = self.grid()
            todo = [((r, c), answer.get(r, c)) for r in range(grid.size) for c in range(grid.size)
                    if grid.get(r, c) != answer.get(r, c)]
            # Wrong entries go first, so every value placed afterwards is accepted by the referee.
            for cell, _ in todo:
                self.entries.pop(cell, None)
            self.solved_by = "engine"
            if self.animate_var.get() and self.animate_ms > 0:
                self.animation = todo
                self.status("the engine is filling the grid...")
                self.redraw()
                self.root.after(self.animate_ms, self.animate_step)
            else:
                for cell, value in todo:
                    self.entries[cell] = value
                self.marks, self.wrong = {}, set()
                self.changed()

        return self.with_reference(fill)

    def animate_step(self) -> None:
        if self.closed or not self.animation:
            return
        cell, value = self.animation.pop(0)
        self.entries[cell] = value
        self.marks.pop(cell, None)
        self.wrong.discard(cell)
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

    # --- candidates ---------------------------------------------------------------------------

    def candidates(self) -> Optional[Dict[Cell, List[int]]]:
        """The referee's candidates for the grid on screen, when known; asked on the worker."""
        key = self.grid().notation()
        if key in self.candidate_cache:
            return self.candidate_cache[key]
        if self.candidate_pending != key:
            self.candidate_pending = key
            grid = self.grid()

            def known(result: Dict[Cell, List[int]]) -> None:
                if key == self.candidate_pending:
                    self.candidate_pending = None
                self.candidate_cache[key] = result
                if self.show_all_var.get():
                    self.redraw()

            def failed(err: BaseException) -> None:
                if key == self.candidate_pending:
                    self.candidate_pending = None
                self.status(f"candidates: {err}", error=True)

            self.calls.call(lambda: self.tools.candidates(grid), known, failed)
        return None

    # --- files -----------------------------------------------------------------------------------

    def choose_open(self) -> None:
        path = filedialog.askopenfilename(title="Open a puzzle", filetypes=[("Puzzles", "*.txt"), ("All files", "*")])
        if path:
            self.open_path(path)

    def choose_save(self) -> None:
        path = filedialog.asksaveasfilename(title="Save the puzzle", defaultextension=".txt",
                                            filetypes=[("Puzzles", "*.txt"), ("All files", "*")])
        if path:
            self.save_path(path)

    def open_path(self, path: str) -> bool:
        """Opens a puzzle file (with its saved entries); False when it cannot be read. The
        puzzle shows once the engine has solved it."""
        try:
            grid, entries = read_puzzle_file(pathlib.Path(path).read_text())
        except (OSError, ValueError) as err:
            self.status(f"cannot open {os.path.basename(path)}: {err}", error=True)
            return False
        self.load(grid, os.path.basename(path), entries)
        return True

    def save_path(self, path: str) -> bool:
        """The givens as one line the tools read, the entries in a `# entries` comment."""
        lines = ["# sudoku puzzle saved by scripts/sudoku_gui.py --mode puzzle", self.givens.notation()]
        if self.entries:
            lines.append(f"# entries {self.grid().shape} {self.grid().rows()}")
        try:
            pathlib.Path(path).write_text("\n".join(lines) + "\n")
        except OSError as err:
            self.status(f"cannot save: {err}", error=True)
            return False
        self.status(f"saved to {path}")
        return True

    # --- mode ------------------------------------------------------------------------------------

    def switch_mode(self) -> None:
        mode = self.mode_var.get()
        if mode != "puzzle" and self.on_switch is not None:
            self.on_switch(mode)

    def close(self) -> None:
        self.closed = True
        self.calls.close()
        self.stop_animation()
        for child in self.root.winfo_children():
            child.destroy()
        self.root.unbind("<Key>")

    # --- drawing ---------------------------------------------------------------------------------

    def on_resize(self, event) -> None:
        """The grid follows the window, both ways."""
        side = max(120, min(event.width, event.height) - LABELS_PX - 4)
        left = max(0, (event.width - side - LABELS_PX - 4) // 2)
        if (side, left) != (self.board_px, self.left):
            self.board_px, self.left = side, left
            self.redraw()

    def cell_px(self) -> float:
        return self.board_px / self.givens.size

    def origin(self) -> Tuple[float, float]:
        """The grid's top-left pixel (right of the row numbers, under the column numbers)."""
        return self.left + LABELS_PX + 2, LABELS_PX + 2

    def cell_at(self, x: float, y: float) -> Optional[Cell]:
        size, cell = self.givens.size, self.cell_px()
        ox, oy = self.origin()
        if x < ox or y < oy:
            return None
        r, c = int((y - oy) // cell), int((x - ox) // cell)
        return (r, c) if 0 <= r < size and 0 <= c < size else None

    def cell_centre(self, r: int, c: int) -> Tuple[int, int]:
        cell = self.cell_px()
        ox, oy = self.origin()
        return int(ox + (c + 0.5) * cell), int(oy + (r + 0.5) * cell)

    def redraw(self) -> None:
        g = self.givens
        size, cell = g.size, self.cell_px()
        cv = self.canvas
        cv.delete("all")
        solved = self.solved_after is not None
        shown = self.candidates() if self.show_all_var.get() and not solved else None
        big = ("Helvetica", max(9, int(cell * 0.5)))
        small = ("Helvetica", max(6, int(cell / max(g.m, g.n) * 0.6)))
        ox, oy = self.origin()
        side = self.board_px
        label_font = ("Helvetica", max(7, min(11, int(cell * 0.3))))
        for k in range(size):
            cv.create_text(ox + (k + 0.5) * cell, oy / 2, text=str(k + 1), font=label_font, fill="#666", tags=("label",))
            cv.create_text(self.left + LABELS_PX / 2, oy + (k + 0.5) * cell, text=str(k + 1), font=label_font,
                           fill="#666", tags=("label",))
        for r in range(size):
            for c in range(size):
                x, y = ox + c * cell, oy + r * cell
                fill = FILL["solved"] if solved else FILL["plain"]
                if (r, c) in self.wrong:
                    fill = FILL["wrong"]
                if self.selected == (r, c) and not solved:
                    fill = FILL["selected"]
                cv.create_rectangle(x, y, x + cell, y + cell, fill=fill, outline="#bbb", tags=("cell", f"c{r}_{c}"))
                given = g.get(r, c)
                entry = self.entries.get((r, c))
                if given:
                    cv.create_text(x + cell / 2, y + cell / 2, text=value_char(given), fill=COLOURS["given"],
                                   font=big + ("bold",), tags=("given",))
                elif entry:
                    kind = "wrong" if (r, c) in self.wrong else "hint" if (r, c) in self.hinted else "entry"
                    cv.create_text(x + cell / 2, y + cell / 2, text=value_char(entry), fill=COLOURS[kind], font=big,
                                   tags=(kind,))
                else:
                    marks = self.marks.get((r, c), set())
                    values = set(marks) | set(shown.get((r, c), []) if shown else [])
                    for v in sorted(values):
                        # Mini layout of the block: m rows of n values.
                        mr, mc = (v - 1) // g.n, (v - 1) % g.n
                        cv.create_text(x + (mc + 0.5) * cell / g.n, y + (mr + 0.5) * cell / g.m, text=value_char(v),
                                       font=small, fill=COLOURS["mark" if v in marks else "candidate"],
                                       tags=("mark" if v in marks else "candidate",))
        for k in range(size + 1):
            cv.create_line(ox, oy + k * cell, ox + side, oy + k * cell, width=3 if k % g.m == 0 else 1)
            cv.create_line(ox + k * cell, oy, ox + k * cell, oy + side, width=3 if k % g.n == 0 else 1)
        if solved:
            cv.create_rectangle(ox + 1, oy + 1, ox + side - 1, oy + side - 1, outline="#1e8449", width=5)

    def draw_value_buttons(self) -> None:
        size = self.givens.size
        if len(self.values_frame.items) == size + 1:
            return
        self.values_frame.clear()
        buttons = [tk.Button(self.values_frame, text=value_char(v), width=1, padx=6, command=lambda v=v: self.enter(v))
                   for v in range(1, size + 1)]
        buttons.append(tk.Button(self.values_frame, text="Erase", command=self.erase))
        self.values_frame.add(*buttons)

    def status(self, text: str, error: bool = False) -> None:
        self.status_var.set(text)
        self.status_label.config(fg="#b00020" if error else "#444")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    parser.add_argument("--engine", help="sudoku-agent binary, the referee and solver "
                                         "(default: $ENGINE_BIN_DIR, target/release, PATH)")
    parser.add_argument("--board", default="3x3", choices=sorted(SIZE_OF_SHAPE),
                        help="block shape m x n of the generated puzzles")
    parser.add_argument("--difficulty", default="easy", choices=DIFFICULTIES, help="difficulty of New")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first generated puzzle")
    parser.add_argument("--file", help="start from this puzzle file instead")
    args = parser.parse_args(argv)
    try:
        tools = SudokuTools(args.engine)
    except FileNotFoundError as err:
        parser.error(str(err))
    root = tk.Tk()
    app = PuzzleApp(root, tools, shape=args.board, difficulty=args.difficulty, seed=args.seed)
    if args.file:
        app.open_path(os.path.abspath(args.file))
    try:
        root.mainloop()
    finally:
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
