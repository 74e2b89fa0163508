"""The windows' code kept readable: no module of engines/windows over 350 lines, no function
over 60, and the game models (the `model.py` of each window) import no Tk; the puzzle model's
own rules of counting, without a window."""
import ast
import pathlib

from engine_testing import SCRIPTS

from engines.tools import Grid, Solution

WINDOWS = SCRIPTS / "engines" / "windows"


def test_window_modules_and_functions_are_short():
    long = []
    for path in sorted(WINDOWS.rglob("*.py")):
        text = path.read_text()
        if len(text.splitlines()) > 350:
            long.append(f"{path.relative_to(SCRIPTS)}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 60:
                long.append(f"{path.relative_to(SCRIPTS)}: {node.name} {node.end_lineno - node.lineno + 1} lines")
    assert not long, long


def test_models_import_no_tk():
    models = sorted(WINDOWS.rglob("model.py"))
    assert len(models) >= 2
    for path in models:
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "tkinter" or n.startswith(("..engine_calls", "..layout")) for n in names), path


def test_puzzle_model_counts_entries_in_words():
    from engines.windows.puzzle.model import Puzzle

    answer = Grid.parse("2x2 1234/3412/2143/4321")
    puzzle = Puzzle(Grid.parse("2x2 1.../..../..../...."), solution=Solution("unique", answer))
    puzzle.put((0, 1), 2)
    puzzle.put((0, 2), 4)  # wrong
    puzzle.put((0, 3), 4)
    assert puzzle.check(answer) == (True, "1 of your 3 entries contradicts the solution (in red)")
    puzzle.erase((0, 2))
    puzzle.put((1, 0), 3, hint=True)
    assert puzzle.check(answer) == (False, "all 2 of your entries agree with the solution (and 1 from Hint)")
    puzzle.erase((0, 3))
    assert puzzle.check(answer)[1] == "your entry agrees with the solution (and 1 from Hint)"
    assert puzzle.hint_cell(answer) == (0, 2)
