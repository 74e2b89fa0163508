"""Runs the protocol compliance suites (tests/compliance.py) against our binaries.

With `behaviour` timing bounds: CI shares a 2-core machine with other work, so the strict
10 ms movetime promise is measured by scripts/timing_bench.py (scripts/README.md), not asserted here."""
import io

import compliance


def _run(name, binary):
    out = io.StringIO()
    passed, failed = compliance.run_suite(name, [str(binary)], out=out, timing="behaviour")
    print(out.getvalue())
    assert failed == 0, out.getvalue()
    assert passed == len(compliance.SUITES[name][1])


def test_blockudoku_compliance(blockudoku_bin):
    _run("blockudoku", blockudoku_bin)


def test_sudoku_compliance(sudoku_bin):
    _run("sudoku", sudoku_bin)
