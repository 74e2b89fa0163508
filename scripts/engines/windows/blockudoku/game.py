"""The Blockudoku window's game flow: a new game from the seed, a placement through the engine's
`play`, which pieces fit (`fits`), the end of a game, undo. The game itself is the `Screen`'s
(model.py, no Tk); the flow asks the engine through the controller (controller.py) and has the
canvas (canvas.py) draw what changed. Every rule is the engine's.
"""
from __future__ import annotations

import tkinter as tk
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple, Union

from ... import BlockudokuEngine, Piece, Placement, cells_of, piece_spec
from ...errors import EngineError
from ..engine_calls import Wait
from .canvas import BoardCanvas
from .controller import EngineController
from .model import Screen
from .settings import SettingsRow


@dataclass
class FlowHooks:
    """What the flow needs of the window, each one function."""

    status: Callable[[str], None]
    refused: Callable[[BaseException, Callable[[EngineError], None]], None]  # the engine's error, or a failure
    engine_dead: Callable[[], bool]  # the engine process has ended (until a restart)
    leave_modes: Callable[[], None]  # a new game: the analysis board and a loaded record give way
    waiting: Callable[[Callable[[], None]], None]  # a new game waits on the engine: this stops it
    waited: Callable[[Callable[[], None]], None]  # that wait (of that stop) is over


def specs(catalogue: Dict[int, Piece], hand: List[Optional[int]]) -> List[Union[None, int, str]]:
    """The hand as a `position` line names it: catalogue ids, the shapes of a piece set's own
    pieces (`piece_spec`), None for an empty slot."""
    return [None if pid is None else piece_spec(catalogue[pid]) for pid in hand]


class GameFlow:
    """The game of `screen` from a new deal to game over, on `root`, with the pieces of
    `catalogue`, the seed of `settings`, the engine asked through `controller`, drawn on
    `canvas`."""

    def __init__(self, root: tk.Misc, screen: Screen, catalogue: Dict[int, Piece], settings: SettingsRow,
                 controller: EngineController, canvas: BoardCanvas, hooks: FlowHooks):
        self.root, self.screen, self.catalogue, self.settings = root, screen, catalogue, settings
        self.controller, self.canvas, self.hooks = controller, canvas, hooks
        self.fits_asked = 0  # bumps with every position change, so a stale fits answer is dropped
        self.fits_unknown = False  # not asked while the engine played (after_change)
        self.game_over_window: Optional[tk.Toplevel] = None

    # --- the hand, and which of its pieces fit ---------------------------------------------

    def position_job(self) -> Tuple[List[int], Callable[[BlockudokuEngine], None]]:
        """The hand slots in protocol order (the tray's: a played slot is sent as `-`), and a
        job telling an engine the position on screen (taken now, on the Tk thread; run later on
        the worker). The whole tray is sent as the engine's `play` leaves it, so the driver sends
        nothing when the engine holds the position already (`BlockudokuEngine.position`)."""
        g = self.screen.game
        board, hand, score, streak = g.board, specs(self.catalogue, g.hand), g.score, g.streak
        return [0, 1, 2], lambda engine: engine.position(board, hand, score, streak)

    # --- game flow -------------------------------------------------------------------------

    def new_game(self) -> None:
        """A new deal from the Seed field: a search running is stopped and its answer dropped,
        so the new game never waits for it; New game reads Stop while the engine has not
        answered."""
        if self.hooks.engine_dead():
            return  # the game on screen is kept until the engine is restarted
        self.controller.cancel()
        self.hooks.leave_modes()
        self.close_game_over()
        self.screen.new_game(self.settings.seed())
        # An engine that does not answer `newgame` is not searching: New game reads Stop, which
        # ends it (then reported, with Restart engine).
        wait = Wait(own_button=True)

        def failed(err: BaseException) -> None:
            self.hooks.waited(wait.stop)
            self.controller.table.failed(err)

        self.hooks.waiting(wait.stop)
        self.controller.ask(lambda engine: engine.newgame(), lambda _: self.hooks.waited(wait.stop), failed, wait)
        self.after_change()

    def place(self, slot: int, row: int, col: int, then: Optional[Callable[[bool], None]] = None) -> None:
        """Plays hand slot `slot` (0-2) with its top-left on (row, col) (0-based) via the engine's
        `play` (on the worker); `then(accepted)` follows on the Tk thread."""
        s = self.screen
        if s.game.hand[slot] is None or s.placing:
            if then is not None:
                then(False)
            return
        s.placing = True
        before = s.snapshot()
        slots, send = self.position_job()
        placement = Placement(slots.index(slot) + 1, row + 1, col + 1)
        covered = {r * 9 + c for r, c in cells_of(self.catalogue[s.game.hand[slot]], row, col)}

        def work(engine: BlockudokuEngine):
            send(engine)
            return engine.play([placement])

        def refused(err: BaseException) -> None:
            s.placing = False
            self.hooks.refused(err, lambda refusal: self.hooks.status(f"cannot place there ({refusal.message})"))
            self.canvas.redraw()
            if then is not None:
                then(False)

        def played(state) -> None:
            s.placing = False
            # Cells cleared are flashed, as the original did.
            cleared_cells = s.played(before, slot, row, col, covered, state)
            self.hooks.status(f"cleared {state.cleared} region{'s' if state.cleared != 1 else ''}"
                              if state.cleared else "")
            self.after_change()
            if cleared_cells:
                self.canvas.flash(cleared_cells)
            if then is not None:
                then(True)

        self.controller.ask(work, played, refused)

    def after_change(self) -> None:
        """Redraws, then asks which pieces fit (the game ends when none does). Not while the
        engine plays on its own: it places the pieces of its sequence, and its `go` says when a
        hand cannot be placed (the game ends then too); `play_ended` asks again."""
        self.screen.hint = []
        if self.controller.playing:
            self.fits_asked += 1  # a fits answer still to come is dropped
            self.screen.fits = [True, True, True]
            self.fits_unknown = True
            self.canvas.redraw()
        else:
            self.canvas.redraw()
            self.compute_fits()

    def play_ended(self) -> None:
        """The engine's own play ended: which pieces fit, for the player's drags."""
        if self.fits_unknown and not self.screen.analysing and self.screen.replay_states is None:
            self.compute_fits()

    def compute_fits(self) -> None:
        """Asks the engine which pieces of the hand fit somewhere (`fits`: no search); the
        answer greys out the others and ends the game when none fits."""
        self.fits_asked += 1
        self.fits_unknown = False
        asked, s = self.fits_asked, self.screen
        if not s.remaining():
            return
        slots, send = self.position_job()

        def work(engine: BlockudokuEngine) -> List[Optional[bool]]:
            send(engine)
            return engine.fits()

        def done(answer: List[Optional[bool]]) -> None:
            if asked != self.fits_asked or s.analysing or s.replay_states is not None:
                return  # the position changed meanwhile
            s.fits = [False, False, False]
            for k, slot in enumerate(slots):
                s.fits[slot] = bool(answer[k]) if k < len(answer) else False
            self.canvas.redraw()
            if s.remaining() and not any(s.fits[slot] for slot, _ in s.remaining()):
                self.game_over()

        self.controller.ask(work, done)

    def game_over(self) -> None:
        final = self.screen.game.score
        self.screen.games_finished.append(final)
        self.controller.stop_play()
        # The seed moves on so the next game is a new deal, still reproducible from the field.
        self.settings.seed_var.set(str(self.settings.seed() + 1))
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
        self.hooks.status(f"game over with {final} points; new game (seed {self.settings.seed_var.get()})")

    def close_game_over(self) -> None:
        if self.game_over_window is not None:
            try:
                self.game_over_window.destroy()
            except tk.TclError:
                pass
            self.game_over_window = None

    def undo(self) -> None:
        if self.controller.playing or not self.screen.undo():
            return
        self.hooks.status("undone")
        self.after_change()
