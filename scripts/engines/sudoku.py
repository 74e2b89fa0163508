"""Driver for engines speaking `protocol competitive-sudoku 1` (protocol/competitive-sudoku.md)."""
from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .base import LineEngine, MoveNotation, parse_info
from .errors import EngineError, ProtocolViolation

Cell = Tuple[int, int]
MODES = ("classic", "rows", "border", "random")


@dataclass(frozen=True)
class SudokuMove(MoveNotation):
    """Value `value` on row `row`, column `col` (0-based, as the course framework's Move)."""

    row: int
    col: int
    value: int

    _RE = re.compile(r"(\d+),(\d+)=(\d+)")
    _FORMAT = "{row},{col}={value}"
    _KIND = "move"


def value_char(value: int) -> str:
    """1-9, then A=10, B=11, ...: one character per cell value."""
    if value <= 0:
        return "."
    return str(value) if value <= 9 else chr(ord("A") + value - 10)


def parse_value_char(ch: str) -> int:
    """The value of one cell character: `.` is 0 (empty), then 1-9, A=10, B=11, ..."""
    if ch == ".":
        return 0
    if ch.isdigit():
        return int(ch)
    return ord(ch.upper()) - ord("A") + 10


def rows_string(values: Sequence[Sequence[int]], owners: Optional[Sequence[Sequence[int]]] = None) -> str:
    """The `<rows>` of a `position`: cells with `+`/`-` for cells filled by player 1/2."""
    out = []
    for r, row in enumerate(values):
        text = []
        for c, v in enumerate(row):
            text.append(value_char(v))
            owner = owners[r][c] if owners is not None else 0
            if v and owner == 1:
                text.append("+")
            elif v and owner == 2:
                text.append("-")
        out.append("".join(text))
    return "/".join(out)


def parse_rows(rows: str) -> Tuple[List[List[int]], List[List[int]]]:
    """`1+2./...` -> (values, owners) with owner 0 for given or empty cells."""
    values: List[List[int]] = []
    owners: List[List[int]] = []
    for row in rows.split("/"):
        vals: List[int] = []
        owns: List[int] = []
        for ch in row:
            if ch in "+-":
                if not owns:
                    raise ProtocolViolation(f"owner mark before any cell in {row!r}")
                owns[-1] = 1 if ch == "+" else 2
            else:
                vals.append(parse_value_char(ch))
                owns.append(0)
        values.append(vals)
        owners.append(owns)
    return values, owners


def _cells(cells: Iterable[Cell]) -> List[str]:
    return [f"{r},{c}" for r, c in cells]


@dataclass
class SearchResult:
    """The answer to one `go`: the best move (None for `bestmove none`) and every proposal."""

    move: Optional[SudokuMove]
    proposals: List[SudokuMove] = field(default_factory=list)
    infos: List[Dict[str, object]] = field(default_factory=list)
    lines: List[str] = field(default_factory=list)


@dataclass
class PlayReply:
    """The one-line answer to `play`: `played <move> placed <points> scores <a> <b> turn <t>
    [result 1|2|draw]`, `played <move> taboo scores ...`, or `passed scores ...`."""

    line: str
    outcome: str  # "placed", "taboo" or "passed"
    move: Optional[SudokuMove]
    points: int
    scores: Tuple[int, int]
    turn: int
    result: Optional[str]

    @staticmethod
    def parse(line: str) -> "PlayReply":
        """Reads the one-line answer to `play`; ProtocolViolation when malformed."""
        tokens = line.split()
        try:
            if tokens[0] == "played":
                move, outcome = SudokuMove.parse(tokens[1]), tokens[2]
                rest = tokens[3:]
                points = 0
                if outcome == "placed":
                    points, rest = int(rest[0]), rest[1:]
                elif outcome != "taboo":
                    raise ProtocolViolation(f"unknown outcome {outcome!r}")
            elif tokens[0] == "passed":
                move, outcome, points, rest = None, "passed", 0, tokens[1:]
            else:
                raise ProtocolViolation(f"not a play reply: {line!r}")
            words = dict(scores=None, turn=None, result=None)
            i = 0
            while i < len(rest):
                if rest[i] == "scores":
                    words["scores"] = (int(rest[i + 1]), int(rest[i + 2]))
                    i += 3
                elif rest[i] in ("turn", "result"):
                    words[rest[i]] = rest[i + 1]
                    i += 2
                else:
                    i += 1  # later protocol versions may add words
            if words["scores"] is None or words["turn"] is None:
                raise ProtocolViolation(f"play reply without scores/turn: {line!r}")
            return PlayReply(line, outcome, move, points, words["scores"], int(words["turn"]), words["result"])
        except (IndexError, ValueError):
            raise ProtocolViolation(f"malformed play reply {line!r}") from None


class SudokuEngine(LineEngine):
    """A Competitive Sudoku agent process (protocol/competitive-sudoku.md), started and handshaken.

    The command defaults to `sudoku-agent` from $ENGINE_BIN_DIR, target/release or PATH. Every
    call waits with a timeout; an `error` answer raises EngineError (the engine's state is
    unchanged), an ended process EngineDied with its exit code, a silent one EngineTimeout.
    Use it as a context manager, or call `quit()`.

    >>> with SudokuEngine() as engine:                              # doctest: +SKIP
    ...     engine.position("2x2", "1.../..../..../....", mode="rows")
    ...     engine.go(movetime=50).move
    SudokuMove(row=0, col=1, value=3)
    """

    binary_name = "sudoku-agent"
    protocol_name = "competitive-sudoku"

    @staticmethod
    def position_line(
        m: int,
        n: int,
        rows: str,
        mode: Optional[str] = None,
        turn: Optional[int] = None,
        scores: Optional[Tuple[int, int]] = None,
        taboo: Iterable[SudokuMove] = (),
        allowed1: Optional[Iterable[Cell]] = None,
        allowed2: Optional[Iterable[Cell]] = None,
    ) -> str:
        """The `position` line for a board of m x n blocks (see `position`)."""
        if mode is not None and mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        parts = ["position", f"{m}x{n}", rows]
        if mode is not None:
            parts += ["mode", mode]
        if turn is not None:
            if turn not in (1, 2):
                raise ValueError("turn is 1 or 2")
            parts += ["turn", str(turn)]
        if scores is not None:
            parts += ["scores", str(int(scores[0])), str(int(scores[1]))]
        taboo = [str(t) for t in taboo]
        if taboo:
            parts += ["taboo"] + taboo
        if allowed1 is not None:
            parts += ["allowed1"] + _cells(allowed1)
        if allowed2 is not None:
            parts += ["allowed2"] + _cells(allowed2)
        return " ".join(parts)

    def position(self, m: Union[int, str], n: Union[int, str, None] = None,
                 rows: Union[str, Sequence[Sequence[int]], None] = None, **kwargs) -> None:
        """Sets the position: the block shape (`m`, `n`, or one string `"3x3"`), the rows (a
        string `1+2./..../...` as the protocol writes them, `+`/`-` marking player 1's/2's
        cells, or a list of rows of ints), and by keyword `mode` (one of MODES), `turn` (1 or
        2), `scores` (a pair), `taboo` (SudokuMoves) and `allowed1`/`allowed2` (the starting
        cells, (row, col) 0-based). EngineError when the engine refuses it, or when what is given
        cannot be written as a `position` line at all (then nothing is sent; the message says why).

        >>> engine.position("3x3", "." * 81, mode="rows")                  # doctest: +SKIP
        >>> engine.position(2, 2, [[1, 0, 0, 0]] + [[0] * 4] * 3, turn=2)   # doctest: +SKIP
        """
        try:
            line = self._position_line(m, n, rows, **kwargs)
        except ValueError as err:
            raise EngineError(str(err), "position") from None
        self.command(line)

    def _position_line(self, m: Union[int, str], n: Union[int, str, None], rows, **kwargs) -> str:
        if isinstance(m, str):
            shape = m.lower().split("x")
            if len(shape) != 2 or not all(part.strip().isdigit() for part in shape):
                raise ValueError(f"a block shape is written MxN (e.g. 3x3), got {m!r}")
            if rows is not None:
                raise TypeError("position(shape, rows): the shape string already gives m and n")
            m, n, rows = int(shape[0]), int(shape[1]), n
        if n is None or rows is None:
            raise TypeError("position needs the block shape (m, n or 'MxN') and the rows")
        if not isinstance(rows, str):
            rows = rows_string(rows)
        return self.position_line(int(m), int(n), rows.replace("\n", "/").replace(" ", ""), **kwargs)

    def position_file(self, path: os.PathLike) -> None:
        """`position file <path>`: a board file in either course-framework format."""
        path = os.fspath(path)
        if any(ch.isspace() for ch in path):
            raise ValueError("the protocol cannot carry a path with white space")
        self.command(f"position file {path}")

    def go(
        self,
        movetime: Optional[int] = None,
        nodes: Optional[int] = None,
        depth: Optional[int] = None,
        infinite: bool = False,
        *,
        timeout: Optional[float] = None,
        stop_after: Optional[float] = None,
        on_propose: Optional[Callable[[SudokuMove], None]] = None,
        on_info: Optional[Callable[[Dict[str, object]], None]] = None,
        cancel: Optional[threading.Event] = None,
    ) -> SearchResult:
        """Searches the position for the side to move, to `movetime` ms, `nodes`, `depth`, or
        until `stop` (`infinite`; `stop_after` seconds stops it for you). `on_propose` sees each
        `propose` line as it comes (the course framework keeps the last), `on_info` each parsed
        `info` line. The result's `move` is None for `bestmove none` (no playable cell).
        Waits at most the limit plus `margin` seconds (EngineTimeout), or `timeout`. Setting
        `cancel` (from any thread, even before the search starts) stops it: it answers at once.

        >>> engine.go(movetime=100).move                                   # doctest: +SKIP
        SudokuMove(row=4, col=4, value=5)
        """
        line = self._go_line(movetime, nodes, infinite, {"depth": depth})
        result = SearchResult(None)

        def seen(l: str) -> None:
            tokens = l.split()
            if tokens[:1] == ["propose"] and len(tokens) >= 2:
                move = SudokuMove.parse(tokens[1])
                result.proposals.append(move)
                if on_propose is not None:
                    on_propose(move)
            elif tokens[:1] == ["info"]:
                info = parse_info(l)
                result.infos.append(info)
                if on_info is not None:
                    on_info(info)

        result.lines = self._search(line, movetime, infinite, timeout, stop_after, seen, cancel)
        tokens = result.lines[-1].split()[1:]
        if tokens != ["none"]:
            if len(tokens) != 1:
                raise ProtocolViolation(f"bad bestmove line {result.lines[-1]!r}")
            result.move = SudokuMove.parse(tokens[0])
        return result

    def play(self, move: SudokuMove) -> PlayReply:
        """Applies a move with the referee's rules; EngineError when it is rejected."""
        return PlayReply.parse(self.ask(f"play {move}"))

    def play_none(self) -> PlayReply:
        """Passes when the player to move has no playable cell."""
        return PlayReply.parse(self.ask("play none"))

    def play_and_show(self, move: Optional[SudokuMove]) -> Tuple[PlayReply, "SudokuState"]:
        """`play` (None: `play none`) and the position after it, asked in one write: one round
        trip instead of two. EngineError when the move is refused (the position is unchanged)."""
        line = f"play {move}" if move is not None else "play none"
        answer = self.request(line, lambda _: True, then=["show", "isready"])[-1]
        drawing = self._no_error(self.read_until(lambda l: l.strip() == "readyok", self.startup_timeout, "show")[:-1],
                                 "show")
        return PlayReply.parse(self._no_error([answer], line)[0]), SudokuState.parse_show(drawing)

    def state(self) -> "SudokuState":
        """The current position, read from `show`."""
        return SudokuState.parse_show(self.show())


@dataclass
class SudokuState:
    """The position as the engine's `show` draws it (the GUI keeps no rules of its own)."""

    m: int
    n: int
    values: List[List[int]]
    owners: List[List[int]]
    mode: str = "classic"
    scores: Tuple[int, int] = (0, 0)
    turn: int = 1
    result: Optional[str] = None  # "1", "2" or "draw" once the game is over
    taboo: List[SudokuMove] = field(default_factory=list)
    # Cells each player may play now (`playable1`/`playable2` of `show`); None: unrestricted
    # or not reported.
    allowed: Dict[int, Optional[List[Cell]]] = field(default_factory=lambda: {1: None, 2: None})
    # Starting cells of the allowed-squares modes (`allowed1`/`allowed2`, as `position` takes them).
    starts: Dict[int, Optional[List[Cell]]] = field(default_factory=lambda: {1: None, 2: None})

    @property
    def size(self) -> int:
        """The grid's side: m * n."""
        return self.m * self.n

    @staticmethod
    def parse_show(lines: Sequence[str]) -> "SudokuState":
        """Reads the drawing (for the block shape), `rows ...` and `mode ... scores ... turn ...`.

        In the allowed-squares modes `show` prints `allowed1`/`allowed2` (starting cells, read
        into `starts`) and `playable1`/`playable2` (the cells each player may play now, read
        into `allowed`); a bare `allowed`/`playable` list means the player to move. Without
        them `allowed` stays None (unrestricted).
        """
        rows_line = next((l for l in lines if l.startswith("rows ")), None)
        if rows_line is None:
            raise ProtocolViolation(f"show printed no 'rows' line: {list(lines)[-4:]}")
        values, owners = parse_rows(rows_line.split()[1])
        size = len(values)
        # Block shape from the drawing: cells before the first '|' make n; rows before the
        # first dashed line make m.
        m, n = size, size
        board_lines = [
            l for l in lines if l and not l.startswith(("rows ", "mode ", "allowed", "playable"))
        ]
        if board_lines:
            first = board_lines[0]
            if "|" in first:
                n = len(first.split("|")[0].split())
            dashed = next((i for i, l in enumerate(board_lines) if set(l) <= set("-+") and l), None)
            if dashed is not None:
                m = dashed
        state = SudokuState(m, n, values, owners)
        for line in lines:
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "mode" or tokens[0].startswith(("allowed", "playable")):
                _read_state_words(state, tokens)
        return state


def _read_state_words(state: SudokuState, tokens: List[str]) -> None:
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key == "mode" and i + 1 < len(tokens):
            state.mode = tokens[i + 1]
            i += 2
        elif key == "scores" and i + 2 < len(tokens):
            state.scores = (int(tokens[i + 1]), int(tokens[i + 2]))
            i += 3
        elif key == "turn" and i + 1 < len(tokens):
            state.turn = int(tokens[i + 1])
            i += 2
        elif key == "result" and i + 1 < len(tokens):
            state.result = tokens[i + 1]
            i += 2
        elif key in ("taboo", "allowed1", "allowed2", "allowed", "playable", "playable1", "playable2"):
            j = i + 1
            items = []
            while j < len(tokens) and re.fullmatch(r"\d+,\d+(=\d+)?|none|all", tokens[j]):
                items.append(tokens[j])
                j += 1
            if key == "taboo":
                state.taboo = [SudokuMove.parse(t) for t in items if t != "none"]
            else:
                # Without a number: the squares of the player to move.
                player = int(key[-1]) if key[-1].isdigit() else state.turn
                target = state.starts if key in ("allowed1", "allowed2") else state.allowed
                if items == ["all"]:
                    target[player] = None
                else:
                    target[player] = [tuple(int(x) for x in t.split(",")) for t in items if t != "none"]
            i = j
        else:
            i += 1
