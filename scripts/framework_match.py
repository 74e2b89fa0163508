#!/usr/bin/env python3
"""A match of N games between two players in the real Competitive Sudoku course framework.

The framework folder (2024/25 or 2022/23 version) is copied to a temporary folder, the players
are copied in, and each game is one run of the framework's own `simulate_game.py` (its referee,
its time limit: the player process is killed after --time seconds and its last proposed move
is played). Sides alternate: the first player named moves first in odd games. Printed: one
line per game, then W-D-L with a 95% Wilson interval of the score (a draw is half a point),
the same by side (as first, as second), and forfeits (a taboo-listed, invalid or missing move
loses the game in the framework).

A player is
  ours[:AGENT][@SECONDS]
                    this project's agent through scripts/framework_player (the sudoku-agent
                    binary; AGENT sets its `Agent` option, default --agent); with @SECONDS it
                    thinks that long per move (`go movetime`) and answers, instead of
                    thinking until the framework's deadline
  NAME              a player folder of the framework (greedy_player, random_player, ...)
  PATH              any folder holding a sudokuai.py (copied in under its folder name)

The framework gives both players one time per move (--time; it kills the player process then
and plays its last proposed move), so a time of one's own exists for our players only: it may
not exceed --time, and without --time the framework's time is the longest player time (at
least 0.5 s).

    python3 scripts/framework_match.py ours greedy_player --games 10 --board empty-3x3 \\
        --playmode rows --time 0.5
    python3 scripts/framework_match.py ours:default ours:territory --framework 2022 --board 2x3
    python3 scripts/framework_match.py ours@0.1 ours:territory@2 --board empty-3x3

The framework is --framework DIR (a framework folder, or a folder of them), or a version
(`2024`, `2022`) under $COMPETITIVE_SUDOKU_FRAMEWORK; by default the 2024 one there.

--openings FILE plays an opening suite (`position` lines, as `sudoku-lab openings` writes
them): each opening is written as a board file the framework takes and played twice, sides
swapped, and the summary says how many distinct games were played. What the frameworks can
start from: the 2022/23 one a board of givens with player 1 to move (classic openings with
no scores or taboo moves, whose filled cells become givens: in classic rules nobody owns a
cell, so the game is the same); the 2024/25 one a game state with the scores, the player to
move, taboo moves and allowed squares, in rows, border and random (its classic mode fails
before the first move), where it gives every filled cell to a player, so openings with
givens cannot be played there. Records are not read as openings here (`sudoku-lab replay`
prints their last positions as position lines).

    python3 scripts/framework_match.py ours greedy_player --openings suite.txt --time 0.5

The match itself is the package's (engines/framework/: players, openings, games, report, match).
"""
import sys

from engines.framework.games import Game, parse_game_moves, parse_game_output, play_one
from engines.framework.match import main as run_match
from engines.framework.match import parse_options
from engines.framework.openings import Opening, opening_board_file, parse_opening, read_openings
from engines.framework.players import MatchError, Player, find_framework, install_players, make_copy, parse_player
from engines.framework.report import game_line, summary, wdl

__all__ = ["Game", "MatchError", "Opening", "Player", "find_framework", "game_line", "install_players", "main",
           "make_copy", "opening_board_file", "parse_game_moves", "parse_game_output", "parse_opening", "parse_options",
           "parse_player", "play_one", "read_openings", "summary", "wdl"]


def main(argv=None) -> int:
    return run_match(argv, __doc__)


if __name__ == "__main__":
    sys.exit(main())
