"""The foundation of the Tkinter windows (scripts/blockudoku_gui.py, scripts/sudoku_gui.py,
scripts/sudoku_puzzle_gui.py): engine calls off the Tk thread, a busy indicator, dialogs, and
layouts that reflow.

Why it is shaped this way: Tk is single-threaded, and an engine may think for seconds. A window
that asks the engine on the Tk thread stops repainting, ignores Stop and cannot be resized until
the answer comes. So every engine call goes through `EngineCalls`: one worker thread runs the
calls in the order they were made (the engine's conversation stays in order), and each result or
error is handed back to the Tk thread by one `after` poll, where the window updates itself. Only
`stop` is written from the Tk thread (`stop_search`): it is one line to a pipe and must reach the
engine while the worker waits for `bestmove`.

The layout helpers let a window fit any screen: `BoardAndPanel` puts the side panel beside the
board when there is room and below it when there is not, the panel scrolls (`ScrollPanel`) when
even that is too little, and `Flow` wraps a row of buttons onto more lines in a narrow panel.
"""
from __future__ import annotations

import gc
import queue
import threading
import tkinter as tk
from tkinter import ttk
from typing import Callable, List, Optional, Tuple

from ..base import LineEngine

# How often the Tk thread looks for finished calls (ms): fast enough that a reply feels immediate,
# slow enough to cost nothing while idle.
DELIVER_MS = 15
NORMAL = "#444"
ALARM = "#b00020"


class EngineCalls:
    """Runs engine calls on one worker thread, in order, and delivers each outcome on the Tk thread.

    `call(work, done, failed)` queues `work()` for the worker; when it returns, `done(value)` runs
    on the Tk thread, and when it raises, `failed(error)` does (without `failed` the error goes
    to `on_error`, set by the window). `post(callback, value)` hands a value from the worker to
    the Tk thread while a call is still running (a search's `info` lines). `idle` is true when
    nothing is queued, running or waiting for delivery; `on_busy(bool)` is told when that changes.
    """

    def __init__(self, root: tk.Misc, on_error: Optional[Callable[[BaseException], None]] = None):
        self.root = root
        self.on_error = on_error
        self.on_busy: List[Callable[[bool], None]] = []
        self._jobs: "queue.Queue[Optional[Tuple[Callable, Optional[Callable], Optional[Callable]]]]" = queue.Queue()
        self._out: "queue.Queue[Tuple[Optional[Callable], object, bool]]" = queue.Queue()
        self._pending = 0  # calls made and not yet delivered (Tk thread only)
        self._closed = False
        # The Tk objects of windows closed before this one (a game switched in the window, or
        # the many windows of a test run) are freed now, on the Tk thread. Left to the garbage
        # collector, they could be freed on the worker, which would tear a Tk variable or
        # interpreter down from the wrong thread: a stall of a second a variable, or an abort.
        gc.collect()
        if LineEngine.guard_windows:
            LineEngine.forbidden_thread = threading.current_thread()
        self._worker = threading.Thread(target=self._work, name="engine-calls", daemon=True)
        self._worker.start()
        self._job = root.after(DELIVER_MS, self._deliver)

    @property
    def idle(self) -> bool:
        """True when no call is queued, running or waiting to be delivered."""
        return self._pending == 0

    def call(self, work: Callable[[], object], done: Optional[Callable[[object], None]] = None,
             failed: Optional[Callable[[BaseException], None]] = None) -> None:
        """Queues `work` for the worker thread; its value goes to `done`, its error to `failed`."""
        if self._closed:
            return
        self._pending += 1
        if self._pending == 1:
            self._tell_busy(True)
        self._jobs.put((work, done, failed))

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
            work, done, failed = job
            try:
                value = work()
            except BaseException as err:  # delivered to the window, never lost in the thread
                self._out.put((failed or self._default_failed, err, True))
            else:
                self._out.put((done, value, True))

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
                self._job = self.root.after(DELIVER_MS, self._deliver)

    def _tell_busy(self, busy: bool) -> None:
        for listener in self.on_busy:
            listener(busy)


def stop_search(engine: LineEngine) -> None:
    """Stop: sends `stop` at once from the Tk thread (the search's `bestmove` still comes to the
    call waiting for it on the worker). An engine already gone is left to the supervision."""
    try:
        engine.stop()
    except Exception:
        pass


class Search:
    """One search a window asked for, stoppable from the Tk thread at any moment: before the
    worker has started it (it then stops as soon as it starts), while it runs (`stop`: the
    engine answers at once with what it has), or after (nothing happens).

    On the worker: `run(engine, go)` calls `go(cancel=event)` (a driver's `go`); on the Tk
    thread: `stop()`."""

    def __init__(self) -> None:
        self.cancel = threading.Event()
        self.engine: Optional[LineEngine] = None

    def run(self, engine: LineEngine, go: Callable[..., object]) -> object:
        self.engine = engine  # before the `go` line is written: see stop()
        return go(cancel=self.cancel)

    def stop(self) -> None:
        # Either the worker sees the event once its `go` line is out, or the engine is set by
        # then and the `stop` sent here follows the `go`: never a `stop` lost before its search.
        self.cancel.set()
        if self.engine is not None:
            stop_search(self.engine)


class BusyIndicator:
    """A small moving bar with a word while the engine works; an empty space of the same size
    otherwise (so nothing beside it moves)."""

    def __init__(self, parent: tk.Misc, calls: EngineCalls):
        self.frame = tk.Frame(parent, width=130, height=22)
        self.frame.pack_propagate(False)
        self.bar = ttk.Progressbar(self.frame, mode="indeterminate", length=60)
        self.text = tk.StringVar(value="")
        self.label = tk.Label(self.frame, textvariable=self.text, anchor="w", fg=NORMAL)
        self.busy = False
        calls.on_busy.append(self.show)

    def show(self, busy: bool) -> None:
        self.busy = busy
        if busy:
            self.bar.pack(side="left")
            self.label.pack(side="left", padx=(3, 0))
            self.bar.start(60)
            self.text.set("engine...")
        else:
            self.bar.stop()
            self.bar.pack_forget()
            self.label.pack_forget()
            self.text.set("")


class Dialogs:
    """The windows' dialogs: an error (not modal: the window and the engine go on behind it) and
    the question asked before closing a window with a game in progress."""

    def __init__(self, root: tk.Misc, title: str):
        self.root = root
        self.title = title
        self.window: Optional[tk.Toplevel] = None
        self.text = ""  # the open dialog's text ("" when none; tests read it)
        self.asking = False  # a question is open: engine play waits for the answer
        self.last_error = ""  # the last error shown

    def error(self, text: str, title: Optional[str] = None) -> None:
        """Shows `text` in a dialog with OK (Return closes it too); replaces an open one."""
        self.last_error = text
        self._open(title or self.title, text, [("OK", self.close)], fg=ALARM)

    def ask_close(self, text: str, close: Callable[[], None], cancelled: Optional[Callable[[], None]] = None) -> None:
        """Asks before closing: Close runs `close`, Cancel (or Escape) keeps the window and runs
        `cancelled`. While it asks, `asking` is true: the window's engine play waits."""
        def confirm() -> None:
            self.close()
            close()

        def cancel() -> None:
            self.close()
            if cancelled is not None:
                cancelled()

        self._open("Close " + self.title, text, [("Close", confirm), ("Cancel", cancel)], fg=NORMAL)
        self.asking = True

    def close(self) -> None:
        self.asking = False
        if self.window is not None:
            try:
                self.window.destroy()
            except tk.TclError:
                pass
        self.window, self.text = None, ""

    def button(self, text: str) -> Optional[tk.Button]:
        """The open dialog's button named `text` (tests press it)."""
        if self.window is None:
            return None
        for child in self.window.winfo_children():
            for widget in [child] + list(child.winfo_children()):
                if isinstance(widget, tk.Button) and widget.cget("text") == text:
                    return widget
        return None

    def _open(self, title: str, text: str, buttons: List[Tuple[str, Callable[[], None]]], fg: str) -> None:
        self.close()
        win = tk.Toplevel(self.root)
        win.title(title)
        win.transient(self.root)
        tk.Label(win, text=text, wraplength=360, justify="left", fg=fg, padx=18, pady=12).pack()
        row = tk.Frame(win)
        row.pack(pady=(0, 10))
        for label, command in buttons:
            tk.Button(row, text=label, width=8, command=command).pack(side="left", padx=4)
        win.bind("<Return>", lambda _e: buttons[0][1]())
        win.bind("<Escape>", lambda _e: buttons[-1][1]())
        win.protocol("WM_DELETE_WINDOW", buttons[-1][1])
        self.root.update_idletasks()
        win.geometry(f"+{self.root.winfo_rootx() + 40}+{self.root.winfo_rooty() + 120}")
        self.window, self.text = win, text


class GameChoice(tk.Frame):
    """The choice of game when a record of several games is loaded: "Game" and a read-only list
    of the games' names (`offer`); `on_pick(index)` is told the game chosen (0 for the first)."""

    def __init__(self, parent: tk.Misc, width: int, on_pick: Callable[[int], None], **kwargs):
        super().__init__(parent, **kwargs)
        tk.Label(self, text="Game").pack(side="left")
        self.var = tk.StringVar(value="")
        self.box = ttk.Combobox(self, textvariable=self.var, width=width, state="readonly")
        self.box.pack(side="left", padx=2)
        self.box.bind("<<ComboboxSelected>>", lambda _e: on_pick(self.box.current()))

    def offer(self, names: List[str], index: int) -> None:
        """The games' names, the one of game `index` chosen."""
        self.box.config(values=names)
        self.var.set(names[index])


class ScrollPanel(tk.Frame):
    """A column of controls that scrolls vertically when the window is too short for it.

    Put the controls in `.inner`. Its width follows the panel."""

    def __init__(self, parent: tk.Misc, width: int, max_height: int = 600, **kwargs):
        super().__init__(parent, **kwargs)
        self.max_height = max_height
        self.canvas = tk.Canvas(self, width=width, highlightthickness=0, bd=0)
        self.scrollbar = tk.Scrollbar(self, orient="vertical", command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=self.scrollbar.set)
        # Always there (thin): a bar that came and went would change the width the controls
        # wrap to, and with it whether the bar is needed.
        self.scrollbar.configure(width=10)
        self.scrollbar.pack(side="right", fill="y")
        self.canvas.pack(side="left", fill="both", expand=True)
        self._inner_width = 0
        self.inner = tk.Frame(self.canvas)
        self._item = self.canvas.create_window(0, 0, window=self.inner, anchor="nw")
        self.inner.bind("<Configure>", self._inner_changed)
        self.canvas.bind("<Configure>", self._outer_changed)
        for widget in (self.canvas, self.inner):
            widget.bind("<Button-4>", lambda _e: self.canvas.yview_scroll(-2, "units"))
            widget.bind("<Button-5>", lambda _e: self.canvas.yview_scroll(2, "units"))

    def _inner_changed(self, _event=None) -> None:
        region = (0, 0, self.inner.winfo_width(), self.inner.winfo_reqheight())
        if tuple(int(float(v)) for v in str(self.canvas.cget("scrollregion") or "0 0 0 0").split()) != region:
            self.canvas.configure(scrollregion=region)
        height = min(self.inner.winfo_reqheight(), self.max_height)
        if int(self.canvas.cget("height")) != height:
            self.canvas.configure(height=height)

    def _outer_changed(self, event) -> None:
        if self._inner_width != event.width:
            self._inner_width = event.width
            self.canvas.itemconfigure(self._item, width=event.width)
            self.wrap(event.width)

    def wrap(self, width: int) -> None:
        """Wraps every Flow in the panel to `width` (the panel's, less their indent)."""
        def padding(child: tk.Misc) -> int:
            if child.winfo_manager() != "pack":
                return 0
            pad = child.pack_info().get("padx", 0)
            values = pad if isinstance(pad, (tuple, list)) else str(pad).split()
            return sum(int(float(str(v))) for v in values) or 0

        def walk(widget: tk.Misc, indent: int) -> None:
            for child in widget.winfo_children():
                pad = indent + padding(child)
                if isinstance(child, Flow):
                    child.wrap(width - pad - 4)
                else:
                    border = int(float(str(child.cget("bd")))) if "bd" in child.keys() else 0
                    walk(child, pad + 2 * border)
        walk(self.inner, 0)

    def show(self, widget: tk.Misc) -> None:
        """Scrolls so that `widget` (inside the panel) is in view."""
        self.update_idletasks()
        top = widget.winfo_rooty() - self.inner.winfo_rooty()
        height = max(1, self.inner.winfo_height())
        view = self.canvas.winfo_height()
        first, last = self.canvas.yview()
        seen_top, seen_bottom = first * height, last * height
        if top < seen_top or top + widget.winfo_height() > seen_bottom:
            self.canvas.yview_moveto(max(0.0, min(top - 4, height - view)) / height)
        self.update_idletasks()


class Flow(tk.Frame):
    """A row of controls that wraps onto more lines when the frame is narrower than they are.

    Create the controls as children of the Flow (not packed), then `add` them in order."""

    def __init__(self, parent: tk.Misc, gap: int = 4, **kwargs):
        super().__init__(parent, **kwargs)
        self.gap = gap
        self.items: List[tk.Misc] = []
        self.lines: List[tk.Frame] = []
        self._width = 10**6

    def add(self, *widgets: tk.Misc) -> None:
        self.items.extend(widgets)
        self._arrange(self._width)

    def clear(self) -> None:
        """Destroys the controls (to add others)."""
        for widget in self.items:
            widget.destroy()
        self.items = []
        self._shape = None

    def wrap(self, width: int) -> None:
        """Lays the controls out in lines no wider than `width` (told by the ScrollPanel: a
        Flow that listened to its own size would feed back into it)."""
        if width != self._width:
            self._width = width
            self._arrange(width)

    def _arrange(self, width: int) -> None:
        groups: List[List[tk.Misc]] = [[]]
        used = 0
        for widget in self.items:
            w = widget.winfo_reqwidth() + self.gap
            if groups[-1] and used + w > width:
                groups.append([])
                used = 0
            groups[-1].append(widget)
            used += w
        if [len(g) for g in groups] == getattr(self, "_shape", None):
            return
        self._shape = [len(g) for g in groups]
        while len(self.lines) < len(groups):
            line = tk.Frame(self)
            self.lines.append(line)
        for widget in self.items:
            widget.pack_forget()
        for k, line in enumerate(self.lines):
            line.pack_forget()
            if k < len(groups):
                line.pack(side="top", fill="x", pady=1)
                for widget in groups[k]:
                    widget.pack(in_=line, side="left", padx=(0, self.gap))
                    widget.lift(line)


class BoardAndPanel(tk.Frame):
    """A board (any widget that scales itself) with a side panel: beside the board when the
    frame is wider than the board needs plus the panel, else below it.

    `board_min` is the smallest side of the board (pixels) worth keeping beside the panel."""

    def __init__(self, parent: tk.Misc, board_min: int = 300, **kwargs):
        super().__init__(parent, **kwargs)
        self.board_min = board_min
        self.board: Optional[tk.Misc] = None
        self.panel: Optional[tk.Misc] = None
        self.beside = True
        self.bind("<Configure>", self._changed)

    def place_parts(self, board: tk.Misc, panel: tk.Misc) -> None:
        self.board, self.panel = board, panel
        self._arrange(True)

    def _arrange(self, beside: bool) -> None:
        assert self.board is not None and self.panel is not None
        self.beside = beside
        self.board.grid_forget()
        self.panel.grid_forget()
        for k in range(2):
            self.rowconfigure(k, weight=0, minsize=0)
            self.columnconfigure(k, weight=0)
        self.board.grid(row=0, column=0, sticky="nsew")
        self.rowconfigure(0, weight=1)
        self.columnconfigure(0, weight=1)
        if beside:
            self.panel.grid(row=0, column=1, sticky="ns", padx=(6, 0))
        else:
            self.panel.grid(row=1, column=0, sticky="nsew", pady=(4, 0))
            # The board keeps most of the height; the panel scrolls in what is left.
            self.rowconfigure(1, weight=1)

    def _changed(self, event) -> None:
        if self.panel is None:
            return
        panel_w = self.panel.winfo_reqwidth()
        beside = event.width - panel_w - 6 >= self.board_min
        if beside != self.beside:
            self._arrange(beside)
        if not beside:
            # Below the board the panel keeps a good part of the height, however much the
            # board asks for; what does not fit there scrolls.
            self.rowconfigure(1, minsize=int(event.height * 0.4))


def controls(widget: tk.Misc) -> List[tk.Misc]:
    """Every control a player uses inside `widget` (buttons, entries, lists, the board)."""
    kinds = (tk.Button, tk.Entry, tk.Spinbox, tk.Listbox, tk.Checkbutton, tk.Scale, ttk.Combobox, tk.Menubutton)
    found = []
    for child in widget.winfo_children():
        if isinstance(child, kinds):
            found.append(child)
        found.extend(controls(child))
    return found


def visible_box(widget: tk.Misc) -> Optional[Tuple[int, int, int, int]]:
    """The part of `widget` that shows on screen (root coordinates), clipped by every enclosing
    widget (a scrolled panel's view too); None when none of it shows or it is not mapped."""
    if not widget.winfo_ismapped():
        return None
    x0, y0 = widget.winfo_rootx(), widget.winfo_rooty()
    x1, y1 = x0 + widget.winfo_width(), y0 + widget.winfo_height()
    parent = widget.nametowidget(widget.winfo_parent()) if widget.winfo_parent() else None
    while parent is not None:
        if not parent.winfo_ismapped():
            return None
        px0, py0 = parent.winfo_rootx(), parent.winfo_rooty()
        x0, y0 = max(x0, px0), max(y0, py0)
        x1, y1 = min(x1, px0 + parent.winfo_width()), min(y1, py0 + parent.winfo_height())
        name = parent.winfo_parent()
        parent = parent.nametowidget(name) if name else None
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def fully_visible(widget: tk.Misc) -> bool:
    """True when the whole of `widget` shows in its window (nothing cut off)."""
    box = visible_box(widget)
    return box is not None and box[2] - box[0] >= widget.winfo_width() and box[3] - box[1] >= widget.winfo_height()
