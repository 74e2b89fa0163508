"""Running a window from its script: the event loop, and Ctrl-C in the terminal."""
from __future__ import annotations

import signal
import tkinter as tk
from typing import Callable, List

# The exit status after Ctrl-C, as shells report a program ended by SIGINT.
INTERRUPTED = 130


def run_window(root: tk.Tk, close: Callable[[], None]) -> int:
    """Runs `root`'s event loop until the window closes, then `close`. Ctrl-C in the terminal
    (SIGINT) ends the loop (no question asked, no traceback) and the status is INTERRUPTED
    (130); else 0. The scripts' `main` turns a Ctrl-C before the loop runs (while the engine
    starts) into the same status."""
    interrupted: List[bool] = []

    def on_interrupt(_signum, _frame) -> None:
        interrupted.append(True)
        try:
            root.after(0, root.quit)  # the loop ends; `close` follows
        except tk.TclError:
            pass  # the window is gone already

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        root.mainloop()
    except KeyboardInterrupt:
        interrupted.append(True)
    finally:
        signal.signal(signal.SIGINT, previous)
        try:
            close()
        except tk.TclError:
            pass
    return INTERRUPTED if interrupted else 0
