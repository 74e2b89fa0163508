"""Exact scores against the exhaustive solver (tests/exact_fuzz.py): random 4x4 positions and
limits, threads 1 and 2; every `exact` score must equal `solve-game`'s value."""
import pytest

import exact_fuzz


@pytest.mark.xfail(strict=True, reason="the cell game's exact value differs from the exhaustive "
                   "value on some 4x4 positions with one solution (allowed-squares modes)")
def test_exact_scores_equal_the_exhaustive_value(sudoku_bin):
    searches, checked, bad = exact_fuzz.run([str(sudoku_bin)], searches=20, seed=1)
    assert searches == 20 and checked > 0
    assert bad == [], "\n".join(bad[:5])
