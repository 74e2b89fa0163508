"""The analysis board's list of the engine's lines: a view, one row a line (its figures first,
so they show in a narrow panel, its placements last), that grows to MAX_ROWS rows and scrolls
sideways only when a row is wider than the panel."""
from __future__ import annotations

import tkinter as tk
from typing import Callable, List

from .canvas import COLOURS

LINE_FONT = ("Courier", 10)
LINE_HEADER = "#  points  dead    eval  placements"
MAX_ROWS = 8  # the panel grows to this many rows, then scrolls


def line_row(k: int, line) -> str:
    """One analysis line as a row under LINE_HEADER: its figures, then its placements."""
    moves = " ".join(str(p) for p in line.placements)
    return f"{k:<2} {'+' + str(line.points):>6} {100 * line.dead_chance:6.3f}% {line.eval:>6}  {moves}"


class LinesPanel:
    """The header and the list of lines in `parent`; `on_pick()` is told when a row is chosen."""

    def __init__(self, parent: tk.Misc, on_pick: Callable[[], None]):
        tk.Label(parent, text=LINE_HEADER, anchor="w", fg=COLOURS["label"], font=LINE_FONT).pack(fill="x", padx=4)
        self.listbox = tk.Listbox(parent, height=3, font=LINE_FONT, activestyle="none", exportselection=False)
        self.listbox.pack(fill="x", padx=4)
        self.xbar = tk.Scrollbar(parent, orient="horizontal", command=self.listbox.xview, width=10)
        self.listbox.configure(xscrollcommand=self.xbar.set)
        self.listbox.bind("<Configure>", lambda _e: self.fit_xbar())
        self.listbox.bind("<<ListboxSelect>>", lambda _e: on_pick())

    def show(self, rows: List[str]) -> None:
        """The rows, the first chosen; as many rows high as there are (3 to MAX_ROWS)."""
        self.listbox.delete(0, "end")
        self.listbox.config(height=min(MAX_ROWS, max(3, len(rows))))
        for row in rows:
            self.listbox.insert("end", row)
        self.listbox.selection_set(0)
        self.listbox.after_idle(self.fit_xbar)

    def fit_xbar(self) -> None:
        """The sideways bar under the rows, only when one is wider than the panel."""
        try:
            first, last = self.listbox.xview()
        except tk.TclError:
            return  # the window is gone
        needed = first > 0.0 or last < 1.0
        if needed and not self.xbar.winfo_manager():
            self.xbar.pack(fill="x", padx=4, after=self.listbox)
        elif not needed and self.xbar.winfo_manager():
            self.xbar.pack_forget()
