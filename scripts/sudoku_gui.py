#!/usr/bin/env python3
"""Competitive Sudoku in a Tkinter window: play against the agent, or watch two agents; or the
classic single-player sudoku (`--mode puzzle`, scripts/sudoku_puzzle_gui.py).

The board with its block lines, each player's cells in their colour, the squares the player to
move may use (allowed-squares modes, when the engine reports them), both scores, the taboo
list, whose turn it is, a time-per-move setting and a board chooser (size, mode, board file).
Click a cell, then a value, to move. Every rule is the engine's: moves go through `play` and
the window draws what `show` reports.

    python3 scripts/sudoku_gui.py [--engine PATH] [--board 3x3] [--mode classic]
                                  [--player1 human] [--player2 default] [--movetime 500]
    python3 scripts/sudoku_gui.py --mode puzzle [--board 3x3] [--difficulty easy] [--seed 1] [--file F]

The Mode choice in the window switches between the competitive modes and `puzzle`.
"""
from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
import tkinter as tk
from tkinter import filedialog, ttk
from typing import Callable, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engines import MODES, EngineDied, EngineError, EngineProblem, SudokuEngine, SudokuMove, SudokuState  # noqa: E402
from engines.tools import DIFFICULTIES, SudokuTools  # noqa: E402
from gui_status import engine_status_row, show_engine_alive, show_engine_dead  # noqa: E402
from sudoku_puzzle_gui import PuzzleApp  # noqa: E402

BOARD_PX = 450
SIZES = ("2x2", "2x3", "3x3", "3x4", "4x4")
COLOURS = {1: "#2f6fb5", 2: "#c0392b"}
FILL = {0: "white", 1: "#d7e6f7", 2: "#f7dcd8"}
HUMAN = "human"



def named(move) -> str:
    """A move as people read it: its cell 1-based, `r<row>c<col>=v` (the wire form is 0-based)."""
    if move is None:
        return "pass"
    return f"r{move.row + 1}c{move.col + 1}={move.value}"

class SudokuApp:
    def __init__(self, root: tk.Tk, engine: SudokuEngine, board: str = "3x3", mode: str = "classic",
                 players: Tuple[str, str] = (HUMAN, "default"), movetime: int = 500,
                 on_switch: Optional[Callable[[str], None]] = None):
        self.root = root
        self.engine = engine
        # Called with "puzzle" when that mode is chosen (the window then shows the puzzle game).
        self.on_switch = on_switch
        self.closed = False
        self.state: Optional[SudokuState] = None
        self.selected: Optional[Tuple[int, int]] = None
        self.thinking = False
        self.search_thread: Optional[threading.Thread] = None
        self.generation = 0  # bumps on every new game, so a stale search result is dropped
        self.results: "queue.Queue[Tuple[int, object]]" = queue.Queue()
        self.last_reply = ""
        self.game_over = False
        self.board_file: Optional[str] = None
        # How the game on screen came about, so a restarted engine can be given it again:
        # the set-up (a `position` line or a board file) and every move `play` accepted.
        self.setup: Optional[Tuple[str, str]] = None
        self.moves: List[Optional[SudokuMove]] = []
        # Set when the engine process ended: reported once, the game kept until a restart.
        self.engine_dead: Optional[EngineDied] = None
        self.engine_reports = 0  # how often a death was reported (tests read this)

        root.title("Competitive Sudoku")
        agent_opt = engine.options.get("Agent")
        agents = list(agent_opt.choices) if agent_opt and agent_opt.choices else [agent_opt.default if agent_opt else "default"]

        top = tk.Frame(root)
        top.pack(fill="x", padx=8, pady=4)
        self.score_var = tk.StringVar()
        self.turn_var = tk.StringVar()
        tk.Label(top, textvariable=self.score_var, font=("Helvetica", 15, "bold")).pack(side="left")
        tk.Label(top, textvariable=self.turn_var, font=("Helvetica", 12)).pack(side="right")

        middle = tk.Frame(root)
        middle.pack(padx=8)
        self.canvas = tk.Canvas(middle, width=BOARD_PX + 4, height=BOARD_PX + 4, bg="white", highlightthickness=0)
        self.canvas.pack(side="left")
        self.canvas.bind("<ButtonPress-1>", self.on_click)
        root.bind("<Key>", self.on_key)

        side = tk.Frame(middle)
        side.pack(side="left", fill="y", padx=(8, 0))
        tk.Label(side, text="Taboo moves").pack(anchor="w")
        self.taboo_list = tk.Listbox(side, width=12, height=14)
        self.taboo_list.pack(fill="y")

        self.values_frame = tk.Frame(root)
        self.values_frame.pack(pady=4)

        chooser = tk.Frame(root)
        chooser.pack(fill="x", padx=8, pady=2)
        tk.Label(chooser, text="Board").pack(side="left")
        self.size_var = tk.StringVar(value=board)
        ttk.Combobox(chooser, textvariable=self.size_var, values=SIZES, width=5).pack(side="left", padx=2)
        tk.Label(chooser, text="Mode").pack(side="left", padx=(6, 0))
        self.mode_var = tk.StringVar(value=mode)
        ttk.Combobox(chooser, textvariable=self.mode_var, values=MODES + (("puzzle",) if on_switch else ()), width=8,
                     state="readonly").pack(side="left", padx=2)
        tk.Button(chooser, text="New game", command=self.new_game).pack(side="left", padx=4)
        tk.Button(chooser, text="Board file...", command=self.choose_file).pack(side="left")

        players_row = tk.Frame(root)
        players_row.pack(fill="x", padx=8, pady=2)
        self.player_vars = []
        for p in (1, 2):
            tk.Label(players_row, text=f"Player {p}", fg=COLOURS[p]).pack(side="left", padx=(0 if p == 1 else 8, 2))
            var = tk.StringVar(value=players[p - 1])
            ttk.Combobox(players_row, textvariable=var, values=[HUMAN] + agents, width=9, state="readonly").pack(side="left")
            var.trace_add("write", lambda *_: self.root.after(50, self.maybe_agent_move))
            self.player_vars.append(var)
        tk.Label(players_row, text="ms/move").pack(side="left", padx=(8, 2))
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(players_row, from_=10, to=60000, increment=100, textvariable=self.movetime_var, width=6).pack(side="left")

        self.status_var = tk.StringVar()
        self.status_label, self.restart_button = engine_status_row(root, self.status_var, self.restart_engine,
                                                                   wraplength=480, pady=(0, 4))

        self.new_game()
        self.root.after(300, self.watch_engine)

    # --- setting up ----------------------------------------------------------------------------

    def new_game(self, path: Optional[str] = None) -> None:
        if self.mode_var.get() == "puzzle" and self.on_switch is not None and not path:
            self.on_switch("puzzle")
            return
        if self.engine_dead is not None:
            return  # the game on screen is kept until the engine is restarted
        self.cancel_search()
        self.selected = None
        self.game_over = False
        self.board_file = path
        try:
            self.engine.newgame()
            if path:
                setup = ("file", path)
            else:
                m, n = (int(x) for x in self.size_var.get().lower().split("x"))
                rows = "/".join(["." * (m * n)] * (m * n))
                setup = ("line", SudokuEngine.position_line(m, n, rows, mode=self.mode_var.get()))
            self.apply_setup(setup)
        except (ValueError, EngineError) as err:
            self.status(f"cannot set up that board: {err}")
            return
        except EngineProblem as err:
            self.engine_failed(err)
            return
        self.setup, self.moves = setup, []
        self.status("new game" + (f" from {os.path.basename(path)}" if path else ""))
        self.refresh()
        self.root.after(50, self.maybe_agent_move)

    def apply_setup(self, setup: Tuple[str, str]) -> None:
        kind, text = setup
        if kind == "file":
            self.engine.position_file(text)
        else:
            self.engine.command(text)

    def engine_failed(self, err: Exception) -> None:
        if isinstance(err, EngineDied):
            self.engine_died(err)
        elif self.engine_dead is None:
            self.status(f"engine problem: {err}")

    def engine_died(self, err: EngineDied) -> None:
        """Reports the end of the engine process once and offers to restart it."""
        if self.engine_dead is not None:
            return
        self.engine_dead = err
        self.engine_reports += 1
        self.generation += 1  # a search of the dead engine has nothing more to say
        self.thinking = False
        self.status(f"The engine stopped ({err.reason}). Game kept: press Restart engine.")
        show_engine_dead(self.status_label, self.restart_button)

    def watch_engine(self) -> None:
        """Notices an engine that died while nothing was asked of it."""
        if self.closed:
            return
        if self.engine_dead is None and not self.engine.alive:
            self.engine_died(self.engine._died("(idle)"))
        self.root.after(300, self.watch_engine)

    def restart_engine(self) -> None:
        """A new engine process with the same options, given the game on screen: the same
        set-up and the same moves, played through its own `play`."""
        if self.search_thread is not None:
            self.search_thread.join(timeout=5)
        try:
            self.engine = self.engine.respawn()
            self.engine.newgame()
            if self.setup is not None:
                self.apply_setup(self.setup)
                for move in self.moves:
                    self.engine.play(move) if move is not None else self.engine.play_none()
        except EngineProblem as err:
            self.status(f"The engine could not be restarted: {err}")
            return
        self.engine_dead = None
        show_engine_alive(self.status_label, self.restart_button)
        self.status("engine restarted; the game goes on")
        self.refresh()
        self.root.after(50, self.maybe_agent_move)

    def cancel_search(self) -> None:
        """Stops an agent's search in progress; the engine is ours again afterwards."""
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

    # --- moves -------------------------------------------------------------------------------

    def player_kind(self, player: int) -> str:
        return self.player_vars[player - 1].get()

    def human_to_move(self) -> bool:
        return self.state is not None and self.engine_dead is None and not self.game_over and self.player_kind(self.state.turn) == HUMAN

    def play(self, move: Optional[SudokuMove]) -> bool:
        try:
            reply = self.engine.play(move) if move is not None else self.engine.play_none()
        except EngineError as err:
            self.status(f"{named(move)}: {err.message}")
            return False
        except EngineProblem as err:
            self.engine_failed(err)
            return False
        self.moves.append(move)
        if reply.outcome == "placed":
            text = f"{named(move)} placed, {reply.points} point{'s' if reply.points != 1 else ''}"
        elif reply.outcome == "taboo":
            text = f"{named(move)} is taboo: the turn passes"
        else:
            text = "no playable cell: the turn passes"
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
        """Starts a search in the background when an agent is to move."""
        if self.closed or self.thinking or self.game_over or self.state is None or self.engine_dead is not None:
            return
        agent = self.player_kind(self.state.turn)
        if agent == HUMAN:
            return
        try:
            movetime = max(1, int(self.movetime_var.get()))
        except ValueError:
            movetime = 500
        self.thinking = True
        self.status(f"player {self.state.turn} ({agent}) is thinking...")

        generation = self.generation

        def search() -> None:
            try:
                self.engine.setoption("Agent", agent)
                self.results.put((generation, self.engine.go(movetime=movetime)))
            except EngineProblem as err:
                self.results.put((generation, err))

        self.search_thread = threading.Thread(target=search, daemon=True)
        self.search_thread.start()
        self.root.after(20, self.collect_search)

    def collect_search(self) -> None:
        if self.closed:
            return
        while True:
            try:
                generation, result = self.results.get_nowait()
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
        self.play(result.move)

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

    def geometry(self) -> Tuple[int, float]:
        size = self.state.size
        return size, BOARD_PX / size

    def cell_at(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        size, cell = self.geometry()
        r, c = int((y - 2) // cell), int((x - 2) // cell)
        return (r, c) if 0 <= r < size and 0 <= c < size else None

    def cell_centre(self, r: int, c: int) -> Tuple[int, int]:
        _, cell = self.geometry()
        return int(2 + (c + 0.5) * cell), int(2 + (r + 0.5) * cell)

    def refresh(self, fetch: bool = True) -> None:
        if fetch:
            try:
                self.state = self.engine.state()
            except EngineProblem as err:
                self.engine_failed(err)
                return
        st = self.state
        if st is None:
            return
        size, cell = self.geometry()
        c = self.canvas
        c.delete("all")
        allowed = st.allowed.get(st.turn)
        allowed_set = set(allowed) if allowed is not None and st.mode != "classic" else None
        for r in range(size):
            for col in range(size):
                x, y = 2 + col * cell, 2 + r * cell
                owner = st.owners[r][col]
                fill = FILL[owner]
                if not st.values[r][col] and allowed_set is not None and (r, col) in allowed_set:
                    fill = "#fff4c2"  # the squares the player to move may use
                if self.selected == (r, col):
                    fill = "#ffe08a"
                c.create_rectangle(x, y, x + cell, y + cell, fill=fill, outline="#bbb", tags=("cell", f"c{r}_{col}"))
                v = st.values[r][col]
                if v:
                    c.create_text(x + cell / 2, y + cell / 2, text=str(v), font=("Helvetica", max(9, int(cell * 0.45)), "bold"),
                                  fill=COLOURS.get(owner, "black"))
        for k in range(size + 1):
            pos = 2 + k * cell
            row_w = 3 if k % st.m == 0 else 1
            col_w = 3 if k % st.n == 0 else 1
            c.create_line(2, pos, 2 + BOARD_PX, pos, width=row_w)
            c.create_line(pos, 2, pos, 2 + BOARD_PX, width=col_w)
        self.score_var.set(f"Player 1: {st.scores[0]}   Player 2: {st.scores[1]}")
        if st.result is not None or self.game_over:
            res = st.result
            self.turn_var.set("game over: " + ("draw" if res == "draw" else f"player {res} wins" if res else ""))
        else:
            self.turn_var.set(f"to move: player {st.turn} ({self.player_kind(st.turn)})")
        self.taboo_list.delete(0, "end")
        for move in st.taboo:
            self.taboo_list.insert("end", str(move))
        self.draw_value_buttons(size)

    def draw_value_buttons(self, size: int) -> None:
        if len(self.values_frame.winfo_children()) == size + 1:
            return
        for child in self.values_frame.winfo_children():
            child.destroy()
        for v in range(1, size + 1):
            tk.Button(self.values_frame, text=str(v), width=2, command=lambda v=v: self.choose_value(v)).pack(side="left")
        tk.Button(self.values_frame, text="Pass", command=self.pass_turn).pack(side="left", padx=(6, 0))

    def status(self, text: str) -> None:
        self.status_var.set(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Competitive Sudoku front end driving sudoku-agent through its protocol, "
                                                 "or (--mode puzzle) the classic sudoku with the engine as its referee and solver.")
    parser.add_argument("--engine", help="agent command (default: sudoku-agent from $ENGINE_BIN_DIR or target/release)")
    parser.add_argument("--board", default="3x3", help="block shape m x n (default 3x3; puzzle: 2x2, 2x3, 3x3, 3x4, 4x4)")
    parser.add_argument("--mode", default="classic", choices=MODES + ("puzzle",))
    parser.add_argument("--file", help="start from a board file (either course-framework format); puzzle mode: a puzzle file")
    parser.add_argument("--player1", default=HUMAN, help="'human' or an agent name (default human)")
    parser.add_argument("--player2", default="default", help="'human' or an agent name (default: default)")
    parser.add_argument("--movetime", type=int, default=500, help="agent time per move in ms")
    parser.add_argument("--difficulty", default="easy", choices=DIFFICULTIES, help="puzzle mode: difficulty of New")
    parser.add_argument("--seed", type=int, default=1, help="puzzle mode: seed of the first generated puzzle")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    root = tk.Tk()
    window = Window(root, args)
    window.start(args.mode, args.file)
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
