"""The windows' code kept readable: no module of engines/windows over 350 lines, no function
over 60, the game models (the `model.py` of each window) import no Tk, and the parts of a
window are objects given what they need, not classes mixed into it."""
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
    """Each window's model.py imported with tkinter blocked (the windows' package files, which
    load Tk, are left out): nothing it imports needs Tk."""
    import subprocess
    import sys

    models = sorted(WINDOWS.rglob("model.py"))
    assert len(models) == 3
    script = f"""
import importlib, sys, types
sys.modules["tkinter"] = None  # any import of tkinter fails
sys.path.insert(0, {str(SCRIPTS)!r})
import engines
for package in ("engines.windows", "engines.windows.blockudoku", "engines.windows.sudoku", "engines.windows.puzzle"):
    module = types.ModuleType(package)
    module.__path__ = [{str(SCRIPTS)!r} + "/" + package.replace(".", "/")]
    sys.modules[package] = module
for window in ("blockudoku", "sudoku", "puzzle"):
    importlib.import_module(f"engines.windows.{{window}}.model")
assert "tkinter" not in [m for m in sys.modules if sys.modules[m] is not None]
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


def test_window_parts_are_composed():
    """A window's parts are objects it makes and gives what they need (composition): no class
    of the windows is built on another class of the windows (no part mixed into a window)."""
    trees = {path: ast.parse(path.read_text()) for path in WINDOWS.rglob("*.py")}
    ours = {node.name for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    mixed = []
    for path, tree in trees.items():
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            bases = {ast.unparse(b).split(".")[-1] for b in cls.bases}
            mixed += [f"{path.relative_to(SCRIPTS)}: {cls.name}({', '.join(sorted(bases & ours))})"] if bases & ours else []
    assert not mixed, mixed
    for window in ("BlockudokuApp", "SudokuApp", "PuzzleApp"):
        assert window in ours
