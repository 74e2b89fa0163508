"""The windows' rough edges, each shown fixed: closing asks only when something would be lost
(after Save record, or with an unchanged record open, it does not)."""
import tkinter as tk

import pytest
from engine_testing import ARTIFACTS, direct, real_engine, screenshot, settle

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
        assert app.records.save_game(str(path))
        assert not app.unsaved()
        app.new_game()
        settle(app)
        assert app.load_game(str(path))
        settle(app)
        app.records.goto(0)  # stepping back through an unchanged record loses nothing
        settle(app)
        assert not app.unsaved()
        app.records.goto(2)
        settle(app)
        click_cell(app, 1, 1)
        value_button(app, 4).invoke()
        settle(app)
        assert app.unsaved()  # a move played on it
    finally:
        app.close()
        engine.quit()


def test_sudoku_analysis_panel_shows_its_whole_answer(tk_root):
    """A long line from the engine is cut between moves to the panel's rows, never under the
    legend: score, depth and line all show."""
    from tkinter import font as tkfont

    from engines.windows.sudoku.names import ANALYSIS_FONT, ANALYSIS_LINES
    from engines.windows.sudoku.play import wrapped_rows

    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_app(tk_root, engine, board="5x5", mode="classic", players=("human", "human"), movetime=100)
    try:
        settle(app)
        pv = [f"{r},{c}={v}" for r, c, v in zip(range(25), range(25), range(1, 26))]
        app.play.show_info({"score": 12, "depth": 9, "nodes": 123456, "pv": pv})
        tk_root.update_idletasks()
        text = app.analysis_var.get()
        font = tkfont.Font(root=tk_root, font=ANALYSIS_FONT)
        width = int(app.analysis_label.cget("wraplength"))
        rows = sum(wrapped_rows(font, line, width) for line in text.splitlines())
        assert rows <= ANALYSIS_LINES, text
        assert text.startswith("score +12, depth 9, 123456 nodes\nline r1c1=1") and text.endswith("...")
        label, legend = app.analysis_label, app.board.legend
        assert legend.winfo_y() >= label.winfo_y() + label.winfo_height()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        screenshot(tk_root, ARTIFACTS / "sudoku-analysis-long-line.png")
    finally:
        app.close()
        engine.quit()


def test_blockudoku_analysis_rows_show_every_figure_and_the_status_follows_the_slot(tk_root):
    from tkinter import font as tkfont

    import blockudoku_gui
    from engines.windows.blockudoku.lines import LINE_FONT

    engine = real_engine("blockudoku", BlockudokuEngine)
    with direct():
        catalogue = engine.catalogue()
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, catalogue, seed=2)
    try:
        settle(app)
        app.enter_analysis()
        app.analysis.set_slot(0, 1)
        assert "slot 2 selected" in app.status_var.get()  # the selection moved on: so does the status
        app.analysis.set_slot(1, 2)
        app.analysis.set_slot(2, 3)
        assert "slot 1 selected" in app.status_var.get()
        app.analysis.analyse()
        settle(app)
        tk_root.update_idletasks()
        rows = app.analysis.panel.get(0, "end")
        assert len(rows) == len(app.analysis.analysis) == 3 and int(app.analysis.panel.cget("height")) >= 3
        font = tkfont.Font(root=tk_root, font=LINE_FONT)
        for row, line in zip(rows, app.analysis.analysis):
            figures = row[:row.index("%") + 1 + len(str(line.eval)) + 2].rstrip()
            assert f"+{line.points}" in figures and str(line.eval) in figures
            assert font.measure(figures) <= app.analysis.panel.winfo_width(), row  # every figure in view
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        screenshot(tk_root, ARTIFACTS / "blockudoku-analysis-lines.png")
    finally:
        app.close()
        engine.quit()


def test_piece_files_are_read_by_the_lab_for_the_window(tk_root, tmp_path):
    """`--pieces` takes what `blockudoku-lab selfplay --pieces` takes (the project's own hard
    set of ids, the catalogue file, shapes of a set's own); a file it refuses is its one line."""
    import blockudoku_gui
    from engine_testing import ROOT, real_binary
    from engines import piece_set

    lab = real_binary("blockudoku-lab")
    with direct():
        engine = real_engine("blockudoku", BlockudokuEngine)
        catalogue = engine.catalogue()
    hard = piece_set(ROOT / "crates" / "blockudoku" / "data" / "hard-pieces.txt", catalogue, lab)
    assert sorted(hard) == list(range(14, 48)) and all(hard[i] == catalogue[i] for i in hard)
    assert piece_set(ROOT / "crates" / "rules" / "data" / "blockudoku-pieces.txt", catalogue, lab) == catalogue
    own = tmp_path / "own.txt"
    own.write_text("8\n1 2 cells .#/#.\n")  # piece 8, and a catalogue line of piece 3
    assert sorted(piece_set(own, catalogue, lab)) == [3, 8]
    woodoku = tmp_path / "woodoku.txt"
    woodoku.write_text("..#/.#./#..\n.#./#.#/.#.\n")  # piece 7, and a shape no catalogue piece has
    pieces = piece_set(woodoku, catalogue, lab)
    assert sorted(pieces) == [7, 101] and pieces[101].shape == ".#./#.#/.#."
    bad = tmp_path / "bad.txt"
    bad.write_text("99\n")
    with pytest.raises(ValueError) as info:
        piece_set(bad, catalogue, lab)
    assert "\n" not in str(info.value) and "bad.txt" in str(info.value)
    # The window deals from the set, and the engine takes a piece of the set's own as its shape.
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, pieces, seed=4)
    try:
        settle(app)
        assert set(app.game.hand) <= {7, 101} and app.engine_dead is None and not app.dialogs.last_error
        sent = [line for line in engine.transcript if line.startswith("> position")]
        assert sent and all(" 101" not in line for line in sent)  # its own piece goes as its shape
        assert 101 in app.game.hand and any(".#./#.#/.#." in line for line in sent)
    finally:
        app.close()
        engine.quit()


def test_sudoku_messages_in_the_players_words(tk_root, tmp_path):
    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_app(tk_root, engine, board="2x2", mode="classic", players=("human", "human"), movetime=100)
    try:
        settle(app)
        app.play.pass_turn()
        settle(app)
        assert app.status_var.get() == "no pass: the player to move has a legal move"
        app.new_game(str(tmp_path / "missing.txt"))
        settle(app)
        assert app.dialogs.last_error == "cannot open the board file missing.txt: No such file or directory"
    finally:
        app.close()
        engine.quit()


def test_a_records_long_seed_shows_whole(tk_root, tmp_path):
    import subprocess
    from tkinter import font as tkfont

    import blockudoku_gui
    from engine_testing import real_binary, wait_for

    path = tmp_path / "game.bkr"
    subprocess.run([str(real_binary("blockudoku-lab")), "selfplay", "--games", "1", "--seed", "1", "--max-rounds", "3",
                    "--record", str(path)], check=True, capture_output=True, timeout=60)
    seed = next(line.split()[3] for line in path.read_text().splitlines() if line.startswith("game "))
    assert len(seed) >= 19
    engine = real_engine("blockudoku", BlockudokuEngine)
    with direct():
        catalogue = engine.catalogue()
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, catalogue, seed=2)
    try:
        settle(app)
        assert app.load_record(str(path))
        settle(app)
        assert wait_for(tk_root, lambda: app.settings.seed_var.get() == seed, 5)
        entry = app.settings.seed_entry
        assert tkfont.Font(root=tk_root, font=entry.cget("font")).measure(seed) <= entry.winfo_width()
    finally:
        app.close()
        engine.quit()


@pytest.mark.parametrize("script, args", [("blockudoku_gui.py", ["--seed", "1"]),
                                          ("sudoku_gui.py", ["--player1", "human", "--player2", "human"]),
                                          ("sudoku_gui.py", ["--mode", "puzzle"])])
def test_ctrl_c_in_the_terminal_closes_the_window_without_a_traceback(display, script, args):
    import os
    import signal
    import subprocess
    import sys
    import time

    from engine_testing import SCRIPTS

    proc = subprocess.Popen([sys.executable, str(SCRIPTS / script), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, DISPLAY=display))
    time.sleep(1.5)  # the window is up, or nearly: a Ctrl-C at any moment ends it the same way
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 130 and "Traceback" not in err, err


def test_blockudoku_engine_play_asks_little_per_placement(tk_root):
    """The engine playing on its own: per placement one `play`, a `position` and a `go` per hand
    (the driver does not send a position the engine holds), no `fits` (the engine places its
    sequence, and its `go` says when a hand cannot be placed) until it stops; the lines sent a
    placement, with their sync points, are printed (`-s`)."""
    import collections

    import blockudoku_gui
    from engine_testing import wait_for

    engine = real_engine("blockudoku", BlockudokuEngine)
    with direct():
        catalogue = engine.catalogue()
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, catalogue, seed=5, delay=1)
    try:
        settle(app)
        engine.transcript.clear()
        app.toggle_engine()
        assert wait_for(tk_root, lambda: app.game.placed >= 30, 60)
        app.toggle_engine()
        settle(app)
        placed = app.game.placed
        sent = collections.Counter(line.split()[1] for line in engine.transcript if line.startswith("> "))
        print(f"{placed} placements: {sum(sent.values()) / placed:.1f} lines sent a placement "
              f"({sent['isready'] / placed:.1f} isready), by command {dict(sent)}")
        trips = sum(n for command, n in sent.items() if command not in ("isready", "stop")) / placed
        print(f"{trips:.2f} round trips a placement")
        # A position a hand, and for the fits asked when it stopped (once, or twice when a
        # placement was still with the engine then).
        assert sent["play"] == placed and sent["position"] <= placed / 3 + 2, sent
        assert 1 <= sent["fits"] <= 2 and not app.flow.fits_unknown, sent
        assert sum(sent.values()) <= 5 * placed, sent
    finally:
        app.close()
        engine.quit()


def test_sudoku_move_is_one_write(tk_root):
    """A move in the sudoku window asks the referee once: `play` and the `show` of the position
    after it go in one write, and the board shows that position."""
    engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_app(tk_root, engine, board="2x2", mode="classic", players=("human", "human"))
    try:
        settle(app)
        writes = []
        real_write = engine._write
        engine._write = lambda lines: (writes.append(list(lines)), real_write(lines))[1]
        click_cell(app, 0, 1)
        value_button(app, 3).invoke()
        assert settle(app) and [s.move for s in app.game.steps] and app.screen.state.values[0][1] == 3
        assert writes == [["isready", "play 0,1=3", "show", "isready"]], writes
    finally:
        app.close()
        engine.quit()
