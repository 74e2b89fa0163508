"""The windows' dialogs (an error, the question before closing) and the choice of game in a
record of several games."""
from __future__ import annotations

import tkinter as tk
from tkinter import ttk
from typing import Callable, List, Optional, Tuple

NORMAL = "#444"
ALARM = "#b00020"


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


