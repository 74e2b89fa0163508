"""Both Tkinter front ends under a virtual display, driven by synthetic mouse events.

Screenshots go to tests/artifacts/ (kept by CI as test artifacts, ignored by git)."""

import pytest
from engine_testing import direct, fake_command, pump, real_engine, screenshot, settle, wait_for, inside_screen

from engines import BlockudokuEngine, SudokuEngine, piece_set
from engines.pieces import DEFAULT_CATALOGUE

# The windows must never ask an engine on their Tk thread (engine_testing.forbid_tk_thread).
pytestmark = pytest.mark.usefixtures("forbid_tk_thread")


def blockudoku_engine(kind):
    if kind == "fake":
        return BlockudokuEngine(fake_command("blockudoku"))
    return real_engine("blockudoku", BlockudokuEngine)


def drag(app, slot, row, col, steps=3):
    """Press on a hand piece, move over the board, release on (row, col); returns preview counts."""
    c = app.canvas
    x0, y0 = app.board.pixel_of_hand_piece(slot)
    x1, y1 = app.board.pixel_for_drop(slot, row, col)
    c.event_generate("<ButtonPress-1>", x=x0, y=y0)
    previews = []
    for k in range(1, steps + 1):
        c.event_generate("<B1-Motion>", x=x0 + (x1 - x0) * k // steps, y=y0 + (y1 - y0) * k // steps)
        pump(app.root)
        previews.append(len(c.find_withtag("preview")))
    c.event_generate("<ButtonRelease-1>", x=x1, y=y1)
    settle(app)
    return previews


@pytest.mark.parametrize("kind", ["fake", "real"])
def test_blockudoku_front_end(kind, tk_root, artifacts):
    import blockudoku_gui

    engine = blockudoku_engine(kind)
    with engine:
        # The front end draws the engine's own catalogue (the file copy, as the lab reads it,
        # must agree with it).
        catalogue = engine.catalogue()
        if kind == "real":
            assert piece_set(DEFAULT_CATALOGUE, catalogue) == catalogue
        app = blockudoku_gui.BlockudokuApp(tk_root, engine, catalogue, seed=11, delay=10)
        settle(app)
        # It opens within the screen (sized from it: test_harness_gui_screens.py).
        assert inside_screen(tk_root)
        first_hand = list(app.game.hand)
        assert app.score_var.get() == "Score: 0" and all(app.screen.fits)

        # Seeded deals are reproducible.
        app.new_game()
        settle(app)
        assert app.game.hand == first_hand

        # Drag the first piece onto the middle of the board: preview while dragging, then placed.
        piece = catalogue[app.game.hand[0]]
        previews = drag(app, 0, 3, 3)
        assert previews[-1] == len(piece.cells)
        assert app.game.hand[0] is None and app.game.board.count("#") == len(piece.cells)
        assert app.game.score > 0 and app.score_var.get() == f"Score: {app.game.score}"
        placed_board = app.game.board

        # Dropping a piece onto the same cells is refused by the engine, nothing changes.
        slot = 1
        drag(app, slot, 3, 3)
        if any(app.game.board[(3 + r) * 9 + 3 + c] == "#" for r, c in catalogue[app.game.hand[slot]].cells):
            assert app.game.hand[slot] is not None and app.game.board == placed_board
            assert "cannot place" in app.status_var.get()

        # Undo restores the board and the hand.
        app.undo()
        settle(app)
        assert app.game.board == "." * 81 and app.game.hand == first_hand and app.game.score == 0

        # Hint: the engine's sequence drawn on the board.
        app.show_hint()
        settle(app)
        assert len(app.screen.hint) == 3 and app.canvas.find_withtag("hint")

        # Pieces that fit nowhere are greyed out (the engine decides): one hole, a 1x1 and two 2x2.
        app.game.board, app.game.hand = "#" * 40 + "." + "#" * 40, [1, 28, 28]
        app.flow.after_change()
        settle(app)
        assert app.screen.fits == [True, False, False] and len(app.canvas.find_withtag("grey")) == 8
        screenshot(tk_root, artifacts / f"blockudoku-gui-greyed-{kind}.png")

        # A full row clears (the engine's answer), and the cleared cells flash.
        app.game.board, app.game.hand = "." + "#" * 8 + "." * 72, [1, 28, 28]
        app.flow.after_change()
        settle(app)
        drag(app, 0, 0, 0)
        assert app.game.board == "." * 81 and "cleared 1 region" in app.status_var.get()
        assert len(app.board.flashed) == 9

        # A hand that cannot be placed ends the game: message with the final score, new game.
        app.game.board, app.game.hand, app.game.score = "#" * 40 + "." + "#" * 40, [28, 28, 28], 77
        app.flow.after_change()
        settle(app)
        assert app.screen.games_finished == [77] and app.game.board == "." * 81 and app.game.score == 0
        assert app.flow.game_over_window is not None and app.flow.game_over_window.winfo_exists()
        app.flow.close_game_over()

        # Scoring choice goes to the engine.
        scoring = engine.options.get("Scoring")
        if scoring and scoring.choices:
            app.set_scoring(scoring.choices[-1])
            settle(app)
            assert "problem" not in app.status_var.get()

        agent = engine.options.get("Agent")
        if agent and agent.choices:
            app.set_option("Agent", agent.choices[0])
            settle(app)
            assert "problem" not in app.status_var.get() and agent.choices[0] in app.status_var.get()
            app.set_option("Agent", agent.default)
            settle(app)

        # The engine plays on its own, animating placement by placement.
        app.engine_button.invoke()
        assert app.engine_button.cget("text") == "Stop Engine"
        assert wait_for(tk_root, lambda: app.game.placed >= 6 or app.screen.games_finished[1:], 20)
        shot = artifacts / f"blockudoku-gui-engine-{kind}.png"
        screenshot(tk_root, shot)
        app.engine_button.invoke()
        assert app.engine_button.cget("text") == "Start Engine" and not app.autoplay
        settle(app)
        assert shot.stat().st_size > 2000


def sudoku_app(tk_root, engine, **kwargs):
    import sudoku_gui

    app = sudoku_gui.SudokuApp(tk_root, engine, **kwargs)
    # The game has started (agents may go on playing: not waiting for the window to be idle).
    assert wait_for(tk_root, lambda: app.screen.state is not None, 60)
    return app


def click_cell(app, r, c):
    x, y = app.board.cell_centre(r, c)
    app.canvas.event_generate("<ButtonPress-1>", x=x, y=y)
    pump(app.root)


def value_button(app, value):
    return app.board.values_frame.items[value - 1]


def test_sudoku_front_end(tk_root, artifacts, tmp_path):
    engine = real_engine("sudoku-agent", SudokuEngine)
    with engine:
        engine.setoption("Threads", 1)
        app = sudoku_app(tk_root, engine, board="2x2", mode="classic", players=("human", "greedy"), movetime=20)
        assert app.screen.state.size == 4 and app.screen.state.turn == 1
        assert len(app.board.values_frame.items) == 5  # values 1-4 and Pass

        # Human move: click a cell, click a value.
        click_cell(app, 0, 0)
        assert app.screen.selected == (0, 0)
        value_button(app, 1).invoke()
        settle(app)
        assert app.screen.state.values[0][0] == 1 and app.screen.state.owners[0][0] == 1
        # The agent (player 2) answers by itself.
        assert wait_for(tk_root, lambda: app.screen.state.turn == 1 and not app.thinking, 5)
        assert sum(v != 0 for row in app.screen.state.values for v in row) == 2
        assert any(app.screen.state.owners[r][c] == 2 for r in range(4) for c in range(4))

        # A move breaking the sudoku rule is refused by the engine and changes nothing.
        empty_in_row0 = next(c for c in range(4) if app.screen.state.values[0][c] == 0)
        before = [row[:] for row in app.screen.state.values]
        click_cell(app, 0, empty_in_row0)
        value_button(app, 1).invoke()
        settle(app)
        assert app.screen.state.values == before and app.screen.state.turn == 1
        assert "1" in app.status_var.get()

        # Two agents play the rest of the game.
        app.settings.player_vars[0].set("default")
        assert wait_for(tk_root, lambda: app.screen.game_over, 30)
        assert app.screen.state.result in ("1", "2", "draw")
        assert "game over" in app.turn_var.get()
        screenshot(tk_root, artifacts / "sudoku-gui-game-over.png")

        # A new game while an agent is thinking cancels its search cleanly.
        app.settings.player_vars[0].set("default")
        app.settings.player_vars[1].set("default")
        app.settings.movetime_var.set("2000")
        app.settings.size_var.set("3x3")
        app.new_game()
        assert wait_for(tk_root, lambda: app.thinking, 20)
        app.settings.player_vars[0].set("human")
        app.settings.player_vars[1].set("human")
        app.new_game()
        assert not app.thinking
        settle(app)
        assert app.screen.state.size == 9
        with direct():
            engine.isready()  # the engine is in step with us again
        app.settings.movetime_var.set("20")

        # Board chooser: a 2024/25 board file with a taboo move, in rows mode.
        board_file = tmp_path / "board.txt"
        board_file.write_text(
            "rows = 2\ncolumns = 2\nboard =\n  1+ . . .\n  . . . .\n  . . . .\n  . . . 2-\n"
            "taboo-moves = [(0,1) -> 2]\nmoves = [(0,0) -> 1, (3,3) -> 2]\nscores = [0, 0]\ncurrent-player = 1\n"
            "allowed-squares1 = (0,0), (0,1), (0,2), (0,3)\nallowed-squares2 = (3,0), (3,1), (3,2), (3,3)\n")
        app.settings.player_vars[0].set("human")
        app.settings.player_vars[1].set("human")
        app.new_game(str(board_file))
        settle(app)
        assert "cannot" not in app.status_var.get(), app.status_var.get()
        assert app.screen.state.values[0][0] == 1 and app.screen.state.owners[3][3] == 2
        assert app.board.taboo_list.get(0, "end") == ("r1c2=2 start",)  # 1-based, found before the game
        assert app.settings.mode_var.get() == "rows"  # the Mode box follows the file
        # A human with no playable cell passes with the Pass button (rows mode, row 0 full).
        with direct():
            engine.position(2, 2, "1234/..../..../....", mode="rows", turn=1)
        app.play.refresh()
        settle(app)
        assert app.screen.state.turn == 1
        app.board.values_frame.items[-1].invoke()  # Pass
        settle(app)
        assert app.screen.state.turn == 2 and "passes" in app.status_var.get()
        # Size and mode chooser.
        app.settings.size_var.set("2x3")
        app.settings.mode_var.set("rows")
        app.new_game()
        settle(app)
        assert (app.screen.state.m, app.screen.state.n, app.screen.state.mode) == (2, 3, "rows")
        shot = screenshot(tk_root, artifacts / "sudoku-gui.png")
        assert shot.stat().st_size > 2000
