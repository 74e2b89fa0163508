"""Competitive Sudoku game records (protocol/records.md): write and read the text form.

Only the syntax lives here; the rules are the engine's. `sudoku-lab replay FILE` is the
referee of a record, and a front end replays one by giving the engine the setup's `position`
line and `play`ing the steps.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from .sudoku import MODES, SudokuMove, SudokuState, rows_string

HEADER = "competitive-sudoku-record 1"
Cell = Tuple[int, int]


class RecordError(ValueError):
    """A record that cannot be read: the message names the line."""


@dataclass
class Setup:
    """Where a game started and who played it."""

    m: int
    n: int
    mode: str
    start: str  # the protocol's rows: givens plain, cells already filled with + / -
    allowed: Tuple[Optional[List[Cell]], Optional[List[Cell]]] = (None, None)
    turn: Optional[int] = None  # None: from the parity of the moves made, as `position` does
    scores: Tuple[int, int] = (0, 0)
    taboo: List[SudokuMove] = field(default_factory=list)
    players: Tuple[str, str] = ("-", "-")
    times: Tuple[str, str] = ("none", "none")

    @staticmethod
    def from_state(state: SudokuState, players: Tuple[str, str], times: Tuple[str, str]) -> "Setup":
        """The setup of the position an engine's `show` reported."""
        allowed = (None, None)
        if state.mode != "classic":
            allowed = (list(state.starts.get(1) or []), list(state.starts.get(2) or []))
        return Setup(state.m, state.n, state.mode, rows_string(state.values, state.owners), allowed, state.turn,
                     tuple(state.scores), list(state.taboo), players, times)

    def position_line(self) -> str:
        """The `position` command that sets this start on an engine."""
        words = [f"position {self.m}x{self.n} {self.start} mode {self.mode}",
                 f"scores {self.scores[0]} {self.scores[1]}"]
        if self.turn is not None:
            words.insert(1, f"turn {self.turn}")
        if self.taboo:
            words.append("taboo " + " ".join(str(t) for t in self.taboo))
        if self.mode != "classic":
            for p in (0, 1):
                words.append(f"allowed{p + 1} " + " ".join(f"{r},{c}" for r, c in self.allowed[p] or []))
        return " ".join(w.strip() for w in words)


@dataclass
class Step:
    """One step: `player` played `move` (None: a pass); `taboo` when the referee found it taboo."""

    player: int
    move: Optional[SudokuMove]
    taboo: bool = False

    def text(self) -> str:
        if self.move is None:
            return f"{self.player} pass"
        return f"{self.player} {self.move}" + (" taboo" if self.taboo else "")


@dataclass
class GameRecord:
    number: int
    setup: Setup
    steps: List[Step] = field(default_factory=list)
    forfeit: Optional[Tuple[int, str]] = None  # (player, why)
    result: Optional[Tuple[Tuple[int, int], str]] = None  # (scores, winner "1" / "2" / "draw")
    final: Optional[str] = None  # the `position` line after the last step


def _one_line(text: str) -> str:
    text = " ".join(str(text).split())
    return text or "-"


def format_record(rec: GameRecord) -> str:
    """One game, `game N` to `end`."""
    s = rec.setup
    lines = [f"game {rec.number}", f"shape {s.m}x{s.n}", f"mode {s.mode}", f"start {s.start}"]
    if s.mode != "classic":
        for p in (0, 1):
            lines.append(f"allowed{p + 1}" + "".join(f" {r},{c}" for r, c in s.allowed[p] or []))
    if s.turn is not None:
        lines.append(f"turn {s.turn}")
    lines.append(f"scores {s.scores[0]} {s.scores[1]}")
    if s.taboo:
        lines.append("taboo " + " ".join(str(t) for t in s.taboo))
    for p in (0, 1):
        lines += [f"player{p + 1} {_one_line(s.players[p])}", f"time{p + 1} {_one_line(s.times[p])}"]
    lines += [f"move {k} {step.text()}" for k, step in enumerate(rec.steps, 1)]
    if rec.forfeit is not None:
        lines.append(f"forfeit {rec.forfeit[0]} {_one_line(rec.forfeit[1])}")
    if rec.result is not None:
        (a, b), winner = rec.result
        lines.append(f"result scores {a} {b} winner {winner}")
    if rec.final:
        lines.append(f"final {rec.final}")
    lines.append("end")
    return "\n".join(lines) + "\n"


def format_records(records: Sequence[GameRecord], comment: str = "") -> str:
    head = HEADER + "\n" + "".join(f"# {line}\n" for line in comment.splitlines())
    return head + "".join(format_record(r) for r in records)


def _cells(words: Sequence[str], n: int) -> List[Cell]:
    out = []
    for w in words:
        r, _, c = w.partition(",")
        if not (r.isdigit() and c.isdigit()):
            raise RecordError(f"line {n}: '{w}' is not a cell row,col")
        out.append((int(r), int(c)))
    return out


def parse_records(text: str) -> List[GameRecord]:
    """Every game of a record file (syntax only: `sudoku-lab replay` checks the rules)."""
    lines = [(n, l.strip()) for n, l in enumerate(text.splitlines(), 1)]
    lines = [(n, l) for n, l in lines if l and not l.startswith("#")]
    if not lines or lines[0][1] != HEADER:
        raise RecordError(f"not a Competitive Sudoku record: the first line must be '{HEADER}'")
    games: List[GameRecord] = []
    cur: Optional[dict] = None
    for n, line in lines[1:]:
        key, _, rest = line.partition(" ")
        words = rest.split()
        try:
            if key == "game":
                if cur is not None:
                    raise RecordError(f"line {n}: game {cur['number']} has no 'end' line")
                cur = dict(number=int(words[0]), allowed=[None, None], turn=None, scores=(0, 0), taboo=[],
                           players=["-", "-"], times=["none", "none"], steps=[], forfeit=None, result=None,
                           final=None)
                continue
            if cur is None:
                raise RecordError(f"line {n}: '{key}' outside a game")
            if key == "shape":
                m, _, nn = words[0].lower().partition("x")
                cur["m"], cur["n"] = int(m), int(nn)
            elif key == "mode":
                if words[0] not in MODES:
                    raise RecordError(f"line {n}: unknown mode '{words[0]}'")
                cur["mode"] = words[0]
            elif key == "start":
                cur["start"] = words[0]
            elif key in ("allowed1", "allowed2"):
                cur["allowed"][int(key[-1]) - 1] = _cells(words, n)
            elif key == "turn":
                cur["turn"] = int(words[0])
            elif key == "scores":
                cur["scores"] = (int(words[0]), int(words[1]))
            elif key == "taboo":
                cur["taboo"] = [SudokuMove.parse(w) for w in words]
            elif key in ("player1", "player2"):
                cur["players"][int(key[-1]) - 1] = rest.strip()
            elif key in ("time1", "time2"):
                cur["times"][int(key[-1]) - 1] = rest.strip()
            elif key == "move":
                number, player, what = int(words[0]), int(words[1]), words[2]
                if number != len(cur["steps"]) + 1:
                    raise RecordError(f"line {n}: move numbered {number}, expected {len(cur['steps']) + 1}")
                move = None if what == "pass" else SudokuMove.parse(what)
                cur["steps"].append(Step(player, move, words[3:] == ["taboo"]))
            elif key == "forfeit":
                cur["forfeit"] = (int(words[0]), " ".join(words[1:]))
            elif key == "result":
                if len(words) != 5 or words[0] != "scores" or words[3] != "winner":
                    raise RecordError(f"line {n}: result needs 'scores A B winner 1|2|draw'")
                cur["result"] = ((int(words[1]), int(words[2])), words[4])
            elif key == "final":
                cur["final"] = rest.strip()
            elif key == "end":
                if "m" not in cur or "mode" not in cur or "start" not in cur:
                    raise RecordError(f"line {n}: game {cur['number']} lacks shape, mode or start")
                setup = Setup(cur["m"], cur["n"], cur["mode"], cur["start"], tuple(cur["allowed"]), cur["turn"],
                              cur["scores"], cur["taboo"], tuple(cur["players"]), tuple(cur["times"]))
                games.append(GameRecord(cur["number"], setup, cur["steps"], cur["forfeit"], cur["result"],
                                        cur["final"]))
                cur = None
            else:
                raise RecordError(f"line {n}: unknown line '{key}'")
        except (IndexError, ValueError) as err:
            if isinstance(err, RecordError):
                raise
            raise RecordError(f"line {n}: cannot read '{line[:60]}'") from None
    if cur is not None:
        raise RecordError(f"game {cur['number']} has no 'end' line")
    if not games:
        raise RecordError("no game in the record")
    return games
