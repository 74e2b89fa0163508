"""The puzzle mode of the sudoku front end under a virtual display, driven by synthetic clicks
and keys, with the real sudoku-agent as referee and solver. Screenshots go to tests/artifacts/."""
import pytest
from engine_testing import bin_dir, direct, pump, screenshot, settle, wait_for

from engines.tools import SHAPES, Grid
from engines.windows.puzzle import PuzzleApp

pytestmark = pytest.mark.usefixtures("forbid_tk_thread")

PUZZLE = "..39428....7.63.42.49...3..492.75..1136.9.58.5..31........314.936.4...5..2.587..."
SOLUTION = Grid.parse("613942875857163942249758316492875631136294587578316294785631429361429758924587163")


def puzzle_app(root, tools, **kwargs):
    import sudoku_puzzle_gui

    kwargs.setdefault("animate_ms", 5)
    app = sudoku_puzzle_gui.PuzzleApp(root, tools, **kwargs)
    settle(app)
    app.canvas.focus_force()
    pump(root)
    return app


def click(app, r, c):
    x, y = app.board.cell_centre(r, c)
    app.canvas.event_generate("<ButtonPress-1>", x=x, y=y)
    pump(app.root)
    assert app.puzzle.selected == (r, c)


def key(app, keysym, ctrl=False):
    app.canvas.event_generate("<Control-KeyPress>" if ctrl else "<KeyPress>", keysym=keysym)
    settle(app)


def shown(app, r, c, tag):
    """The text drawn in cell (r, c) with the tag (given, entry, hint, wrong, mark, candidate)."""
    x0, y0 = app.board.cell_centre(r, c)
    half = app.board.cell_px() / 2 - 1
    items = app.canvas.find_overlapping(x0 - half, y0 - half, x0 + half, y0 + half)
    return sorted(app.canvas.itemcget(i, "text") for i in items if tag in app.canvas.gettags(i))


def test_puzzle_play(tk_root, tools, artifacts, tmp_path):  # noqa: F811
    app = puzzle_app(tk_root, tools, puzzle=Grid.parse(PUZZLE))
    assert app.puzzle.solution.status == "unique" and "one solution" in app.status_var.get()
    assert len(app.values_frame.items) == 10  # 1-9 and Erase
    assert shown(app, 0, 2, "given") == ["3"]

    # A refused entry: 3 is in row 0 already; the engine's referee says why.
    click(app, 0, 0)
    key(app, "3")
    assert app.puzzle.entries == {} and app.refused == 1
    assert "refused" in app.status_var.get() and "already in the row" in app.status_var.get()
    key(app, "7")  # in the block
    assert app.puzzle.entries == {} and "already in the block" in app.status_var.get()
    screenshot(tk_root, artifacts / "sudoku-puzzle-refused.png")

    # An accepted entry (by key), then removed by the player.
    key(app, "6")
    assert app.puzzle.entries == {(0, 0): 6} and shown(app, 0, 0, "entry") == ["6"]
    key(app, "BackSpace")
    assert app.puzzle.entries == {} and "removed" in app.status_var.get() and shown(app, 0, 0, "entry") == []

    # A given cannot be removed or overwritten.
    click(app, 0, 2)
    key(app, "Delete")
    assert "given" in app.status_var.get() and app.puzzle.grid().get(0, 2) == 3
    key(app, "5")
    assert "given" in app.status_var.get() and app.puzzle.grid().get(0, 2) == 3

    # Pencil marks: Ctrl+value toggles one; the checkbox makes values marks too.
    click(app, 0, 1)
    key(app, "5", ctrl=True)
    key(app, "1", ctrl=True)
    assert app.puzzle.marks[(0, 1)] == {1, 5} and shown(app, 0, 1, "mark") == ["1", "5"]
    key(app, "5", ctrl=True)
    assert app.puzzle.marks[(0, 1)] == {1}
    app.pencil_var.set(True)
    app.values_frame.items[7].invoke()  # 8
    settle(app)
    assert app.puzzle.marks[(0, 1)] == {1, 8} and (0, 1) not in app.puzzle.entries
    app.pencil_var.set(False)

    # Show all candidates: the referee's values for every empty cell, drawn in grey.
    app.show_all_var.set(True)
    app.redraw()
    assert wait_for(tk_root, lambda: shown(app, 0, 0, "candidate"), 20)
    assert shown(app, 0, 0, "candidate") == ["6"] and shown(app, 0, 7, "candidate") == ["1", "6", "7"]

    # Check: an entry breaking no rule but contradicting the solution is marked.
    click(app, 0, 1)
    key(app, "5")  # the solution has 1 here
    assert app.puzzle.entries == {(0, 1): 5}
    click(app, 1, 0)
    key(app, "8")  # correct
    app.check_button.invoke()
    settle(app)
    assert app.puzzle.wrong == {(0, 1)} and shown(app, 0, 1, "wrong") == ["5"]
    assert "1 of your 2 entries" in app.status_var.get()
    assert wait_for(tk_root, lambda: shown(app, 0, 7, "candidate"), 20)  # the candidates of the new grid
    screenshot(tk_root, artifacts / "sudoku-puzzle-check.png")

    # Hint: a correct value from the engine's solution, on the selected empty cell.
    click(app, 0, 0)
    app.hint_button.invoke()
    settle(app)
    assert app.puzzle.entries[(0, 0)] == 6 and (0, 0) in app.puzzle.hinted and shown(app, 0, 0, "hint") == ["6"]

    # Save and open again: the givens as a line the tools read, the entries restored.
    saved = tmp_path / "saved.txt"
    assert app.save_path(str(saved))
    assert PUZZLE in saved.read_text().splitlines()
    entries = dict(app.puzzle.entries)
    app.reset_button.invoke()
    settle(app)
    assert app.puzzle.entries == {} and app.puzzle.grid() == Grid.parse(PUZZLE)
    assert app.open_path(str(saved))
    settle(app)
    assert app.puzzle.entries == entries and app.puzzle.givens == Grid.parse(PUZZLE)

    # Solve, animated cell by cell: the wrong entry is replaced, then the solved banner.
    app.solve_button.invoke()
    pump(tk_root)
    assert app.animating
    assert wait_for(tk_root, lambda: not app.animating and app.puzzle.solved_after is not None, 30)
    assert app.puzzle.grid() == SOLUTION
    assert app.banner.winfo_ismapped() and app.banner_var.get().startswith("SOLVED by the engine in ")
    shot = screenshot(tk_root, artifacts / "sudoku-puzzle-solved.png")
    assert shot.stat().st_size > 2000


def test_player_solves_4x4_and_puzzle_messages(tk_root, tools, artifacts, tmp_path):  # noqa: F811
    with direct():
        puzzle = tools.generate("2x2", difficulty="hard", seed=3)[0]
        solution = tools.solve(puzzle).grid
    app = puzzle_app(tk_root, tools, puzzle=puzzle)
    assert len(app.values_frame.items) == 5
    empties = puzzle.empty_cells()
    for r, c in empties:
        assert not app.banner.winfo_ismapped()
        click(app, r, c)
        key(app, str(solution.get(r, c)))
    assert app.puzzle.grid() == solution and app.puzzle.solved_after is not None
    assert app.banner.winfo_ismapped() and app.banner_var.get().startswith("SOLVED in ")
    screenshot(tk_root, artifacts / "sudoku-puzzle-4x4-solved.png")
    # Solved: nothing more to enter or remove.
    key(app, "BackSpace")
    assert app.puzzle.grid() == solution

    # Puzzles with no solution or several say so.
    none_file = tmp_path / "none.txt"
    none_file.write_text("# no solution\n2x2 12../..34/..../....\n")
    assert app.open_path(str(none_file))
    settle(app)
    assert "no solution" in app.status_var.get() and not app.banner.winfo_ismapped()
    assert not app.hint() and not app.solve() and app.check() is None
    several = tmp_path / "several.txt"
    several.write_text("2x2 1.../..../..../....\n")
    assert app.open_path(str(several))
    settle(app)
    assert "several solutions" in app.status_var.get()
    assert app.check() is None and "exactly one solution" in app.status_var.get()
    app.animate_var.set(False)
    assert app.solve()
    settle(app)
    assert app.puzzle.solved_after is not None and app.puzzle.grid().get(0, 0) == 1
    # A file breaking a rule is refused by the engine; the puzzle on screen stays.
    bad = tmp_path / "bad.txt"
    bad.write_text("2x2 11../..../..../....\n")
    app.open_path(str(bad))
    settle(app)
    assert "appears twice" in app.status_var.get() and app.puzzle.givens == Grid.parse("2x2 1.../..../..../....")
    # An 81-character line opens as 9x9.
    line = tmp_path / "line.txt"
    line.write_text(PUZZLE + "\n")
    assert app.open_path(str(line))
    settle(app)
    assert app.puzzle.givens.size == 9 and len(app.values_frame.items) == 10


def test_new_with_seed_and_each_size(tk_root, tools, artifacts):  # noqa: F811
    import sudoku_puzzle_gui

    app = puzzle_app(tk_root, tools, seed=5)
    first = app.puzzle.givens
    with direct():
        assert first == tools.generate("3x3", difficulty="easy", seed=5)[0]
    assert app.seed_var.get() == "6"
    app.new_button.invoke()
    settle(app)
    assert app.puzzle.givens != first
    app.seed_var.set("5")
    app.new_button.invoke()
    settle(app)
    assert app.puzzle.givens == first and "seed 5" in app.title_var.get()

    for shape in SHAPES:
        size = sudoku_puzzle_gui.SIZE_OF_SHAPE[shape]
        app.size_var.set(size)
        app.difficulty_var.set("medium")
        app.seed_var.set("7")
        app.new_button.invoke()
        settle(app)
        g = app.puzzle.givens
        with direct():
            assert g.shape == shape and g == tools.generate(shape, difficulty="medium", seed=7)[0]
        assert len(app.values_frame.items) == g.size + 1
        assert len(app.canvas.find_withtag("given")) == g.filled()
        # Block lines: thick every m rows and n columns.
        thick = [i for i in app.canvas.find_all() if app.canvas.type(i) == "line" and app.canvas.itemcget(i, "width") == "3.0"]
        assert len(thick) == (g.n + 1) + (g.m + 1)
        # A value by the value buttons (the last one, a letter from 12x12 up) where the referee allows it.
        r, c = g.empty_cells()[0]
        click(app, r, c)
        app.hint_button.invoke()
        settle(app)
        assert (r, c) in app.puzzle.entries and (r, c) in app.puzzle.hinted
        app.animate_var.set(False)
        app.solve_button.invoke()
        settle(app)
        with direct():
            assert app.puzzle.solved_after is not None and tools.check(app.puzzle.grid()) == (True, "ok")
        screenshot(tk_root, artifacts / f"sudoku-puzzle-{size}.png")
        app.animate_var.set(True)

    # A premade puzzle of each size and difficulty loads (one solution each).
    labels = [label for label, _ in app.premade]
    assert len(labels) == 45 and labels[0].startswith("4x4 ")
    app.premade_var.set("16x16 hard 2")
    app.load_premade()
    settle(app)
    assert app.puzzle.givens.size == 16 and app.puzzle.solution.status == "unique"


def test_mode_switch(tk_root, tools):  # noqa: F811
    import sudoku_gui

    args = sudoku_gui.parse_args(["--mode", "puzzle", "--board", "2x3", "--seed", "4",
                                  "--engine", str(bin_dir() / "sudoku-agent")])
    window = sudoku_gui.Window(tk_root, args)
    try:
        app = window.start("puzzle")
        settle(app)
        with direct():
            assert isinstance(app, PuzzleApp) and app.puzzle.givens == tools.generate("2x3", "easy", seed=4)[0]
        # The Mode choice in the puzzle window brings the competitive game...
        app.mode_var.set("classic")
        app.switch_mode()  # the engine starts on a worker: the window shows the game when it is ready
        assert wait_for(tk_root, lambda: isinstance(window.app, sudoku_gui.SudokuApp) and window.app.screen.state is not None, 30)
        game = window.app
        assert isinstance(game, sudoku_gui.SudokuApp) and game.screen.state.size == 6 and app.closed
        # ... and its Mode choice `puzzle` with New game brings the puzzle back.
        game.settings.player_vars[1].set("human")
        game.settings.mode_var.set("puzzle")
        game.new_game()
        settle(window.app)
        assert isinstance(window.app, PuzzleApp) and game.closed and not game.engine.alive
    finally:
        window.close()
