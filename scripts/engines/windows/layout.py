"""Layouts that let a window fit any screen: `BoardAndPanel` puts the side panel beside the
board when there is room and below it when there is not, the panel scrolls (`ScrollPanel`) when
even that is too little, and `Flow` wraps a row of buttons onto more lines in a narrow panel.
`controls`, `visible_box` and `fully_visible` say what of a window shows."""
from __future__ import annotations

import tkinter as tk
from tkinter import ttk
from typing import List, Optional, Tuple


class ScrollPanel(tk.Frame):
    """A column of controls that scrolls vertically when the window is too short for it.

    Put the controls in `.inner`. Its width follows the panel."""

    def __init__(self, parent: tk.Misc, width: int, max_height: int = 600, **kwargs):
        super().__init__(parent, **kwargs)
        self.max_height = max_height
        self.canvas = tk.Canvas(self, width=width, highlightthickness=0, bd=0)
        # The bar's room is always kept (a bar that came and went would change the width the
        # controls wrap to, and with it whether the bar is needed); the bar shows in it only
        # when there is something to scroll.
        self.gutter = tk.Frame(self, width=12)
        self.gutter.pack(side="right", fill="y")
        self.scrollbar = tk.Scrollbar(self.gutter, orient="vertical", command=self.canvas.yview, width=10)
        self.canvas.configure(yscrollcommand=self.scrollbar.set)
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
        self._show_bar()

    def _show_bar(self) -> None:
        """The scroll bar only when the controls are taller than the panel's view."""
        needed = self.inner.winfo_reqheight() > self.canvas.winfo_height() + 1
        if needed and not self.scrollbar.winfo_manager():
            self.scrollbar.place(relx=0, rely=0, relwidth=1, relheight=1)
        elif not needed and self.scrollbar.winfo_manager():
            self.scrollbar.place_forget()
            self.canvas.yview_moveto(0)

    def _outer_changed(self, event) -> None:
        self._show_bar()
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


def clipped(canvas, tag: str) -> List[str]:
    """The texts of the items tagged `tag` that are not wholly on `canvas`."""
    w, h = canvas.winfo_width(), canvas.winfo_height()
    out = []
    for item in canvas.find_withtag(tag):
        box = canvas.bbox(item)
        if box and (box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h):
            out.append(canvas.itemcget(item, "text"))
    return out


def label_room(canvas_side: int) -> int:
    """The room (pixels) for a board's row and column numbers on a canvas of that side: 18 on
    a laptop, more on a larger board, so the numbers can grow with the cells."""
    return max(18, canvas_side // 28)


def label_points(room: int, cell: float) -> int:
    """The size (points) of a board's row and column numbers: they fill most of their room
    (a point is up to 1.4 pixels), never more than a third of a cell, at least 7."""
    return max(7, min(int(cell * 0.33), int(room / 1.4) - 2))


# The screen the windows' wanted sizes are for, and what a screen keeps for the title bar and
# a task bar (pixels, width and height).
LAPTOP = (1366, 768)
SCREEN_MARGIN = (16, 72)


def opening_size(screen: Tuple[int, int], wanted: Tuple[int, int], minimum: Tuple[int, int]) -> Tuple[int, int]:
    """The size a window opens at on a screen of `screen` pixels: `wanted` (its size on a
    1366x768 laptop) scaled by how much larger the screen is, never more than the screen less
    its title and task bars, never less than `minimum` unless the screen is smaller still."""
    scale = max(1.0, min(screen[0] / LAPTOP[0], screen[1] / LAPTOP[1]))
    room = (screen[0] - SCREEN_MARGIN[0], screen[1] - SCREEN_MARGIN[1])
    return tuple(max(min(int(want * scale), space), min(low, space))  # type: ignore[return-value]
                 for want, space, low in zip(wanted, room, minimum))


def open_on_screen(root: tk.Tk, wanted: Tuple[int, int], minimum: Tuple[int, int]) -> Tuple[int, int]:
    """Sizes a new window from the screen it is on (`opening_size`), centres it there (the title
    bar's room above it), and lets it shrink to `minimum`, or to the screen less its bars when
    the screen is smaller still (a 640x480 screen: every control is reachable, the panel
    scrolls); returns the size."""
    screen = (root.winfo_screenwidth(), root.winfo_screenheight())
    width, height = opening_size(screen, wanted, minimum)
    root.minsize(*(min(low, side - margin) for low, side, margin in zip(minimum, screen, SCREEN_MARGIN)))
    if not root.winfo_ismapped():
        x = max(0, (screen[0] - width) // 2)
        y = max(0, (screen[1] - SCREEN_MARGIN[1] - height) // 2)
        root.geometry(f"{width}x{height}+{x}+{y}")
    return width, height
