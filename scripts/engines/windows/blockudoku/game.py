"""The Blockudoku window's game flow: dealing hands from the seed, a placement through the
engine's `play`, which pieces fit (`fits`), the end of a game, undo; the game itself is
model.py's (`Game`, `Snapshot`, no Tk).

Only the dealing happens here (uniform with replacement over the catalogue, from the seed, as
in the original game); every rule is the engine's. `GameFlow` is mixed into `BlockudokuApp`
(window.py).
"""
from __future__ import annotations

import random
import tkinter as tk
from typing import Callable, List, Optional, Tuple, Union

from ... import BlockudokuEngine, Placement, cells_of, piece_spec
from .model import Game, Snapshot


class GameFlow:
    """The game's flow, from a new deal to game over. Reads of the window's state, set by the
    parts that own it: `analysing`, `autoplay`, `catalogue`, `controller`, `engine_dead`,
    `games_finished`, `history`, `piece_ids`, `replay_states`, `root`, `settings`."""

    # --- the hand, and which of its pieces fit ---------------------------------------------

    def remaining(self) -> List[Tuple[int, int]]:
        """(hand slot 0-2, piece id) of the pieces still in the hand."""
        return [(slot, pid) for slot, pid in enumerate(self.game.hand) if pid is not None]

    def position_job(self) -> Tuple[List[int], Callable[[BlockudokuEngine], None]]:
        """The hand slots in protocol order (the tray's: a played slot is sent as `-`), and a
        job telling an engine the position on screen (taken now, on the Tk thread; run later on
        the worker). The whole tray is sent as the engine's `play` leaves it, so the driver sends
        nothing when the engine holds the position already (`BlockudokuEngine.position`)."""
        board, hand, score, streak = self.game.board, self.specs(self.game.hand), self.game.score, self.game.streak
        return [0, 1, 2], lambda engine: engine.position(board, hand, score, streak)

    def specs(self, hand: List[Optional[int]]) -> List[Union[None, int, str]]:
        """The hand as a `position` line names it: catalogue ids, the shapes of a piece set's
        own pieces (`piece_spec`), None for an empty slot."""
        return [None if pid is None else piece_spec(self.catalogue[pid]) for pid in hand]

    def compute_fits(self) -> None:
        """Asks the engine which pieces of the hand fit somewhere (`fits`: no search); the
        answer greys out the others and ends the game when none fits."""
        self.fits_asked += 1
        asked = self.fits_asked
        if not self.remaining():
            return
        slots, send = self.position_job()

        def work(engine: BlockudokuEngine) -> List[Optional[bool]]:
            send(engine)
            return engine.fits()

        def done(answer: List[Optional[bool]]) -> None:
            if asked != self.fits_asked or self.analysing or self.replay_states is not None:
                return  # the position changed meanwhile
            self.fits = [False, False, False]
            for k, slot in enumerate(slots):
                self.fits[slot] = bool(answer[k]) if k < len(answer) else False
            self.redraw()
            if self.remaining() and not any(self.fits[s] for s, _ in self.remaining()):
                self.game_over()

        self.controller.ask(work, done)
    # --- game flow -------------------------------------------------------------------------

    def seed(self) -> int:
        return self.settings.seed()

    def new_game(self) -> None:
        if self.engine_dead is not None:
            return  # the game on screen is kept until the engine is restarted
        if self.analysing:
            self.leave_analysis()
        self.stop_replay()
        self.close_game_over()
        self.rng = random.Random(self.seed())
        self.game = Game()
        self.history.clear()
        self.events = []
        self.hint = []
        self.close_replay()
        self.controller.ask(lambda engine: engine.newgame())
        self.deal()
        self.after_change()

    def deal(self) -> None:
        self.game.hand = [self.rng.choice(self.piece_ids) for _ in range(3)]
        self.events.append(("hand", list(self.game.hand)))

    def snapshot(self) -> Snapshot:
        return Snapshot(self.game.board, list(self.game.hand), self.game.score, self.game.streak, self.rng.getstate())

    def place(self, slot: int, row: int, col: int, then: Optional[Callable[[bool], None]] = None) -> None:
        """Plays hand slot `slot` (0-2) with its top-left on (row, col) (0-based) via the engine's
        `play` (on the worker); `then(accepted)` follows on the Tk thread."""
        if self.game.hand[slot] is None or self.placing:
            if then is not None:
                then(False)
            return
        self.placing = True
        before = self.snapshot()
        slots, send = self.position_job()
        placement = Placement(slots.index(slot) + 1, row + 1, col + 1)

        def work(engine: BlockudokuEngine):
            send(engine)
            return engine.play([placement])

        def refused(err: BaseException) -> None:
            self.placing = False
            self.engine_refused(err, lambda refusal: self.status(f"cannot place there ({refusal.message})"))
            self.redraw()
            if then is not None:
                then(False)

        def played(state) -> None:
            self.placing = False
            self.history.append(before)
            self.events.append(("play", [Placement(slot + 1, row + 1, col + 1)]))
            # Cells that were filled (before, or by this piece) and are empty now were cleared:
            # flash them, as the original did. Read off the engine's boards, not worked out here.
            covered = {r * 9 + c for r, c in cells_of(self.catalogue[self.game.hand[slot]], row, col)}
            cleared_cells = [k for k in range(81) if (before.board[k] == "#" or k in covered) and state.board[k] == "."]
            self.game.board, self.game.score, self.game.streak = state.board, state.score, state.streak
            self.game.hand[slot] = None
            self.game.placed += 1
            self.status(f"cleared {state.cleared} region{'s' if state.cleared != 1 else ''}" if state.cleared else "")
            if not self.remaining():
                self.deal()
            self.hint = []
            self.after_change()
            if cleared_cells:
                self.flash(cleared_cells)
            if then is not None:
                then(True)

        self.controller.ask(work, played, refused)

    def after_change(self) -> None:
        """Redraws, then asks which pieces fit (the game ends when none does)."""
        self.hint = []
        self.redraw()
        self.compute_fits()

    def game_over(self) -> None:
        final = self.game.score
        self.games_finished.append(final)
        self.stop_engine()
        # The seed moves on so the next game is a new deal, still reproducible from the field.
        self.settings.seed_var.set(str(self.seed() + 1))
        self.new_game()
        self.show_game_over(final)

    def show_game_over(self, final: int) -> None:
        # Not a modal messagebox: the new game is already on the board behind it, and a
        # blocking dialog would stop the engine demo and the tests alike.
        win = tk.Toplevel(self.root)
        win.title("Game over")
        win.transient(self.root)
        tk.Label(win, text=f"Game over!\nFinal score: {final}", font=("Helvetica", 16), padx=24, pady=12).pack()
        tk.Button(win, text="OK", command=win.destroy).pack(pady=(0, 10))
        self.root.update_idletasks()
        win.geometry(f"+{self.root.winfo_rootx() + 120}+{self.root.winfo_rooty() + 200}")
        self.game_over_window = win
        self.status(f"game over with {final} points; new game (seed {self.settings.seed_var.get()})")

    def close_game_over(self) -> None:
        if self.game_over_window is not None:
            try:
                self.game_over_window.destroy()
            except tk.TclError:
                pass
            self.game_over_window = None

    def undo(self) -> None:
        if not self.history or self.autoplay:
            return
        snap = self.history.pop()
        while self.events and self.events[-1][0] == "hand":
            self.events.pop()  # the hand dealt after the placement undone
        if self.events:
            self.events.pop()
        self.game.board, self.game.hand = snap.board, list(snap.hand)
        self.game.score, self.game.streak = snap.score, snap.streak
        self.game.placed -= 1
        self.rng.setstate(snap.rng_state)
        self.hint = []
        self.status("undone")
        self.after_change()
