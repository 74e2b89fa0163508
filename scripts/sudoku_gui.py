#!/usr/bin/env python3
"""Competitive Sudoku in a Tkinter window: play against the agent, or watch two agents; step
through and analyse a saved game; or the classic single-player sudoku (`--mode puzzle`,
scripts/sudoku_puzzle_gui.py).

The board with its block lines and 1-based row and column numbers, each player's cells in their
colour, the squares the player to move may use (allowed-squares modes, when the engine reports
them), both scores, the move list (who played what, taboo moves marked) with buttons to step
through it, the taboo list, whose turn it is, a Hint button with an analysis panel (the
engine's score, depth and line as it searches), Save game / Load game (protocol/records.md), a
time-per-move setting and a board chooser (size, mode, board file). Click a cell, then a value,
to move. Every rule is the engine's: moves go through `play` and the window draws what `show`
reports.

    python3 scripts/sudoku_gui.py [--engine PATH] [--board 3x3|9x9] [--mode classic]
                                  [--player1 human] [--player2 default] [--movetime 500]
                                  [--file BOARD] [--load RECORD]
    python3 scripts/sudoku_gui.py --mode puzzle [--board 3x3] [--difficulty easy] [--seed 1] [--file F]

The Mode choice in the window switches between the competitive modes and `puzzle`.
"""
from __future__ import annotations

import argparse
import os
import queue
import shutil
import sys
import threading
import tkinter as tk
from tkinter import filedialog, ttk
from typing import Callable, List, Optional, Tuple

from engines import MODES, EngineDied, EngineError, EngineProblem, SudokuEngine, SudokuMove, SudokuState, find_binary
from engines.cli import HelpFormatter, check_option_values
from engines.frontend import ALARM, EngineSupervision
from engines.record import GameRecord, RecordError, Setup, Step, format_records, parse_records
from engines.sudoku import value_char
from engines.tools import DIFFICULTIES, SudokuTools
from sudoku_puzzle_gui import PuzzleApp

BOARD_PX = 450  # the board's side at the window's first size; it follows the window
LABELS_PX = 18  # the row and column numbers left of and above the board
# Every board size by its name: the block shape, then the grid it makes.
SIZES = ("2x2 (4x4 grid)", "2x3 (6x6 grid)", "3x3 (9x9 grid)", "3x4 (12x12 grid)", "4x4 (16x16 grid)",
         "4x5 (20x20 grid)", "5x5 (25x25 grid)")
HINT = "#1e8449"
NO_ANALYSIS = "analysis: press Hint"


class BoardSizeError(ValueError):
    """A board size that is not a block shape nor a grid that names one."""


def block_shape(text: str) -> Tuple[int, int]:
    """The block shape `m x n` a board size names: a block shape (`3x3`, or a SIZES entry), or a
    grid size (`9x9`) whose side has one closest factor pair m <= n (4, 6, 9, 12, 16, 20, 25...)."""
    words = text.strip().lower().split()
    m_text, _, n_text = (words[0] if words else "").partition("x")
    if not (m_text.isdigit() and n_text.isdigit()):
        raise BoardSizeError(f"board size '{text}': give a block shape like 3x3 or a grid like 9x9")
    m, n = int(m_text), int(n_text)
    if m >= 1 and n >= 1 and m * n <= 25 and m * n >= 2:
        return m, n
    if m == n and m <= 25:
        pairs = [(a, m // a) for a in range(2, m + 1) if m % a == 0 and a <= m // a]
        if pairs:
            return max(pairs)
    raise BoardSizeError(f"board size '{text}' is not a board: blocks m x n need m*n <= 25 (e.g. 3x3), "
                         f"a grid N x N needs N = m*n with blocks of at least 2x2 (e.g. 9x9)")


def size_name(m: int, n: int) -> str:
    return f"{m}x{n} ({m * n}x{m * n} grid)"


def cell_name(r: int, c: int) -> str:
    """A cell as the window names it: 1-based `r<row>c<col>`."""
    return f"r{r + 1}c{c + 1}"


def move_name(move: SudokuMove) -> str:
    return f"{cell_name(move.row, move.col)}={move.value}"


def pv_text(words: List[str]) -> str:
    """The engine's line (`pv` of `info`, protocol moves) in the window's names."""
    out = []
    for w in words:
        try:
            out.append(move_name(SudokuMove.parse(w)))
        except Exception:
            out.append(w)
    return " ".join(out)
COLOURS = {1: "#2f6fb5", 2: "#c0392b"}
FILL = {0: "white", 1: "#d7e6f7", 2: "#f7dcd8"}
HUMAN = "human"


class SudokuApp(EngineSupervision):
    def __init__(self, root: tk.Tk, engine: SudokuEngine, board: str = "3x3", mode: str = "classic",
                 players: Tuple[str, str] = (HUMAN, "default"), movetime: int = 500,
                 on_switch: Optional[Callable[[str], None]] = None):
        self.root = root
        self.engine = engine  # watched, reported and restarted by EngineSupervision
        # Called with "puzzle" when that mode is chosen (the window then shows the puzzle game).
        self.on_switch = on_switch
        self.closed = False
        self.state: Optional[SudokuState] = None
        self.selected: Optional[Tuple[int, int]] = None
        self.thinking = False  # a search (an agent's move or a hint) is running
        self.search_kind = ""
        self.search_thread: Optional[threading.Thread] = None
        self.generation = 0  # bumps on every new game or jump, so a stale search result is dropped
        self.results: "queue.Queue[Tuple[int, str, object]]" = queue.Queue()
        self.infos: "queue.Queue[Tuple[int, dict]]" = queue.Queue()
        self.last_reply = ""
        self.game_over = False
        self.board_file: Optional[str] = None
        # How the game on screen came about, so a restarted engine can be given it again and a
        # record can be saved: the set-up (a `position` line or a board file), the start
        # position as the engine read it, every step (who played what), and how many of the
        # steps the board shows (fewer while stepping back through the game).
        self.setup: Optional[Tuple[str, str]] = None
        self.start: Optional[Setup] = None
        self.steps: List[Step] = []
        self.view = 0
        self.hint: Optional[SudokuMove] = None
        self.board_px = BOARD_PX
        self.left = 0  # the blank left of the row numbers when the canvas is wider than tall
        self.dialog: Optional[tk.Toplevel] = None  # the open error dialog (refuse)
        self.dialog_text = ""

        root.title("Competitive Sudoku")
        agent_opt = engine.options.get("Agent")
        self.agents = list(agent_opt.choices) if agent_opt and agent_opt.choices else [agent_opt.default if agent_opt else "default"]
        self.analysis_agent = agent_opt.default if agent_opt and agent_opt.default else self.agents[0]

        top = tk.Frame(root)
        top.pack(fill="x", padx=8, pady=4)
        self.score_var = tk.StringVar()
        self.turn_var = tk.StringVar()
        tk.Label(top, textvariable=self.score_var, font=("Helvetica", 15, "bold")).pack(side="left")
        tk.Label(top, textvariable=self.turn_var, font=("Helvetica", 12)).pack(side="right")

        middle = tk.Frame(root)
        middle.pack(padx=8, fill="both", expand=True)
        side = tk.Frame(middle)
        side.pack(side="right", fill="y", padx=(8, 0))
        side_px = BOARD_PX + LABELS_PX + 4
        self.canvas = tk.Canvas(middle, width=side_px, height=side_px, bg=root.cget("bg"), highlightthickness=0)
        self.canvas.pack(side="left", fill="both", expand=True)
        self.canvas.bind("<ButtonPress-1>", self.on_click)
        self.canvas.bind("<Configure>", self.on_resize)
        root.bind("<Key>", self.on_key)

        tk.Label(side, text="Moves").pack(anchor="w")
        self.move_list = tk.Listbox(side, width=22, height=12, exportselection=False)
        self.move_list.pack(fill="both", expand=True)
        self.move_list.bind("<<ListboxSelect>>", self.on_move_selected)
        replay = tk.Frame(side)
        replay.pack(fill="x", pady=2)
        self.replay_buttons = {}
        for name, text, command in (("first", "|<", lambda: self.goto(0)), ("back", "<", lambda: self.goto(self.view - 1)),
                                    ("forward", ">", lambda: self.goto(self.view + 1)),
                                    ("last", ">|", lambda: self.goto(len(self.steps)))):
            self.replay_buttons[name] = tk.Button(replay, text=text, width=2, command=command)
            self.replay_buttons[name].pack(side="left")
        tk.Label(side, text="Taboo moves").pack(anchor="w")
        self.taboo_list = tk.Listbox(side, width=22, height=4)
        self.taboo_list.pack(fill="x")
        self.hint_button = tk.Button(side, text="Hint / analyse", command=self.show_hint)
        self.hint_button.pack(fill="x", pady=(6, 0))
        self.analysis_var = tk.StringVar(value=NO_ANALYSIS)
        tk.Label(side, textvariable=self.analysis_var, justify="left", anchor="w", wraplength=170,
                 font=("Helvetica", 9)).pack(fill="x")

        self.values_frame = tk.Frame(root)
        self.values_frame.pack(pady=4)

        chooser = tk.Frame(root)
        chooser.pack(fill="x", padx=8, pady=2)
        tk.Label(chooser, text="Board").pack(side="left")
        try:
            board = size_name(*block_shape(board))
        except BoardSizeError:
            pass  # new_game refuses it in a dialog
        self.size_var = tk.StringVar(value=board)
        ttk.Combobox(chooser, textvariable=self.size_var, values=SIZES, width=15).pack(side="left", padx=2)
        tk.Label(chooser, text="Mode").pack(side="left", padx=(6, 0))
        self.mode_var = tk.StringVar(value=mode)
        ttk.Combobox(chooser, textvariable=self.mode_var, values=MODES + (("puzzle",) if on_switch else ()), width=8,
                     state="readonly").pack(side="left", padx=2)
        tk.Button(chooser, text="New game", command=self.new_game).pack(side="left", padx=4)
        tk.Button(chooser, text="Board file...", command=self.choose_file).pack(side="left")

        files = tk.Frame(root)
        files.pack(fill="x", padx=8, pady=2)
        tk.Button(files, text="Save game...", command=self.choose_save).pack(side="left")
        tk.Button(files, text="Load game...", command=self.choose_load).pack(side="left", padx=4)

        players_row = tk.Frame(root)
        players_row.pack(fill="x", padx=8, pady=2)
        self.player_vars = []
        for p in (1, 2):
            tk.Label(players_row, text=f"Player {p}", fg=COLOURS[p]).pack(side="left", padx=(0 if p == 1 else 8, 2))
            var = tk.StringVar(value=players[p - 1])
            ttk.Combobox(players_row, textvariable=var, values=[HUMAN] + self.agents, width=9, state="readonly").pack(side="left")
            var.trace_add("write", lambda *_: self.root.after(50, self.maybe_agent_move))
            self.player_vars.append(var)
        tk.Label(players_row, text="ms/move").pack(side="left", padx=(8, 2))
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(players_row, from_=10, to=60000, increment=100, textvariable=self.movetime_var, width=6).pack(side="left")

        self.status_var = tk.StringVar()
        self.engine_status_row(root, self.status_var, (560, 460), pady=(0, 4))

        self.new_game()

    # --- setting up ----------------------------------------------------------------------------

    def refuse(self, title: str, text: str) -> None:
        """A problem the user must see: a dialog (and the status line). The dialog does not
        block the window (a modal one would stop the engine's moves and the tests)."""
        self.status(text)
        if self.closed:
            return
        self.close_dialog()
        dialog = tk.Toplevel(self.root)
        dialog.title(title)
        dialog.transient(self.root)
        tk.Label(dialog, text=text, wraplength=360, justify="left", fg=ALARM).pack(padx=12, pady=(12, 6))
        tk.Button(dialog, text="OK", width=8, command=self.close_dialog).pack(pady=(0, 10))
        dialog.bind("<Return>", lambda _e: self.close_dialog())
        self.dialog, self.dialog_text = dialog, text

    def close_dialog(self) -> None:
        if self.dialog is not None:
            try:
                self.dialog.destroy()
            except tk.TclError:
                pass
        self.dialog, self.dialog_text = None, ""

    def new_game(self, path: Optional[str] = None) -> None:
        if self.mode_var.get() == "puzzle" and self.on_switch is not None and not path:
            self.on_switch("puzzle")
            return
        if self.engine_dead is not None:
            return  # the game on screen is kept until the engine is restarted
        if not path:
            try:
                m, n = block_shape(self.size_var.get())
            except BoardSizeError as err:
                self.refuse("Board size", str(err))
                return
        self.cancel_search()
        self.selected = None
        self.game_over = False
        self.board_file = path
        try:
            self.engine.newgame()
            if path:
                setup = ("file", path)
            else:
                rows = "/".join(["." * (m * n)] * (m * n))
                setup = ("line", SudokuEngine.position_line(m, n, rows, mode=self.mode_var.get()))
            self.apply_setup(setup)
            state = self.engine.state()
        except (ValueError, EngineError) as err:
            self.refuse("Board", f"cannot set up that board: {getattr(err, 'message', err)}")
            return
        except EngineProblem as err:
            self.engine_failed(err)
            return
        self.start_from(setup, state)
        self.status("new game" + (f" from {os.path.basename(path)}" if path else ""))
        self.refresh()
        self.root.after(50, self.maybe_agent_move)

    def start_from(self, setup: Tuple[str, str], state: SudokuState) -> None:
        """The game now starts at `state` (what the engine read from `setup`): the Board and Mode
        choices follow it (a rows-mode board file shows rows)."""
        self.setup, self.steps, self.view, self.hint = setup, [], 0, None
        self.analysis_var.set(NO_ANALYSIS)
        self.start = Setup.from_state(state, (self.player_kind(1), self.player_kind(2)),
                                      tuple(self.time_text(p) for p in (1, 2)))
        self.size_var.set(size_name(state.m, state.n))
        self.mode_var.set(state.mode)

    def time_text(self, player: int) -> str:
        return "none" if self.player_kind(player) == HUMAN else f"movetime {self.movetime()}"

    def movetime(self) -> int:
        try:
            return max(1, int(self.movetime_var.get()))
        except ValueError:
            return 500

    def apply_setup(self, setup: Tuple[str, str]) -> None:
        kind, text = setup
        if kind == "file":
            self.engine.position_file(text)
        else:
            self.engine.command(text)

    # --- the engine's supervision (engines/frontend.py) -------------------------------------

    def on_engine_death(self, err: EngineDied) -> None:
        self.generation += 1  # a search of the dead engine has nothing more to say
        self.thinking = False

    def settle_engine(self) -> None:
        if self.search_thread is not None:
            self.search_thread.join(timeout=5)

    def window_closed(self) -> bool:
        return self.closed

    def resume_engine(self) -> None:
        """The game on screen, given to the restarted engine: the same set-up and the same
        moves, played through its own `play`."""
        self.engine.newgame()
        if self.setup is not None:
            self.apply_setup(self.setup)
            for step in self.steps[:self.view]:
                self.engine.play(step.move) if step.move is not None else self.engine.play_none()

    @property
    def moves(self) -> List[Optional[SudokuMove]]:
        """The moves that led to the position on the board."""
        return [step.move for step in self.steps[:self.view]]

    def engine_resumed(self) -> None:
        self.refresh()
        self.root.after(50, self.maybe_agent_move)

    def cancel_search(self) -> None:
        """Stops a search in progress; the engine is ours again afterwards."""
        self.generation += 1
        if self.thinking and self.search_thread is not None:
            try:
                self.engine.stop()
            except EngineProblem:
                pass
            self.search_thread.join(timeout=5)
        self.thinking = False

    def close(self) -> None:
        """Ends the game (and its search) and clears the window for another mode."""
        self.cancel_search()
        self.closed = True
        for child in self.root.winfo_children():
            child.destroy()
        self.root.unbind("<Key>")

    def choose_file(self) -> None:
        path = filedialog.askopenfilename(title="Board file", filetypes=[("Board files", "*.txt"), ("All files", "*")])
        if path:
            self.new_game(path)

    # --- records: save, load, step through ------------------------------------------------------

    def game_record(self) -> GameRecord:
        """The game so far (every step, also those after the move on the board) as a record."""
        setup = Setup(**{**self.start.__dict__, "players": (self.player_kind(1), self.player_kind(2)),
                         "times": (self.time_text(1), self.time_text(2))})
        rec = GameRecord(1, setup, list(self.steps))
        if self.view == len(self.steps) and self.state is not None:
            final = Setup.from_state(self.state, setup.players, setup.times)
            rec.final = final.position_line()
            if self.state.result is not None:
                rec.result = (tuple(self.state.scores), self.state.result)
        return rec

    def save_game(self, path: str) -> bool:
        if self.start is None:
            return False
        if self.view != len(self.steps):
            self.goto(len(self.steps))  # the record ends with the position after the last step
        try:
            with open(path, "w") as out:
                out.write(format_records([self.game_record()], "sudoku_gui.py"))
        except OSError as err:
            self.refuse("Save game", f"cannot save {path}: {err.strerror or err}")
            return False
        self.status(f"saved {len(self.steps)} moves to {os.path.basename(path)}")
        return True

    def load_game(self, path: str) -> bool:
        """Loads the first game of a record and shows its last position; both players become
        human so that nothing moves by itself while the game is stepped through."""
        try:
            with open(path) as f:
                rec = parse_records(f.read())[0]
        except (OSError, UnicodeDecodeError) as err:
            self.refuse("Load game", f"cannot read {path}: {getattr(err, 'strerror', None) or err}")
            return False
        except RecordError as err:
            self.refuse("Load game", f"{os.path.basename(path)}: {err}")
            return False
        if self.engine_dead is not None:
            return False
        self.cancel_search()
        for var in self.player_vars:
            var.set(HUMAN)
        setup = ("line", rec.setup.position_line())
        try:
            self.engine.newgame()
            self.apply_setup(setup)
            state = self.engine.state()
            self.start_from(setup, state)
            self.start.players, self.start.times = rec.setup.players, rec.setup.times
            turn = state.turn
            for k, step in enumerate(rec.steps, 1):
                if step.player != turn:
                    raise EngineError(f"the record has player {step.player} moving, but player {turn} is to move")
                reply = self.engine.play(step.move) if step.move is not None else self.engine.play_none()
                turn = reply.turn
                self.steps.append(Step(step.player, step.move, reply.outcome == "taboo"))
                self.view = k
        except EngineError as err:
            bad = len(self.steps) + 1
            self.refresh()
            self.refuse("Load game", f"{os.path.basename(path)}: move {bad} is refused by the engine: {err.message}; "
                                     f"the game is shown up to move {bad - 1}")
            return False
        except EngineProblem as err:
            self.engine_failed(err)
            return False
        self.status(f"loaded {os.path.basename(path)}: {len(self.steps)} moves "
                    f"({rec.setup.players[0]} vs {rec.setup.players[1]})")
        self.refresh()
        return True

    def choose_save(self) -> None:
        path = filedialog.asksaveasfilename(title="Save game", defaultextension=".txt",
                                            filetypes=[("Game records", "*.txt"), ("All files", "*")])
        if path:
            self.save_game(path)

    def choose_load(self) -> None:
        path = filedialog.askopenfilename(title="Load game", filetypes=[("Game records", "*.txt"), ("All files", "*")])
        if path:
            self.load_game(path)

    def goto(self, k: int) -> None:
        """Shows the position after `k` steps: the engine is set to it (so Hint analyses it and a
        move played there starts a new line from it)."""
        k = max(0, min(k, len(self.steps)))
        if self.setup is None or self.engine_dead is not None:
            return
        self.cancel_search()
        self.selected, self.hint = None, None
        try:
            self.engine.newgame()
            self.apply_setup(self.setup)
            for step in self.steps[:k]:
                self.engine.play(step.move) if step.move is not None else self.engine.play_none()
        except EngineError as err:
            self.status(f"cannot replay to move {k}: {err.message}")
            return
        except EngineProblem as err:
            self.engine_failed(err)
            return
        self.view = k
        self.analysis_var.set(NO_ANALYSIS)
        self.status(f"move {k} of {len(self.steps)}" + ("" if k == len(self.steps) else
                                                         " (a move played here replaces the rest)"))
        self.refresh()
        if k == len(self.steps):
            self.root.after(50, self.maybe_agent_move)

    def on_move_selected(self, _event=None) -> None:
        chosen = self.move_list.curselection()
        if chosen and chosen[0] != self.view:
            self.goto(chosen[0])

    # --- moves -------------------------------------------------------------------------------

    def player_kind(self, player: int) -> str:
        return self.player_vars[player - 1].get()

    def human_to_move(self) -> bool:
        return self.state is not None and self.engine_dead is None and not self.game_over and self.player_kind(self.state.turn) == HUMAN

    def play(self, move: Optional[SudokuMove]) -> bool:
        player = self.state.turn if self.state is not None else 1
        try:
            reply = self.engine.play(move) if move is not None else self.engine.play_none()
        except EngineError as err:
            self.status(f"{move_name(move) if move else 'pass'}: {err.message}")
            return False
        except EngineProblem as err:
            self.engine_failed(err)
            return False
        del self.steps[self.view:]  # a move played while stepping back starts a new line
        self.steps.append(Step(player, move, reply.outcome == "taboo"))
        self.view = len(self.steps)
        self.hint = None
        self.analysis_var.set(NO_ANALYSIS)  # the panel spoke of the position before this move
        if reply.outcome == "placed":
            text = f"player {player}: {move_name(move)} placed, {reply.points} point{'s' if reply.points != 1 else ''}"
        elif reply.outcome == "taboo":
            text = f"player {player}: {move_name(move)} is taboo: the turn passes"
        else:
            text = f"player {player}: no playable cell, the turn passes"
        self.last_reply = reply.line
        self.selected = None
        if reply.result is not None:
            self.game_over = True
            text += " - " + ("draw" if reply.result == "draw" else f"player {reply.result} wins")
        self.status(text)
        self.refresh()
        if not self.game_over:
            self.root.after(50, self.maybe_agent_move)
        return True

    def maybe_agent_move(self) -> None:
        """Starts a search in the background when an agent is to move (at the game's end only)."""
        if self.closed or self.thinking or self.game_over or self.state is None or self.engine_dead is not None:
            return
        if self.view != len(self.steps):
            return
        agent = self.player_kind(self.state.turn)
        if agent == HUMAN:
            return
        self.status(f"player {self.state.turn} ({agent}) is thinking...")
        self.search("move", agent)

    def show_hint(self) -> None:
        """The engine's move for the side to move in the position on the board, drawn on the
        board; the analysis panel follows the search."""
        if self.closed or self.state is None or self.engine_dead is not None:
            return
        if self.game_over:
            self.status("the game is over: no hint")
            return
        if self.thinking:
            self.status("the engine is busy")
            return
        self.hint = None
        self.status(f"analysing for player {self.state.turn}...")
        self.search("hint", self.analysis_agent)

    def search(self, kind: str, agent: str) -> None:
        self.thinking, self.search_kind = True, kind
        self.analysis_var.set(f"analysis ({agent}): searching...")
        generation = self.generation
        movetime = self.movetime()

        def run() -> None:
            try:
                self.engine.setoption("Agent", agent)
                result = self.engine.go(movetime=movetime, on_info=lambda info: self.infos.put((generation, info)))
                self.results.put((generation, kind, result))
            except EngineProblem as err:
                self.results.put((generation, kind, err))

        self.search_thread = threading.Thread(target=run, daemon=True)
        self.search_thread.start()
        self.root.after(20, self.collect_search)

    def show_info(self, info: dict) -> None:
        """The analysis panel from one `info` line: score (for the side to move), depth, nodes, line."""
        lines = []
        if "score" in info:
            lines.append(f"score {info['score']:+}" + (" (exact)" if info.get("exact") else ""))
        if "depth" in info:
            lines.append(f"depth {info['depth']}" + (f", {info['nodes']} nodes" if "nodes" in info else ""))
        if info.get("pv"):
            lines.append("line " + pv_text(info["pv"]))
        if lines:
            self.analysis_var.set("\n".join(lines))

    def collect_search(self) -> None:
        if self.closed:
            return
        while True:
            try:
                generation, info = self.infos.get_nowait()
            except queue.Empty:
                break
            if generation == self.generation:
                self.show_info(info)
        while True:
            try:
                generation, kind, result = self.results.get_nowait()
            except queue.Empty:
                if self.thinking:
                    self.root.after(20, self.collect_search)
                return
            if generation == self.generation:
                break
            # else: a search cancelled by a new game or a dead engine; keep waiting for ours
        self.thinking = False
        if isinstance(result, Exception):
            self.engine_failed(result)
            return
        if not result.infos:
            self.analysis_var.set("analysis: the agent reported no search lines")
        if kind == "hint":
            self.hint = result.move
            self.status(f"hint for player {self.state.turn}: " + (move_name(result.move) if result.move else "pass"))
            self.refresh(fetch=False)
            return
        mover, searched = self.state.turn, self.analysis_var.get()
        if self.play(result.move) and result.infos:
            self.analysis_var.set(f"player {mover}'s search:\n{searched}")

    def on_click(self, event) -> None:
        if not self.human_to_move():
            return
        cell = self.cell_at(event.x, event.y)
        if cell is None:
            return
        r, c = cell
        if self.state.values[r][c]:
            self.selected = None
        else:
            self.selected = cell
        self.refresh(fetch=False)

    def on_key(self, event) -> None:
        if self.selected is None or not event.char:
            return
        ch = event.char.upper()
        if ch.isdigit() and ch != "0":
            value = int(ch)
        elif "A" <= ch <= "Z":
            value = ord(ch) - ord("A") + 10
        else:
            return
        self.choose_value(value)

    def choose_value(self, value: int) -> None:
        if self.selected is None or not self.human_to_move():
            return
        r, c = self.selected
        self.play(SudokuMove(r, c, value))

    def pass_turn(self) -> None:
        if self.human_to_move():
            self.play(None)

    # --- drawing -------------------------------------------------------------------------------

    def on_resize(self, event) -> None:
        side = max(120, min(event.width, event.height) - LABELS_PX - 4)
        left = max(0, (event.width - side - LABELS_PX - 4) // 2)
        if (side, left) != (self.board_px, self.left):
            self.board_px, self.left = side, left
            if self.state is not None:
                self.refresh(fetch=False)

    def geometry(self) -> Tuple[int, float]:
        size = self.state.size
        return size, self.board_px / size

    def cell_at(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        size, cell = self.geometry()
        origin = LABELS_PX + 2
        x -= self.left
        if x < origin or y < origin:
            return None
        r, c = int((y - origin) // cell), int((x - origin) // cell)
        return (r, c) if 0 <= r < size and 0 <= c < size else None

    def cell_centre(self, r: int, c: int) -> Tuple[int, int]:
        _, cell = self.geometry()
        origin = LABELS_PX + 2
        return int(self.left + origin + (c + 0.5) * cell), int(origin + (r + 0.5) * cell)

    def refresh(self, fetch: bool = True) -> None:
        if fetch:
            try:
                self.state = self.engine.state()
            except EngineProblem as err:
                self.engine_failed(err)
                return
            self.game_over = self.state.result is not None
        st = self.state
        if st is None:
            return
        size, cell = self.geometry()
        c = self.canvas
        c.delete("all")
        o = LABELS_PX + 2  # the board's top edge; its left edge is ox
        ox = self.left + o
        side = self.board_px
        label_font = ("Helvetica", max(7, min(11, int(cell * 0.3))))
        for k in range(size):
            c.create_text(ox + (k + 0.5) * cell, o / 2, text=str(k + 1), font=label_font, fill="#666", tags=("label",))
            c.create_text(self.left + o / 2, o + (k + 0.5) * cell, text=str(k + 1), font=label_font, fill="#666", tags=("label",))
        allowed = st.allowed.get(st.turn)
        allowed_set = set(allowed) if allowed is not None and st.mode != "classic" else None
        for r in range(size):
            for col in range(size):
                x, y = ox + col * cell, o + r * cell
                owner = st.owners[r][col]
                fill = FILL[owner]
                if not st.values[r][col] and allowed_set is not None and (r, col) in allowed_set:
                    fill = "#fff4c2"  # the squares the player to move may use
                if self.selected == (r, col):
                    fill = "#ffe08a"
                c.create_rectangle(x, y, x + cell, y + cell, fill=fill, outline="#bbb", tags=("cell", f"c{r}_{col}"))
                v = st.values[r][col]
                if v:
                    c.create_text(x + cell / 2, y + cell / 2, text=value_char(v), font=("Helvetica", max(9, int(cell * 0.45)), "bold"),
                                  fill=COLOURS.get(owner, "black"))
        for k in range(size + 1):
            row_w = 3 if k % st.m == 0 else 1
            col_w = 3 if k % st.n == 0 else 1
            c.create_line(ox, o + k * cell, ox + side, o + k * cell, width=row_w)
            c.create_line(ox + k * cell, o, ox + k * cell, o + side, width=col_w)
        if self.hint is not None:
            x, y = ox + self.hint.col * cell, o + self.hint.row * cell
            c.create_rectangle(x + 2, y + 2, x + cell - 2, y + cell - 2, outline=HINT, width=3, tags=("hint",))
            c.create_text(x + cell / 2, y + cell / 2, text=value_char(self.hint.value), fill=HINT,
                          font=("Helvetica", max(9, int(cell * 0.45)), "italic"), tags=("hint",))
        self.score_var.set(f"Player 1: {st.scores[0]}   Player 2: {st.scores[1]}")
        if st.result is not None or self.game_over:
            res = st.result
            self.turn_var.set("game over: " + ("draw" if res == "draw" else f"player {res} wins" if res else ""))
        else:
            self.turn_var.set(f"to move: player {st.turn} ({self.player_kind(st.turn)})")
        self.draw_moves(st)
        self.draw_value_buttons(size)

    def move_entry(self, k: int, step: Step) -> str:
        if step.move is None:
            return f"{k}. P{step.player} pass"
        return f"{k}. P{step.player} {move_name(step.move)}" + (" taboo" if step.taboo else "")

    def draw_moves(self, st: SudokuState) -> None:
        """The move list (who played what, taboo moves marked; the position shown selected) and
        the taboo list (who found each taboo move; `start` for those the game began with)."""
        self.move_list.delete(0, "end")
        self.move_list.insert("end", "0. start")
        for k, step in enumerate(self.steps, 1):
            self.move_list.insert("end", self.move_entry(k, step))
        self.move_list.selection_clear(0, "end")
        self.move_list.selection_set(self.view)
        self.move_list.see(self.view)
        who = {step.move: step.player for step in self.steps[:self.view] if step.taboo}
        self.taboo_list.delete(0, "end")
        for move in st.taboo:
            self.taboo_list.insert("end", f"{move_name(move)} " + (f"P{who[move]}" if move in who else "start"))
        at_start, at_end = self.view == 0, self.view == len(self.steps)
        for name, off in (("first", at_start), ("back", at_start), ("forward", at_end), ("last", at_end)):
            self.replay_buttons[name].config(state="disabled" if off else "normal")

    def draw_value_buttons(self, size: int) -> None:
        if len(self.values_frame.winfo_children()) == size + 1:
            return
        for child in self.values_frame.winfo_children():
            child.destroy()
        for v in range(1, size + 1):
            tk.Button(self.values_frame, text=value_char(v), width=2, command=lambda v=v: self.choose_value(v)).pack(side="left")
        tk.Button(self.values_frame, text="Pass", command=self.pass_turn).pack(side="left", padx=(6, 0))

    def status(self, text: str) -> None:
        self.status_var.set(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Competitive Sudoku front end driving sudoku-agent through its protocol,\n"
                                                 "or (--mode puzzle) the classic sudoku with the engine as its referee and solver.",
                                     formatter_class=HelpFormatter)
    parser.add_argument("--engine", help="agent command (default: sudoku-agent from $ENGINE_BIN_DIR or target/release)")
    parser.add_argument("--board", default="3x3", help="block shape m x n (3x3), or the grid it makes (9x9); "
                                                       "puzzle: 2x2, 2x3, 3x3, 3x4, 4x4")
    parser.add_argument("--mode", default="classic", choices=MODES + ("puzzle",), help="play mode, or the puzzle")
    parser.add_argument("--file", help="start from a board file (either course-framework format); puzzle mode: a puzzle file")
    parser.add_argument("--load", help="open a game record (protocol/records.md) to step through and analyse")
    parser.add_argument("--player1", default=HUMAN, help="'human' or one of the engine's agents (its Agent option)")
    parser.add_argument("--player2", default="default", help="'human' or one of the engine's agents")
    parser.add_argument("--movetime", type=int, default=500, help="agent time per move in ms")
    parser.add_argument("--difficulty", default="easy", choices=DIFFICULTIES, help="puzzle mode: difficulty of New")
    parser.add_argument("--seed", type=int, default=1, help="puzzle mode: seed of the first generated puzzle")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        m, n = block_shape(args.board)
    except BoardSizeError as err:
        parser.error(str(err))
    args.board = f"{m}x{n}"
    if args.engine:
        program = args.engine.split()[0] if args.engine.split() else ""
        if not (shutil.which(program) or os.path.isfile(program)):
            print(f"sudoku_gui: --engine '{args.engine}': no such program", file=sys.stderr)
            return 2
    if args.load and args.mode == "puzzle":
        parser.error("--load opens a Competitive Sudoku game record, not a puzzle")
    agents = [p for p in (args.player1, args.player2) if p != HUMAN]
    if args.mode != "puzzle" and agents:
        try:
            command = args.engine.split() if args.engine else [str(find_binary("sudoku-agent"))]
        except FileNotFoundError as err:
            parser.error(str(err))
        refusal = check_option_values(command, SudokuEngine, [("Agent", agents)], "sudoku_gui")
        if refusal:
            parser.error(refusal)
    try:
        root = tk.Tk()
    except tk.TclError as err:
        print(f"sudoku_gui: no display to open the window on ({err})", file=sys.stderr)
        return 2
    window = Window(root, args)
    try:
        app = window.start(args.mode, args.file)
    except (EngineProblem, OSError) as err:
        text = " ".join(str(err).split())
        print(f"sudoku_gui: cannot start the engine {' '.join(window.engine_argv or ['sudoku-agent'])}: {text}",
              file=sys.stderr)
        root.destroy()
        return 2
    if args.load and isinstance(app, SudokuApp):
        app.load_game(os.path.abspath(args.load))
    try:
        root.mainloop()
    finally:
        window.close()
    return 0


class Window:
    """The window's game: a competitive-sudoku SudokuApp or the PuzzleApp, switched by the Mode choice."""

    def __init__(self, root: tk.Tk, args: argparse.Namespace):
        self.root = root
        self.args = args
        self.engine_argv = args.engine.split() if args.engine else None
        self.app: Optional[object] = None

    def close(self) -> None:
        if self.app is not None:
            try:
                self.app.close()
            except tk.TclError:
                pass  # the window is gone already
            if isinstance(self.app, SudokuApp):
                self.app.engine.quit()
            self.app = None

    def start(self, mode: str, file: Optional[str] = None) -> object:
        self.close()
        args = self.args
        if mode == "puzzle":
            tools = SudokuTools(self.engine_argv[0] if self.engine_argv else None)
            app = PuzzleApp(self.root, tools, shape=args.board, difficulty=args.difficulty, seed=args.seed,
                            on_switch=self.start, other_modes=MODES)
            if file:
                app.open_path(os.path.abspath(file))
        else:
            app = SudokuApp(self.root, SudokuEngine(self.engine_argv), board=args.board, mode=mode,
                            players=(args.player1, args.player2), movetime=args.movetime, on_switch=self.start)
            if file:
                app.new_game(os.path.abspath(file))
        self.app = app
        return app


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    return _parser().parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
