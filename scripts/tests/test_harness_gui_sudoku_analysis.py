"""The Competitive Sudoku window's analysis features under a virtual display, with the real
engine: Hint with the analysis panel, the move list (who played, taboo moves), save -> load ->
replay, the Mode box following a board file, board sizes by name and the refusal of others,
the board following the window's size, and one-line errors for a bad engine or display.

Screenshots go to tests/artifacts/."""
import os
import subprocess
import sys

import pytest
from engine_testing import SCRIPTS, real_binary, real_engine, screenshot, settle, wait_for

from engines import SudokuEngine, record
from test_harness_gui import click_cell, sudoku_app, value_button

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")

# A classic 2x2 game in which player 2's last move (row 4, column 4, value 2) leaves the sudoku
# without a solution: the referee makes it taboo.
OPENING = [(0, 1, 3), (3, 2, 3), (1, 1, 4), (3, 0, 4), (1, 2, 1), (2, 3, 4), (1, 3, 3), (3, 3, 2)]


def engine():
    eng = real_engine("sudoku-agent", SudokuEngine)
    eng.setoption("Threads", 1)
    return eng


def play_opening(app, tk_root):
    for r, c, v in OPENING:
        click_cell(app, r, c)
        value_button(app, v).invoke()
        settle(app)


def test_hint_and_analysis_panel(tk_root, artifacts):
    with engine() as eng:
        app = sudoku_app(tk_root, eng, board="3x3", mode="classic", players=("human", "human"), movetime=300)
        # Row and column numbers, 1-based, around the board.
        labels = [app.canvas.itemcget(i, "text") for i in app.canvas.find_withtag("label")]
        assert sorted(labels, key=int) == sorted([str(k) for k in range(1, 10)] * 2, key=int)
        click_cell(app, 4, 4)
        value_button(app, 5).invoke()
        settle(app)
        assert app.board.move_list.get(1) == "1. P1 r5c5=5"
        app.hint_button.invoke()
        assert wait_for(tk_root, lambda: app.screen.hint is not None and not app.thinking, 10)
        # The hint is drawn on the board, named 1-based in the status line, and the panel shows
        # the search's score, depth and line.
        assert app.canvas.find_withtag("hint")
        r, c, v = app.screen.hint.row, app.screen.hint.col, app.screen.hint.value
        assert f"hint for player 2: r{r + 1}c{c + 1}={v}" == app.status_var.get()
        panel = app.analysis_var.get()
        assert "score" in panel and "depth" in panel and "line r" in panel, panel
        # The hint is a move the engine accepts for the human's side.
        assert app.screen.state.values[r][c] == 0
        screenshot(tk_root, artifacts / "sudoku-gui-hint.png")
        app.screen.selected = (r, c)
        app.play.choose_value(v)
        settle(app)
        assert app.screen.state.values[r][c] == v and app.screen.state.owners[r][c] == 2 and app.screen.hint is None


def test_move_list_save_load_replay(tk_root, artifacts, tmp_path):
    with engine() as eng:
        app = sudoku_app(tk_root, eng, board="2x2", mode="classic", players=("human", "human"), movetime=100)
        positions = [app.screen.state]
        for r, c, v in OPENING:
            click_cell(app, r, c)
            value_button(app, v).invoke()
            settle(app)
            positions.append(app.screen.state)
        entries = app.board.move_list.get(0, "end")
        assert entries[0] == "0. start" and entries[1] == "1. P1 r1c2=3" and entries[2] == "2. P2 r4c3=3"
        assert entries[8] == "8. P2 r4c4=2 taboo"
        assert app.board.taboo_list.get(0, "end") == ("r4c4=2 P2",)
        screenshot(tk_root, artifacts / "sudoku-gui-move-list.png")

        saved = tmp_path / "game.txt"
        assert app.records.save_game(str(saved))
        rec = record.parse_records(saved.read_text())[0]
        assert [s.text() for s in rec.steps][-1] == "2 3,3=2 taboo"
        # The engine's own referee agrees with the saved record.
        check = subprocess.run([str(real_binary("sudoku-lab")), "replay", str(saved)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        assert check.stdout.splitlines()[1] == rec.final

        # Load into a fresh game: same moves, same position; then step through it.
        app.new_game()
        settle(app)
        assert app.game.steps == []
        assert app.load_game(str(saved))
        settle(app)
        assert app.board.move_list.get(0, "end") == entries
        assert (app.screen.state.values, app.screen.state.owners, app.screen.state.scores) == (
            positions[-1].values, positions[-1].owners, positions[-1].scores)
        app.records.goto(3)
        settle(app)
        assert app.game.view == 3 and app.screen.state.values == positions[3].values
        assert app.board.move_list.curselection() == (3,)
        app.board.replay_buttons["back"].invoke()
        settle(app)
        assert app.screen.state.values == positions[2].values
        app.board.replay_buttons["forward"].invoke()
        settle(app)
        app.board.replay_buttons["forward"].invoke()
        settle(app)
        assert app.screen.state.values == positions[4].values and app.screen.state.turn == positions[4].turn
        # Jump by the move list.
        app.board.move_list.selection_clear(0, "end")
        app.board.move_list.selection_set(1)
        app.board.move_list.event_generate("<<ListboxSelect>>")
        settle(app)
        assert app.game.view == 1 and app.screen.state.values == positions[1].values
        # Analyse from that move: the engine thinks about that position.
        app.show_hint()
        assert wait_for(tk_root, lambda: app.screen.hint is not None and not app.thinking, 10)
        assert positions[1].values[app.screen.hint.row][app.screen.hint.col] == 0
        screenshot(tk_root, artifacts / "sudoku-gui-replay.png")
        app.board.replay_buttons["last"].invoke()
        settle(app)
        assert app.game.view == len(OPENING) and app.screen.state.values == positions[-1].values
        assert app.screen.state.taboo == positions[-1].taboo


def test_mode_box_follows_board_file(tk_root, tmp_path):
    import sudoku_gui

    board = tmp_path / "rows.txt"
    board.write_text("rows = 2\ncolumns = 3\nboard =\n" + "  . . . . . .\n" * 6 + "taboo-moves = []\n"
                     "moves = []\nscores = [0, 0]\ncurrent-player = 1\n"
                     "allowed-squares1 = (0,0), (0,1), (0,2), (0,3), (0,4), (0,5)\n"
                     "allowed-squares2 = (5,0), (5,1), (5,2), (5,3), (5,4), (5,5)\n")
    args = sudoku_gui.parse_args(["--file", str(board), "--player1", "human", "--player2", "human",
                                  "--engine", str(real_binary("sudoku-agent"))])
    window = sudoku_gui.Window(tk_root, args)
    try:
        app = window.start(args.mode, args.file)
        settle(app)
        assert app.screen.state.mode == "rows" and app.settings.mode_var.get() == "rows"
        assert app.settings.size_var.get() == "2x3 (6x6 grid)"
    finally:
        window.close()


def test_board_sizes_by_name(tk_root, artifacts):
    import sudoku_gui

    assert sudoku_gui.block_shape("3x3") == (3, 3)
    assert sudoku_gui.block_shape("9x9") == (3, 3)
    assert sudoku_gui.block_shape("6x6") == (2, 3)
    assert sudoku_gui.block_shape("2x3 (6x6 grid)") == (2, 3)
    for bad in ("7x7", "0x3", "9", "big", "30x30"):
        with pytest.raises(sudoku_gui.BoardSizeError):
            sudoku_gui.block_shape(bad)
    with engine() as eng:
        app = sudoku_app(tk_root, eng, board="9x9", mode="classic", players=("human", "human"))
        assert (app.screen.state.m, app.screen.state.n) == (3, 3) and app.settings.size_var.get() == "3x3 (9x9 grid)"
        # Every size offered by name starts a game of that shape.
        for name in sudoku_gui.SIZES[:3]:
            app.settings.size_var.set(name)
            app.new_game()
            settle(app)
            assert f"{app.screen.state.m}x{app.screen.state.n}" == name.split()[0]
        app.settings.size_var.set("7x7")
        app.new_game()
        settle(app)
        assert app.dialog is not None and "7x7" in app.dialog_text
        assert (app.screen.state.m, app.screen.state.n) == (3, 3)  # the game on screen is kept
        screenshot(app.dialog, artifacts / "sudoku-gui-bad-size.png")
        app.close_dialog()
        assert app.dialog is None


def test_board_follows_window_size(tk_root, artifacts):
    with engine() as eng:
        app = sudoku_app(tk_root, eng, board="3x3", mode="classic", players=("human", "human"))
        before = app.board.board_px
        # (within the 1024x768 test display)
        tk_root.geometry(f"{tk_root.winfo_width() + 250}x{tk_root.winfo_height() + 150}")
        assert wait_for(tk_root, lambda: app.board.board_px > before + 60, 3)
        # Clicks still find their cells on the larger board.
        click_cell(app, 8, 8)
        assert app.screen.selected == (8, 8)
        screenshot(tk_root, artifacts / "sudoku-gui-large.png")


def run_gui(*args, env=None):
    return subprocess.run([sys.executable, str(SCRIPTS / "sudoku_gui.py"), *args], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, **(env or {})))


@pytest.mark.parametrize("args, env, expected", [
    (["--board", "7x7"], None, "7x7"),
    (["--engine", "/nonexistent/sudoku-agent"], None, "/nonexistent/sudoku-agent"),
    (["--player1", "human", "--player2", "human", "--engine", "/nonexistent/sudoku-agent"], None,
     "/nonexistent/sudoku-agent"),
    (["--player1", "human", "--player2", "human"], {"DISPLAY": ""}, "no display"),
    (["--mode", "puzzle", "--board", "5x5"], None, "--board 5x5: the puzzle mode has the boards 2x2"),
])
def test_one_line_errors(display, args, env, expected):
    proc = run_gui(*args, env=env)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert expected in lines[-1], proc.stderr


def test_arena_record_in_the_window(tk_root, artifacts, tmp_path):
    """A record written by `sudoku-lab arena --record` opens in the window at the position and
    score that `sudoku-lab replay` reaches; a corrupted one is refused at its first bad move."""
    binary = str(real_binary("sudoku-lab"))
    rec = tmp_path / "arena.txt"
    arena = subprocess.run([binary, "arena", "--first", "default", "--second", "greedy", "--board", "2x3", "--mode",
                            "rows", "--games", "1", "--nodes", "2000", "--threads", "1", "--record", str(rec)],
                           capture_output=True, text=True, timeout=120)
    assert arena.returncode == 0, arena.stderr
    check = subprocess.run([binary, "replay", str(rec)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr
    head, position = check.stdout.splitlines()[:2]
    with engine() as eng:
        app = sudoku_app(tk_root, eng, board="3x3", mode="classic", players=("default", "greedy"))
        assert app.load_game(str(rec))
        settle(app)
        assert app.player_kind(1) == app.player_kind(2) == "human"
        assert app.settings.mode_var.get() == "rows" and app.settings.size_var.get() == "2x3 (6x6 grid)"
        assert app.records.game_record().final == position
        assert f"scores {app.screen.state.scores[0]} {app.screen.state.scores[1]} " in head
        steps = len(record.parse_records(rec.read_text())[0].steps)
        assert app.board.move_list.size() == steps + 1
        screenshot(tk_root, artifacts / "sudoku-gui-arena-record.png")

        lines = rec.read_text().splitlines()
        k = next(i for i, l in enumerate(lines) if l.startswith("move 2 "))
        first_cell = next(l for l in lines if l.startswith("move 1 ")).split()[3].split("=")[0]
        lines[k] = f"move 2 2 {first_cell}=1"
        bad = tmp_path / "bad.txt"
        bad.write_text("\n".join(lines) + "\n")
        app.load_game(str(bad))
        settle(app)
        assert app.dialog is not None and "move 2" in app.dialog_text
        assert app.game.view == 1 and app.board.move_list.size() == 2  # shown up to the last good move
        app.close_dialog()


def test_keyboard_play(tk_root):
    """Arrow keys move the selection, a digit plays it, H asks for a hint."""
    with engine() as eng:
        app = sudoku_app(tk_root, eng, board="2x2", mode="classic", players=("human", "human"), movetime=50)
        app.canvas.focus_force()

        def key(keysym, char=""):
            app.canvas.event_generate("<KeyPress>", keysym=keysym)
            settle(app)

        key("Down")  # the first arrow selects r1c1
        assert app.screen.selected == (0, 0)
        key("Down")
        key("Right")
        assert app.screen.selected == (1, 1) and app.canvas.find_withtag("selected")
        key("3")
        assert app.screen.state.values[1][1] == 3 and app.screen.state.owners[1][1] == 1
        assert app.board.move_list.get(1) == "1. P1 r2c2=3"
        key("h")
        assert wait_for(tk_root, lambda: app.screen.hint is not None and not app.thinking, 20)
        assert app.status_var.get().startswith("hint for player 2: ")
