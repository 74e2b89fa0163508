"""engines.tools against the real programs: solve, count, check, generate (sudoku-solver) and the referee's rule (sudoku-agent)."""
import pytest

from engines.tools import SHAPES, Grid, SudokuTools, ToolError

PUZZLE = "..39428....7.63.42.49...3..492.75..1136.9.58.5..31........314.936.4...5..2.587..."
SOLUTION = "613942875857163942249758316492875631136294587578316294785631429361429758924587163"


def test_grid_notation_round_trips():
    grid = Grid.parse(PUZZLE)
    assert (grid.m, grid.n, grid.size) == (3, 3, 9) and grid.notation() == PUZZLE
    assert grid.get(0, 2) == 3 and grid.get(0, 0) == 0 and grid.filled() == 40
    small = Grid.parse("2x3 .2.1../.....4/....../.652../6...../413...")
    assert (small.m, small.n, small.size) == (2, 3, 6)
    assert small.notation() == "2x3 .2.1../.....4/....../.652../6...../413..."
    big = Grid.parse("4x4 " + "/".join(["G" + "." * 15] + ["." * 16] * 15))
    assert big.get(0, 0) == 16 and big.rows().startswith("G...")
    assert big.with_value(1, 1, 10).get(1, 1) == 10 and big.get(1, 1) == 0
    # Owner marks of the protocol's rows are ignored, as the tools do.
    assert Grid.parse("2x2 1+2-../..../..../....").get(0, 1) == 2
    for bad in ("123", "2x2 1234/1234", "2x2 12345/..../..../....", "axb 1234/..../..../...."):
        with pytest.raises(ValueError):
            Grid.parse(bad)


def test_solve_count_check(tools):
    solution = tools.solve(Grid.parse(PUZZLE))
    assert solution.status == "unique" and solution.grid.notation() == SOLUTION
    several = tools.solve(Grid.parse("2x2 1.../..../..../...."))
    assert several.status == "multiple" and several.grid.get(0, 0) == 1
    unsettled = tools.solve(Grid.parse("2x2 ..../..../..../...."), max_nodes=1)
    assert unsettled.status == "unsettled" and tools.check(unsettled.grid) == (True, "ok")
    assert tools.solve(Grid.parse("2x2 12../..34/..../....")).status == "none"
    assert tools.count(Grid.parse(PUZZLE)) == 1
    assert tools.count(Grid.parse("2x2 1.../..../..../...."), limit=1000) == 72
    assert tools.check(Grid.parse(SOLUTION)) == (True, "ok")
    ok, why = tools.check(Grid.parse("2x2 1234/3412/2143/4312"))
    assert not ok and why == "column 2 has 1 twice"
    ok, why = tools.check(Grid.parse(PUZZLE))
    assert not ok and "not filled" in why
    with pytest.raises(ToolError, match="appears twice"):
        tools.solve(Grid.parse("2x2 11../..../..../...."))


@pytest.mark.parametrize("shape", SHAPES)
def test_generate_is_reproducible(tools, shape):
    first = tools.generate(shape, difficulty="easy", seed=5, count=2)
    assert len(first) == 2 and first[0].shape == shape and first[0] != first[1]
    assert tools.generate(shape, difficulty="easy", seed=5) == first[:1]
    assert tools.generate(shape, difficulty="easy", seed=6)[0] == first[1]
    assert tools.solve(first[0]).status == "unique"


def test_rule_problems_are_the_referees(tools):
    grid = Grid.parse(PUZZLE)
    # Row 0 holds 3, 9, 4, 2, 8; column 0 holds 4, 1, 5, 3; the block holds 7, 4, 9.
    assert tools.rule_problem(grid, 0, 0, 3) == "value is already in the row"
    assert tools.rule_problem(grid, 0, 0, 1) == "value is already in the column"
    assert tools.rule_problem(grid, 0, 0, 7) == "value is already in the block"
    assert tools.rule_problem(grid, 0, 0, 6) is None
    assert tools.rule_problem(grid, 0, 2, 6) == "cell is already filled"
    # A value breaking no rule is accepted even when it leaves no solution.
    assert tools.rule_problem(Grid.parse("2x2 12../..../..../...."), 1, 2, 3) is None
    with pytest.raises(ToolError, match="twice"):
        tools.rule_problem(Grid.parse("2x2 11../..../..../...."), 1, 1, 2)


def test_candidates(tools):
    cands = tools.candidates(Grid.parse(PUZZLE))
    assert len(cands) == 41 and cands[(0, 0)] == [6] and cands[(0, 1)] == [1, 5]
    assert tools.candidates(Grid.parse(SOLUTION)) == {}
    empty = tools.candidates(Grid.empty(2, 2))
    assert len(empty) == 16 and all(values == [1, 2, 3, 4] for values in empty.values())


def test_missing_binary_is_a_tool_error(tmp_path):
    tools = SudokuTools(tmp_path / "no-such-binary")
    with pytest.raises(ToolError, match="cannot run"):
        tools.solve(Grid.parse(PUZZLE))
