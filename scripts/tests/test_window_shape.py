"""The windows' code kept readable: no module of engines/windows over 350 lines, no function
over 60, and the game models (the `model.py` of each window) import no Tk."""
import ast
import pathlib

from engine_testing import SCRIPTS


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
    assert len(models) == 3
    for path in models:
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "tkinter" or n.startswith(("..engine_calls", "..layout")) for n in names), path
