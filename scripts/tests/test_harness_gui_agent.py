"""The Blockudoku window's Agent and Objective choices: chosen in the window, they
reach the engine (its transcript shows the `setoption`), Hint and the engine's own play answer
with the chosen agent (the same answer a separate engine set to that agent gives), and the
choice survives New game and an engine restart. Objective is offered only by engines that
have it (the fake engine does; `--no-objective` hides it)."""
import os
import random
import signal

import pytest
from engine_testing import direct, fake_command, real_engine, settle, wait_for

from engines import BlockudokuEngine, EngineError

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")


def choose(app, name, value):
    """What a user does: pick `value` in the window's `name` combobox."""
    box = app.settings.choice_boxes[name]
    assert value in box.cget("values")
    box.set(value)
    box.event_generate("<<ComboboxSelected>>")
    settle(app)


def sent(engine, prefix):
    """The lines the front end sent to `engine` that start with `prefix`."""
    return [line[2:] for line in engine.transcript if line.startswith("> " + prefix)]


def answer(engine, board, hand):
    with direct():  # the test's own engines, not the window's
        engine.position(board, hand)
        return [str(p) for p in engine.go().placements]


def discriminating_position(default, strong):
    """A seeded random crowded board and hand on which the two agents answer differently
    (found by asking them, so the test follows the engine's weights)."""
    rng = random.Random(1)
    for _ in range(200):
        board = "".join("#" if rng.random() < 0.45 else "." for _ in range(81))
        hand = [rng.randint(1, 47) for _ in range(3)]
        default.position(board, hand)
        if default.go().lost:
            continue
        a, b = answer(default, board, hand), answer(strong, board, hand)
        if a != b:
            return board, hand, a, b
    raise AssertionError("no position where strong and default differ in 200 seeded tries")


def hint(app, board, hand):
    app.game.board, app.game.hand = board, list(hand)
    app.flow.after_change()
    settle(app)
    app.hint_button.invoke()
    settle(app)
    return [str(p) for _, p in app.screen.hint]


def test_agent_choice_reaches_hint_autoplay_new_game_and_restart(tk_root):  # noqa: F811
    import blockudoku_gui

    default = real_engine("blockudoku", BlockudokuEngine)
    strong = real_engine("blockudoku", BlockudokuEngine)
    engine = real_engine("blockudoku", BlockudokuEngine)
    app = None
    try:
        strong.setoption("Agent", "strong")
        board, hand, by_default, by_strong = discriminating_position(default, strong)
        app = blockudoku_gui.BlockudokuApp(tk_root, engine, engine.catalogue(), seed=3, delay=10)
        settle(app)
        assert app.settings.agent_var.get() == "default" and not sent(engine, "setoption")

        # Chosen in the window: sent at once, and the next Hint (a bare `go`: Engine ms is 0)
        # is the strong agent's answer, a legal sequence by the engine's own rules.
        choose(app, "Agent", "strong")
        assert sent(engine, "setoption") == ["setoption name Agent value strong"]
        assert app.status_var.get() == "Agent: strong"
        assert hint(app, board, hand) == by_strong
        assert sent(engine, "go")[-1] == "go"
        assert app.status_var.get().startswith("hint (strong): piece ")
        with direct():
            default.position(board, hand)
            default.play(by_strong)  # raises EngineError if any placement were illegal

        # Back to default.
        choose(app, "Agent", "default")
        assert hint(app, board, hand) == by_default and app.status_var.get().startswith("hint (default)")

        # Kept across New game (the window's choice and the engine's).
        choose(app, "Agent", "strong")
        app.new_game()
        settle(app)
        assert app.settings.agent_var.get() == "strong" and hint(app, board, hand) == by_strong

        # A movetime is named in the status line and sent with the search.
        app.settings.movetime_var.set("30")
        app.hint_button.invoke()
        settle(app)
        assert sent(engine, "go")[-1] == "go movetime 30"
        assert app.status_var.get().startswith("hint (strong, 30 ms): piece ")
        app.settings.movetime_var.set("0")

        # The engine's own play uses it too: every search it makes is strong's answer.
        searches = []
        search = app.controller.search

        def recorded(done):
            position = (app.game.board, [pid for pid in app.game.hand if pid is not None])

            def got(seq):
                searches.append((position, [str(p) for _, p in seq or []]))
                done(seq)

            search(got)

        app.controller.search = recorded
        app.game.board, app.game.hand = board, list(hand)
        app.flow.after_change()
        settle(app)
        app.engine_button.invoke()
        assert wait_for(tk_root, lambda: len(searches) >= 3 or app.screen.games_finished, 30)
        app.stop_engine()
        settle(app)
        del app.controller.search
        assert searches[0] == ((board, hand), by_strong)
        for (b, h), seq in searches:
            assert seq == answer(strong, b, h)

        # A restarted engine is given the choice again.
        os.kill(engine.proc.pid, signal.SIGKILL)
        assert wait_for(tk_root, lambda: app.supervision.engine_reports > 0, 10)
        app.supervision.restart_button.invoke()
        settle(app)
        assert app.engine is not engine and app.engine.alive
        assert "setoption name Agent value strong" in sent(app.engine, "setoption")
        assert hint(app, board, hand) == by_strong
    finally:
        if app is not None:
            app.stop_engine()
            app.engine.quit()
        for e in (default, strong, engine):
            e.kill()


def test_agent_chosen_while_engine_dead_is_given_to_the_restarted_engine(tk_root):  # noqa: F811
    import blockudoku_gui

    engine = BlockudokuEngine(fake_command("blockudoku"))
    app = blockudoku_gui.BlockudokuApp(tk_root, engine, engine.catalogue(), seed=3, delay=10)
    try:
        engine.kill()
        assert wait_for(tk_root, lambda: app.supervision.engine_reports > 0, 10)
        choose(app, "Agent", "seed")
        choose(app, "Objective", "points")
        assert app.supervision.engine_reports == 1
        app.supervision.restart_button.invoke()
        settle(app)
        assert sent(app.engine, "setoption") == ["setoption name Agent value seed",
                                                 "setoption name Objective value points"]
        assert app.engine.settings == {"Agent": "seed", "Objective": "points"}
    finally:
        app.engine.quit()


def window(tk_root, engine):
    """A Blockudoku window of its own (a Toplevel), so one test can open several."""
    import tkinter as tk

    import blockudoku_gui

    with direct():
        catalogue = engine.catalogue()
    app = blockudoku_gui.BlockudokuApp(tk.Toplevel(tk_root), engine, catalogue, seed=3)
    settle(app)
    return app


def close(app):
    app.close()
    app.engine.quit()


def test_objective_choice_only_from_engines_that_offer_it(tk_root):  # noqa: F811
    engine = BlockudokuEngine(fake_command("blockudoku"))
    app = window(tk_root, engine)
    try:
        box = app.settings.choice_boxes["Objective"]
        assert box.winfo_ismapped() and list(box.cget("values")) == ["survive", "points"]
        assert box.get() == "survive"
        labels = [w.cget("text") for w in box.master.winfo_children() if w.winfo_class() == "Label"]
        assert labels == ["Objective"] and "Agent" in app.settings.choice_boxes
        choose(app, "Objective", "points")
        assert sent(engine, "setoption") == ["setoption name Objective value points"]
        assert app.status_var.get() == "Objective: points"
        # A value the engine refuses is reported and the window shows the engine's value again.
        app.set_option("Objective", "nonsense")
        settle(app)
        assert "engine problem" in app.status_var.get() and box.get() == "points"
    finally:
        close(app)

    for command in (fake_command("blockudoku", "--no-objective"), None):
        with direct():
            engine = BlockudokuEngine(command) if command else real_engine("blockudoku", BlockudokuEngine)
        app = window(tk_root, engine)
        try:
            # Today's binary has no Objective; once it has, the window offers it.
            assert ("Objective" in app.settings.choice_boxes) == ("Objective" in engine.options)
            if command:
                assert "Objective" not in app.settings.choice_boxes and "Agent" in app.settings.choice_boxes
            app.hint_button.invoke()
            settle(app)
            assert len(app.screen.hint) == 3
            assert not sent(engine, "setoption name Objective")
        finally:
            close(app)


def test_fake_engine_refuses_unknown_combo_values():
    with BlockudokuEngine(fake_command("blockudoku")) as engine:
        assert engine.options["Objective"].choices == ["survive", "points"]
        try:
            engine.setoption("Objective", "fastest")
        except EngineError as err:
            assert "Objective" in err.message
        else:
            raise AssertionError("the fake accepted an Objective it does not list")


def test_window_starts_with_the_agent_the_engine_was_given(tk_root):  # noqa: F811
    # What `blockudoku_gui.py --agent seed` does before opening the window.
    with direct():
        engine = BlockudokuEngine(fake_command("blockudoku"), options={"Agent": "seed"})
    app = window(tk_root, engine)
    try:
        assert app.settings.agent_var.get() == "seed" and app.settings.choice_boxes["Objective"].get() == "survive"
        app.hint_button.invoke()
        settle(app)
        assert app.status_var.get().startswith("hint (seed): piece ")
    finally:
        close(app)
