"""The Competitive Sudoku window's game records (protocol/records.md): Save game, Load game (a
record of several games offers a choice of game), and stepping through the game on screen
(`goto`: the engine is set to the position shown). `GameRecords` changes the `Screen`
(model.py) from the engine's answers and has the board (board.py) draw it.
"""
from __future__ import annotations

import os
import tkinter as tk
from dataclasses import dataclass
from tkinter import filedialog
from typing import Callable, List, Optional, Tuple

from ... import SudokuState
from ...errors import EngineError
from ...record import GameRecord, RecordError, format_records, parse_records
from ..dialogs import GameChoice
from .board import BoardView
from .controller import SudokuController
from .model import Screen


@dataclass
class RecordHooks:
    """What the records need of the window, each one function."""

    status: Callable[[str], None]
    show_error: Callable[[str, Optional[str]], None]
    refused: Callable[[BaseException, Callable[[EngineError], None]], None]  # the engine's error, or a failure
    engine_dead: Callable[[], bool]
    players: Callable[[], Tuple[Tuple[str, str], Tuple[str, str]]]  # who plays each side, and their times
    humans: Callable[[], None]  # both players become human (a loaded game moves only when asked)
    start_from: Callable[[Tuple[str, str], SudokuState], None]  # the game starts at that position
    clear_analysis: Callable[[], None]
    agent_move: Callable[[], None]  # an agent to move at the game's end moves


class GameRecords:
    """Saving, loading and stepping through the games of `screen`: the engine is asked through
    `controller`, `board` draws what it answers; the choice of game in a record of several
    goes in `side` below the board's move list."""

    def __init__(self, side: tk.Misc, screen: Screen, controller: SudokuController, board: BoardView,
                 hooks: RecordHooks):
        self.screen, self.controller, self.board, self.hooks = screen, controller, board, hooks
        # A record of several games: which one is shown.
        self.game_choice = GameChoice(side, 10, self.pick_game)
        self.game_path = ""

    def game_record(self) -> GameRecord:
        """The game so far (every step, also those after the move on the board) as a record."""
        return self.screen.game.record(*self.hooks.players(), self.screen.state)

    def save_game(self, path: str) -> bool:
        game = self.screen.game
        if game.start is None:
            return False
        if not game.at_end:
            self.goto(len(game.steps))  # the record ends with the position after the last step
        try:
            with open(path, "w") as out:
                out.write(format_records([self.game_record()], "sudoku_gui.py"))
        except OSError as err:
            self.hooks.show_error(f"cannot save {path}: {err.strerror or err}", "Save game")
            return False
        game.mark_saved()
        self.hooks.status(f"saved {len(game.steps)} moves to {os.path.basename(path)}")
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
            self.hooks.show_error(f"cannot read {path}: {getattr(err, 'strerror', None) or err}", "Load game")
            return False
        except (RecordError, IndexError) as err:
            self.hooks.show_error(f"{os.path.basename(path)}: {err}", "Load game")
            return False
        if self.hooks.engine_dead():
            return False
        self.controller.cancel()
        self.hooks.humans()
        setup = ("line", rec.setup.position_line())

        def loaded(result) -> None:
            first, steps, problem, last = result
            self.hooks.start_from(setup, first)
            self.screen.game.loaded(steps, rec.setup.players, rec.setup.times)
            self.screen.shows(last)
            self.show_game_choice(path, games, index)
            self.board.draw()
            name = os.path.basename(path)
            if problem is not None:
                bad = len(steps) + 1
                self.hooks.show_error(f"{name}: move {bad} is refused by the engine: {problem.message}; "
                                f"the game is shown up to move {bad - 1}", "Load game")
                return
            self.hooks.status(f"loaded {name}, game {index + 1} of {len(games)}: {len(steps)} moves "
                        f"({rec.setup.players[0]} vs {rec.setup.players[1]})")

        self.controller.load(setup, rec.steps, loaded)
        return True

    def show_game_choice(self, path: str, games: List[GameRecord], index: int) -> None:
        """For a record of several games: the Game box to pick another."""
        if len(games) < 2:
            self.game_choice.pack_forget()
            return
        names = [f"{k + 1} of {len(games)}" for k in range(len(games))]
        self.game_choice.offer(names, index)
        self.game_path = path
        self.game_choice.pack(fill="x", pady=(2, 0), after=self.board.replay_row)

    def pick_game(self, index: int) -> None:
        """Another game of the loaded record, chosen in the Game box."""
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
        s, game = self.screen, self.screen.game
        k = max(0, min(k, len(game.steps)))
        if game.setup is None or self.hooks.engine_dead():
            return
        self.controller.cancel()
        s.selected, s.hint = None, None
        setup, moves = game.setup, [step.move for step in game.steps[:k]]

        def failed(err: BaseException) -> None:
            self.hooks.refused(err, lambda refusal: self.hooks.status(f"cannot replay to move {k}: {refusal.message}"))

        def shown(state: SudokuState) -> None:
            game.view = k
            s.shows(state)
            self.hooks.clear_analysis()
            self.hooks.status(f"move {k} of {len(game.steps)}" + ("" if k == len(game.steps) else
                                                                 " (a move played here replaces the rest)"))
            self.board.draw()
            if k == len(game.steps):
                self.hooks.agent_move()

        self.controller.go_to(setup, moves, shown, failed)
