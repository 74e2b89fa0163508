"""The Blockudoku window's analysis board and game records under a virtual display, driving the
real engine with synthetic mouse events: a board and hand set up by clicks, drags and the
palette, the engine's answer and panel read back; a game saved, loaded and replayed to the same
position; a `selfplay --record` record replayed by `blockudoku-lab replay` and by the window.
Screenshots go to tests/artifacts/."""
import subprocess

import pytest
from engine_testing import direct, pump, real_binary, real_engine, screenshot, settle, wait_for
from test_harness_gui import drag

from engines import BlockudokuEngine
from engines.blockudoku_record import parse_record

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")


def app_for(tk_root, engine, **kwargs):
    import blockudoku_gui

    with direct():
        catalogue = engine.catalogue()
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, catalogue, delay=10, **kwargs)
    settle(app)
    return app


def click(widget, x, y, button=1):
    widget.event_generate(f"<ButtonPress-{button}>", x=x, y=y)
    widget.event_generate(f"<ButtonRelease-{button}>", x=x, y=y)
    pump(widget.winfo_toplevel())


def test_analysis_board_set_up_by_mouse(tk_root, artifacts):
    engine = real_engine("blockudoku", BlockudokuEngine)
    with engine:
        app = app_for(tk_root, engine, seed=4)
        app.analysis_button.invoke()
        pump(tk_root, 0.2)
        assert app.screen.analysing and app.analysis.frame.winfo_ismapped()
        app.analysis.clear_board()
        c = app.canvas
        # Drag along row 9 from c1 to c8: eight cells filled; a click on c1 empties it again.
        x0, y0 = app.board.cell_centre(8, 0)
        x1, _ = app.board.cell_centre(8, 7)
        c.event_generate("<ButtonPress-1>", x=x0, y=y0)
        for k in range(1, 8):
            c.event_generate("<B1-Motion>", x=x0 + (x1 - x0) * k // 7, y=y0)
        c.event_generate("<ButtonRelease-1>", x=x1, y=y0)
        pump(tk_root)
        assert app.game.board[72:81] == "########."
        click(c, *app.board.cell_centre(0, 0))
        click(c, *app.board.cell_centre(0, 0))
        assert app.game.board[0] == "."
        # The hand from the palette: slot 1 the single cell, slot 2 empty (right-click), slot 3
        # the 2x2 square.
        single = next(pid for pid, p in app.catalogue.items() if len(p.cells) == 1)
        square = next(pid for pid, p in app.catalogue.items() if p.shape == "##/##")
        click(c, *app.board.tray_centre(0))
        click(app.analysis.palette.canvas, *app.analysis.palette.pixel(single))
        click(app.analysis.palette.canvas, *app.analysis.palette.pixel(square))  # slot 2 was selected next
        click(c, *app.board.tray_centre(1), button=3)
        click(c, *app.board.tray_centre(2))
        click(app.analysis.palette.canvas, *app.analysis.palette.pixel(square))
        assert app.game.hand == [single, None, square]
        app.analysis.edit_score_var.set("40")
        app.analysis.edit_streak_var.set("2")
        app.analysis.lines_var.set("3")
        app.analysis.analyse_button.invoke()
        settle(app)
        # Line 1 fills r9c9 with the single cell (slot 1): a row clears with the streak's bonus.
        lines = app.analysis.analysis
        assert len(lines) == 3 and app.analysis.panel.size() == 3
        best = lines[0]
        assert {p.slot for p in best.placements} == {1, 3}
        single_at = next(p for p in best.placements if p.slot == 1)
        assert (single_at.row, single_at.col) == (9, 9) and best.cleared >= 1 and best.points > 0
        assert best.score == 40 + best.points
        assert len({line.board for line in lines}) == 3
        # The panel shows each line's figures; the board labels the cells with tray slots.
        for k, line in enumerate(lines):
            row = app.analysis.panel.get(k)
            assert " ".join(str(p) for p in line.placements) in row
            assert f" {100 * line.dead_chance:.3f}%" in row and f"+{line.points}" in row
        # The line is shown placement by placement: first the board as it is with the first
        # placement labelled with its tray slot, then the board the engine's `play` leaves
        # after each placement (its clears done), the next placement drawn on it.
        def labels():
            return {c.itemcget(i, "text") for i in c.find_withtag("hint") if c.type(i) == "text"}

        first, second = best.placements
        assert labels() == {str(first.slot)} and app.analysis.line_step_var.get() == "placement 1 of 2"
        app.analysis.step_line(1)
        with direct():
            engine.position(app.game.board, app.game.hand, 40, 2)
            after_first = engine.play([first]).board
        assert app.screen.shown_board == after_first and labels() == {str(second.slot)}
        assert first.slot - 1 in app.screen.shown_played and not c.find_withtag(f"hand{first.slot - 1}")
        app.analysis.step_line(1)
        assert app.screen.shown_board == best.board and labels() == set() and app.analysis.line_step_var.get() == "after all 2"
        app.analysis.step_line(-2)
        assert app.screen.shown_board == app.game.board
        assert app.analysis.position_var.get().startswith("position board") and " - " in app.analysis.position_var.get()
        screenshot(tk_root, artifacts / "blockudoku-gui-analysis.png")

        # Choosing line 2 in the panel draws it instead.
        app.analysis.panel.selection_clear(0, "end")
        app.analysis.panel.selection_set(1)
        app.analysis.show_analysis_line()
        assert app.screen.hint == [(p.slot - 1, p) for p in lines[1].placements[:1]]

        # A pasted position line sets everything; a bad one is refused in a dialog.
        app.analysis.position_var.set("position board ########./........./........./........./........./"
                             "........./........./........./......... pieces - 1 - score 5 streak 0")
        app.analysis.paste_position()
        settle(app)
        assert app.game.hand == [None, 1, None] and app.game.score == 5 and app.game.board[:9] == "########."
        app.analysis.position_var.set("position board nonsense pieces 1")
        app.analysis.paste_position()
        settle(app)
        assert "refuses" in app.last_error and app.error_window.winfo_exists()
        assert app.game.score == 5  # unchanged
        screenshot(tk_root, artifacts / "blockudoku-gui-analysis-error.png")

        # Back to the game: the game that was on is there again.
        app.analysis.leave_button.invoke()
        settle(app)
        assert not app.screen.analysing and app.game.board == "." * 81 and all(p is not None for p in app.game.hand)


def test_hint_labels_stop_and_scaling(tk_root, artifacts):
    engine = real_engine("blockudoku", BlockudokuEngine)
    with engine:
        app = app_for(tk_root, engine, seed=9)
        c = app.canvas
        slot_numbers = sorted(c.itemcget(i, "text") for i in c.find_withtag("slotnumber"))
        assert slot_numbers == ["1", "2", "3"]
        assert len(c.find_withtag("label")) == 18
        # The hint labels each cell with its piece's tray slot, as the status line names it.
        drag(app, 1, 0, 0)
        app.show_hint()
        settle(app)
        for slot, placement in app.screen.hint:
            assert f"piece {slot + 1} at r{placement.row}c{placement.col}" in app.status_var.get()
            cells = len(app.catalogue[app.game.hand[slot]].cells)
            assert len(c.find_withtag(f"hintlabel{slot + 1}")) == cells
        assert not c.find_withtag("hintlabel2")  # slot 2 was played
        # Stop Engine leaves no outline of a placement that will not be played.
        app.engine_button.invoke()
        assert wait_for(tk_root, lambda: bool(app.screen.hint), 10)
        app.engine_button.invoke()
        settle(app)
        assert not app.screen.hint and not c.find_withtag("hint")
        # The board scales with the window.
        tk_root.geometry("900x640")
        pump(tk_root, 0.3)
        small = app.board.layout.cell
        tk_root.geometry("1400x1000")
        assert wait_for(tk_root, lambda: app.board.layout.cell > small, 5)
        x0, y0, x1, y1 = c.bbox("cell")
        assert x1 - x0 >= 9 * app.board.layout.cell and app.board.layout.cell >= small + 10
        screenshot(tk_root, artifacts / "blockudoku-gui-scaled.png")


def test_save_load_replay_and_analyse_from_a_move(tk_root, artifacts, tmp_path):
    engine = real_engine("blockudoku", BlockudokuEngine)
    with engine:
        app = app_for(tk_root, engine, seed=21)
        # A few placements by the engine, then one by hand; then save.
        app.engine_button.invoke()
        assert wait_for(tk_root, lambda: app.game.placed >= 5, 20)
        app.engine_button.invoke()
        settle(app)
        app.show_hint()
        settle(app)
        slot, target = app.screen.hint[0]
        drag(app, slot, target.row - 1, target.col - 1)
        placed = app.game.placed
        shown = (app.game.board, list(app.game.hand), app.game.score, app.game.streak)
        path = tmp_path / "game.bkr"
        app.save_record(str(path))
        text = path.read_text()
        assert text.startswith("blockudoku-record 1\n") and text.endswith("end\n") and "set catalogue" in text
        # The engine's replay agrees with the window.
        out = subprocess.run([str(real_binary("blockudoku-lab")), "replay", str(path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert f"score {shown[2]} " in out.stdout.splitlines()[0]
        assert out.stdout.splitlines()[1].split()[2].replace("/", "") == shown[0]

        # A new game, then the record loaded: the replay ends on the saved position.
        app.new_game()
        settle(app)
        assert app.load_record(str(path))
        settle(app)
        assert app.records.replay_bar.winfo_ismapped() and app.screen.replay_at == placed
        assert (app.game.board, app.game.hand, app.game.score, app.game.streak) == tuple(shown)
        screenshot(tk_root, artifacts / "blockudoku-gui-replay-end.png")
        # Step back and forward, jump to a move.
        app.records.replay_jump(app.screen.replay_at - 1)
        assert app.game.placed == placed - 1 and app.game.board != shown[0]
        app.records.replay_jump(app.screen.replay_at + 1)
        assert app.game.board == shown[0]
        app.records.replay_jump(0)
        assert app.game.board == "." * 81 and app.game.score == 0
        app.records.replay_jump(3)
        at_three = app.game.board
        assert app.records.replay_var.get().startswith("3/")
        # Analyse from move 3: the analysis board starts from that position.
        app.analysis_button.invoke()
        assert app.screen.analysing and app.game.board == at_three
        app.analysis.analyse_button.invoke()
        settle(app)
        assert app.analysis.analysis and app.analysis.panel.size() == len(app.analysis.analysis)
        screenshot(tk_root, artifacts / "blockudoku-gui-replay-analysis.png")

        # A record with an illegal step is refused in a dialog naming it.
        bad = text.replace("play ", "play 9", 1)
        (tmp_path / "bad.bkr").write_text(bad)
        app.load_record(str(tmp_path / "bad.bkr"))
        settle(app)
        assert "line" in app.last_error and app.error_window.winfo_exists()


def test_selfplay_record_replays_to_the_reported_score(tk_root, tmp_path):
    binary = str(real_binary("blockudoku-lab"))
    path = tmp_path / "selfplay.bkr"
    run = subprocess.run([binary, "selfplay", "--games", "2", "--seed", "5", "--max-rounds", "30",
                          "--record", str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    reported = {}
    for line in run.stdout.splitlines():
        t = line.split()
        if t[:1] == ["game"]:
            reported[t[1]] = (int(t[5]), int(t[7]), t[9])  # rounds, score, result
    assert len(reported) == 2
    replay = subprocess.run([binary, "replay", str(path)], capture_output=True, text=True)
    assert replay.returncode == 0, replay.stderr
    lines = replay.stdout.splitlines()
    for k in range(0, len(lines), 2):
        t = lines[k].split()
        assert reported[t[1]] == (int(t[3]), int(t[5]), t[7])
        assert lines[k + 1].startswith("position board ")
    # The window replays the same game to the same score and board.
    engine = real_engine("blockudoku", BlockudokuEngine)
    with engine:
        app = app_for(tk_root, engine)
        record = parse_record(path.read_text(), app.catalogue)
        index = [g.index for g in record.games].index("1")
        assert app.load_record(str(path), index)
        settle(app)
        assert app.game.score == reported["1"][1]
        header = next(k for k in range(0, len(lines), 2) if lines[k].split()[1] == "1")
        final_board = lines[header + 1].split()[2].replace("/", "")
        assert app.game.board == final_board
    # A broken record: the first illegal step, non-zero exit, one line.
    text = path.read_text().splitlines()
    first_play = next(i for i, l in enumerate(text) if l.startswith("play"))
    moves = text[first_play].split()
    text[first_play] = " ".join(["play", moves[1], moves[1]] + moves[3:])
    (tmp_path / "bad.bkr").write_text("\n".join(text) + "\n")
    bad = subprocess.run([binary, "replay", str(tmp_path / "bad.bkr")], capture_output=True, text=True)
    assert bad.returncode != 0 and f"line {first_play + 1}:" in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_window_errors_are_one_line_not_tracebacks(tmp_path):
    import os
    import sys

    script = os.path.join(os.path.dirname(__file__), "..", "blockudoku_gui.py")
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    for args in (["--engine", str(real_binary("blockudoku"))], ["--engine", str(tmp_path / "no-such-engine")]):
        proc = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, env=env, timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        # argparse's usage, then the reason on one line
        assert proc.stderr.strip().splitlines()[-1].startswith("blockudoku_gui.py: ")
    assert "cannot open a window" in subprocess.run(
        [sys.executable, script, "--engine", str(real_binary("blockudoku"))],
        capture_output=True, text=True, env=env, timeout=60).stderr
