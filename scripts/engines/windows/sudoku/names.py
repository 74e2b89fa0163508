"""How the Competitive Sudoku window names things: board sizes (`SIZES`, `block_shape`: a block
shape like 3x3 or the grid it makes, 9x9), cells and moves (1-based, `r1c2=5`), the engine's
line, and the player kind `human`."""
from __future__ import annotations

import re
from typing import List, Tuple

from ... import SudokuMove

# Every board size by its name: the block shape, then the grid it makes.
SIZES = ("2x2 (4x4 grid)", "2x3 (6x6 grid)", "3x3 (9x9 grid)", "3x4 (12x12 grid)", "4x4 (16x16 grid)",
         "4x5 (20x20 grid)", "5x5 (25x25 grid)")
NO_ANALYSIS = "analysis: press Hint"  # the analysis panel with no search to show
HINT_TEXT = "Hint / analyse"  # the Hint button; it reads Stop while a search runs
ANALYSIS_FONT = ("Helvetica", 9)
ANALYSIS_LINES = 4  # rows of the analysis panel: score and depth, and the engine's line on three


class BoardSizeError(ValueError):
    """A board size that is not a block shape nor a grid that names one."""


def block_shape(text: str) -> Tuple[int, int]:
    """The block shape `m x n` a board size names: a block shape (`3x3`, or a SIZES entry), or a
    grid size (`9x9`) whose side has one closest factor pair m <= n (4, 6, 9, 12, 16, 20, 25...)."""
    words = text.strip().lower().split()
    m_text, _, n_text = (words[0] if words else "").partition("x")
    if not (m_text.isdigit() and n_text.isdigit()):
        raise BoardSizeError(f"board size '{text}': give a block shape like 3x3 or a grid like 9x9")
    m, n = int(m_text), int(n_text)
    if m >= 1 and n >= 1 and m * n <= 25 and m * n >= 2:
        return m, n
    if m == n and m <= 25:
        pairs = [(a, m // a) for a in range(2, m + 1) if m % a == 0 and a <= m // a]
        if pairs:
            return max(pairs)
    raise BoardSizeError(f"board size '{text}' is not a board: blocks m x n need m*n <= 25 (e.g. 3x3), "
                         f"a grid N x N needs N = m*n with blocks of at least 2x2 (e.g. 9x9)")


def size_name(m: int, n: int) -> str:
    return f"{m}x{n} ({m * n}x{m * n} grid)"


def cell_name(r: int, c: int) -> str:
    """A cell as the window names it: 1-based `r<row>c<col>`."""
    return f"r{r + 1}c{c + 1}"


def move_name(move: SudokuMove) -> str:
    return f"{cell_name(move.row, move.col)}={move.value}"


def pv_text(words: List[str]) -> str:
    """The engine's line (`pv` of `info`, protocol moves) in the window's names."""
    out = []
    for w in words:
        try:
            out.append(move_name(SudokuMove.parse(w)))
        except Exception:
            out.append(w)
    return " ".join(out)

HUMAN = "human"  # a player the window does not ask an engine about


# The protocol's words at the head of an engine's `error` (the command, its argument), and the
# system's error number at its end: not the player's words.
_PROTOCOL_HEAD = re.compile(r"^(?:(?:play|position|go|setoption|none|file '[^']*'|\S+=\S+):\s*)+")
_OS_ERROR = re.compile(r"\s*\(os error \d+\)$")


def engine_reason(message: str) -> str:
    """The reason in an engine's refusal, in the player's words: `play: none: the player to
    move has a legal move` -> `the player to move has a legal move`."""
    return _OS_ERROR.sub("", _PROTOCOL_HEAD.sub("", message.strip())) or message.strip()
