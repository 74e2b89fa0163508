"""What the Tkinter front ends (the Blockudoku and Competitive Sudoku windows, blockudoku/ and
sudoku/ beside this file) share: the status line, with the Restart engine button that is shown
only while the engine is dead, the error dialogs, and the supervision of the engine behind it
(`EngineSupervision`). The engine calls themselves go through `engines.windows.EngineCalls`, off
the Tk thread; a restart too."""
from __future__ import annotations

import tkinter as tk
from typing import Callable, Optional, Tuple

from ..base import LineEngine
from ..errors import EngineDied, EngineError
from .dialogs import Dialogs
from .engine_calls import EngineCalls

NORMAL = "#444"
ALARM = "#b00020"
# How often an idle engine is looked at (ms): a death between commands is seen this soon.
WATCH_MS = 300


def engine_status_row(root: tk.Misc, status_var: tk.StringVar, restart: Callable[[], None],
                      wraplength: int, pady=0) -> Tuple[tk.Label, tk.Button]:
    """Packs the row at the bottom of the window; returns its (status label, restart button)."""
    status_row = tk.Frame(root)
    status_row.pack(side="bottom", fill="x", padx=8, pady=pady)
    # Shown only when the engine has died: the game stays on screen until it is restarted.
    restart_button = tk.Button(status_row, text="Restart engine", command=restart)
    status_label = tk.Label(status_row, textvariable=status_var, fg=NORMAL, anchor="w", justify="left",
                            wraplength=wraplength)
    status_label.pack(side="left", fill="x", expand=True)
    return status_label, restart_button


def show_engine_dead(status_label: tk.Label, restart_button: tk.Button) -> None:
    status_label.config(fg=ALARM)
    restart_button.pack(side="right", before=status_label)


def show_engine_alive(status_label: tk.Label, restart_button: tk.Button) -> None:
    restart_button.pack_forget()
    status_label.config(fg=NORMAL)


class EngineSupervision:
    """The engine behind a front end, mixed into the front end's class: a death is reported
    once (the status line turns red and Restart engine appears; the game stays on screen), an
    idle engine is watched so that a death between commands is seen too, and Restart engine
    starts a new process with the same options (`LineEngine.respawn`) and hands it the game.

    The front end sets `self.root`, `self.engine`, `self.calls` (its EngineCalls) and
    `self.dialogs`, calls `engine_status_row` when it builds the window (the row goes to the
    bottom), sets `closed` when the window closes, passes every failed engine call to
    `engine_failed` (or `engine_refused`), and overrides the steps (`resume_job` at least) that
    it needs."""

    root: tk.Misc
    engine: LineEngine
    calls: EngineCalls
    dialogs: Dialogs
    closed = False  # the window is closed: no more dialogs, the watch stops
    status_var: tk.StringVar  # the status line's text
    # Set when the engine process ended: reported once, the game kept until a restart.
    engine_dead: Optional[EngineDied] = None
    engine_reports = 0  # how often a death was reported (tests read this)
    status_label: tk.Label
    restart_button: tk.Button
    # The status line's width in pixels: alone, and beside Restart engine.
    status_wrap: Tuple[int, int] = (0, 0)

    def status(self, text: str) -> None:
        """Says `text` on the status line."""
        self.status_var.set(text)

    def show_error(self, text: str, title: Optional[str] = None) -> None:
        """A problem the user must see: on the status line and in a dialog (not modal: the window
        and the engine go on behind it, and a modal one would stop the tests too)."""
        self.status(text)
        if not self.closed:
            self.dialogs.error(text, title)

    def report_exception(self, kind, value, tb) -> None:
        """A failure in a Tk callback (the window's `report_callback_exception`): a dialog with its
        one-line reason, not a traceback."""
        self.show_error(f"{kind.__name__}: {value}", "Unexpected error")

    # --- the steps a front end overrides --------------------------------------------------

    def resume_job(self) -> Callable[[LineEngine], None]:
        """Called on the Tk thread: what the restarted engine must be told to hold the game on
        screen (its options, position or moves), as a function of the new engine that runs on
        the worker thread (so it must not touch Tk). An EngineProblem there means the restart
        failed."""
        raise NotImplementedError

    def engine_resumed(self) -> None:
        """After a restart: redraw and go on (an agent to move, the engine's own play)."""

    def on_engine_problem(self, err: Exception) -> None:
        """Any failure of an engine call (a death too), before it is reported: stop what used it."""

    def on_engine_death(self, err: EngineDied) -> None:
        """The first report of a death, before its status line: drop what the dead engine owed."""

    def window_closed(self) -> bool:
        """True once the window is closed: the watch stops."""
        return self.closed

    # --- supervision ----------------------------------------------------------------------------

    def engine_status_row(self, parent: tk.Misc, wraplength: Tuple[int, int], pady=(0, 4)) -> None:
        """Packs the status row (status line, Restart engine) at the bottom of `parent` and starts
        watching the engine. `wraplength`: the line's width in pixels, alone and beside Restart
        engine."""
        self.status_wrap = wraplength
        self.status_var = tk.StringVar(value="")
        self.status_label, self.restart_button = engine_status_row(parent, self.status_var, self.restart_engine,
                                                                   wraplength=wraplength[0], pady=pady)
        self.root.after(WATCH_MS, self.watch_engine)

    def engine_failed(self, err: Exception) -> None:
        """An engine call went wrong: a death is reported (once), another problem shown."""
        self.on_engine_problem(err)
        if isinstance(err, EngineDied):
            self.engine_died(err)
        elif self.engine_dead is None:
            self.status(f"engine problem: {err}")

    def engine_refused(self, err: BaseException, show: Callable[[EngineError], None]) -> None:
        """A failed engine call whose refusal the user must see: the engine's `error` answer
        (EngineError) goes to `show`, anything else (a dead engine) to `engine_failed`."""
        if isinstance(err, EngineError):
            show(err)
        else:
            self.engine_failed(err)

    def engine_died(self, err: EngineDied) -> None:
        """Reports the end of the engine process once and offers to restart it."""
        if self.engine_dead is not None:
            return
        self.engine_dead = err
        self.engine_reports += 1
        self.on_engine_death(err)
        self.status(f"The engine stopped ({err.reason}). Game kept: press Restart engine.")
        show_engine_dead(self.status_label, self.restart_button)
        self.status_label.config(wraplength=self.status_wrap[1])

    def watch_engine(self) -> None:
        """Notices an engine that died while nothing was asked of it."""
        if self.window_closed():
            return
        if self.engine_dead is None and not self.engine.alive:
            self.engine_died(self.engine.death("(idle)"))
        self.root.after(WATCH_MS, self.watch_engine)

    def restart_engine(self) -> None:
        """A new engine process with the same options, given the game on screen (on the worker
        thread: the window keeps repainting while the engine starts)."""
        old, resume = self.engine, self.resume_job()

        def start() -> LineEngine:
            new = old.respawn()
            try:
                resume(new)
            except BaseException:
                new.kill()
                raise
            return new

        def started(new: LineEngine) -> None:
            self.engine = new
            self.engine_dead = None
            show_engine_alive(self.status_label, self.restart_button)
            self.status_label.config(wraplength=self.status_wrap[0])
            self.engine_resumed()
            if self.engine_dead is None:
                self.status("engine restarted; the game goes on")

        self.status("restarting the engine...")
        self.calls.call(start, started, lambda err: self.status(f"The engine could not be restarted: {err}"))
