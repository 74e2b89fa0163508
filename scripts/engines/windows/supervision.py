"""What the Tkinter front ends (the Blockudoku and Competitive Sudoku windows, blockudoku/ and
sudoku/ beside this file) share: the status line, with the Restart engine button that is shown
only while the engine is dead, the error dialogs, and the supervision of the engine behind it
(`EngineSupervision`, an object each window makes, given what it needs). The engine calls
themselves go through `engines.windows.EngineCalls`, off the Tk thread; a restart too, and it
can be stopped (Restart engine reads Stop while the new engine starts)."""
from __future__ import annotations

import threading
import tkinter as tk
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from ..base import LineEngine
from ..errors import EngineDied, EngineError
from .dialogs import Dialogs
from .engine_calls import EngineCalls, StopOffer, Wait

NORMAL = "#444"
ALARM = "#b00020"
# How often an idle engine is looked at (ms): a death between commands is seen this soon.
WATCH_MS = 300


def end_engines(engines: List[LineEngine], timeout: float = 1.0) -> threading.Thread:
    """Asks each engine to quit (killed after `timeout` s if it does not) on a thread of its own,
    so that closing a window or switching its game never waits on an engine that does not answer.
    The thread is no daemon: the program ends after it, so no engine outlives the window."""
    def end() -> None:
        for engine in engines:
            engine.quit(timeout=timeout)

    thread = threading.Thread(target=end, name="end-engines")
    thread.start()
    return thread


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


@dataclass
class SupervisionHooks:
    """What the supervision needs of its window, each one function."""

    engine: Callable[[], LineEngine]  # the engine of the moment
    set_engine: Callable[[LineEngine], None]  # a restarted engine replaces it
    # Called on the Tk thread: what a restarted engine must be told to hold the game on screen
    # (its options, position or moves), as a function of the new engine that runs on the worker
    # thread (so it must not touch Tk). An EngineProblem there means the restart failed.
    resume_job: Callable[[], Callable[[LineEngine], None]]
    resumed: Callable[[], None] = lambda: None  # after a restart: redraw and go on
    problem: Callable[[Exception], None] = lambda err: None  # any failure (a death too): stop what used it
    died: Callable[[EngineDied], None] = lambda err: None  # a death, before its status line
    closed: Callable[[], bool] = field(default=lambda: False)  # the window is closed: the watch stops


class EngineSupervision:
    """The engine behind a window on `root`: a death is reported once (the status line turns
    red and Restart engine appears; the game stays on screen), an idle engine is watched so
    that a death between commands is seen too, and Restart engine starts a new process with the
    same options (`LineEngine.respawn`, on the worker through `calls`: it reads Stop while the
    engine starts, and Stop ends it) and hands it the game. The status row is packed at the
    bottom of `parent`, its line `wraplength` pixels wide alone and beside Restart engine; the
    window passes every failed engine call to `engine_failed` (or `engine_refused`)."""

    def __init__(self, root: tk.Misc, parent: tk.Misc, calls: EngineCalls, dialogs: Dialogs,
                 hooks: SupervisionHooks, wraplength: Tuple[int, int], pady=(0, 4)):
        self.root, self.calls, self.dialogs, self.hooks = root, calls, dialogs, hooks
        self.engine_dead: Optional[EngineDied] = None  # the process ended: the game kept until a restart
        self.engine_reports = 0  # how often a death was reported (tests read this)
        self.status_wrap = wraplength
        self.status_var = tk.StringVar(value="")
        self.status_label, self.restart_button = engine_status_row(parent, self.status_var, self.restart_engine,
                                                                   wraplength=wraplength[0], pady=pady)
        self.restart_offer = StopOffer(self.restart_button, self.restart_engine)
        self.restarting: Optional[Wait] = None
        self.root.after(WATCH_MS, self.watch_engine)

    def status(self, text: str) -> None:
        """Says `text` on the status line."""
        self.status_var.set(text)

    def show_error(self, text: str, title: Optional[str] = None) -> None:
        """A problem the user must see: on the status line and in a dialog (not modal: the window
        and the engine go on behind it, and a modal one would stop the tests too)."""
        self.status(text)
        if not self.hooks.closed():
            self.dialogs.error(text, title)

    def report_exception(self, kind, value, tb) -> None:
        """A failure in a Tk callback (the window's `report_callback_exception`): a dialog with its
        one-line reason, not a traceback."""
        self.show_error(f"{kind.__name__}: {value}", "Unexpected error")

    def engine_failed(self, err: Exception) -> None:
        """An engine call went wrong: a death is reported (once), another problem shown."""
        self.hooks.problem(err)
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
        self.hooks.died(err)
        self.status(f"The engine stopped ({err.reason}). Game kept: press Restart engine.")
        show_engine_dead(self.status_label, self.restart_button)
        self.status_label.config(wraplength=self.status_wrap[1])

    def watch_engine(self) -> None:
        """Notices an engine that died while nothing was asked of it."""
        if self.hooks.closed():
            return
        engine = self.hooks.engine()
        if self.engine_dead is None and self.restarting is None and not engine.alive:
            self.engine_died(engine.death("(idle)"))
        self.root.after(WATCH_MS, self.watch_engine)

    def restart_engine(self) -> None:
        """A new engine process with the same options, given the game on screen (on the worker
        thread: the window keeps repainting while the engine starts); Restart engine reads Stop
        meanwhile, and Stop ends the new process."""
        if self.restarting is not None:
            return
        old, resume = self.hooks.engine(), self.hooks.resume_job()
        wait = self.restarting = Wait(own_button=True)

        def start() -> LineEngine:
            new = old.respawn(on_start=wait.begin)
            try:
                resume(new)
            except BaseException:
                new.kill()
                raise
            return new

        def started(new: LineEngine) -> None:
            self.restart_ended()
            self.hooks.set_engine(new)
            self.engine_dead = None
            show_engine_alive(self.status_label, self.restart_button)
            self.status_label.config(wraplength=self.status_wrap[0])
            self.hooks.resumed()
            if self.engine_dead is None:
                self.status("engine restarted; the game goes on")

        def failed(err: BaseException) -> None:
            self.restart_ended()
            self.status("Restart stopped: press Restart engine to try again." if wait.stopped.is_set()
                        else f"The engine could not be restarted: {err}")

        self.status("restarting the engine...")
        self.restart_offer.waiting(wait.stop)
        self.calls.call(start, started, failed, wait)

    def restart_ended(self) -> None:
        self.restarting = None
        self.restart_offer.end()
