"""The Blockudoku window's engine controller: the one part of the window that asks the engine
for advice or play. It sends the choices of the settings row (settings.py), answers Hint, runs
"Start Engine" (the engine playing on its own, placement by placement) and every other search
(the analysis board's), and stops any of them at once. The engine calls go through the window's
`EngineCalls` (off the Tk thread); the controller touches no widget: what it finds goes to the
functions of its `Table`, which the window provides.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

from ... import BlockudokuEngine
from ...errors import EngineError
from ..engine_calls import EngineCalls, Wait, stop_search
from .model import Sequence
from .settings import SettingsRow


@dataclass
class Table:
    """What the controller needs of the window, each one function."""

    position_job: Callable[[], Tuple[List[int], Callable[[BlockudokuEngine], None]]]  # game.py's
    place: Callable[[int, int, int, Callable[[bool], None]], None]  # slot, row, col (0-based), then(ok)
    game_over: Callable[[], None]
    show_hint: Callable[[Sequence], None]  # placements to outline on the board ([]: none)
    status: Callable[[str], None]
    failed: Callable[[BaseException], None]  # an engine call that went wrong (supervision)
    asking: Callable[[], bool]  # a question is open: the engine's play waits
    may_hint: Callable[[], bool]  # Hint is on (not on the analysis board, the engine alive)
    may_play: Callable[[], bool]  # Start Engine is on (a game is played, the engine alive)
    on_hint: Callable[[bool], None]  # a hint is searched (its button reads Stop), or no more
    on_play: Callable[[bool], None]  # the engine's play started, or ended (or was not running)


class EngineController:
    """The engine `engine` of a window on `root`, asked through `calls`, with the choices of
    `settings`; `delay` ms between the engine's placements. `engine` is replaced on a restart
    (the supervision sets it)."""

    def __init__(self, root, engine: BlockudokuEngine, calls: EngineCalls, settings: SettingsRow,
                 table: Table, delay: int = 350):
        self.root, self.engine, self.calls, self.settings, self.table = root, engine, calls, settings, table
        self.delay = delay
        self.search_running = False  # a go or analyse is out: Stop sends `stop`
        self.hinting = False  # the search out is Hint's: its button reads Stop
        self.playing = False  # "Start Engine": the engine plays on its own
        self.job: Optional[str] = None  # the next beat of its play
        self.pending: Sequence = []  # the rest of the sequence it found for the hand
        self.generation = 0  # bumps on every cancel, so a cancelled search's answer is dropped
        self.search_wait = Wait(search=True)  # what the search out waits on

    # --- choices -----------------------------------------------------------------------------

    def set_option(self, name: str, value: str) -> None:
        """Sends the choice at once, so the next search (hint or engine play) uses it."""
        self.settings.show(name, value)

        def refused(err: BaseException) -> None:
            if isinstance(err, EngineError) and name in self.settings.choice_vars:
                # Refused: the window goes back to what the engine has.
                self.settings.show(name, str(self.engine.settings.get(name, self.engine.options[name].default)))
            self.table.failed(err)

        self.calls.call(lambda: self.engine.setoption(name, value), lambda _: self.table.status(f"{name}: {value}"),
                        refused)

    def choices_job(self) -> Callable[[BlockudokuEngine], None]:
        """A job giving an engine the window's choices it does not have yet (read now)."""
        wanted = self.settings.wanted()

        def apply(engine: BlockudokuEngine) -> None:
            for name, value in wanted.items():
                option = engine.options.get(name)
                if option is not None and str(engine.settings.get(name, option.default)) != value:
                    engine.setoption(name, value)

        return apply

    # --- engine calls and searches -----------------------------------------------------------

    def ask(self, work: Callable[[BlockudokuEngine], object], done: Optional[Callable[[object], None]] = None,
            failed: Optional[Callable[[BaseException], None]] = None, wait: Optional[Wait] = None) -> None:
        """An engine call: `work(engine)` on the worker, given the engine of that moment (a
        restarted one too); its value goes to `done`, its error to `failed` (by default to the
        window's supervision). It waits on `wait` (or a wait of its own): an engine silent on it
        is offered to Stop (`EngineCalls.stuck`), and Stop ends it."""
        self.calls.call(lambda: work(self.calls.waiting_on(self.engine)), done, failed, wait)

    def run_search(self, work: Callable[[BlockudokuEngine], object], answered: Callable[[object], None],
                   failed: Callable[[BaseException], None]) -> None:
        """A search on the worker (`work(engine)`), stoppable with `stop_search` until it answers."""
        generation = self.generation

        def done(result) -> None:
            if generation == self.generation:  # else cancelled: a new game does not want it
                self.search_ended()
                answered(result)

        def refused(err: BaseException) -> None:
            if generation == self.generation:
                self.search_ended()
                failed(err)

        self.search_running = True
        self.search_wait = Wait(search=True)
        self.ask(work, done, refused, self.search_wait)

    def search_ended(self) -> None:
        self.search_running = self.hinting = False
        self.table.on_hint(False)

    def search(self, done: Callable[[Optional[Sequence]], None]) -> None:
        """Asks the engine's sequence for the current hand; `done` gets it, or None when the
        hand cannot be placed."""
        slots, send = self.table.position_job()
        movetime = self.settings.movetime()

        def work(engine: BlockudokuEngine):
            send(engine)
            return engine.go(movetime=movetime)

        self.run_search(work, lambda result: done(None if result.lost else [(slots[p.slot - 1], p) for p in result.placements]),
                        self.table.failed)

    def stop_search(self) -> None:
        """Stop: the running search answers at once with what it has (`stop`)."""
        if self.search_running:
            self.search_wait.stop_asked()
            stop_search(self.engine)

    def cancel(self) -> None:
        """Stops the engine's play and any search at once; what the search answers is dropped."""
        self.stop_play()
        self.stop_search()
        self.generation += 1
        if self.search_running:
            self.search_ended()

    def hint(self) -> None:
        """Hint, or Stop while a hint is searched."""
        if self.search_running:
            self.stop_search()
            return
        if not self.table.may_hint() or self.playing:
            return
        agent = self.settings.agent_name()

        def shown(seq: Optional[Sequence]) -> None:
            self.table.status(f"hint ({agent}): " + ", ".join(f"piece {s + 1} at r{p.row}c{p.col}" for s, p in seq)
                              if seq else f"no sequence places the hand ({agent})")
            self.table.show_hint(seq or [])

        self.table.status(f"thinking ({agent})...")
        self.search(shown)
        self.hinting = True
        self.table.on_hint(True)

    # --- the engine's own play ---------------------------------------------------------------

    def toggle(self) -> None:
        """Start Engine / Stop Engine."""
        if self.playing:
            self.stop_play()
        elif self.table.may_play() and not self.search_running:
            self.playing = True
            self.table.on_play(True)
            self.table.status(f"the engine plays ({self.settings.agent_name()})")
            self.job = self.root.after(10, self.step)

    def stop_play(self) -> None:
        """Ends the engine's own play at once (a search running is told to stop)."""
        was_playing = self.playing
        self.playing = False
        self.pending = []
        if self.job is not None:
            self.root.after_cancel(self.job)
            self.job = None
        if was_playing:
            self.stop_search()
        self.table.on_play(False)

    def step(self) -> None:
        """One beat of the engine's play: show the next placement, then play it."""
        self.job = None
        if not self.playing or self.table.asking():
            return  # a question open: resume goes on when it is answered
        if not self.pending:
            self.search(self.answered)
            return
        slot, placement = self.pending.pop(0)

        def placed(ok: bool) -> None:
            if not ok:
                if self.playing:
                    self.table.failed(RuntimeError(f"engine's own placement {placement} was refused"))
                return
            if not self.playing:  # the game ended on this placement, or Stop
                return
            if self.pending:
                self.table.show_hint(self.pending[:1])
            self.job = self.root.after(self.delay, self.step)

        self.table.place(slot, placement.row - 1, placement.col - 1, placed)

    def resume(self) -> None:
        """The question is answered (Cancel): the engine's own play goes on."""
        if self.playing and self.job is None and not self.search_running:
            self.job = self.root.after(self.delay // 2, self.step)

    def answered(self, seq: Optional[Sequence]) -> None:
        if not self.playing:
            return  # stopped while it thought
        if seq is None:
            self.table.game_over()
            return
        self.pending = list(seq)
        self.table.show_hint(list(seq[:1]))  # preview of the first placement
        self.job = self.root.after(self.delay // 2, self.step)
