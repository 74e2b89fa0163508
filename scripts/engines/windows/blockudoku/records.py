"""The Blockudoku window's game records (protocol/records.md, "Blockudoku records"): Save
record writes the game in play; Load record replays a record's game through the engine and
shows the replay bar to step through it (a record of several games offers a choice of game).
`RecordReplay` is mixed into `BlockudokuApp` (window.py).
"""
from __future__ import annotations

import threading
import tkinter as tk
from tkinter import filedialog
from typing import List, Optional

from ...blockudoku_record import Record, RecordError, RecordGame, format_record, parse_record
from ... import BlockudokuEngine, EngineError
from ..dialogs import GameChoice
from ..layout import Flow
from .canvas import PANEL_W
from .model import Game


class ReplayStopped(Exception):
    """A record's replay through the engine stopped before its end (`stop_replay`)."""


class RecordReplay:
    """Saving, loading and stepping through game records. Reads of the window's state, set by
    the parts that own it: `analysing`, `catalogue`, `controller`, `events`, `piece_ids`,
    `root`, `settings`, `settings_row`."""

    def record(self) -> Record:
        """The game on screen as a record (an open game: no result line)."""
        rec = Record(set_ids=list(self.piece_ids), scoring=self.settings.scoring() or "blockudoku",
                     comment="blockudoku_gui.py")
        # Games are numbered from 1, as `blockudoku-lab selfplay` numbers them.
        rec.games.append(RecordGame(index="1", seed=self.seed(), events=list(self.events)))
        return rec

    def save_record(self, path: str) -> None:
        engine_set = self.piece_ids == list(range(1, 48))
        try:
            with open(path, "w") as f:
                f.write(format_record(self.record(), self.catalogue, engine_set))
        except OSError as err:
            self.show_error(f"Cannot save {path}: {err.strerror}")
            return
        self.saved_events = list(self.events)  # closing now loses nothing
        self.status(f"saved {path}")

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
            self.show_error(f"Cannot read {path}: {err.strerror}")
            return False
        except (RecordError, IndexError) as err:
            self.show_error(f"{path}: {err}")
            return False
        if self.analysing:
            self.leave_analysis()
        self.stop_engine()
        self.stop_replay()  # the one loading before, if any
        stop = self.replay_stop = threading.Event()
        if rec.scoring != (self.settings.scoring() or "blockudoku"):
            self.set_scoring(rec.scoring)

        def refused(err: BaseException) -> None:
            if isinstance(err, ReplayStopped):
                return  # a new game, another record or closing came first
            self.engine_refused(err, lambda refusal: self.show_error(
                f"{path}: the record has an illegal step: {refusal.message} ({refusal.command})"))

        def replayed(states: List[Game]) -> None:
            if stop.is_set():
                return  # replayed to its end just before it was stopped: the window moved on
            self.record_path, self.record_games = path, rec.games
            self.replay_states = states
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
            self.replay_bar.pack(side="top", fill="x", pady=(4, 0), after=self.settings_row)
            self.replay_jump(len(states) - 1)
            self.status(f"loaded game {game_index + 1} of {len(rec.games)} from {path.rsplit('/', 1)[-1]}")

        self.controller.ask(lambda engine: self.replay_through_engine(engine, game, stop), replayed, refused)
        return True

    def stop_replay(self) -> None:
        """Stops a record's replay through the engine at its next placement (its result is
        dropped): a new game, another record or closing does not wait for it."""
        if self.replay_stop is not None:
            self.replay_stop.set()
            self.replay_stop = None

    def pick_game(self, index: int) -> None:
        """Another game of the loaded record, chosen in the Game box."""
        if self.replay_states is not None and 0 <= index < len(self.record_games):
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
                engine.position(state.board, self.specs(state.hand), state.score, state.streak)
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

    def build_replay_bar(self, root: tk.Misc) -> None:
        bar = self.replay_bar = tk.Frame(root, bd=1, relief="groove")
        self.replay_title = tk.StringVar(value="")
        tk.Label(bar, textvariable=self.replay_title, anchor="w", justify="left",
                 wraplength=PANEL_W - 30).pack(fill="x", padx=4)
        row = Flow(bar, gap=2)
        row.pack(fill="x", padx=4)
        self.replay_var = tk.StringVar(value="")
        row.add(tk.Button(row, text="|<", command=lambda: self.replay_jump(0)),
                tk.Button(row, text="<", command=lambda: self.replay_jump(self.replay_at - 1)),
                tk.Button(row, text=">", command=lambda: self.replay_jump(self.replay_at + 1)),
                tk.Button(row, text=">|", command=lambda: self.replay_jump(len(self.replay_states or [0]) - 1)),
                tk.Label(row, textvariable=self.replay_var, width=12, anchor="w"),
                tk.Button(row, text="Close", command=self.new_game))
        self.replay_scale = tk.Scale(bar, from_=0, to=0, orient="horizontal", showvalue=False,
                                     command=self.on_scale)
        self.replay_scale.pack(fill="x", padx=4)
        # A record of several games: which one is shown.
        self.game_pick = GameChoice(bar, 18, self.pick_game)

    def on_scale(self, value: str) -> None:
        if int(float(value)) != self.replay_at:  # not the echo of replay_jump's own set()
            self.replay_jump(int(float(value)))

    def replay_jump(self, k: int) -> None:
        """Shows the position after placement `k` of the loaded record (0: the start)."""
        if self.replay_states is None:
            return
        if self.analysing:
            self.leave_analysis()
        k = max(0, min(k, len(self.replay_states) - 1))
        self.replay_at = k
        s = self.replay_states[k]
        self.game = Game(s.board, list(s.hand), s.score, s.streak, s.placed)
        if int(float(self.replay_scale.get())) != k:
            self.replay_scale.set(k)
        label = self.replay_labels[k] if k < len(self.replay_labels) else ""
        self.replay_var.set(f"{k}/{len(self.replay_states) - 1} {label}")
        self.hint = []
        self.fits = [True, True, True]
        self.redraw()

    def close_replay(self) -> None:
        if self.replay_states is not None:
            self.replay_states = None
            self.replay_bar.pack_forget()
