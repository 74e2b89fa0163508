"""Both Tkinter front ends when the engine process is killed (SIGKILL) in the middle of a game:
the death is reported once, in words, with a Restart engine button; the game on screen is
kept, and the restarted engine is given it and plays on. Screenshots go to tests/artifacts/."""
import os
import signal

import pytest
from engine_testing import direct, pump, real_engine, screenshot, settle, wait_for
from test_harness_gui import drag, sudoku_app

from engines import BlockudokuEngine, SudokuEngine

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")


def kill(engine):
    os.kill(engine.proc.pid, signal.SIGKILL)


def test_blockudoku_engine_killed_mid_game(tk_root, artifacts):  # noqa: F811
    import blockudoku_gui

    engine = real_engine("blockudoku", BlockudokuEngine)
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, engine.catalogue(), seed=5, delay=10)
    try:
        settle(app)
        app.set_scoring("classic")
        settle(app)
        drag(app, 0, 0, 0)
        assert app.game.placed == 1
        # The engine plays on its own; kill it while it does.
        app.engine_button.invoke()
        assert wait_for(tk_root, lambda: app.game.placed >= 4, 20)
        kill(engine)
        assert wait_for(tk_root, lambda: app.supervision.engine_reports > 0, 10)
        kept = (app.game.board, list(app.game.hand), app.game.score, app.game.placed)
        assert app.game.placed >= 4 and not app.autoplay
        message = app.status_var.get()
        assert "The engine stopped (killed by SIGKILL)" in message and "Restart engine" in message, message
        assert "Traceback" not in message and app.supervision.restart_button.winfo_ismapped()
        # Whatever the user tries now is not reported again, and the game is not lost.
        app.show_hint()
        app.engine_button.invoke()
        drag(app, next(s for s, _ in app.screen.remaining()), 4, 4)
        app.new_game()
        pump(tk_root, 0.8)  # the watchdog runs too
        assert app.supervision.engine_reports == 1 and app.status_var.get() == message
        assert (app.game.board, app.game.hand, app.game.score, app.game.placed) == kept
        screenshot(tk_root, artifacts / "blockudoku-gui-engine-killed.png")

        # Restart: a new process with the same options, the same game, and play goes on.
        app.supervision.restart_button.invoke()
        settle(app)
        assert app.engine is not engine and app.engine.alive and app.engine.settings.get("Scoring") == "classic"
        assert not app.supervision.restart_button.winfo_ismapped() and "restarted" in app.status_var.get()
        assert (app.game.board, app.game.hand, app.game.score) == kept[:3]
        app.engine_button.invoke()
        assert wait_for(tk_root, lambda: app.game.placed >= kept[3] + 3 or app.screen.games_finished, 20)
        app.engine_button.invoke()
        assert app.supervision.engine_reports == 1
        screenshot(tk_root, artifacts / "blockudoku-gui-engine-restarted.png")
    finally:
        app.stop_engine()
        app.engine.quit()
        engine.kill()


def test_sudoku_engine_killed_mid_game(tk_root, artifacts):  # noqa: F811
    engine = real_engine("sudoku-agent", SudokuEngine)
    engine.setoption("Threads", 1)
    app = sudoku_app(tk_root, engine, board="2x3", mode="rows", players=("default", "greedy"), movetime=300)
    try:
        # Kill the engine while player 1 is thinking, a few moves into the game.
        assert wait_for(tk_root, lambda: len(app.game.moves) >= 3 and app.thinking, 20)
        kill(engine)
        assert wait_for(tk_root, lambda: app.supervision.engine_reports > 0, 10)
        kept = app.screen.state
        filled = sum(v != 0 for row in kept.values for v in row)
        assert filled >= 3 and not app.thinking and not app.screen.game_over
        message = app.status_var.get()
        assert "The engine stopped (killed by SIGKILL)" in message and "Restart engine" in message, message
        assert app.restart_button.winfo_ismapped()
        # Clicks, a new game, switching players: not reported again, the game stays on screen.
        app.settings.player_vars[0].set("human")
        app.settings.player_vars[1].set("human")
        x, y = app.board.cell_centre(*next((r, c) for r in range(6) for c in range(6) if not kept.values[r][c]))
        app.canvas.event_generate("<ButtonPress-1>", x=x, y=y)
        app.new_game()
        pump(tk_root, 0.8)
        settle(app)
        assert app.supervision.engine_reports == 1 and app.status_var.get() == message
        assert app.screen.state is kept and app.canvas.find_withtag("cell")
        screenshot(tk_root, artifacts / "sudoku-gui-engine-killed.png")

        # Restart: the new engine is given the same game (set-up and moves through `play`).
        app.restart_button.invoke()
        settle(app)
        assert app.engine is not engine and app.engine.alive and app.engine.settings.get("Threads") == 1
        assert not app.restart_button.winfo_ismapped() and "restarted" in app.status_var.get()
        with direct():
            now = app.engine.state()
        assert (now.values, now.owners, now.scores, now.turn, now.taboo) == \
               (kept.values, kept.owners, kept.scores, kept.turn, kept.taboo)
        # And the game goes on to its end with the agents.
        app.settings.movetime_var.set("20")
        app.settings.player_vars[0].set("default")
        app.settings.player_vars[1].set("greedy")
        assert wait_for(tk_root, lambda: app.screen.game_over, 60)
        assert app.screen.state.result in ("1", "2", "draw") and app.supervision.engine_reports == 1
        screenshot(tk_root, artifacts / "sudoku-gui-engine-restarted.png")
    finally:
        app.close()
        app.engine.quit()
        engine.kill()
