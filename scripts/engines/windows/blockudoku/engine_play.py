"""The Blockudoku window's engine: the choices sent to it (Scoring, Agent, Objective, Engine
ms), what a restarted engine is told, and its answers: Hint, and "Start Engine", the engine
playing on its own, placement by placement. `EnginePlay` is mixed into `BlockudokuApp`
(window.py).
"""
from __future__ import annotations

from typing import Callable, List, Optional, Tuple

from ... import BlockudokuEngine, EngineDied, EngineError, Placement
from ..engine_calls import stop_search


class EnginePlay:
    """The engine's settings, hints and play. Reads of the window's state, set by the parts that
    own it: `agent_var`, `analysing`, `calls`, `choice_vars`, `delay`, `dialogs`, `engine`,
    `engine_button`, `engine_dead`, `hint_button`, `movetime_var`, `replay_states`, `root`,
    `scoring_var`, `undo_button`."""

    # --- settings ----------------------------------------------------------------------------

    def movetime(self) -> Optional[int]:
        try:
            ms = int(self.movetime_var.get())
        except ValueError:
            return None
        return ms if ms > 0 else None

    def set_scoring(self, value: str) -> None:
        self.scoring_var.set(value)
        self.set_option("Scoring", value)

    def set_option(self, name: str, value: str) -> None:
        """Sends the choice at once, so the next search (hint or engine play) uses it."""
        if name in self.choice_vars:
            self.choice_vars[name].set(value)

        def refused(err: BaseException) -> None:
            if isinstance(err, EngineError) and name in self.choice_vars:
                # Refused: the window goes back to what the engine has.
                self.choice_vars[name].set(str(self.engine.settings.get(name, self.engine.options[name].default)))
            self.engine_failed(err)

        self.calls.call(lambda: self.engine.setoption(name, value), lambda _: self.status(f"{name}: {value}"), refused)

    def choices_job(self) -> Callable[[BlockudokuEngine], None]:
        """A job giving an engine the window's choices it does not have yet (read now)."""
        wanted = {name: var.get() for name, var in self.choice_vars.items()}
        if self.scoring_var.get():
            wanted["Scoring"] = self.scoring_var.get()

        def apply(engine: BlockudokuEngine) -> None:
            for name, value in wanted.items():
                option = engine.options.get(name)
                if option is not None and str(engine.settings.get(name, option.default)) != value:
                    engine.setoption(name, value)

        return apply

    def agent_name(self) -> str:
        """Which agent answers a search, as the status line names it."""
        agent = self.agent_var.get() or "engine"
        ms = self.movetime()
        return f"{agent}, {ms} ms" if ms else agent
    # --- the engine's supervision (../supervision.py) ---------------------------------------

    def on_engine_problem(self, err: Exception) -> None:
        self.stop_engine()

    def on_engine_death(self, err: EngineDied) -> None:
        self.stop_engine()

    def resume_job(self) -> Callable[[BlockudokuEngine], None]:
        return self.choices_job()  # a choice made while the engine was dead too

    def engine_resumed(self) -> None:
        self.after_change()  # sends the position; the game goes on where it was

    # --- engine play and hints ---------------------------------------------------------------

    def search(self, done: Callable[[Optional[List[Tuple[int, Placement]]]], None]) -> None:
        """Asks the engine's sequence for the current hand (on the worker); `done` gets it as
        (hand slot, placement) pairs, or None when the hand cannot be placed."""
        slots, send = self.position_job()
        movetime = self.movetime()

        def work():
            send(self.engine)
            return self.engine.go(movetime=movetime)

        def answered(result) -> None:
            self.search_running = False
            self.hint_button.config(text="Hint")
            done(None if result.lost else [(slots[p.slot - 1], p) for p in result.placements])

        def failed(err: BaseException) -> None:
            self.search_running = False
            self.hint_button.config(text="Hint")
            self.engine_failed(err)

        self.search_running = True
        self.calls.call(work, answered, failed)

    def stop_search(self) -> None:
        """Stop: the running search answers at once with what it has (`stop`)."""
        if self.search_running:
            stop_search(self.engine)

    def show_hint(self) -> None:
        if self.search_running:
            self.stop_search()  # the button reads Stop while the hint is searched
            return
        if self.analysing or self.autoplay or self.engine_dead is not None:
            return

        def shown(seq) -> None:
            self.hint = seq or []
            self.status(f"hint ({self.agent_name()}): "
                        + ", ".join(f"piece {s + 1} at r{p.row}c{p.col}" for s, p in self.hint)
                        if seq else f"no sequence places the hand ({self.agent_name()})")
            self.redraw()

        self.status(f"thinking ({self.agent_name()})...")
        self.search(shown)
        self.hint_button.config(text="Stop")

    def toggle_engine(self) -> None:
        if self.engine_dead is not None or self.replay_states is not None:
            return
        if self.autoplay:
            self.stop_engine()
        elif not self.search_running:
            self.autoplay = True
            self.engine_button.config(text="Stop Engine")
            self.undo_button.config(state="disabled")
            self.status(f"the engine plays ({self.agent_name()})")
            self.autoplay_job = self.root.after(10, self.engine_step)

    def stop_engine(self) -> None:
        """Ends the engine's own play at once (a search running is told to stop)."""
        was_playing = self.autoplay
        self.autoplay = False
        self.pending = []
        if self.autoplay_job is not None:
            self.root.after_cancel(self.autoplay_job)
            self.autoplay_job = None
        if was_playing:
            self.stop_search()
        self.engine_button.config(text="Start Engine")
        self.undo_button.config(state="normal")
        if self.hint and not self.analysing:
            self.hint = []  # the outline of a placement that will not be played now
            self.redraw()

    def engine_step(self) -> None:
        """One beat of the engine demo: show the next placement, then play it."""
        self.autoplay_job = None
        if not self.autoplay or self.dialogs.asking:
            return  # a question open: resume_play goes on when it is answered
        if not self.pending:
            self.search(self.engine_answered)
            return
        slot, placement = self.pending.pop(0)

        def placed(ok: bool) -> None:
            if not ok:
                if self.autoplay:
                    self.engine_failed(RuntimeError(f"engine's own placement {placement} was refused"))
                return
            if not self.autoplay:  # the game ended on this placement, or Stop
                return
            if self.pending:
                self.hint = self.pending[:1]
                self.redraw()
            self.autoplay_job = self.root.after(self.delay, self.engine_step)

        self.place(slot, placement.row - 1, placement.col - 1, placed)

    def resume_play(self) -> None:
        """The question is answered (Cancel): the engine's own play goes on."""
        if self.autoplay and self.autoplay_job is None and not self.search_running:
            self.autoplay_job = self.root.after(self.delay // 2, self.engine_step)

    def engine_answered(self, seq: Optional[List[Tuple[int, Placement]]]) -> None:
        if not self.autoplay:
            return  # stopped while it thought
        if seq is None:
            self.game_over()
            return
        self.pending = list(seq)
        self.hint = list(seq[:1])  # preview of the first placement
        self.redraw()
        self.autoplay_job = self.root.after(self.delay // 2, self.engine_step)
