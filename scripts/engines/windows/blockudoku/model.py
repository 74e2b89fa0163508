"""The Blockudoku game on screen, without Tk: the position (`Game`), what undo restores
(`Snapshot`), and `Screen`, everything the window shows of the game and its parts share (the
game, its history as a record, the hint, which pieces fit, the analysis board's and the
record's state). Every rule is the engine's: this only keeps what it answered; the one thing
done here is dealing hands from the seed (uniform with replacement over the pieces, as in the
original game)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import List, Optional, Set, Tuple

from ...blockudoku import Placement

Sequence = List[Tuple[int, Placement]]  # (hand slot 0-2, placement) in the order to play them
Event = Tuple[str, list]  # ("hand", ids) or ("play", [Placement]): the game as a record


@dataclass
class Snapshot:
    """Everything undo needs to restore, including where the dealer's random stream was."""

    board: str
    hand: List[Optional[int]]
    score: int
    streak: int
    rng_state: object


@dataclass
class Game:
    """The position: the board (81 cells, `#` filled), the hand (catalogue ids, None for a
    slot played), score, streak, and how many pieces were placed."""

    board: str = "." * 81
    hand: List[Optional[int]] = field(default_factory=lambda: [None, None, None])
    score: int = 0
    streak: int = 0
    placed: int = 0

    def copy(self) -> "Game":
        return Game(self.board, list(self.hand), self.score, self.streak, self.placed)


@dataclass
class Screen:
    """What the window shows, dealt from the pieces `piece_ids`: the game and its record, the
    hint (or analysis line) drawn, which pieces fit, and the mode (the analysis board, a record
    loaded) with what it shows."""

    piece_ids: List[int]
    game: Game = field(default_factory=Game)
    history: List[Snapshot] = field(default_factory=list)
    events: List[Event] = field(default_factory=list)
    saved_events: Optional[List[Event]] = None  # the events last saved
    games_finished: List[int] = field(default_factory=list)  # final scores, newest last
    hint: Sequence = field(default_factory=list)
    fits: List[bool] = field(default_factory=lambda: [True, True, True])
    placing: bool = False  # a placement is with the engine: no other until it answers
    # The analysis board: on, the game it replaced, the selected tray slot, the line shown (the
    # board then, and the slots already played on it, not drawn in the tray).
    analysing: bool = False
    game_before: Optional[Game] = None
    selected_slot: int = 0
    shown_board: Optional[str] = None
    shown_played: Set[int] = field(default_factory=set)
    # A loaded record's positions (after each placement) and the one shown; None: playing.
    replay_states: Optional[List[Game]] = None
    replay_at: int = 0
    rng: random.Random = field(default_factory=random.Random)

    def remaining(self) -> List[Tuple[int, int]]:
        """(hand slot 0-2, piece id) of the pieces still in the hand."""
        return [(slot, pid) for slot, pid in enumerate(self.game.hand) if pid is not None]

    def new_game(self, seed: int) -> None:
        """An empty board and the first hand dealt from `seed`."""
        self.rng = random.Random(seed)
        self.game = Game()
        self.history.clear()
        self.events = []
        self.hint = []
        self.deal()

    def deal(self) -> None:
        self.game.hand = [self.rng.choice(self.piece_ids) for _ in range(3)]
        self.events.append(("hand", list(self.game.hand)))

    def snapshot(self) -> Snapshot:
        g = self.game
        return Snapshot(g.board, list(g.hand), g.score, g.streak, self.rng.getstate())

    def played(self, before: Snapshot, slot: int, row: int, col: int, covered: Set[int], state) -> List[int]:
        """The engine played hand slot `slot` (0-2) at (row, col) (0-based) from `before`,
        covering the cells `covered`, and answered `state` (board, score, streak): the game
        follows, a new hand is dealt when the last is played; returns the cells it cleared
        (filled before or by the piece, empty now: read off the engine's boards)."""
        self.history.append(before)
        self.events.append(("play", [Placement(slot + 1, row + 1, col + 1)]))
        cleared = [k for k in range(81) if (before.board[k] == "#" or k in covered) and state.board[k] == "."]
        g = self.game
        g.board, g.score, g.streak = state.board, state.score, state.streak
        g.hand[slot] = None
        g.placed += 1
        if not self.remaining():
            self.deal()
        self.hint = []
        return cleared

    def undo(self) -> bool:
        """Takes back the last placement (and the hand dealt after it); False when none."""
        if not self.history:
            return False
        snap = self.history.pop()
        while self.events and self.events[-1][0] == "hand":
            self.events.pop()  # the hand dealt after the placement undone
        if self.events:
            self.events.pop()
        g = self.game
        g.board, g.hand, g.score, g.streak = snap.board, list(snap.hand), snap.score, snap.streak
        g.placed -= 1
        self.rng.setstate(snap.rng_state)
        self.hint = []
        return True

    def unsaved(self) -> bool:
        """A game in progress that closing would lose: placements made since it was last saved
        (none when a record is shown or the analysis board is on)."""
        return (self.replay_states is None and self.game.placed > 0 and not self.analysing
                and self.events != self.saved_events)

    def clear_line(self) -> None:
        """No analysis line (or hint) drawn any more."""
        self.hint, self.shown_board, self.shown_played = [], None, set()
