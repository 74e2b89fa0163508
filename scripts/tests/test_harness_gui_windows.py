"""The three windows on any screen, and responsive while the engine thinks.

Layout: each window opens within a 1366x768 screen; at 800x600, 1366x768 and 1920x1080 every
control it shows is mapped and lies wholly inside the window (nothing cut off); at the
documented minimum size (MIN_SIZE, 640x480) every control is still reachable (the side panel
scrolls it into view); the board grows with the window. Screenshots of each size go to
tests/artifacts/windows-*.png.

Responsiveness: while the engine searches for 3 seconds, Tk callbacks scheduled every 10 ms keep
running; the largest delay past their time is reported (tests/artifacts/responsiveness.txt and
the test output), never asserted: a loaded machine may be slow, and the figure is the measure.
The windows' engine calls themselves never run on the Tk thread (forbid_tk_thread).

The Competitive Sudoku window keeps one engine per agent player: a 20-move game between two
agents sends each of them its options once, not before every move.
"""
import time

import pytest
from engine_testing import ARTIFACTS, direct, fake_command, pump, real_binary, real_engine, screenshot, settle, wait_for, inside_screen

from engines import BlockudokuEngine, SudokuEngine
from engines.tools import SudokuTools
from engines.windows import controls, fully_visible

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")

SIZES = ((800, 600), (1366, 768), (1920, 1080))


def shown_controls(root):
    """The controls the window shows now: managed, and every enclosing widget managed too."""
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


def resize(app, width, height):
    app.root.geometry(f"{width}x{height}")
    pump(app.root, 0.3)
    settle(app)
    pump(app.root, 0.2)


def check_sizes(app, name, board_size, expect=None):
    """Every size: all controls inside the window; at the minimum size, reachable by scrolling."""
    import sudoku_gui

    root = app.root
    boards = {}
    shown = shown_controls(root)
    assert len(shown) >= expect, [str(w) for w in shown]
    for width, height in SIZES:
        resize(app, width, height)
        assert (root.winfo_width(), root.winfo_height()) == (width, height)
        cut = [str(w) for w in shown_controls(root) if not fully_visible(w)]
        screenshot(root, ARTIFACTS / f"windows-{name}-{width}x{height}.png")
        assert not cut, f"{name} at {width}x{height}: controls cut off: {cut}"
        boards[width] = board_size()
    # The board grows with the window.
    assert boards[800] < boards[1366] < boards[1920], boards
    width, height = sudoku_gui.MIN_SIZE
    resize(app, width, height)
    screenshot(root, ARTIFACTS / f"windows-{name}-minimum.png")
    panel = app.side if hasattr(app, "side") else app.panel
    unreachable = []
    for widget in shown_controls(root):
        if not fully_visible(widget):
            panel.show(widget)
            if not fully_visible(widget):
                unreachable.append(str(widget))
    assert not unreachable, f"{name} at the minimum size: out of reach: {unreachable}"
    panel.canvas.yview_moveto(0)


def test_blockudoku_window_fits_every_screen(tk_root, artifacts, tmp_path):
    import blockudoku_gui

    engine = real_engine("blockudoku", BlockudokuEngine)
    catalogue = engine.catalogue()
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, catalogue, seed=2)
    try:
        settle(app)
        # It opens within the screen (sized from it: test_harness_gui_screens.py).
        assert inside_screen(tk_root)
        check_sizes(app, "blockudoku", lambda: app.board.layout.cell, expect=10)
        # The analysis board, with an answer: its lines always on screen.
        resize(app, 900, 640)
        app.enter_analysis()
        for slot, pid in enumerate((1, 2, 3)):
            app.analysis.set_slot(slot, pid)
        app.analysis.analyse()
        settle(app)
        assert app.analysis.analysis and app.analysis.panel.size() == len(app.analysis.analysis)
        check_sizes(app, "blockudoku-analysis", lambda: app.board.layout.cell, expect=16)
        app.leave_analysis()
        settle(app)
        # A record of two games loaded: the replay bar and the game picker.
        import subprocess

        path = tmp_path / "two.bkr"
        subprocess.run([str(real_binary("blockudoku-lab")), "selfplay", "--games", "2", "--seed", "5", "--max-rounds", "10",
                        "--record", str(path)], check=True, capture_output=True, timeout=120)
        resize(app, 900, 640)
        assert app.load_record(str(path))
        settle(app)
        assert app.records.game_pick.winfo_ismapped() and "game 1 of 2" in app.records.replay_title.get()
        check_sizes(app, "blockudoku-record", lambda: app.board.layout.cell, expect=16)
    finally:
        app.close()
        engine.quit()


def test_sudoku_window_fits_every_screen(tk_root):
    import sudoku_gui

    engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_gui.SudokuApp(tk_root, engine, board="3x3", mode="rows", players=("human", "human"))
    try:
        settle(app)
        assert inside_screen(tk_root)
        check_sizes(app, "sudoku", lambda: app.board.board_px, expect=25)
    finally:
        app.close()
        engine.quit()


def test_puzzle_window_fits_every_screen(tk_root):
    import sudoku_puzzle_gui

    app = sudoku_puzzle_gui.PuzzleApp(tk_root, SudokuTools(real_binary("sudoku-agent")), shape="3x3", seed=1,
                                      on_switch=lambda mode: None, other_modes=("classic",))
    settle(app)
    assert inside_screen(tk_root)
    check_sizes(app, "puzzle", lambda: app.board.board_px, expect=25)
    app.close()


class DelayProbe:
    """Tk callbacks every `period` ms; records how late each one ran (ms)."""

    def __init__(self, root, period=10):
        self.root, self.period, self.delays, self.running = root, period, [], True
        self.due = time.monotonic() + period / 1000
        root.after(period, self.tick)

    def tick(self):
        now = time.monotonic()
        self.delays.append(max(0.0, (now - self.due) * 1000))
        if self.running:
            self.due = now + self.period / 1000
            self.root.after(self.period, self.tick)


def report(name, probe, seconds):
    line = (f"{name}: {len(probe.delays)} Tk callbacks during {seconds:.1f} s of engine work, "
            f"largest delay {max(probe.delays):.1f} ms")
    print(line)
    with open(ARTIFACTS / "responsiveness.txt", "a") as out:
        out.write(line + "\n")


def test_windows_stay_responsive_during_a_3_s_search(tk_root, artifacts):
    import tkinter as tk

    import blockudoku_gui
    import sudoku_gui

    # The real engine answers a hand in well under a second even with 3000 ms to spend; the
    # fake one thinks for all of its movetime, as a slow agent would.
    engine = BlockudokuEngine(fake_command("blockudoku", "--use-movetime"))
    app = blockudoku_gui.BlockudokuApp(tk.Toplevel(tk_root), engine, engine.catalogue(), seed=7, movetime=3000)
    try:
        settle(app)
        probe = DelayProbe(tk_root)
        start = time.monotonic()
        app.show_hint()
        assert app.hint_button.cget("text") == "Stop"  # Hint returned at once; the search runs
        settle(app)
        seconds = time.monotonic() - start
        probe.running = False
        assert len(app.screen.hint) == 3 and seconds >= 2.5
        report("blockudoku window (Hint, Engine ms 3000)", probe, seconds)
        # Stop returns at once and the search answers with what it has.
        app.show_hint()
        pump(tk_root, 0.3)
        app.hint_button.invoke()  # Stop
        assert wait_for(tk_root, lambda: app.calls.idle, 20) and len(app.screen.hint) == 3
    finally:
        app.close()
        engine.quit()

    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_gui.SudokuApp(tk_root, engine, board="3x3", mode="classic", players=("human", "human"), movetime=3000)
    try:
        settle(app)
        probe = DelayProbe(tk_root)
        start = time.monotonic()
        app.show_hint()
        assert app.thinking
        assert wait_for(tk_root, lambda: app.screen.hint is not None and not app.thinking, 30)
        seconds = time.monotonic() - start
        probe.running = False
        assert seconds >= 2.5
        report("sudoku window (Hint, 3000 ms)", probe, seconds)
    finally:
        app.close()
        engine.quit()


def test_puzzle_window_stays_responsive_while_a_puzzle_is_made(tk_root):
    """The puzzle window has no long search; its longest engine call is New on 16x16 (hard)."""
    import sudoku_puzzle_gui

    app = sudoku_puzzle_gui.PuzzleApp(tk_root, SudokuTools(real_binary("sudoku-agent")), shape="3x3", seed=1)
    settle(app)
    app.size_var.set("16x16")
    app.difficulty_var.set("hard")
    probe = DelayProbe(tk_root)
    start = time.monotonic()
    app.new_puzzle()
    settle(app)
    seconds = time.monotonic() - start
    probe.running = False
    assert app.puzzle.givens.size == 16
    report("puzzle window (New, 16x16 hard)", probe, seconds)
    app.close()


def test_sudoku_agents_keep_their_sessions(tk_root):
    """Two agents play 20 moves: each one's options go to its own engine once."""
    import sudoku_gui

    engine = real_engine("sudoku-agent", SudokuEngine)
    engine.setoption("Threads", 1)
    app = sudoku_gui.SudokuApp(tk_root, engine, board="3x3", mode="classic", players=("default", "mcts"), movetime=30)
    try:
        assert wait_for(tk_root, lambda: len(app.game.steps) >= 20 or app.screen.game_over, 120)
        app.settings.player_vars[0].set("human")
        app.settings.player_vars[1].set("human")
        app.cancel_search()
        settle(app)
        assert len(app.game.steps) >= 20
        sessions = app.controller.sessions
        assert sorted(sessions) == [1, 2]
        for player, agent in ((1, "default"), (2, "mcts")):
            lines = [l[2:] for l in sessions[player].engine.transcript if l.startswith("> setoption")]
            # Threads (as the window's engine has it) and the agent: once, at the start.
            assert lines == ["setoption name Threads value 1", f"setoption name Agent value {agent}"], lines
            # The game's start once, then the moves by `play`: never a new position.
            sent = [l for l in sessions[player].engine.transcript if l.startswith(">")]
            assert sum(l.startswith("> play") for l in sent) >= 19
            assert sum(l.startswith("> position") for l in sent) == 1 and sum(l == "> newgame" for l in sent) == 1
        # The move list follows the game: its last move is in view.
        assert app.board.move_list.size() == len(app.game.steps) + 1 and app.board.move_list.bbox(len(app.game.steps)) is not None
        # The referee (and the hints) never had its agent changed.
        assert not [l for l in engine.transcript if l.startswith("> setoption name Agent")]
    finally:
        app.close()
        engine.quit()


def test_closing_asks_while_a_game_is_in_progress(tk_root):
    import tkinter as tk

    import blockudoku_gui
    from test_harness_gui import drag

    engine = real_engine("blockudoku", BlockudokuEngine)
    window = tk.Toplevel(tk_root)
    app = blockudoku_gui.BlockudokuApp(window, engine, engine.catalogue(), seed=3)
    try:
        settle(app)
        app.ask_close()  # nothing played yet: closes at once
        assert not window.winfo_exists()
        engine.quit()
        window = tk.Toplevel(tk_root)
        with direct():
            engine = real_engine("blockudoku", BlockudokuEngine)
            catalogue = engine.catalogue()
        app = blockudoku_gui.BlockudokuApp(window, engine, catalogue, seed=3)
        settle(app)
        drag(app, 0, 0, 0)
        assert app.game.placed == 1
        app.ask_close()
        assert "not saved" in app.dialogs.text
        app.dialogs.button("Cancel").invoke()
        assert window.winfo_exists() and app.dialogs.window is None
        app.ask_close()
        app.dialogs.button("Close").invoke()
        assert not window.winfo_exists() and app.closed
    finally:
        engine.quit()
