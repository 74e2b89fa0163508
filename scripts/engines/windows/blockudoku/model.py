"""The Blockudoku game on screen, without Tk: the position (`Game`) and what undo restores
(`Snapshot`). Every rule is the engine's: this only keeps what it answered."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional


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
