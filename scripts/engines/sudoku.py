"""Driver for engines speaking `protocol competitive-sudoku 1` (protocol/competitive-sudoku.md)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from .base import EngineError, LineEngine, ProtocolViolation, parse_info

Cell = Tuple[int, int]
MODES = ("classic", "rows", "border", "random")


@dataclass(frozen=True)
class SudokuMove:
    """Value `value` on row `row`, column `col` (0-based, as the course framework's Move)."""

    row: int
    col: int
    value: int

    _RE = re.compile(r"(\d+),(\d+)=(\d+)")

    @classmethod
    def parse(cls, text: str) -> "SudokuMove":
        m = cls._RE.fullmatch(text.strip())
        if not m:
            raise ProtocolViolation(f"not a move: {text!r}")
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)))

    def __str__(self) -> str:
        return f"{self.row},{self.col}={self.value}"


def value_char(value: int) -> str:
    """1-9, then A=10, B=11, ...: one character per cell value."""
    if value <= 0:
        return "."
    return str(value) if value <= 9 else chr(ord("A") + value - 10)


def parse_value_char(ch: str) -> int:
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
    """The one-line answer to `play`, kept raw plus as keyword/value pairs."""

    line: str
    fields: Dict[str, object]

    def get(self, key: str, default=None):
        return self.fields.get(key, default)


class SudokuEngine(LineEngine):
    """A Competitive-Sudoku agent process."""

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

    def position(self, m: int, n: int, rows: str, **kwargs) -> None:
        self.command(self.position_line(m, n, rows, **kwargs))

    def position_file(self, path: os.PathLike) -> None:
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
    ) -> SearchResult:
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

        result.lines = self._search(line, movetime, infinite, timeout, stop_after, seen)
        tokens = result.lines[-1].split()[1:]
        if tokens != ["none"]:
            if len(tokens) != 1:
                raise ProtocolViolation(f"bad bestmove line {result.lines[-1]!r}")
            result.move = SudokuMove.parse(tokens[0])
        return result

    def play(self, move: SudokuMove) -> PlayReply:
        """Applies a move with the referee's rules; EngineError when it is rejected."""
        line = f"play {move}"
        self.send(line)
        answer = self.read_line(self.startup_timeout, line)
        if answer.split()[:1] == ["error"]:
            raise EngineError(answer.partition(" ")[2].strip(), line)
        return PlayReply(answer, parse_fields(answer))


def parse_fields(line: str) -> Dict[str, object]:
    """Keyword/value pairs of a reply line; a keyword followed by two numbers keeps both."""
    tokens = line.split()
    fields: Dict[str, object] = {"_first": tokens[0] if tokens else ""}
    i = 1
    while i < len(tokens):
        key = tokens[i]
        vals = []
        j = i + 1
        while j < len(tokens) and re.fullmatch(r"-?\d+|\d+,\d+=\d+|[+-]?\d+", tokens[j]):
            vals.append(tokens[j])
            j += 1
        if not vals and j < len(tokens) and j == i + 1:
            # key with a word value, e.g. `result placed`
            fields[key] = tokens[j]
            i = j + 1
            continue
        fields[key] = [int(v) if re.fullmatch(r"-?\d+", v) else v for v in vals] if len(vals) > 1 else (
            (int(vals[0]) if re.fullmatch(r"-?\d+", vals[0]) else vals[0]) if vals else True)
        i = j
    return fields
