#!/usr/bin/env python3
"""Blockudoku in a Tkinter window, played by you or by the engine.

A mirror of the original game's window (about 470x700: "Score: N", the 9x9 board with its
3x3 boxes, the hand of three pieces below; drag a piece onto the board, with a shaded preview
of where it drops; pieces that fit nowhere are greyed out; when the hand cannot be placed a
message shows the final score and a new game starts; "Start Engine" lets the engine play on
its own, placement by placement), plus a hint button, a choice of scoring rule, a seed field
for reproducible deals and undo. The Agent choice (and Objective, from engines that offer it)
is sent with `setoption` as soon as it is made, so the next Hint and the engine's own play use
it; it is kept across New game and given again to a restarted engine. "Engine ms" 0 means a
bare `go` (the `strong` agent then weighs its boards over 64 sampled next hands, the same
answer every time); a time makes both `default` and `strong` spend it on the next-hand
lookahead (protocol/blockudoku.md, `go`).

The board scales with the window and carries row and column labels (r1..r9, c1..c9); the
tray slots are numbered 1-3 and a hint labels each cell with the slot number of its piece.

"Analysis" opens the analysis board, an edit mode for advice on any position: click or drag cells to fill or
empty them, pick a tray slot and then a piece from the palette of the 47 pieces (right-click a
slot to empty it), or paste a `position` line; set score and streak, then "Analyse": the
engine's `analyse` answer (protocol/blockudoku.md) fills a panel with the agent's line and the
best alternatives, each with its evaluation, the exact chance that the next hand is dead on
the board it leaves, and the points it scores; the chosen line is drawn on the board.

Game > Save record / Load record keep a game in the record format (protocol/records.md); a
loaded game is replayed with the bar under the board (back, forward, jump to a move), and
"Analysis board" analyses the position shown.

Every rule (legality, clearing, scoring, whether a piece fits) is the engine's: the window
sends `position`/`play`/`go`/`analyse` and draws what comes back. Only the dealing of hands
(uniform with replacement over the catalogue, from the seed) happens here, as in the original
GUI. Errors are shown in a dialog.

    python3 scripts/blockudoku_gui.py [--engine PATH] [--seed N] [--movetime MS] [--agent NAME]
                                      [--analysis] [--load FILE]

The window itself is the package's: engines/windows/blockudoku/ (one module a concern).
"""
import sys

from engines.windows.blockudoku import BlockudokuApp, main

__all__ = ["BlockudokuApp", "main"]

if __name__ == "__main__":
    sys.exit(main())
