"""The Competitive Sudoku game in the window, without Tk (`SudokuGame`): how it began (`setup`,
as the engine is told it, and `start`, the position the engine read from it), every step played
(who played what, taboo or not), how many of them the board shows (fewer while stepping back),
and what was last loaded or saved; and what the window shows of it (`Screen`). The rules are
the engine's: the window fills these from its answers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from ...record import GameRecord, Setup, Step
from ...sudoku import SudokuMove, SudokuState

# How a game begins, as the engine is told it: ("line", a `position` line) or ("file", a path).
SetupLine = Tuple[str, str]


@dataclass
class SudokuGame:
    setup: Optional[SetupLine] = None
    start: Optional[Setup] = None
    steps: List[Step] = field(default_factory=list)
    view: int = 0  # steps shown on the board
    saved: Optional[Tuple[Optional[SetupLine], List[Step]]] = None  # as last loaded or saved

    @property
    def moves(self) -> List[Optional[SudokuMove]]:
        """The moves that led to the position on the board (None: a pass)."""
        return [step.move for step in self.steps[:self.view]]

    @property
    def at_end(self) -> bool:
        return self.view == len(self.steps)

    def begin(self, setup: SetupLine, state: SudokuState, players: Tuple[str, str], times: Tuple[str, str]) -> None:
        """A new game from `setup`, which the engine read as `state`."""
        self.setup, self.steps, self.view = setup, [], 0
        self.start = Setup.from_state(state, players, times)

    def play(self, step: Step) -> None:
        """A step played on the position shown: the steps after it (when stepping back) are dropped."""
        del self.steps[self.view:]
        self.steps.append(step)
        self.view = len(self.steps)

    def loaded(self, steps: List[Step], players: Tuple[str, str], times: Tuple[str, str]) -> None:
        """The steps of a record, all shown; as loaded, nothing to save."""
        self.start.players, self.start.times = players, times
        self.steps, self.view = steps, len(steps)
        self.mark_saved()

    def mark_saved(self) -> None:
        self.saved = (self.setup, list(self.steps))

    def unsaved(self, over: bool) -> bool:
        """Steps that closing would lose: played since the game began, was loaded or saved, in a
        game not `over` (stepping through them changes nothing)."""
        return bool(self.steps) and not over and (self.setup, self.steps) != self.saved

    def record(self, players: Tuple[str, str], times: Tuple[str, str], shown: Optional[SudokuState]) -> GameRecord:
        """Every step (those after the position shown too) as a record; its final position and
        result when the board shows the last step (`shown`)."""
        setup = Setup(**{**self.start.__dict__, "players": players, "times": times})
        rec = GameRecord(1, setup, list(self.steps))
        if self.at_end and shown is not None:
            rec.final = Setup.from_state(shown, players, times).position_line()
            if shown.result is not None:
                rec.result = (tuple(shown.scores), shown.result)
        return rec


@dataclass
class Screen:
    """What the window shows: the game, the position the engine last answered (`state`, None
    before the first), the selected cell, the hint drawn, whether the game is over, and whether
    a move is with the referee (no other until it answers)."""

    game: SudokuGame = field(default_factory=SudokuGame)
    state: Optional[SudokuState] = None
    selected: Optional[Tuple[int, int]] = None
    hint: Optional[SudokuMove] = None
    game_over: bool = False
    moving: bool = False
    last_reply: str = ""  # the referee's answer to the last move

    def shows(self, state: SudokuState) -> None:
        """The engine answered `state`: it is shown, and the game is over when it has a result."""
        self.state = state
        self.game_over = state.result is not None
