"""The Competitive Sudoku window's game records (protocol/records.md): Save game, Load game (a
record of several games offers a choice of game), and stepping through the game on screen
(`goto`: the engine is set to the position shown). `GameRecords` is mixed into `SudokuApp`
(window.py).
"""
from __future__ import annotations

import os
from tkinter import filedialog
from typing import List

from ... import SudokuState
from ...record import GameRecord, RecordError, format_records, parse_records
from .names import HUMAN, NO_ANALYSIS


class GameRecords:
    """Saving, loading and stepping through games. Reads of the window's state, set by the parts
    that own it: `analysis_var`, `controller`, `engine_dead`, `game`, `game_choice`,
    `move_list`, `player_vars`, `replay_row`."""

    def game_record(self) -> GameRecord:
        """The game so far (every step, also those after the move on the board) as a record."""
        return self.game.record((self.player_kind(1), self.player_kind(2)), (self.time_text(1), self.time_text(2)),
                                self.state)

    def save_game(self, path: str) -> bool:
        if self.game.start is None:
            return False
        if not self.game.at_end:
            self.goto(len(self.game.steps))  # the record ends with the position after the last step
        try:
            with open(path, "w") as out:
                out.write(format_records([self.game_record()], "sudoku_gui.py"))
        except OSError as err:
            self.show_error(f"cannot save {path}: {err.strerror or err}", "Save game")
            return False
        self.game.mark_saved()
        self.status(f"saved {len(self.game.steps)} moves to {os.path.basename(path)}")
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
            self.show_error(f"cannot read {path}: {getattr(err, 'strerror', None) or err}", "Load game")
            return False
        except (RecordError, IndexError) as err:
            self.show_error(f"{os.path.basename(path)}: {err}", "Load game")
            return False
        if self.engine_dead is not None:
            return False
        self.cancel_search()
        for var in self.player_vars:
            var.set(HUMAN)
        setup = ("line", rec.setup.position_line())

        def loaded(result) -> None:
            first, steps, problem, last = result
            self.start_from(setup, first)
            self.game.loaded(steps, rec.setup.players, rec.setup.times)
            self.state, self.game_over = last, last.result is not None
            self.show_game_choice(path, games, index)
            self.draw()
            name = os.path.basename(path)
            if problem is not None:
                bad = len(steps) + 1
                self.show_error(f"{name}: move {bad} is refused by the engine: {problem.message}; "
                                f"the game is shown up to move {bad - 1}", "Load game")
                return
            self.status(f"loaded {name}, game {index + 1} of {len(games)}: {len(steps)} moves "
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
        self.game_choice.pack(fill="x", pady=(2, 0), after=self.replay_row)

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
        k = max(0, min(k, len(self.game.steps)))
        if self.game.setup is None or self.engine_dead is not None:
            return
        self.cancel_search()
        self.selected, self.hint = None, None
        setup, moves = self.game.setup, [step.move for step in self.game.steps[:k]]

        def failed(err: BaseException) -> None:
            self.engine_refused(err, lambda refusal: self.status(f"cannot replay to move {k}: {refusal.message}"))

        def shown(state: SudokuState) -> None:
            self.game.view, self.state = k, state
            self.game_over = state.result is not None
            self.analysis_var.set(NO_ANALYSIS)
            self.status(f"move {k} of {len(self.game.steps)}" + ("" if k == len(self.game.steps) else
                                                             " (a move played here replaces the rest)"))
            self.draw()
            if k == len(self.game.steps):
                self.maybe_agent_move()

        self.controller.go_to(setup, moves, shown, failed)

    def on_move_selected(self, _event=None) -> None:
        chosen = self.move_list.curselection()
        if chosen and chosen[0] != self.game.view:
            self.goto(chosen[0])
