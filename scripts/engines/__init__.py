"""Python drivers for the two engines of this repository (and any engine speaking their protocols).

    from engines import BlockudokuEngine, SudokuEngine

Each class starts the binary (by default found in $ENGINE_BIN_DIR, then target/release, then
PATH), does the `hello` handshake and offers the protocol's commands as methods with typed
results. Errors: EngineDied (with the exit code), EngineError (an `error` line), EngineTimeout.
SudokuTools runs the `sudoku-solver` tools (solve, count, check, generate) for the puzzle mode.

Beside them, imported by name, one subpackage per purpose: `engines.windows` (what the
Tkinter windows share: engine calls off the Tk thread, the busy bar, dialogs, layouts that
reflow, the engine's supervision), `engines.batch` (batch_eval.py's job grid, pool, summary,
plots, its work units `engines.batch.units`, Ray tasks `engines.batch.ray_runner` and
statistics `engines.batch.stats`: intervals, Elo, SPRT on scipy, the `batch` extra). Modules of
the drivers: `engines.record` and `engines.blockudoku_record` (game records,
protocol/records.md), `engines.cli` (the scripts' help and option checks), `engines.timed`
(timestamped output, for timing). The test suites' pytest plugin is not here: it is
scripts/tests/engine_testing.py. Install: `python3 -m pip install -e scripts`
(scripts/pyproject.toml).
"""
from .base import EngineOption, LineEngine, find_binary, parse_info
from .errors import EngineDied, EngineError, EngineProblem, EngineTimeout, ProtocolViolation
from .blockudoku import AnalysisLine, BlockudokuEngine, Placement, PlayState, SearchResult as BlockudokuResult, board_rows, normalise_board
from .pieces import Piece, cells_of, piece_set, piece_spec
from .sudoku import (
    MODES,
    PlayReply,
    SearchResult as SudokuResult,
    SudokuEngine,
    SudokuMove,
    SudokuState,
    parse_rows,
    rows_string,
)
from .tools import Grid, Solution, SudokuTools, ToolError

__all__ = [
    "AnalysisLine", "BlockudokuEngine", "BlockudokuResult", "EngineDied", "EngineError", "EngineOption", "EngineProblem",
    "EngineTimeout", "LineEngine", "Piece", "Placement", "PlayReply", "PlayState", "ProtocolViolation",
    "MODES", "SudokuEngine", "SudokuMove", "SudokuResult", "SudokuState", "board_rows", "cells_of", "find_binary", "piece_set", "piece_spec",
    "normalise_board", "parse_info", "parse_rows", "rows_string", "Grid", "Solution", "SudokuTools", "ToolError",
]
