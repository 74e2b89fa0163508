#!/usr/bin/env python3
"""Opens each window on the display in $DISPLAY the way its script does, and reports how it
sits on the screen (run by test_harness_gui_screens.py under an Xvfb of a given screen size).

    screen_probe.py OUTDIR [--maximise]

Prints one JSON line per window (and one more for it maximised, with --maximise): the screen
size, the window's place and size, the size of its board, the controls that are not wholly in
the window (each scrolled into view first when the side panel scrolls, so those left are out of
reach), and the row and column labels cut at the board's edge. Screenshots go to
OUTDIR/screen-<window>-<W>x<H>[-max].png.
"""
import json
import pathlib
import sys
import time
import tkinter as tk

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from engine_testing import real_binary, screenshot, settle  # noqa: E402

from engines import BlockudokuEngine, SudokuEngine  # noqa: E402
from engines.tools import SudokuTools  # noqa: E402
from engines.windows import controls, fully_visible  # noqa: E402


def shown(root):
    found = []
    for widget in controls(root):
        w, ok = widget, True
        while w is not None and w is not root:
            if not w.winfo_manager():
                ok = False
                break
            name = w.winfo_parent()
            w = w.nametowidget(name) if name else None
        if ok and widget.winfo_toplevel() is root:
            found.append(widget)
    return found


def out_of_reach(app):
    panel = app.side if hasattr(app, "side") else app.panel  # the scrolling side panel
    lost = []
    for widget in shown(app.root):
        if not fully_visible(widget):
            panel.show(widget)
            if not fully_visible(widget):
                lost.append(str(widget))
    panel.canvas.yview_moveto(0)
    return lost


def open_window(kind, root):
    if kind == "blockudoku":
        from engines.windows.blockudoku import BlockudokuApp
        engine = BlockudokuEngine([str(real_binary("blockudoku"))])
        return BlockudokuApp(root, engine, engine.catalogue(), seed=2), lambda app: app.board.layout.cell * 9
    if kind == "sudoku":
        from engines.windows.sudoku import SudokuApp
        engine = SudokuEngine([str(real_binary("sudoku-agent"))])
        return SudokuApp(root, engine, board="3x3", mode="rows", players=("human", "human")), lambda app: app.board.board_px
    from engines.windows.puzzle import PuzzleApp
    tools = SudokuTools(real_binary("sudoku-agent"))
    return PuzzleApp(root, tools, shape="3x3", seed=1), lambda app: app.board.board_px


def report(kind, app, board, outdir, suffix):
    root = app.root
    for _ in range(10):
        root.update()
        time.sleep(0.02)
    settle(app)
    sw, sh = root.winfo_screenwidth(), root.winfo_screenheight()
    screenshot(root, outdir / f"screen-{kind}-{sw}x{sh}{suffix}.png")
    print(json.dumps({"window": kind, "screen": [sw, sh], "maximised": bool(suffix),
                      "place": [root.winfo_x(), root.winfo_y(), root.winfo_width(), root.winfo_height()],
                      "board": board(app), "out_of_reach": out_of_reach(app), "clipped_labels": app.board.clipped_labels()}),
          flush=True)


def main():
    outdir = pathlib.Path(sys.argv[1])
    maximise = "--maximise" in sys.argv
    for kind in ("blockudoku", "sudoku", "puzzle"):
        root = tk.Tk()
        app, board = open_window(kind, root)
        report(kind, app, board, outdir, "")
        if maximise:
            root.geometry(f"{root.winfo_screenwidth()}x{root.winfo_screenheight()}+0+0")
            report(kind, app, board, outdir, "-max")
        app.close()
        engine = getattr(app, "engine", None)
        if engine is not None:
            engine.quit()
        try:
            root.destroy()
        except tk.TclError:
            pass


if __name__ == "__main__":
    main()
