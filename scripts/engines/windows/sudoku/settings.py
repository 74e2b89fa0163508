"""The Competitive Sudoku window's settings: board size, mode, New game and the files, who plays
each side and the agents' time per move. A view: it holds the fields and hands each command to
the functions it was given."""
from __future__ import annotations

import tkinter as tk
from dataclasses import dataclass
from tkinter import ttk
from typing import Callable, List, Tuple

from ... import MODES
from ..engine_calls import StopOffer
from ..layout import Flow
from .board import COLOURS
from .names import HUMAN, SIZES, BoardSizeError, block_shape, size_name


@dataclass
class SettingsCommands:
    """What the settings' buttons and fields do, each one function."""

    new_game: Callable[[], None]
    board_file: Callable[[], None]
    save: Callable[[], None]
    load: Callable[[], None]
    players_changed: Callable[[], None]  # an agent may now be to move


class GameSettings:
    """The settings in `side`: the board (`board`, a size name) and `mode` of the next game (the
    puzzle mode too when `puzzle`), who plays each side (`players`: human or one of `agents`)
    and `movetime`, the agents' ms a move."""

    def __init__(self, side: tk.Misc, board: str, mode: str, puzzle: bool, agents: List[str],
                 players: Tuple[str, str], movetime: int, commands: SettingsCommands):
        self.commands = commands
        self.build_game_row(side, board, mode, puzzle)
        self.build_players(side, agents, players, movetime)

    def build_game_row(self, side: tk.Misc, board: str, mode: str, puzzle: bool) -> None:
        """Board size, mode, New game, and the board and record files."""
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
        ttk.Combobox(mode_pair, textvariable=self.mode_var, values=MODES + (("puzzle",) if puzzle else ()), width=8,
                     state="readonly").pack(side="left", padx=2)
        c = self.commands
        self.new_button = tk.Button(chooser, text="New game")
        self.new_offer = StopOffer(self.new_button, c.new_game)  # Stop while the engine does not answer
        chooser.add(board_pair, mode_pair, self.new_button,
                    tk.Button(chooser, text="Board file...", command=c.board_file),
                    tk.Button(chooser, text="Save game...", command=c.save),
                    tk.Button(chooser, text="Load game...", command=c.load))

    def build_players(self, side: tk.Misc, agents: List[str], players: Tuple[str, str], movetime: int) -> None:
        """Who plays each side (human or an agent) and the agents' time per move."""
        players_row = Flow(side)
        players_row.pack(fill="x", pady=2)
        self.player_vars = []
        pairs = []
        for p in (1, 2):
            pair = tk.Frame(players_row)
            tk.Label(pair, text=f"Player {p}", fg=COLOURS[p]).pack(side="left", padx=(0, 2))
            var = tk.StringVar(value=players[p - 1])
            ttk.Combobox(pair, textvariable=var, values=[HUMAN] + agents, width=9, state="readonly").pack(side="left")
            var.trace_add("write", lambda *_: self.commands.players_changed())
            self.player_vars.append(var)
            pairs.append(pair)
        ms_pair = tk.Frame(players_row)
        tk.Label(ms_pair, text="ms/move").pack(side="left", padx=(0, 2))
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(ms_pair, from_=10, to=60000, increment=100, textvariable=self.movetime_var, width=6).pack(side="left")
        players_row.add(*pairs, ms_pair)

    # --- what the fields hold --------------------------------------------------------------

    def player_kind(self, player: int) -> str:
        """"human" or the agent playing player 1 or 2."""
        return self.player_vars[player - 1].get()

    def movetime(self) -> int:
        try:
            return max(1, int(self.movetime_var.get()))
        except ValueError:
            return 500

    def time_text(self, player: int) -> str:
        return "none" if self.player_kind(player) == HUMAN else f"movetime {self.movetime()}"

    def players(self) -> Tuple[Tuple[str, str], Tuple[str, str]]:
        """Who plays each side, and their times (as a record says them)."""
        return (self.player_kind(1), self.player_kind(2)), (self.time_text(1), self.time_text(2))

    def humans(self) -> None:
        """Both players become human."""
        for var in self.player_vars:
            var.set(HUMAN)
