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


def test_each_part_of_a_window_names_the_state_it_reads():
    """A window's parts (the classes mixed into it) name in their docstring every attribute of
    the window they read and do not set themselves: the list is the part's contract, and it
    stays true."""
    import re

    methods = set()
    trees = {path: ast.parse(path.read_text()) for path in WINDOWS.rglob("*.py")}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                # A property is state the window holds (a part that reads it names it).
                methods |= {i.name for i in node.body if isinstance(i, ast.FunctionDef) and not any(
                    isinstance(d, (ast.Name, ast.Attribute)) and "property" in ast.unparse(d) or
                    isinstance(d, ast.Attribute) and d.attr == "setter" for d in i.decorator_list)}
    parts = 0
    for path, tree in trees.items():
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            doc = " ".join((ast.get_docstring(cls) or "").split())
            if "Reads of the window's state" not in doc:
                continue
            parts += 1
            assigned, used = set(), set()
            for sub in ast.walk(cls):
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                    (assigned if isinstance(sub.ctx, ast.Store) else used).add(sub.attr)
            reads = used - assigned - methods
            named = set(re.findall(r"`(\w+)`", doc.split("Reads of the window's state")[1]))
            assert reads == named, f"{path.name} {cls.name}: reads {sorted(reads - named)}, names {sorted(named - reads)}"
    assert parts == 4
