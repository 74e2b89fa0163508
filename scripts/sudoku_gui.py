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
import shutil
import sys
import tkinter as tk
from tkinter import filedialog, ttk
from typing import Callable, Dict, List, Optional, Tuple

from engines import MODES, EngineDied, EngineError, EngineProblem, SudokuEngine, SudokuMove, SudokuState, find_binary
from engines.cli import HelpFormatter, check_option_values
from engines.windows import (
    BoardAndPanel, BusyIndicator, Dialogs, EngineCalls, EngineSupervision, Flow, ScrollPanel, stop_search,
)
from engines.record import GameRecord, RecordError, Setup, Step, format_records, parse_records
from engines.sudoku import value_char
from engines.tools import DIFFICULTIES, SudokuTools
from sudoku_puzzle_gui import PuzzleApp

BOARD_PX = 450  # the board's side at the window's first size; it follows the window
PANEL_W = 320  # the side panel: values, hint, moves, the game's settings
# The window opens within a 1366x768 screen; every control stays reachable down to MIN_SIZE
# (the side panel moves below the board and scrolls).
START_SIZE = (820, 600)
MIN_SIZE = (640, 480)
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
ALLOWED = "#fff0a8"  # the squares the player to move may use
SELECTED = "#b9a6f0"  # the selected cell: unlike any other fill, with a dark outline
SELECTED_OUTLINE = "#4a2a8a"
HUMAN = "human"


class PlayerSession:
    """An agent player's own engine: its Agent is set once (and again only when the choice
    changes), and the game's moves are played into it with `play`, so its table and search tree
    stay from move to move. Used on the worker thread only."""

    def __init__(self, engine: SudokuEngine, agent: str):
        self.engine = engine
        self.agent = agent
        self.setup: Optional[Tuple[str, str]] = None
        self.moves: List[Optional[SudokuMove]] = []

    @staticmethod
    def start(referee: SudokuEngine, agent: str) -> "PlayerSession":
        """A new process of the referee's engine, with its options and this agent."""
        options = {**referee.settings, "Agent": agent}
        engine = type(referee)(referee.argv, startup_timeout=referee.startup_timeout, margin=referee.margin,
                               cwd=referee.cwd, options=options)
        return PlayerSession(engine, agent)

    def sync(self, setup: Tuple[str, str], moves: List[Optional[SudokuMove]], agent: str) -> None:
        """Brings the session to the game on screen: the new moves only, when it follows it."""
        if agent != self.agent:
            self.engine.setoption("Agent", agent)
            self.agent = agent
        if setup == self.setup and moves[:len(self.moves)] == self.moves:
            for move in moves[len(self.moves):]:
                self.engine.play(move) if move is not None else self.engine.play_none()
        else:
            SudokuApp.replay(self.engine, setup, moves)
        self.setup, self.moves = setup, list(moves)


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
        self.searching: Optional[SudokuEngine] = None  # the engine a running search is on (for Stop)
        self.moving = False  # a move is with the referee: no other until it answers
        self.generation = 0  # bumps on every new game or jump, so a stale search result is dropped
        # One engine per agent player (PlayerSession), made when the player first moves.
        self.sessions: Dict[int, PlayerSession] = {}
        self.calls = EngineCalls(root, on_error=self.engine_failed)
        self.dialogs = Dialogs(root, "Competitive Sudoku")
        root.report_callback_exception = lambda kind, value, tb: self.refuse("Unexpected error", f"{kind.__name__}: {value}")
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

        root.title("Competitive Sudoku")
        if not root.winfo_ismapped():
            root.geometry(f"{START_SIZE[0]}x{START_SIZE[1]}")
        root.minsize(*MIN_SIZE)
        agent_opt = engine.options.get("Agent")
        self.agents = list(agent_opt.choices) if agent_opt and agent_opt.choices else [agent_opt.default if agent_opt else "default"]
        self.analysis_agent = agent_opt.default if agent_opt and agent_opt.default else self.agents[0]

        top = tk.Frame(root)
        top.pack(fill="x", padx=8, pady=4)
        self.score_var = tk.StringVar()
        self.turn_var = tk.StringVar()
        tk.Label(top, textvariable=self.score_var, font=("Helvetica", 13, "bold")).pack(side="left")
        self.busy = BusyIndicator(top, self.calls)
        self.busy.frame.pack(side="right")
        tk.Label(top, textvariable=self.turn_var, font=("Helvetica", 10)).pack(side="right")

        self.status_var = tk.StringVar()
        self.engine_status_row(root, self.status_var, (560, 460), pady=(0, 4))
        self.status_label.master.pack_configure(side="bottom")

        body = BoardAndPanel(root, board_min=280)
        body.pack(padx=8, fill="both", expand=True)
        side_px = BOARD_PX + LABELS_PX + 4
        self.canvas = tk.Canvas(body, width=side_px, height=side_px, bg=root.cget("bg"), highlightthickness=0)
        self.canvas.bind("<ButtonPress-1>", self.on_click)
        self.canvas.bind("<Configure>", self.on_resize)
        root.bind("<Key>", self.on_key)
        root.protocol("WM_DELETE_WINDOW", self.ask_close)
        self.panel = ScrollPanel(body, width=PANEL_W)
        body.place_parts(self.canvas, self.panel)
        side = self.panel.inner

        # The values first: a click on a cell, then on a value (or a key) moves.
        self.values_frame = Flow(side, gap=0)
        self.values_frame.pack(fill="x")
        self.hint_button = tk.Button(side, text="Hint / analyse", command=self.show_hint)
        self.hint_button.pack(fill="x", pady=(2, 0))
        self.analysis_var = tk.StringVar(value=NO_ANALYSIS)
        # A fixed height: the controls below do not move when the analysis grows or shrinks.
        self.analysis_label = tk.Label(side, textvariable=self.analysis_var, justify="left", anchor="nw",
                                       wraplength=PANEL_W - 20, height=3, font=("Helvetica", 9))
        self.analysis_label.pack(fill="x")
        self.legend = tk.Frame(side)
        self.legend.pack(fill="x")
        self.legend_allowed = self.swatch(self.legend, ALLOWED, "may play here")
        self.swatch(self.legend, SELECTED, "selected", outline=SELECTED_OUTLINE)
        self.swatch(self.legend, "white", "hint", outline=HINT)

        tk.Label(side, text="Moves").pack(anchor="w")
        self.move_list = tk.Listbox(side, width=22, height=5, exportselection=False)
        self.move_list.pack(fill="x")
        self.move_list.bind("<<ListboxSelect>>", self.on_move_selected)
        replay = self.replay_row = tk.Frame(side)
        replay.pack(fill="x", pady=2)
        self.replay_buttons = {}
        for name, text, command in (("first", "|<", lambda: self.goto(0)), ("back", "<", lambda: self.goto(self.view - 1)),
                                    ("forward", ">", lambda: self.goto(self.view + 1)),
                                    ("last", ">|", lambda: self.goto(len(self.steps)))):
            self.replay_buttons[name] = tk.Button(replay, text=text, width=2, command=command)
            self.replay_buttons[name].pack(side="left")
        # A record of several games: which one is shown.
        self.game_choice = tk.Frame(side)
        tk.Label(self.game_choice, text="Game").pack(side="left")
        self.game_var = tk.StringVar(value="")
        self.game_path = ""
        self.game_box = ttk.Combobox(self.game_choice, textvariable=self.game_var, width=10, state="readonly")
        self.game_box.pack(side="left", padx=2)
        self.game_box.bind("<<ComboboxSelected>>", lambda _e: self.pick_game())
        tk.Label(side, text="Taboo moves").pack(anchor="w")
        self.taboo_list = tk.Listbox(side, width=22, height=2)
        self.taboo_list.pack(fill="x")

        chooser = Flow(side)
        chooser.pack(fill="x", pady=(4, 0))
        try:
            board = size_name(*block_shape(board))
        except BoardSizeError:
            pass  # new_game refuses it in a dialog
        self.size_var = tk.StringVar(value=board)
        board_pair = tk.Frame(chooser)
        tk.Label(board_pair, text="Board").pack(side="left")
        ttk.Combobox(board_pair, textvariable=self.size_var, values=SIZES, width=14).pack(side="left", padx=2)
        mode_pair = tk.Frame(chooser)
        tk.Label(mode_pair, text="Mode").pack(side="left")
        self.mode_var = tk.StringVar(value=mode)
        ttk.Combobox(mode_pair, textvariable=self.mode_var, values=MODES + (("puzzle",) if on_switch else ()), width=8,
                     state="readonly").pack(side="left", padx=2)
        chooser.add(board_pair, mode_pair, tk.Button(chooser, text="New game", command=self.new_game),
                    tk.Button(chooser, text="Board file...", command=self.choose_file),
                    tk.Button(chooser, text="Save game...", command=self.choose_save),
                    tk.Button(chooser, text="Load game...", command=self.choose_load))

        players_row = Flow(side)
        players_row.pack(fill="x", pady=2)
        self.player_vars = []
        pairs = []
        for p in (1, 2):
            pair = tk.Frame(players_row)
            tk.Label(pair, text=f"Player {p}", fg=COLOURS[p]).pack(side="left", padx=(0, 2))
            var = tk.StringVar(value=players[p - 1])
            ttk.Combobox(pair, textvariable=var, values=[HUMAN] + self.agents, width=9, state="readonly").pack(side="left")
            var.trace_add("write", lambda *_: self.root.after(50, self.maybe_agent_move))
            self.player_vars.append(var)
            pairs.append(pair)
        ms_pair = tk.Frame(players_row)
        tk.Label(ms_pair, text="ms/move").pack(side="left", padx=(0, 2))
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(ms_pair, from_=10, to=60000, increment=100, textvariable=self.movetime_var, width=6).pack(side="left")
        players_row.add(*pairs, ms_pair)

        self.new_game()

    # --- setting up ----------------------------------------------------------------------------

    def refuse(self, title: str, text: str) -> None:
        """A problem the user must see: a dialog (and the status line). The dialog does not
        block the window (a modal one would stop the engine's moves and the tests)."""
        self.status(text)
        if not self.closed:
            self.dialogs.error(text, title)

    @property
    def dialog(self) -> Optional[tk.Toplevel]:
        return self.dialogs.window

    @property
    def dialog_text(self) -> str:
        return self.dialogs.text

    def close_dialog(self) -> None:
        self.dialogs.close()

    def ask_close(self) -> None:
        """Closing the window: asks first when a game is in progress, then ends the engines."""
        if self.steps and not self.game_over and not self.closed:
            self.dialogs.ask_close(f"The game in progress ({len(self.steps)} moves) is not saved. Close anyway?",
                                   self.close_window)
        else:
            self.close_window()

    def close_window(self) -> None:
        self.close()
        try:
            self.root.destroy()
        except tk.TclError:
            pass

    def swatch(self, parent: tk.Misc, fill: str, text: str, outline: str = "#bbb") -> tk.Frame:
        """One entry of the colour legend: a small square and what it means."""
        item = tk.Frame(parent)
        item.pack(side="left", padx=(0, 6))
        box = tk.Canvas(item, width=14, height=14, highlightthickness=0, bg=parent.cget("bg"))
        box.create_rectangle(2, 2, 13, 13, fill=fill, outline=outline, width=2)
        box.pack(side="left")
        tk.Label(item, text=text, font=("Helvetica", 8)).pack(side="left")
        return item

    def show_legend(self, allowed: bool) -> None:
        """The allowed squares' entry shows in the allowed-squares modes only."""
        if allowed and not self.legend_allowed.winfo_manager():
            self.legend_allowed.pack(side="left", padx=(0, 6), before=self.legend.winfo_children()[1])
        elif not allowed and self.legend_allowed.winfo_manager():
            self.legend_allowed.pack_forget()

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
        if path:
            setup = ("file", path)
        else:
            rows = "/".join(["." * (m * n)] * (m * n))
            try:
                setup = ("line", SudokuEngine.position_line(m, n, rows, mode=self.mode_var.get()))
            except ValueError as err:
                self.refuse("Board", f"cannot set up that board: {err}")
                return

        def work() -> SudokuState:
            self.engine.newgame()
            self.apply_setup(self.engine, setup)
            return self.engine.state()

        def refused(err: BaseException) -> None:
            if isinstance(err, (ValueError, EngineError)):
                self.refuse("Board", f"cannot set up that board: {getattr(err, 'message', err)}")
            else:
                self.engine_failed(err)

        def started(state: SudokuState) -> None:
            self.start_from(setup, state)
            self.state = state
            self.game_over = state.result is not None
            self.status("new game" + (f" from {os.path.basename(path)}" if path else ""))
            self.draw()
            self.maybe_agent_move()

        self.calls.call(work, started, refused)

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

    @staticmethod
    def apply_setup(engine: SudokuEngine, setup: Tuple[str, str]) -> None:
        """Gives `engine` the game's start (on the worker)."""
        kind, text = setup
        if kind == "file":
            engine.position_file(text)
        else:
            engine.command(text)

    @staticmethod
    def replay(engine: SudokuEngine, setup: Tuple[str, str], moves: List[Optional[SudokuMove]]) -> None:
        """Puts `engine` in the position after `moves` from `setup`, through its own `play`."""
        engine.newgame()
        SudokuApp.apply_setup(engine, setup)
        for move in moves:
            engine.play(move) if move is not None else engine.play_none()

    # --- the engine's supervision (engines/windows/supervision.py) --------------------------

    def on_engine_death(self, err: EngineDied) -> None:
        self.generation += 1  # a search of the dead engine has nothing more to say
        self.thinking = False

    def window_closed(self) -> bool:
        return self.closed

    def resume_job(self) -> Callable[[SudokuEngine], None]:
        """The game on screen, given to the restarted engine: the same set-up and the same
        moves, played through its own `play`. The players' sessions start afresh."""
        setup, moves = self.setup, list(self.moves)
        sessions, self.sessions = list(self.sessions.values()), {}

        def resume(engine: SudokuEngine) -> None:
            for session in sessions:
                session.engine.kill()
            if setup is not None:
                SudokuApp.replay(engine, setup, moves)

        return resume

    @property
    def moves(self) -> List[Optional[SudokuMove]]:
        """The moves that led to the position on the board."""
        return [step.move for step in self.steps[:self.view]]

    def engine_resumed(self) -> None:
        self.refresh()  # and an agent to move goes on

    def cancel_search(self) -> None:
        """Stops a search in progress at once (`stop`); its answer is dropped when it comes."""
        self.generation += 1
        if self.thinking and self.searching is not None:
            stop_search(self.searching)
        self.thinking = False

    def close(self) -> None:
        """Ends the game (and its search) and clears the window for another mode."""
        self.cancel_search()
        self.closed = True
        self.calls.close()
        self.busy.show(False)
        for session in self.sessions.values():
            session.engine.quit(timeout=1)
        self.sessions = {}
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

    def load_game(self, path: str, index: int = 0) -> bool:
        """Loads game `index` of a record (the first by default; a record of several games shows
        a choice of game) and shows its last position; both players become human so that
        nothing moves by itself while the game is stepped through. False (with a dialog) when
        the file cannot be read; a move the engine refuses is reported when it has answered."""
        try:
            with open(path) as f:
                games = parse_records(f.read())
            rec = games[index]
        except (OSError, UnicodeDecodeError) as err:
            self.refuse("Load game", f"cannot read {path}: {getattr(err, 'strerror', None) or err}")
            return False
        except (RecordError, IndexError) as err:
            self.refuse("Load game", f"{os.path.basename(path)}: {err}")
            return False
        if self.engine_dead is not None:
            return False
        self.cancel_search()
        for var in self.player_vars:
            var.set(HUMAN)
        setup = ("line", rec.setup.position_line())

        def work():
            self.engine.newgame()
            self.apply_setup(self.engine, setup)
            first = self.engine.state()
            turn, steps, problem = first.turn, [], None
            try:
                for step in rec.steps:
                    if step.player != turn:
                        raise EngineError(f"the record has player {step.player} moving, but player {turn} is to move")
                    reply = self.engine.play(step.move) if step.move is not None else self.engine.play_none()
                    turn = reply.turn
                    steps.append(Step(step.player, step.move, reply.outcome == "taboo"))
            except EngineError as err:
                problem = err
            return first, steps, problem, self.engine.state()

        def loaded(result) -> None:
            first, steps, problem, last = result
            self.start_from(setup, first)
            self.start.players, self.start.times = rec.setup.players, rec.setup.times
            self.steps, self.view = steps, len(steps)
            self.state, self.game_over = last, last.result is not None
            self.show_game_choice(path, games, index)
            self.draw()
            name = os.path.basename(path)
            if problem is not None:
                bad = len(steps) + 1
                self.refuse("Load game", f"{name}: move {bad} is refused by the engine: {problem.message}; "
                                         f"the game is shown up to move {bad - 1}")
                return
            self.status(f"loaded {name}, game {index + 1} of {len(games)}: {len(steps)} moves "
                        f"({rec.setup.players[0]} vs {rec.setup.players[1]})")

        self.calls.call(work, loaded)
        return True

    def show_game_choice(self, path: str, games: List[GameRecord], index: int) -> None:
        """For a record of several games: the Game box to pick another."""
        if len(games) < 2:
            self.game_choice.pack_forget()
            return
        names = [f"{k + 1} of {len(games)}" for k in range(len(games))]
        self.game_box.config(values=names)
        self.game_var.set(names[index])
        self.game_path = path
        self.game_choice.pack(fill="x", pady=(2, 0), after=self.replay_row)

    def pick_game(self) -> None:
        index = int(self.game_var.get().split()[0]) - 1
        if self.game_path:
            self.load_game(self.game_path, index)

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
        setup, moves = self.setup, [step.move for step in self.steps[:k]]

        def work() -> SudokuState:
            self.replay(self.engine, setup, moves)
            return self.engine.state()

        def failed(err: BaseException) -> None:
            if isinstance(err, EngineError):
                self.status(f"cannot replay to move {k}: {err.message}")
            else:
                self.engine_failed(err)

        def shown(state: SudokuState) -> None:
            self.view, self.state = k, state
            self.game_over = state.result is not None
            self.analysis_var.set(NO_ANALYSIS)
            self.status(f"move {k} of {len(self.steps)}" + ("" if k == len(self.steps) else
                                                             " (a move played here replaces the rest)"))
            self.draw()
            if k == len(self.steps):
                self.maybe_agent_move()

        self.calls.call(work, shown, failed)

    def on_move_selected(self, _event=None) -> None:
        chosen = self.move_list.curselection()
        if chosen and chosen[0] != self.view:
            self.goto(chosen[0])

    # --- moves -------------------------------------------------------------------------------

    def player_kind(self, player: int) -> str:
        return self.player_vars[player - 1].get()

    def human_to_move(self) -> bool:
        return self.state is not None and self.engine_dead is None and not self.game_over and self.player_kind(self.state.turn) == HUMAN

    def play(self, move: Optional[SudokuMove], searched: str = "") -> None:
        """Plays `move` (None: pass) through the referee's `play`, on the worker; the board and
        the move list follow when it answers."""
        if self.moving:
            return
        player = self.state.turn if self.state is not None else 1
        self.moving = True

        def work():
            reply = self.engine.play(move) if move is not None else self.engine.play_none()
            return reply, self.engine.state()

        def refused(err: BaseException) -> None:
            self.moving = False
            if isinstance(err, EngineError):
                self.status(f"{move_name(move) if move else 'pass'}: {err.message}")
            else:
                self.engine_failed(err)

        def played(result) -> None:
            self.moving = False
            reply, state = result
            del self.steps[self.view:]  # a move played while stepping back starts a new line
            self.steps.append(Step(player, move, reply.outcome == "taboo"))
            self.view = len(self.steps)
            self.hint = None
            # The panel spoke of the position before this move (an agent's own search is kept).
            self.analysis_var.set(f"player {player}'s search:\n{searched}" if searched else NO_ANALYSIS)
            if reply.outcome == "placed":
                text = f"player {player}: {move_name(move)} placed, {reply.points} point{'s' if reply.points != 1 else ''}"
            elif reply.outcome == "taboo":
                text = f"player {player}: {move_name(move)} is taboo: the turn passes"
            else:
                text = f"player {player}: no playable cell, the turn passes"
            self.last_reply = reply.line
            self.selected = None
            self.state = state
            self.game_over = state.result is not None
            if reply.result is not None:
                self.game_over = True
                text += " - " + ("draw" if reply.result == "draw" else f"player {reply.result} wins")
            self.status(text)
            self.draw()
            if not self.game_over:
                self.maybe_agent_move()

        self.calls.call(work, played, refused)

    def maybe_agent_move(self) -> None:
        """Starts a search in the background when an agent is to move (at the game's end only)."""
        if self.closed or self.thinking or self.moving or self.game_over or self.state is None or self.engine_dead is not None:
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
        """A search on the worker: a hint on the referee, an agent's move on that player's own
        session (made the first time; told only the moves since its last search)."""
        self.thinking, self.search_kind = True, kind
        self.analysis_var.set(f"analysis ({agent}): searching...")
        generation = self.generation
        movetime = self.movetime()
        setup, moves, player = self.setup, list(self.moves), self.state.turn
        session = self.sessions.get(player)

        def info(value: dict) -> None:
            if generation == self.generation:
                self.show_info(value)

        def work():
            nonlocal session
            engine = self.engine
            if kind == "move":
                if session is None:
                    session = PlayerSession.start(self.engine, agent)
                session.sync(setup, moves, agent)
                engine = session.engine
            self.searching = engine
            try:
                return engine.go(movetime=movetime, on_info=lambda value: self.calls.post(info, value))
            finally:
                self.searching = None

        def keep_session() -> None:
            if session is not None and kind == "move":
                if self.closed:
                    session.engine.kill()
                else:
                    self.sessions[player] = session

        def failed(err: BaseException) -> None:
            keep_session()
            if generation != self.generation:
                return
            self.thinking = False
            self.engine_failed(err)

        def answered(result) -> None:
            keep_session()
            if generation != self.generation:
                return  # a search cancelled by a new game, a jump or a dead engine
            self.thinking = False
            if not result.infos:
                self.analysis_var.set("analysis: the agent reported no search lines")
            if kind == "hint":
                self.hint = result.move
                self.status(f"hint for player {self.state.turn}: " + (move_name(result.move) if result.move else "pass"))
                self.draw()
                return
            self.play(result.move, self.analysis_var.get() if result.infos else "")

        self.calls.call(work, answered, failed)

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
        self.draw()

    def on_key(self, event) -> None:
        """Keyboard play: the arrow keys move the selection, a digit (a letter on boards above
        9x9: A=10, B=11, ...) plays that value on the selected cell, H asks for a hint (`?` on
        the boards where H is a value)."""
        if self.state is None or isinstance(event.widget, (tk.Entry, tk.Spinbox, ttk.Combobox)):
            return  # typing in a field of the window
        size = self.state.size
        moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
        if event.keysym in moves:
            r, c = self.selected or (0, 0)
            dr, dc = moves[event.keysym]
            self.selected = ((r + dr) % size, (c + dc) % size) if self.selected else (0, 0)
            self.draw()
            return
        ch = (event.char or "").upper()
        hint_key = "?" if size >= 17 else "H"
        if ch == hint_key or (ch == "?" and hint_key == "?"):
            self.show_hint()
            return
        if ch.isdigit() and ch != "0":
            value = int(ch)
        elif "A" <= ch <= "Z" and size > 9:
            value = ord(ch) - ord("A") + 10
        else:
            return
        if value <= size:
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
                self.draw()

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

    def refresh(self) -> None:
        """Asks the engine for the position (on the worker), then draws it."""
        def fetched(state: SudokuState) -> None:
            self.state = state
            self.game_over = state.result is not None
            self.draw()
            self.maybe_agent_move()

        self.calls.call(self.engine.state, fetched)

    def draw(self) -> None:
        """Draws the position last read from the engine, the lists and the value buttons."""
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
                    fill = ALLOWED
                if self.selected == (r, col):
                    fill = SELECTED
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
        if self.selected is not None:
            r, col = self.selected
            x, y = ox + col * cell, o + r * cell
            c.create_rectangle(x + 1, y + 1, x + cell - 1, y + cell - 1, outline=SELECTED_OUTLINE, width=3, tags=("selected",))
        self.show_legend(allowed_set is not None)
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
        if len(self.values_frame.items) == size + 1:
            return
        self.values_frame.clear()
        buttons = [tk.Button(self.values_frame, text=value_char(v), width=1, padx=5, command=lambda v=v: self.choose_value(v))
                   for v in range(1, size + 1)]
        buttons.append(tk.Button(self.values_frame, text="Pass", command=self.pass_turn))
        self.values_frame.add(*buttons)

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
        self.calls: Optional[EngineCalls] = None  # starts the engine of a mode chosen in the window

    def close(self) -> None:
        if self.app is not None:
            try:
                self.app.close()
            except tk.TclError:
                pass  # the window is gone already
            if isinstance(self.app, SudokuApp):
                self.app.engine.quit()
            self.app = None

    def start(self, mode: str, file: Optional[str] = None, background: bool = False) -> Optional[object]:
        """Shows the game of `mode` (EngineProblem when its engine cannot start). With
        `background` (a mode chosen in the window) the engine starts on a worker thread and the
        game shows when it is ready (None is returned)."""
        self.close()
        args = self.args
        if mode == "puzzle":
            tools = SudokuTools(self.engine_argv[0] if self.engine_argv else None)
            app = PuzzleApp(self.root, tools, shape=args.board, difficulty=args.difficulty, seed=args.seed,
                            on_switch=self.switch, other_modes=MODES)
            if file:
                app.open_path(os.path.abspath(file))
            self.app = app
            return app
        if not background:
            return self.competitive(SudokuEngine(self.engine_argv), mode, file)
        if self.calls is None:
            self.calls = EngineCalls(self.root)
        self.calls.call(lambda: SudokuEngine(self.engine_argv), lambda engine: self.competitive(engine, mode, file),
                        lambda err: Dialogs(self.root, "Competitive Sudoku").error(f"cannot start the engine: {err}"))
        return None

    def switch(self, mode: str) -> None:
        """The Mode choice of the window: another game in the same window."""
        self.start(mode, background=True)

    def competitive(self, engine: SudokuEngine, mode: str, file: Optional[str]) -> "SudokuApp":
        args = self.args
        app = SudokuApp(self.root, engine, board=args.board, mode=mode, players=(args.player1, args.player2),
                        movetime=args.movetime, on_switch=self.switch)
        if file:
            app.new_game(os.path.abspath(file))
        self.app = app
        return app


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    return _parser().parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
