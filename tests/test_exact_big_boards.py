"""`exact` on boards of more than 128 cells (tests/exact_fuzz.py's big-board positions):
endgames with several sudoku solutions, where only the exact solver (over the empty cells)
proves a value. `default` must print `score ... exact` and it must equal the value of
`sudoku-lab solve-game`."""
import random

import exact_fuzz


def test_sixteen_by_sixteen_several_solution_endgames_are_exact(sudoku_bin):
    agent = [str(sudoku_bin)]
    rng = random.Random(16)
    for threads in (1, 2, 1, 2):
        position = exact_fuzz.big_position(4, 4, rng)
        words = exact_fuzz.solve_game(agent, position)
        assert words is not None, position
        assert int(words[words.index("solutions") + 1]) >= 2, position
        truth = exact_fuzz.exhaustive_value(agent, position)
        found = exact_fuzz.exact_scores(agent, position, threads, "nodes 500000")
        assert found, f"no exact score: {position}"
        for score, line in found:
            assert score == truth, f"{position} | {line} | solve-game {truth}"


def test_big_board_fuzz_finds_no_disagreement(sudoku_bin):
    for board, searches in (("4x4", 8), ("5x5", 4)):
        done, checked, bad = exact_fuzz.run([str(sudoku_bin)], searches=searches, seed=3,
                                            board=board)
        assert done == searches and checked > 0, board
        assert bad == [], "\n".join(bad[:5])
