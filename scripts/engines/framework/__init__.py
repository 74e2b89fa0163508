"""Matches in the real Competitive Sudoku course framework (scripts/framework_match.py), one
module a concern: players.py (the framework folder, the players, their installation), openings.py
(opening suites as the frameworks' board files), games.py (one game: a run of simulate_game.py
read back, and as a record), report.py (the lines printed), match.py (the command line and the
match, step by step)."""
