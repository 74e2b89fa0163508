"""Runs the protocol compliance suites (tests/compliance.py) against our binaries."""
import io

import compliance


def _run(name, binary):
    out = io.StringIO()
    passed, failed = compliance.run_suite(name, [str(binary)], out=out)
    print(out.getvalue())
    assert failed == 0, out.getvalue()
    assert passed == len(compliance.SUITES[name][1])


def test_blockudoku_compliance(blockudoku_bin):
    _run("blockudoku", blockudoku_bin)


def test_sudoku_compliance(sudoku_bin):
    _run("sudoku", sudoku_bin)
