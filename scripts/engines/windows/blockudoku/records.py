"""The Blockudoku window's game records (protocol/records.md, "Blockudoku records"): Save
record writes the game in play; Load record replays a record's game through the engine and
shows the replay bar to step through it (a record of several games offers a choice of game).
The record's positions go to the `Screen` (model.py), drawn by the canvas (canvas.py); the
engine replays them through the controller (controller.py).
"""
from __future__ import annotations

import threading
import tkinter as tk
from dataclasses import dataclass
from tkinter import filedialog
from typing import Callable, Dict, List, Optional

from ...blockudoku_record import Record, RecordError, RecordGame, format_record, parse_record
from ... import BlockudokuEngine, EngineError, Piece
from ..dialogs import GameChoice
from ..layout import Flow
from .canvas import PANEL_W, BoardCanvas
from .controller import EngineController
from .game import specs
from .model import Game, Screen
from .settings import SettingsRow


class ReplayStopped(Exception):
    """A record's replay through the engine stopped before its end (`stop_replay`)."""


@dataclass
class RecordHooks:
    """What the records need of the window, each one function."""

    status: Callable[[str], None]
    show_error: Callable[[str], None]
    refused: Callable[[BaseException, Callable[[EngineError], None]], None]  # the engine's error, or a failure
    leave_analysis: Callable[[], None]
    new_game: Callable[[], None]  # Close on the replay bar


class RecordReplay:
    """Saving, loading and stepping through the game records of `screen` (pieces from
    `catalogue`), in the window on `root`: its replay bar goes in `parent` below the settings
    row of `settings`; the engine replays a record through `controller`, the canvas `canvas`
    shows its positions."""

    def __init__(self, root: tk.Misc, parent: tk.Misc, screen: Screen, catalogue: Dict[int, Piece],
                 settings: SettingsRow, controller: EngineController, canvas: BoardCanvas, hooks: RecordHooks):
        self.root, self.screen, self.catalogue, self.settings = root, screen, catalogue, settings
        self.controller, self.canvas, self.hooks = controller, canvas, hooks
        self.stop: Optional[threading.Event] = None  # set: the record loading stops
        self.build_bar(parent)

    def record(self) -> Record:
        """The game on screen as a record (an open game: no result line)."""
        rec = Record(set_ids=list(self.screen.piece_ids), scoring=self.settings.scoring() or "blockudoku",
                     comment="blockudoku_gui.py")
        # Games are numbered from 1, as `blockudoku-lab selfplay` numbers them.
        rec.games.append(RecordGame(index="1", seed=self.settings.seed(), events=list(self.screen.events)))
        return rec

    def save_record(self, path: str) -> None:
        engine_set = self.screen.piece_ids == list(range(1, 48))
        try:
            with open(path, "w") as f:
                f.write(format_record(self.record(), self.catalogue, engine_set))
        except OSError as err:
            self.hooks.show_error(f"Cannot save {path}: {err.strerror}")
            return
        self.screen.saved_events = list(self.screen.events)  # closing now loses nothing
        self.hooks.status(f"saved {path}")

    def ask_save_record(self) -> None:
        path = filedialog.asksaveasfilename(parent=self.root, defaultextension=".bkr",
                                            filetypes=[("Blockudoku records", "*.bkr"), ("All files", "*")])
        if path:
            self.save_record(path)

    def ask_load_record(self) -> None:
        path = filedialog.askopenfilename(parent=self.root, filetypes=[("Blockudoku records", "*.bkr"), ("All files", "*")])
        if path:
            self.load_record(path)

    def load_record(self, path: str, game_index: int = 0) -> bool:
        """Replays game `game_index` of a record through the engine (on the worker); the replay
        bar then steps through it, and a record of several games offers a choice of game.
        False (with a dialog) when the file cannot be read; a game that does not replay is
        reported in a dialog when the engine has answered."""
        try:
            with open(path) as f:
                rec = parse_record(f.read(), self.catalogue)
            game = rec.games[game_index]
        except OSError as err:
            self.hooks.show_error(f"Cannot read {path}: {err.strerror}")
            return False
        except (RecordError, IndexError) as err:
            self.hooks.show_error(f"{path}: {err}")
            return False
        self.hooks.leave_analysis()
        self.controller.stop_play()
        self.stop_replay()  # the one loading before, if any
        stop = self.stop = threading.Event()
        if rec.scoring != (self.settings.scoring() or "blockudoku"):
            self.controller.set_option("Scoring", rec.scoring)

        def refused(err: BaseException) -> None:
            if isinstance(err, ReplayStopped):
                return  # a new game, another record or closing came first
            self.hooks.refused(err, lambda refusal: self.hooks.show_error(
                f"{path}: the record has an illegal step: {refusal.message} ({refusal.command})"))

        def replayed(states: List[Game]) -> None:
            if stop.is_set():
                return  # replayed to its end just before it was stopped: the window moved on
            self.record_path, self.record_games = path, rec.games
            self.screen.replay_states = states
            self.replay_labels = self.replay_move_labels(game)
            self.replay_scale.config(to=len(states) - 1)
            self.replay_title.set(f"{path.rsplit('/', 1)[-1]}: game {game_index + 1} of {len(rec.games)}"
                                  + (f", seed {game.seed}" if game.seed is not None else ""))
            if len(rec.games) > 1:
                names = [f"{k + 1}: seed {g.seed}" if g.seed is not None else f"{k + 1}" for k, g in enumerate(rec.games)]
                self.game_pick.offer(names, game_index)
                self.game_pick.pack(fill="x", padx=4, pady=(0, 2))
            else:
                self.game_pick.pack_forget()
            if game.seed is not None:
                self.settings.seed_var.set(str(game.seed))  # the Seed field matches the game shown
            self.replay_bar.pack(side="top", fill="x", pady=(4, 0), after=self.settings.frame)
            self.replay_jump(len(states) - 1)
            self.hooks.status(f"loaded game {game_index + 1} of {len(rec.games)} from {path.rsplit('/', 1)[-1]}")

        self.controller.ask(lambda engine: self.replay_through_engine(engine, game, stop), replayed, refused)
        return True

    def stop_replay(self) -> None:
        """Stops a record's replay through the engine at its next placement (its result is
        dropped): a new game, another record or closing does not wait for it."""
        if self.stop is not None:
            self.stop.set()
            self.stop = None

    def pick_game(self, index: int) -> None:
        """Another game of the loaded record, chosen in the Game box."""
        if self.screen.replay_states is not None and 0 <= index < len(self.record_games):
            self.load_record(self.record_path, index)

    def replay_through_engine(self, engine: BlockudokuEngine, game: RecordGame,
                              stop: Optional[threading.Event] = None) -> List[Game]:
        """Every position of the game: the start, then after each placement (`engine`'s);
        ReplayStopped as soon as `stop` is set."""
        state = Game(hand=[None, None, None])
        states: List[Game] = []
        engine.newgame()
        for kind, items in game.events:
            if kind == "hand":
                if any(p is not None for p in state.hand):
                    raise EngineError("a hand dealt before the last one was played", "hand")
                state = Game(state.board, (list(items) + [None, None, None])[:3], state.score, state.streak, state.placed)
                # The new hand is shown with the placement that emptied the last one.
                if states:
                    states[-1] = state
                else:
                    states.append(state)
                continue
            for placement in items:
                if stop is not None and stop.is_set():
                    raise ReplayStopped()
                engine.position(state.board, specs(self.catalogue, state.hand), state.score, state.streak)
                after = engine.play([placement])
                hand = list(state.hand)
                hand[placement.slot - 1] = None
                state = Game(after.board, hand, after.score, after.streak, state.placed + 1)
                states.append(state)
        if not states:
            raise EngineError("the game has no hand", "hand")
        return states

    def replay_move_labels(self, game: RecordGame) -> List[str]:
        labels = ["start"]
        for kind, items in game.events:
            if kind == "play":
                labels += [str(p) for p in items]
        return labels

    def build_bar(self, parent: tk.Misc) -> None:
        bar = self.replay_bar = tk.Frame(parent, bd=1, relief="groove")
        self.replay_title = tk.StringVar(value="")
        tk.Label(bar, textvariable=self.replay_title, anchor="w", justify="left",
                 wraplength=PANEL_W - 30).pack(fill="x", padx=4)
        row = Flow(bar, gap=2)
        row.pack(fill="x", padx=4)
        self.replay_var = tk.StringVar(value="")
        row.add(tk.Button(row, text="|<", command=lambda: self.replay_jump(0)),
                tk.Button(row, text="<", command=lambda: self.replay_jump(self.screen.replay_at - 1)),
                tk.Button(row, text=">", command=lambda: self.replay_jump(self.screen.replay_at + 1)),
                tk.Button(row, text=">|", command=lambda: self.replay_jump(len(self.screen.replay_states or [0]) - 1)),
                tk.Label(row, textvariable=self.replay_var, width=12, anchor="w"),
                tk.Button(row, text="Close", command=self.hooks.new_game))
        self.replay_scale = tk.Scale(bar, from_=0, to=0, orient="horizontal", showvalue=False,
                                     command=self.on_scale)
        self.replay_scale.pack(fill="x", padx=4)
        # A record of several games: which one is shown.
        self.game_pick = GameChoice(bar, 18, self.pick_game)

    def on_scale(self, value: str) -> None:
        if int(float(value)) != self.screen.replay_at:  # not the echo of replay_jump's own set()
            self.replay_jump(int(float(value)))

    def replay_jump(self, k: int) -> None:
        """Shows the position after placement `k` of the loaded record (0: the start)."""
        screen = self.screen
        if screen.replay_states is None:
            return
        self.hooks.leave_analysis()
        k = max(0, min(k, len(screen.replay_states) - 1))
        screen.replay_at = k
        screen.game = screen.replay_states[k].copy()
        if int(float(self.replay_scale.get())) != k:
            self.replay_scale.set(k)
        label = self.replay_labels[k] if k < len(self.replay_labels) else ""
        self.replay_var.set(f"{k}/{len(screen.replay_states) - 1} {label}")
        screen.hint = []
        screen.fits = [True, True, True]
        self.canvas.redraw()

    def close_replay(self) -> None:
        if self.screen.replay_states is not None:
            self.screen.replay_states = None
            self.replay_bar.pack_forget()
