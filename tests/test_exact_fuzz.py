"""Exact scores against the exhaustive solver (tests/exact_fuzz.py): random 4x4 positions and
limits, threads 1 and 2; every `exact` score must equal `solve-game`'s value."""
import exact_fuzz


def test_every_exact_score_equals_the_exhaustive_value(sudoku_bin):
    searches, checked, bad = exact_fuzz.run([str(sudoku_bin)], searches=20, seed=1)
    assert searches == 20 and checked > 0
    assert bad == [], "\n".join(bad[:5])
