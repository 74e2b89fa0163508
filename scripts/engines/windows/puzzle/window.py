"""The classic single-player sudoku window, with `sudoku-agent` as its referee and solver
(`python3 scripts/sudoku_gui.py --mode puzzle`, or scripts/sudoku_puzzle_gui.py).

Every rule is the engine's (engines/tools.py): an entry is accepted only when the engine's
referee accepts it (`play` of the competitive-sudoku protocol on the grid), the candidates are
the values it accepts, the solution comes from `solve` (with `no solution` or `multiple
solutions`), a full grid is confirmed by `check`, and New asks `generate`.

`PuzzleApp` is the window: it holds the game (`Puzzle`, model.py, no Tk), asks the engine
controller (`PuzzleController`, controller.py: the tools on the worker thread) for a new puzzle,
and has the grid (`PuzzleBoard`, board.py, a view) and the side panel draw it; the player's
moves and the engine's help are `PuzzleMoves`' (moves.py), given the parts they use.
"""
from __future__ import annotations

import os
import pathlib
import tkinter as tk
from tkinter import filedialog, ttk
from typing import Callable, Dict, Optional, Set, Tuple

from ...tools import DIFFICULTIES, Grid, Solution, SudokuTools
from ..engine_calls import EngineCalls
from ..layout import BoardAndPanel, Flow, ScrollPanel, open_on_screen
from .board import PuzzleBoard
from .model import SHAPE_OF_SIZE, SIZE_OF_SHAPE, Cell, Puzzle, clock, load_premade, read_puzzle_file
from .controller import PuzzleController
from .moves import MovesChoices, MovesHooks, PuzzleMoves

PANEL_W = 290
# The size the window asks for on a 1366x768 screen (it scales with the screen it is on); every
# control stays reachable down to MIN_SIZE.
START_SIZE = (820, 600)
MIN_SIZE = (640, 480)


class PuzzleApp:
    """The puzzle game. `on_switch(mode)` (optional) is called when another game mode is chosen."""

    def __init__(self, root: tk.Tk, tools: SudokuTools, shape: str = "3x3", difficulty: str = "easy", seed: int = 1,
                 puzzle: Optional[Grid] = None, on_switch: Optional[Callable[[str], None]] = None,
                 other_modes: Tuple[str, ...] = (), animate_ms: int = 30):
        self.root, self.tools, self.on_switch = root, tools, on_switch
        self.closed = False
        self.banner_shown = False
        self.puzzle = Puzzle(Grid.empty(3, 3))
        # Every question to the engine's tools runs on this worker; answers come back here.
        self.calls = EngineCalls(root, on_error=lambda err: self.status(f"the engine failed: {err}", error=True))
        side = self.build_frame(root)
        self.build_actions(side)
        self.controller = PuzzleController(tools, self.calls)  # every question to the engine's tools
        self.moves = PuzzleMoves(root, self.controller, self.calls, self.board, MovesChoices(
            pencil_var=self.pencil_var, show_all_var=self.show_all_var, animate_var=self.animate_var,
            hint_button=self.hint_button, values_frame=self.values_frame), MovesHooks(
            puzzle=lambda: self.puzzle, redraw=self.redraw, status=self.status, solved=self.show_banner,
            closed=lambda: self.closed), animate_ms)
        self.build_new_row(side, shape, difficulty, seed)
        self.build_premade_row(side, other_modes)
        if puzzle is not None:
            self.load(puzzle, "puzzle")
        else:
            self.new_puzzle()
        self.root.after(250, self.tick)

    # --- building the window ------------------------------------------------------------------

    def build_frame(self, root: tk.Tk) -> tk.Frame:
        """The title row (with the clock), the status line, the grid beside its side panel;
        returns the panel's frame."""
        root.title("Sudoku puzzle")
        open_on_screen(root, START_SIZE, MIN_SIZE)
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
        self.board = PuzzleBoard(body, on_resize=self.redraw)
        self.canvas = self.board.canvas
        self.canvas.bind("<ButtonPress-1>", lambda e: self.moves.on_click(e))
        root.bind("<Key>", lambda e: self.moves.on_key(e))
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
        return side

    def build_actions(self, side: tk.Frame) -> None:
        """Hint (Stop while the engine works), Check, Solve, Reset, Open and Save."""
        actions = Flow(side)
        actions.pack(fill="x", pady=2)
        self.hint_button = tk.Button(actions, text="Hint", width=5, command=lambda: self.moves.hint_or_stop())
        self.check_button = tk.Button(actions, text="Check", command=self.check)
        self.solve_button = tk.Button(actions, text="Solve", command=self.solve)
        self.reset_button = tk.Button(actions, text="Reset", command=self.reset)
        actions.add(self.hint_button, self.check_button, self.solve_button, self.reset_button,
                    tk.Button(actions, text="Open...", command=self.choose_open),
                    tk.Button(actions, text="Save...", command=self.choose_save))

    def build_new_row(self, side: tk.Frame, shape: str, difficulty: str, seed: int) -> None:
        """New: the size, difficulty and seed of the next generated puzzle."""
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

    def build_premade_row(self, side: tk.Frame, other_modes: Tuple[str, ...]) -> None:
        """The premade puzzles, and (inside the sudoku window) the choice of another mode."""
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
        if self.on_switch is not None:
            self.mode_var = tk.StringVar(value="puzzle")
            mode_pair = tk.Frame(premade_row)
            tk.Label(mode_pair, text="Mode").pack(side="left")
            ttk.Combobox(mode_pair, textvariable=self.mode_var, values=("puzzle",) + tuple(other_modes), width=8,
                         state="readonly").pack(side="left", padx=2)
            items += [mode_pair, tk.Button(premade_row, text="Go", command=self.switch_mode)]
        premade_row.add(*items)

    # --- puzzles -------------------------------------------------------------------------------

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

        self.controller.load(grid, entries, solved, refused)

    def show(self, grid: Grid, label: str, solution: Solution, entries: Dict[Cell, int]) -> None:
        """The puzzle on screen: its givens, the solution the engine found, restored entries."""
        self.moves.stop_animation()
        self.puzzle = Puzzle(grid, label, solution, dict(entries))
        self.hide_banner()
        size = SIZE_OF_SHAPE.get(grid.shape, f"{grid.size}x{grid.size}")
        self.title_var.set(f"{size}: {label}")
        if size in SHAPE_OF_SIZE:
            self.size_var.set(size)  # New brings another puzzle of this size
        self.moves.draw_value_buttons()
        if solution.status == "none":
            self.status("This puzzle has no solution (the engine's solve): Hint, Check and Solve cannot help.", error=True)
        elif solution.status == "multiple":
            self.status("This puzzle has several solutions: Hint and Solve use one the engine found; "
                        "Check needs a unique solution.", error=True)
        elif solution.status == "unsettled":
            self.status("The engine found a solution but could not settle whether it is the only one: "
                        "Hint and Solve use it; Check needs a unique solution.", error=True)
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

        def made(result) -> None:
            self.show(result[0], label, *result[1:])
            self.seed_var.set(str(seed + 1))  # the next New brings another puzzle; the seed is in the title

        self.status(f"generating a {difficulty} puzzle...")
        self.controller.generate(shape, difficulty, seed, made,
                                 lambda err: self.status(f"generate failed: {err}", error=True))

    def load_premade(self) -> None:
        for label, grid in self.premade:
            if label == self.premade_var.get():
                self.load(grid, f"premade {label.split(' ', 1)[1]}")
                return

    def reset(self) -> None:
        """Clears the player's entries (hints included) and marks; the givens stay."""
        self.moves.stop_animation()
        self.puzzle.clear()
        self.hide_banner()
        self.status("reset: your entries are cleared")
        self.redraw()

    def show_banner(self, text: str) -> None:
        """The engine confirmed the full grid: the banner in place of the title row."""
        self.banner_var.set(text)
        self.top.pack_forget()
        self.banner_shown = True
        self.banner.pack(fill="x", padx=8, pady=(4, 0), before=self.body)
        self.time_var.set(clock(self.puzzle.solved_after))

    def hide_banner(self) -> None:
        if self.banner_shown:
            self.banner_shown = False
            self.banner.pack_forget()
            self.top.pack(fill="x", padx=8, pady=4, before=self.body)

    def tick(self) -> None:
        if self.closed:
            return
        self.time_var.set(clock(self.puzzle.elapsed()))
        self.root.after(250, self.tick)

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
        try:
            pathlib.Path(path).write_text(self.puzzle.file_text())
        except OSError as err:
            self.status(f"cannot save: {err}", error=True)
            return False
        self.status(f"saved to {path}")
        return True

    # --- mode, closing, drawing ------------------------------------------------------------------

    def switch_mode(self) -> None:
        mode = self.mode_var.get()
        if mode != "puzzle" and self.on_switch is not None:
            self.on_switch(mode)

    def close(self) -> None:
        self.closed = True
        self.controller.stop()
        self.calls.close()
        self.moves.stop_animation()
        for child in self.root.winfo_children():
            child.destroy()
        self.root.unbind("<Key>")

    def redraw(self) -> None:
        puzzle = self.puzzle
        shown = self.moves.candidates() if self.show_all_var.get() and not puzzle.solved else None
        self.board.draw(puzzle, shown)

    # --- the window's commands (tests call them by name) -------------------------------------

    def hint(self) -> bool:
        return self.moves.hint()

    def check(self) -> Optional[Set[Cell]]:
        return self.moves.check()

    def solve(self) -> bool:
        return self.moves.solve()

    @property
    def animating(self) -> bool:
        return self.moves.animating

    @property
    def refused(self) -> int:
        return self.moves.refused

    def status(self, text: str, error: bool = False) -> None:
        self.status_var.set(text)
        self.status_label.config(fg="#b00020" if error else "#444")
