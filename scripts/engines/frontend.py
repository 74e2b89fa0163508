"""What the Tkinter front ends (scripts/blockudoku_gui.py, scripts/sudoku_gui.py) share: the
engine's status line, with the Restart engine button that is shown only while the engine is dead."""
from __future__ import annotations

import tkinter as tk
from typing import Callable, Tuple

NORMAL = "#444"
ALARM = "#b00020"


def engine_status_row(root: tk.Misc, status_var: tk.StringVar, restart: Callable[[], None],
                      wraplength: int, pady=0) -> Tuple[tk.Label, tk.Button]:
    """Packs the row under the game; returns its (status label, restart button)."""
    status_row = tk.Frame(root)
    status_row.pack(fill="x", padx=8, pady=pady)
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
