"""The windows' rough edges, each shown fixed: closing asks only when something would be lost
(after Save record, or with an unchanged record open, it does not)."""
import tkinter as tk

import pytest
from engine_testing import direct, real_engine, settle

from engines import BlockudokuEngine, SudokuEngine
from test_harness_gui import click_cell, drag, sudoku_app, value_button

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")


def test_blockudoku_close_asks_only_about_unsaved_placements(tk_root, tmp_path):
    import blockudoku_gui

    engine = real_engine("blockudoku", BlockudokuEngine)
    window = tk.Toplevel(tk_root)
    with direct():
        catalogue = engine.catalogue()
    app = blockudoku_gui.BlockudokuApp(window, engine, catalogue, seed=3)
    try:
        settle(app)
        drag(app, 0, 0, 0)
        assert app.unsaved()
        app.save_record(str(tmp_path / "game.bkr"))
        assert not app.unsaved()  # saved: nothing to lose
        assert (tmp_path / "game.bkr").read_text().count("\ngame 1") == 1  # numbered from 1
        drag(app, 1, 5, 5)
        assert app.unsaved()  # a placement since the save
        app.save_record(str(tmp_path / "game.bkr"))
        app.ask_close()
        assert not window.winfo_exists() and app.dialogs.text == ""
    finally:
        engine.quit()


def test_sudoku_close_asks_only_about_a_changed_game(tk_root, tmp_path):
    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_app(tk_root, engine, board="2x2", mode="classic", players=("human", "human"), movetime=100)
    try:
        for r, c, v in ((0, 1, 3), (3, 2, 3)):
            click_cell(app, r, c)
            value_button(app, v).invoke()
            settle(app)
        assert app.unsaved()
        path = tmp_path / "game.txt"
        assert app.save_game(str(path))
        assert not app.unsaved()
        app.new_game()
        settle(app)
        assert app.load_game(str(path))
        settle(app)
        app.goto(0)  # stepping back through an unchanged record loses nothing
        settle(app)
        assert not app.unsaved()
        app.goto(2)
        settle(app)
        click_cell(app, 1, 1)
        value_button(app, 4).invoke()
        settle(app)
        assert app.unsaved()  # a move played on it
    finally:
        app.close()
        engine.quit()
