"""Every engine wait in a window can be stopped at once: Hint reads Stop while the engine
thinks, and a move played during a hint stops it and is played at once; New game stops a hint,
and New game and Restart engine read Stop while an engine does not answer (a paused one, or one
that never finishes starting), and Stop ends it; any other call on a silent engine (a placement,
a move, a search that does not answer `stop`) turns the busy bar into Stop, which ends it; Stop
ends an agent player's own engine that never finishes starting.

The windows are given 10 s to think (or to answer); each Stop (or move) must bring the window
back to idle long before that. How long it took is written to tests/artifacts/stop-times.txt and asserted
only against the 10 s the search would have taken (a loaded machine may be slow)."""
import time

import pytest
from engine_testing import ARTIFACTS, direct, pump, real_binary, real_engine, settle, wait_for

from engines import SudokuEngine, SudokuMove
from engines.tools import SudokuTools

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")


def idle_after(app, action):
    """Runs `action`, then the event loop until the window is idle; the seconds it took."""
    start = time.monotonic()
    action()
    assert wait_for(app.root, lambda: app.calls.idle, 8), "still waiting for the engine"
    return time.monotonic() - start


def note(what, seconds):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "stop-times.txt", "a") as out:
        out.write(f"{what}: idle again after {seconds * 1000:.0f} ms\n")
    print(f"{what}: {seconds * 1000:.0f} ms")


def test_sudoku_hint_is_stopped_by_stop_or_by_a_move(tk_root):
    import sudoku_gui
    from engines.windows.sudoku.names import HINT_TEXT

    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_gui.SudokuApp(tk_root, engine, board="3x3", mode="classic", players=("human", "human"),
                               movetime=10000)
    try:
        settle(app)
        app.show_hint()
        assert app.hint_button.cget("text") == "Stop"
        pump(tk_root, 0.3)  # the search is under way
        seconds = idle_after(app, app.hint_button.invoke)
        note("sudoku window, Stop during a 10 s hint", seconds)
        assert seconds < 5 and app.screen.hint is not None and app.hint_button.cget("text") == HINT_TEXT

        # A move during a hint: the hint stops and the move is played at once.
        app.show_hint()
        pump(tk_root, 0.3)
        app.screen.selected = (0, 0)
        seconds = idle_after(app, lambda: app.play.choose_value(1))
        note("sudoku window, a move during a 10 s hint", seconds)
        assert seconds < 5 and [s.move for s in app.game.steps] == [SudokuMove(0, 0, 1)]
        assert app.screen.hint is None and not app.thinking and app.hint_button.cget("text") == HINT_TEXT

        # The same before the search has even started: the stop is not lost.
        app.show_hint()
        app.screen.selected = (8, 8)
        seconds = idle_after(app, lambda: app.play.choose_value(2))
        note("sudoku window, a move at once after Hint", seconds)
        assert seconds < 5 and len(app.game.steps) == 2
    finally:
        app.close()
        engine.quit()


def test_puzzle_window_wait_is_stopped(tk_root, tmp_path):
    """The puzzle window's tools given 10 s to answer (a solver that sleeps first): Hint turns
    into Stop, which ends the run at once; the puzzle on screen stays."""
    import sudoku_puzzle_gui

    slow = tmp_path / "sudoku-solver"
    slow.write_text(f"#!/bin/sh\nsleep 10\nexec {real_binary('sudoku-solver')} \"$@\"\n")
    slow.chmod(0o755)
    tools = SudokuTools(real_binary("sudoku-agent"))
    app = sudoku_puzzle_gui.PuzzleApp(tk_root, tools, shape="2x2", seed=1)
    try:
        settle(app)
        title = app.title_var.get()
        tools.binary = str(slow)
        app.new_puzzle()
        assert wait_for(tk_root, lambda: app.hint_button.cget("text") == "Stop", 3)
        seconds = idle_after(app, app.hint_button.invoke)
        note("puzzle window, Stop during a 10 s New", seconds)
        assert seconds < 5 and app.title_var.get() == title and app.hint_button.cget("text") == "Hint"
        assert "stopped" in app.status_var.get()
    finally:
        app.close()


def test_engine_play_waits_while_the_close_question_is_open(tk_root):
    """The engine plays on its own; Close asks: the score the question names stays on the board
    until it is answered, and Cancel lets the engine go on."""
    import tkinter as tk

    import blockudoku_gui
    from engines import BlockudokuEngine
    from engine_testing import fake_command

    engine = BlockudokuEngine(fake_command("blockudoku"))
    app = blockudoku_gui.BlockudokuApp(tk.Toplevel(tk_root), engine, engine.catalogue(), seed=3, delay=20)
    try:
        settle(app)
        app.toggle_engine()
        assert wait_for(tk_root, lambda: app.game.placed >= 2, 20)
        app.ask_close()
        asked = app.game.score
        assert f"({asked} points)" in app.dialogs.text
        pump(tk_root, 1.0)
        assert app.game.score == asked and app.autoplay
        app.dialogs.button("Cancel").invoke()
        assert wait_for(tk_root, lambda: app.game.score > asked, 20)
    finally:
        app.close()
        engine.quit()


def test_blockudoku_record_replay_is_stopped_by_a_new_game(tk_root, tmp_path):
    """A record replaying through the engine stops at its next placement when a new game is
    asked for: the new game is not kept waiting, and the record does not appear over it."""
    import threading
    import tkinter as tk

    import blockudoku_gui
    from engines import BlockudokuEngine
    from engine_testing import fake_command

    engine = BlockudokuEngine(fake_command("blockudoku"))
    app = blockudoku_gui.BlockudokuApp(tk.Toplevel(tk_root), engine, engine.catalogue(), seed=3, delay=20)
    try:
        settle(app)
        app.toggle_engine()
        assert wait_for(tk_root, lambda: app.game.placed >= 4, 20)
        app.stop_engine()
        settle(app)
        path = tmp_path / "game.bkr"
        app.save_record(str(path))

        play, plays, started, release = engine.play, [], threading.Event(), threading.Event()

        def held_play(placements):  # the replay's first placement waits for the new game
            plays.append(placements)
            if len(plays) == 1:
                started.set()
                release.wait(10)
            return play(placements)

        engine.play = held_play
        assert app.load_record(str(path))
        assert wait_for(tk_root, started.is_set, 10)
        app.new_game()
        release.set()
        settle(app)
        assert len(plays) == 1 and app.screen.replay_states is None and app.game.placed == 0
        assert not app.records.replay_bar.winfo_ismapped() and app.error_window is None
    finally:
        app.close()
        engine.quit()


def test_sudoku_record_load_is_stopped_by_a_new_game(tk_root, tmp_path):
    """A record being played into the referee stops at its next move when a new game is asked
    for: the new game is not kept waiting, and the record does not appear over it."""
    import threading

    import sudoku_gui
    from test_harness_gui import click_cell, value_button

    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    app = sudoku_gui.SudokuApp(tk_root, engine, board="2x2", mode="classic", players=("human", "human"))
    try:
        settle(app)
        for r, c, v in [(0, 1, 3), (3, 2, 3), (1, 1, 4), (3, 0, 4)]:
            click_cell(app, r, c)
            value_button(app, v).invoke()
            settle(app)
        path = tmp_path / "game.txt"
        assert app.records.save_game(str(path)) and len(app.game.steps) == 4

        play, plays, started, release = engine.play, [], threading.Event(), threading.Event()

        def held_play(move):  # the load's first move waits for the new game
            plays.append(move)
            if len(plays) == 1:
                started.set()
                release.wait(10)
            return play(move)

        engine.play = held_play
        assert app.load_game(str(path))
        assert wait_for(tk_root, started.is_set, 10)
        app.new_game()
        release.set()
        settle(app)
        assert len(plays) == 1 and app.game.steps == [] and app.dialog is None
        assert app.board.move_list.get(0, "end") == ("0. start",)
    finally:
        app.close()
        engine.quit()


def stopped_engine(engine):
    """The engine process paused (SIGSTOP): it answers nothing until it is ended."""
    import os
    import signal

    os.kill(engine.proc.pid, signal.SIGSTOP)


def blockudoku_app(tk_root):
    import tkinter as tk

    import blockudoku_gui
    from engines import BlockudokuEngine

    with direct():
        engine = real_engine("blockudoku", BlockudokuEngine)
    return blockudoku_gui.BlockudokuApp(tk.Toplevel(tk_root), engine, engine.catalogue(), seed=3, movetime=10000), engine


def sudoku_app(tk_root):
    import sudoku_gui

    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    return sudoku_gui.SudokuApp(tk_root, engine, board="2x2", mode="classic", players=("human", "human")), engine


@pytest.mark.parametrize("make", [blockudoku_app, sudoku_app], ids=["blockudoku", "sudoku"])
def test_new_game_and_restart_are_stopped(tk_root, tmp_path, make):
    """An engine that does not answer a new game: New game reads Stop, which ends it at once
    (reported, Restart engine offered). An engine that does not start: Restart engine reads
    Stop, which ends it at once; then a restart that works brings the game back."""
    app, engine = make(tk_root)
    name = "sudoku" if hasattr(app, "settings") and hasattr(app.settings, "player_vars") else "blockudoku"
    supervision, new_button = app.supervision, app.settings.new_button if name == "sudoku" else app.new_button
    try:
        settle(app)
        stopped_engine(app.engine)
        app.new_game()
        assert wait_for(tk_root, lambda: new_button.cget("text") == "Stop", 3)
        seconds = idle_after(app, new_button.invoke)
        note(f"{name} window, Stop during a new game the engine does not answer", seconds)
        assert seconds < 5 and app.engine_dead is not None and supervision.restart_button.winfo_ismapped()
        assert new_button.cget("text") == "New game"

        real, silent = app.engine.argv, tmp_path / "silent-engine"
        silent.write_text("#!/bin/sh\nexec sleep 10\n")  # starts, and never answers `hello`
        silent.chmod(0o755)
        app.engine.argv = [str(silent)]
        supervision.restart_button.invoke()
        assert wait_for(tk_root, lambda: supervision.restart_button.cget("text") == "Stop", 3)
        seconds = idle_after(app, supervision.restart_button.invoke)
        note(f"{name} window, Stop during a restart the engine does not answer", seconds)
        assert seconds < 5 and app.engine_dead is not None and "Restart stopped" in app.status_var.get()
        assert supervision.restart_button.cget("text") == "Restart engine"

        app.engine.argv = real
        supervision.restart_button.invoke()
        assert wait_for(tk_root, lambda: app.engine_dead is None and app.calls.idle, 20)
        assert "restarted" in app.status_var.get()
        app.new_game()
        assert settle(app)
        pump(tk_root, 0.5)  # longer than a wait takes to offer Stop: a new game answered offers none
        assert app.engine_dead is None and new_button.cget("text") == "New game"
    finally:
        app.close()
        app.engine.quit()
        engine.quit()


def test_blockudoku_new_game_stops_a_hint(tk_root):
    """New game during a 10 s hint: the hint stops at once and its answer is dropped."""
    app, engine = blockudoku_app(tk_root)
    try:
        settle(app)
        app.show_hint()
        pump(tk_root, 0.3)
        seconds = idle_after(app, app.new_game)
        note("blockudoku window, New game during a 10 s hint", seconds)
        assert seconds < 5 and app.screen.hint == [] and app.hint_button.cget("text") == "Hint"
    finally:
        app.close()
        engine.quit()


def silent_engine(tmp_path):
    """A stand-in engine that starts and never answers (not even `hello`)."""
    silent = tmp_path / "silent-engine"
    silent.write_text("#!/bin/sh\nexec sleep 10\n")
    silent.chmod(0o755)
    return silent


def restarted(app):
    """Restart engine, and the window idle with the new engine."""
    app.supervision.restart_button.invoke()
    assert wait_for(app.root, lambda: app.engine_dead is None and app.calls.idle, 20)


def test_blockudoku_engine_silent_on_a_placement_or_a_stopped_hint(tk_root):
    """A paused engine asked for a placement (`position`, `play`): the busy bar reads Stop
    after 0.3 s, which ends the engine at once (reported, Restart engine offered; the game is
    kept and goes on after the restart). A paused engine during a hint: Hint's Stop sends
    `stop`, which it does not answer, and the busy bar's Stop ends it."""
    app, engine = blockudoku_app(tk_root)
    busy_stop = app.busy.stop_button
    try:
        settle(app)
        assert not busy_stop.winfo_ismapped()
        stopped_engine(app.engine)
        app.flow.place(0, 0, 0)
        assert wait_for(tk_root, busy_stop.winfo_ismapped, 3)
        seconds = idle_after(app, busy_stop.invoke)
        note("blockudoku window, Stop during a placement the engine does not answer", seconds)
        assert seconds < 5 and app.engine_dead is not None and app.supervision.restart_button.winfo_ismapped()
        assert app.game.placed == 0 and not busy_stop.winfo_ismapped() and not app.screen.placing

        restarted(app)
        app.flow.place(0, 0, 0)
        assert settle(app) and app.game.placed == 1 and not busy_stop.winfo_ismapped()

        stopped_engine(app.engine)
        app.show_hint()
        pump(tk_root, 0.5)
        assert app.hint_button.cget("text") == "Stop" and not busy_stop.winfo_ismapped()  # a search: no kill offered
        app.hint_button.invoke()  # `stop`, to a paused engine
        assert wait_for(tk_root, busy_stop.winfo_ismapped, 3)
        seconds = idle_after(app, busy_stop.invoke)
        note("blockudoku window, Stop during a hint the engine does not stop", seconds)
        assert seconds < 5 and app.engine_dead is not None and app.hint_button.cget("text") == "Hint"
    finally:
        app.close()
        app.engine.quit()
        engine.quit()


def test_sudoku_agent_start_and_a_silent_referee_are_stopped(tk_root, tmp_path):
    """An agent player's own engine that never finishes starting: Hint reads Stop, which ends
    it at once (reported, Restart engine offered). A paused referee asked to play a move: the
    busy bar reads Stop after 0.3 s, which ends it at once."""
    from test_harness_gui import click_cell, value_button

    app, engine = sudoku_app(tk_root)
    try:
        settle(app)
        real = app.engine.argv
        app.engine.argv = [str(silent_engine(tmp_path))]  # an agent's engine starts as the referee's
        app.settings.player_vars[0].set("default")
        assert wait_for(tk_root, lambda: app.thinking and app.hint_button.cget("text") == "Stop", 3)
        pump(tk_root, 0.3)  # the agent's engine is starting, and never answers
        seconds = idle_after(app, app.hint_button.invoke)
        note("sudoku window, Stop during an agent's engine start that never answers", seconds)
        assert seconds < 5 and not app.thinking and app.engine_dead is not None
        assert app.restart_button.winfo_ismapped() and app.controller.sessions == {} and app.game.steps == []

        app.engine.argv = real
        app.settings.player_vars[0].set("human")
        restarted(app)
        busy_stop = app.busy.stop_button
        stopped_engine(app.engine)
        click_cell(app, 0, 1)
        value_button(app, 3).invoke()
        assert wait_for(tk_root, busy_stop.winfo_ismapped, 3)
        seconds = idle_after(app, busy_stop.invoke)
        note("sudoku window, Stop during a move the referee does not answer", seconds)
        assert seconds < 5 and app.engine_dead is not None and app.game.steps == []
        assert not busy_stop.winfo_ismapped() and not app.screen.moving
    finally:
        app.close()
        app.engine.quit()
        engine.quit()


def test_sudoku_engine_start_of_a_mode_switch_is_stopped(tk_root, tmp_path):
    """The puzzle window's Mode choice starts the competitive game's engine: one that never
    finishes starting is ended at once by the Stop shown meanwhile, and the puzzle comes back."""
    import sudoku_gui
    from engines.windows.puzzle import PuzzleApp

    real = [str(real_binary("sudoku-agent"))]
    args = sudoku_gui.parse_args(["--mode", "puzzle", "--board", "2x2", "--seed", "1", "--engine", real[0]])
    window = sudoku_gui.Window(tk_root, args)
    try:
        app = window.start("puzzle")
        settle(app)
        window.engine_argv = [str(silent_engine(tmp_path))]
        app.mode_var.set("classic")
        app.switch_mode()
        assert wait_for(tk_root, lambda: window.stop_button is not None and window.stop_button.winfo_ismapped(), 3)
        pump(tk_root, 0.3)  # the engine is starting, and never answers
        window.engine_argv = real  # for the puzzle's tools
        start = time.monotonic()
        window.stop_button.invoke()
        assert wait_for(tk_root, lambda: isinstance(window.app, PuzzleApp) and window.app.calls.idle, 8)
        seconds = time.monotonic() - start
        note("sudoku window, Stop during the engine start of a switch to the competitive game", seconds)
        assert seconds < 5 and app.closed and not window.app.closed and window.app.puzzle.givens.size == 4
    finally:
        window.close()


def test_sudoku_close_does_not_wait_on_a_paused_engine(tk_root):
    """Closing the window while the referee and an agent player's engine are paused: the window
    closes without waiting on them (the referee is still there when it has closed), and both are
    ended afterwards (none outlives the window)."""
    import sudoku_gui

    with direct():
        engine = real_engine("sudoku-agent", SudokuEngine)
    window = sudoku_gui.Window(tk_root, sudoku_gui.parse_args(["--board", "2x2", "--player1", "default",
                                                               "--player2", "human", "--movetime", "50"]))
    try:
        app = window.competitive(engine, "classic", None)
        assert wait_for(tk_root, lambda: len(app.game.steps) == 1 and app.calls.idle, 20)
        (session,) = app.controller.sessions.values()
        stopped_engine(session.engine)
        stopped_engine(engine)
        window.close()
        assert engine.alive, "closing waited for the paused referee to be ended"
        assert wait_for(tk_root, lambda: not session.engine.alive and not engine.alive, 10)
    finally:
        window.close()
        engine.kill()
