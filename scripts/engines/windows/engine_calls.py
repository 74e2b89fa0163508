"""Engine calls off the Tk thread, and what shows them.

Why it is shaped this way: Tk is single-threaded, and an engine may think for seconds. A window
that asks the engine on the Tk thread stops repainting, ignores Stop and cannot be resized until
the answer comes. So every engine call goes through `EngineCalls`: one worker thread runs the
calls in the order they were made (the engine's conversation stays in order), and each result or
error is handed back to the Tk thread by one `after` poll, where the window updates itself. Only
`stop` is written from the Tk thread (`stop_search`, `Search.stop`): it is one line to a pipe and
must reach the engine while the worker waits for `bestmove`. A wait that is no search (a new
game, a restart, a move, a question) answers no `stop`: each call waits on one `Wait`, which
knows the engine process the call talks to (`EngineCalls.waiting_on`, on the worker), and Stop
ends that process. New game and Restart engine read Stop meanwhile (`StopOffer`); any other
call on an engine silent for STOP_AFTER_MS (a search too, once told to stop) turns the busy bar
(`BusyIndicator`, which shows that the engine works) into a Stop button.
"""
from __future__ import annotations

import gc
import queue
import threading
import time
import tkinter as tk
from tkinter import ttk
from typing import Callable, List, Optional, Tuple

from ..base import LineEngine

# How often the Tk thread looks for finished calls (ms): fast enough that a reply feels immediate,
# slow enough to cost nothing while idle.
DELIVER_MS = 15
# How long a wait lasts (an engine silent on a call) before Stop is offered (ms): a quick
# answer does not flash it.
STOP_AFTER_MS = 300
NORMAL = "#444"


class EngineCalls:
    """Runs engine calls on one worker thread, in order, and delivers each outcome on the Tk thread.

    `call(work, done, failed)` queues `work()` for the worker; when it returns, `done(value)` runs
    on the Tk thread, and when it raises, `failed(error)` does (without `failed` the error goes
    to `on_error`, set by the window). `post(callback, value)` hands a value from the worker to
    the Tk thread while a call is still running (a search's `info` lines). `idle` is true when
    nothing is queued, running or waiting for delivery; `on_busy(bool)` is told when that changes.
    Each call waits on a `Wait` (`call`'s `wait`, or one of its own): the engine the work talks
    to is named by `waiting_on(engine)`, and `stuck` says when the running call has waited on a
    silent engine long enough to offer Stop (`on_stuck(bool)` is told when that changes), which
    `stop_waiting` does.
    """

    def __init__(self, root: tk.Misc, on_error: Optional[Callable[[BaseException], None]] = None):
        self.root = root
        self.on_error = on_error
        self.on_busy: List[Callable[[bool], None]] = []
        self.on_stuck: List[Callable[[bool], None]] = []
        self.running: Optional[Wait] = None  # the wait of the call the worker runs
        self._stuck = False
        self._jobs: "queue.Queue[Optional[Tuple[Callable, Optional[Callable], Optional[Callable], Wait]]]" = queue.Queue()
        self._out: "queue.Queue[Tuple[Optional[Callable], object, bool]]" = queue.Queue()
        self._pending = 0  # calls made and not yet delivered (Tk thread only)
        self._closed = False
        # The Tk objects of windows closed before this one (a game switched in the window, or
        # the many windows of a test run) are freed now, on the Tk thread. Left to the garbage
        # collector, they could be freed on the worker, which would tear a Tk variable or
        # interpreter down from the wrong thread: a stall of a second a variable, or an abort.
        gc.collect()
        self._worker = threading.Thread(target=self._work, name="engine-calls", daemon=True)
        self._worker.start()
        self._job = root.after(DELIVER_MS, self._deliver)

    @property
    def idle(self) -> bool:
        """True when no call is queued, running or waiting to be delivered."""
        return self._pending == 0

    def call(self, work: Callable[[], object], done: Optional[Callable[[object], None]] = None,
             failed: Optional[Callable[[BaseException], None]] = None, wait: Optional["Wait"] = None) -> None:
        """Queues `work` for the worker thread; its value goes to `done`, its error to `failed`.
        `wait`: what the call waits on (Stop ends it), when the caller keeps it."""
        if self._closed:
            return
        self._pending += 1
        if self._pending == 1:
            self._tell_busy(True)
        self._jobs.put((work, done, failed, wait or Wait()))

    def waiting_on(self, engine: LineEngine) -> LineEngine:
        """On the worker, in a call: `engine` is the one the call talks to now (Stop ends it)."""
        wait = self.running
        if wait is not None:
            wait.begin(engine)
        return engine

    @property
    def stuck(self) -> bool:
        """The running call has waited STOP_AFTER_MS on an engine silent meanwhile (one that
        searches only once told to stop), and no button of its own offers Stop."""
        wait = self.running
        return wait is not None and not wait.own_button and wait.silent()

    def stop_waiting(self) -> None:
        """Stop: ends the engine the running call waits on (the call then fails: EngineDied)."""
        wait = self.running
        if wait is not None:
            wait.stop()

    def post(self, callback: Callable[[object], None], value: object) -> None:
        """From the worker: runs `callback(value)` on the Tk thread soon (a call's progress)."""
        self._out.put((callback, value, False))

    def close(self) -> None:
        """Stops delivering; the worker ends after the call it is running."""
        self._closed = True
        self._jobs.put(None)
        try:
            self.root.after_cancel(self._job)
        except tk.TclError:
            pass

    def join(self, timeout: float = 5.0) -> None:
        """Waits for the worker to end (after `close`)."""
        self._worker.join(timeout)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            work, done, failed, wait = job
            self.running = wait
            try:
                value = work()
            except BaseException as err:  # delivered to the window, never lost in the thread
                self._out.put((failed or self._default_failed, err, True))
            else:
                self._out.put((done, value, True))
            finally:
                self.running = None

    def _default_failed(self, err: BaseException) -> None:
        if self.on_error is not None:
            self.on_error(err)
        else:
            raise err

    def _deliver(self) -> None:
        if self._closed:
            return
        try:
            while True:
                try:
                    callback, value, finishes = self._out.get_nowait()
                except queue.Empty:
                    break
                if finishes:
                    self._pending -= 1
                try:
                    if callback is not None:
                        callback(value)
                except Exception as err:  # a window's bug: shown by its report_callback_exception
                    self.root.report_callback_exception(type(err), err, err.__traceback__)
                if finishes and self._pending == 0:
                    self._tell_busy(False)
        finally:
            if not self._closed:
                self._tell_stuck()
                self._job = self.root.after(DELIVER_MS, self._deliver)

    def _tell_busy(self, busy: bool) -> None:
        for listener in self.on_busy:
            listener(busy)

    def _tell_stuck(self) -> None:
        stuck = self.stuck
        if stuck != self._stuck:
            self._stuck = stuck
            for listener in self.on_stuck:
                listener(stuck)


def stop_search(engine: LineEngine) -> None:
    """Stop: sends `stop` at once from the Tk thread (the search's `bestmove` still comes to the
    call waiting for it on the worker). An engine already gone is left to the supervision."""
    try:
        engine.stop()
    except Exception:
        pass


class Wait:
    """What one engine call waits on: the engine process it talks to now (`begin`, on the
    worker). Stop (`stop`, on the Tk thread) ends that process at once, since an engine that
    does not answer (paused, hung, still starting) cannot be asked to: the call then raises
    EngineDied (the window reports the engine ended, and offers Restart engine). An engine
    given after Stop is ended at once. `own_button`: a button of the wait's own reads Stop
    meanwhile (New game, Restart engine); `search`: the call searches, and its engine, which
    answers `stop`, counts as silent only once told to stop (`stop_asked`)."""

    def __init__(self, own_button: bool = False, search: bool = False) -> None:
        self.stopped = threading.Event()
        self.engine: Optional[LineEngine] = None
        self.own_button, self.search = own_button, search
        self.starting = False  # the engine is a process still starting (its handshake)
        self.stop_sent = False  # the search was told to stop
        self._lock = threading.Lock()

    def begin(self, engine: LineEngine, starting: bool = False) -> None:
        """On the worker: the call talks to `engine` now (`starting`: before its handshake)."""
        with self._lock:
            self.engine, self.starting = engine, starting
            end = self.stopped.is_set() or (starting and self.stop_sent)
        if end:
            engine.kill()

    def stop(self) -> None:
        with self._lock:
            self.stopped.set()
            engine = self.engine
        if engine is not None:
            engine.kill()

    def stop_asked(self) -> None:
        """The search was told to stop: from now on its engine's silence counts, and an engine
        still starting is ended at once (a new process that has served nothing: nothing is lost)."""
        with self._lock:
            self.stop_sent = True
            starting = self.starting
        if starting:
            self.stop()

    def silent(self) -> bool:
        """The engine waited on has been silent (nothing written to it, nothing printed) for
        STOP_AFTER_MS, and Stop would end it."""
        engine = self.engine
        if engine is None or self.stopped.is_set() or (self.search and not self.stop_sent):
            return False
        return time.monotonic() - engine.last_exchange >= STOP_AFTER_MS / 1000 and engine.alive


class Search:
    """One search a window asked for, stoppable from the Tk thread at any moment: before the
    worker has started it (it then stops as soon as it starts; an engine it waits on that is
    still starting is ended at once), while it runs (`stop`: the engine answers at once with
    what it has), or after (nothing happens). Its call waits on `wait` (give it to
    `EngineCalls.call`): an engine that does not answer `stop` is ended from the busy bar.

    On the worker: `run(engine, go)` calls `go(cancel=event)` (a driver's `go`); on the Tk
    thread: `stop()`."""

    def __init__(self) -> None:
        self.cancel = threading.Event()
        self.engine: Optional[LineEngine] = None
        self.wait = Wait(search=True)

    def run(self, engine: LineEngine, go: Callable[..., object]) -> object:
        self.wait.begin(engine)
        self.engine = engine  # before the `go` line is written: see stop()
        return go(cancel=self.cancel)

    def stop(self) -> None:
        # Either the worker sees the event once its `go` line is out, or the engine is set by
        # then and the `stop` sent here follows the `go`: never a `stop` lost before its search.
        self.cancel.set()
        self.wait.stop_asked()
        if self.engine is not None:
            stop_search(self.engine)


class StopOffer:
    """A button that starts a wait on the engine (New game, Restart engine) and reads Stop
    while that wait has lasted STOP_AFTER_MS (a quick answer does not flash it): pressed then,
    it stops the wait instead of running `command` again."""

    def __init__(self, button: tk.Button, command: Callable[[], None]):
        self.button, self.command, self.text = button, command, button.cget("text")
        self.stop: Optional[Callable[[], None]] = None
        self.job: Optional[str] = None
        button.config(command=self.press)

    def press(self) -> None:
        stop = self.stop
        if stop is not None and self.button.cget("text") == "Stop":
            self.end()
            stop()
        else:
            self.command()

    def waiting(self, stop: Callable[[], None]) -> None:
        """A wait started: `stop` ends it."""
        self.end()
        self.stop = stop
        self.job = self.button.after(STOP_AFTER_MS, lambda: self.button.config(text="Stop"))

    def end(self, stop: Optional[Callable[[], None]] = None) -> None:
        """The wait is over (that of `stop` only, when given): the button reads as before."""
        if stop is not None and stop != self.stop:  # (a bound method is made anew at each use: ==)
            return
        if self.job is not None:
            try:
                self.button.after_cancel(self.job)
                self.button.config(text=self.text)
            except tk.TclError:
                pass
            self.job = None
        self.stop = None


class BusyIndicator:
    """A small moving bar with a word while the engine works, and a Stop button in place of
    the word while the engine is silent on a call (`EngineCalls.stuck`: Stop ends it); an empty
    space of the same size otherwise (so nothing beside it moves)."""

    def __init__(self, parent: tk.Misc, calls: EngineCalls):
        self.frame = tk.Frame(parent, width=130, height=22)
        self.frame.pack_propagate(False)
        self.bar = ttk.Progressbar(self.frame, mode="indeterminate", length=60)
        self.text = tk.StringVar(value="")
        self.label = tk.Label(self.frame, textvariable=self.text, anchor="w", fg=NORMAL)
        self.stop_button = tk.Button(self.frame, text="Stop", command=calls.stop_waiting, padx=4, pady=0, bd=1,
                                     highlightthickness=0)
        self.busy = False
        calls.on_busy.append(self.show)
        calls.on_stuck.append(self.offer_stop)

    def show(self, busy: bool) -> None:
        self.busy = busy
        if busy:
            self.bar.pack(side="left")
            self.label.pack(side="left", padx=(3, 0))
            self.bar.start(60)
            self.text.set("engine...")
        else:
            self.offer_stop(False)
            self.bar.stop()
            self.bar.pack_forget()
            self.text.set("")

    def offer_stop(self, stuck: bool) -> None:
        """The engine is silent on a call: Stop in place of the word (or the word again)."""
        self.stop_button.pack_forget()
        self.label.pack_forget()
        if self.busy:
            (self.stop_button if stuck else self.label).pack(side="left", padx=(3, 0))
