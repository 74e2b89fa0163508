"""The windows' game models on their own, without a window (they import no Tk)."""
from engines import SudokuMove
from engines.record import Step
from engines.sudoku import SudokuState
from engines.tools import Grid, Solution


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


def test_sudoku_game_keeps_its_steps_and_knows_what_is_saved():
    from engines.windows.sudoku.model import SudokuGame

    state = SudokuState.parse_show(["rows 1.../..../..../....", "mode classic scores 0 0 turn 1"])
    game = SudokuGame()
    game.begin(("line", "position 2x2 1.../..../..../...."), state, ("human", "human"), ("none", "none"))
    assert not game.unsaved(over=False)
    for k, move in enumerate((SudokuMove(0, 1, 2), SudokuMove(1, 0, 3), SudokuMove(3, 3, 1))):
        game.play(Step(k % 2 + 1, move))
    assert game.unsaved(over=False) and not game.unsaved(over=True)
    game.mark_saved()
    assert not game.unsaved(over=False)
    game.view = 1  # stepping back changes nothing
    assert not game.unsaved(over=False) and game.moves == [SudokuMove(0, 1, 2)] and not game.at_end
    game.play(Step(2, SudokuMove(2, 2, 4)))  # a move there starts a new line
    assert [s.move for s in game.steps] == [SudokuMove(0, 1, 2), SudokuMove(2, 2, 4)] and game.at_end
    assert game.unsaved(over=False)
    rec = game.record(("human", "human"), ("none", "none"), None)
    assert [s.move for s in rec.steps] == game.moves and rec.final is None
