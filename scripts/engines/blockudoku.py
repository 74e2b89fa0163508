"""Driver for engines speaking `protocol blockudoku 1` (protocol/blockudoku.md)."""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Union

from .base import LineEngine, MoveNotation, parse_info
from .errors import EngineError, ProtocolViolation
from .pieces import Piece

EMPTY_BOARD = "." * 81
PieceSpec = Union[int, str, None]  # catalogue id, shape string, or None for a played slot


@dataclass(frozen=True)
class Placement(MoveNotation):
    """Hand slot `slot` (1-3) with its bounding box's top-left on r`row`c`col` (1-based)."""

    slot: int
    row: int
    col: int

    _RE = re.compile(r"([1-3])@r([1-9])c([1-9])")
    _FORMAT = "{slot}@r{row}c{col}"
    _KIND = "placement"


@dataclass
class SearchResult:
    """The answer to one `go`: the placements in play order, or `lost` for `bestmove none`."""

    placements: List[Placement]
    lost: bool
    infos: List[Dict[str, object]] = field(default_factory=list)
    lines: List[str] = field(default_factory=list)

    @property
    def last_info(self) -> Dict[str, object]:
        """The last `info` line of the search, parsed ({} when there was none)."""
        return self.infos[-1] if self.infos else {}


@dataclass
class AnalysisLine:
    """One line of an `analyse` answer (protocol/blockudoku.md, `analyse`)."""

    placements: List[Placement]  # in play order, slots as in the position's hand
    eval: int  # the evaluation of the board left
    dead: int  # ordered deals of three pieces that cannot be placed on the board left
    deals: int  # all ordered deals (47^3)
    points: int  # points the line scores
    cleared: int  # regions it clears
    score: int  # score after the line
    streak: int  # streak after the line
    board: str  # the board left, 81 cells

    @property
    def dead_chance(self) -> float:
        """The chance that the next hand cannot be placed on the board the line leaves."""
        return self.dead / self.deals

    @classmethod
    def parse(cls, line: str) -> "AnalysisLine":
        """Reads one `analysis line ...` line; ProtocolViolation when malformed."""
        tokens = line.split()
        try:
            moves_at, eval_at = tokens.index("moves"), tokens.index("eval")
            fields = dict(zip(tokens[eval_at::2], tokens[eval_at + 1::2]))
            dead, _, deals = fields["dead"].partition("/")
            return cls([Placement.parse(t) for t in tokens[moves_at + 1:eval_at]], int(fields["eval"]),
                       int(dead), int(deals), int(fields["points"]), int(fields["cleared"]),
                       int(fields["score"]), int(fields["streak"]), normalise_board(fields["board"]))
        except (ValueError, KeyError, ProtocolViolation) as err:
            raise ProtocolViolation(f"bad analysis line {line!r}: {err}") from None


@dataclass
class PlayState:
    """The engine's answer to `play`: the position after the placements."""

    board: str
    pieces: List[Optional[str]]  # the hand by slot; None for a slot already played (`-`)
    score: int
    streak: int
    cleared: int


def normalise_board(board: Union[str, Sequence[bool], Sequence[int]]) -> str:
    """81 `.`/`#` characters from a board string (with or without `/`) or 81 truthy values."""
    if isinstance(board, str):
        text = board.replace("/", "")
    else:
        text = "".join("#" if v else "." for v in board)
    if len(text) != 81 or set(text) - {".", "#"}:
        raise ValueError(f"a board is 81 cells of '.' or '#', got {board!r}")
    return text


def board_rows(board: str) -> str:
    """The protocol's row form: nine rows of nine joined by `/`."""
    board = normalise_board(board)
    return "/".join(board[i:i + 9] for i in range(0, 81, 9))


class BlockudokuEngine(LineEngine):
    """A Blockudoku engine process (protocol/blockudoku.md), started and handshaken.

    The command defaults to `blockudoku` from $ENGINE_BIN_DIR, target/release or PATH. Every
    call waits with a timeout; an `error` answer raises EngineError (the engine's state is
    unchanged), an ended process EngineDied with its exit code, a silent one EngineTimeout.
    Use it as a context manager, or call `quit()`.

    >>> with BlockudokuEngine() as engine:                          # doctest: +SKIP
    ...     engine.position(pieces=[1, 2, 3])
    ...     engine.go(movetime=50).placements
    [Placement(slot=1, row=1, col=1), ...]
    """

    binary_name = "blockudoku"
    protocol_name = "blockudoku"
    # Commands that leave the engine's position as it was (everything else may change it).
    KEEP_POSITION = frozenset({"isready", "fits", "show", "catalogue", "analyse", "setoption", "eval"})
    # The `position` line of what the engine holds, as this driver last set it (`position`) or
    # read it (`play`'s answer); None when unknown. `position()` sends nothing when it matches.
    held: Optional[str] = None

    def request(self, line: str, *args, **kwargs) -> List[str]:
        if line.split()[:1] and line.split()[0] not in self.KEEP_POSITION:
            self.held = None  # a command that may change the position: no longer known
        return super().request(line, *args, **kwargs)

    def position(
        self,
        board: Union[None, str, Sequence[bool]] = None,
        pieces: Iterable[PieceSpec] = (),
        score: Optional[int] = None,
        streak: Optional[int] = None,
    ) -> None:
        """Sets the position: a board (None or `empty`, 81 cells of `.`/`#` with or without
        `/`, or 81 truthy values), a hand of 1-3 pieces (catalogue ids 1-47, shape strings such
        as `##/#.`, None for a slot already played), and the score and streak.

        EngineError when the engine refuses it, or when the board or hand cannot be written as a
        `position` line at all (then nothing is sent; the message says why).

        Nothing is sent when the engine holds that very position already: the one this driver
        last set, or the one `play` answered (so `position`, `play`, `position` of the position
        after the play, `play` ... costs one round trip a placement).

        >>> engine.position("#" * 40 + "." * 41, [28, 1, None], score=120)   # doctest: +SKIP
        """
        try:
            line = self.position_line(board, pieces, score, streak)
        except ValueError as err:
            raise EngineError(str(err), "position") from None
        if line == self.held:
            return  # the engine holds it already (its last `position`, or its `play` answer)
        self.command(line)
        self.held = line

    @staticmethod
    def position_line(board=None, pieces: Iterable[PieceSpec] = (), score=None, streak=None) -> str:
        """The `position` line `position()` sends (ValueError for a board or hand it cannot be)."""
        # None (or "-") is a slot already played, as in `play` replies.
        pieces = ["-" if p is None else str(p) for p in pieces]
        if not 1 <= len(pieces) <= 3 or all(p == "-" for p in pieces):
            raise ValueError(f"a hand has 1 to 3 slots with at least one piece, got {pieces}")
        parts = ["position"]
        if board is None or normalise_board(board) == EMPTY_BOARD:
            parts.append("empty")
        else:
            parts += ["board", board_rows(board)]
        parts += ["pieces"] + pieces
        if score is not None:
            parts += ["score", str(int(score))]
        if streak is not None:
            parts += ["streak", str(int(streak))]
        return " ".join(parts)

    def go(
        self,
        movetime: Optional[int] = None,
        nodes: Optional[int] = None,
        infinite: bool = False,
        *,
        timeout: Optional[float] = None,
        stop_after: Optional[float] = None,
        on_info: Optional[Callable[[Dict[str, object]], None]] = None,
        cancel: Optional[threading.Event] = None,
    ) -> SearchResult:
        """Searches the current position; see LineEngine for the timeout rules. Setting `cancel`
        (from any thread, even before the search starts) stops it: it answers at once."""
        line = self._go_line(movetime, nodes, infinite, {})
        infos: List[Dict[str, object]] = []

        def seen(l: str) -> None:
            if l.startswith("info"):
                info = parse_info(l)
                infos.append(info)
                if on_info is not None:
                    on_info(info)

        lines = self._search(line, movetime, infinite, timeout, stop_after, seen, cancel)
        tokens = lines[-1].split()[1:]
        if tokens == ["none"]:
            return SearchResult([], True, infos, lines)
        if not 1 <= len(tokens) <= 3:
            raise ProtocolViolation(f"bad bestmove line {lines[-1]!r}")
        return SearchResult([Placement.parse(t) for t in tokens], False, infos, lines)

    def analyse(self, movetime: Optional[int] = None, lines: int = 3, *,
                timeout: Optional[float] = None) -> List[AnalysisLine]:
        """The agent's line and up to `lines - 1` alternatives for the current position, each
        with its figures (`analyse` in protocol/blockudoku.md); [] when the hand is dead."""
        parts = ["analyse"] + (["movetime", str(int(movetime))] if movetime else []) + ["lines", str(int(lines))]
        line = " ".join(parts)
        if timeout is None:
            timeout = (movetime or 0) / 1000.0 + self.unlimited_search_timeout
        answer = self.request(line, lambda l: l.split()[:2] == ["analysis", "done"] or l.startswith("error"), timeout)
        if answer[-1].startswith("error"):
            raise EngineError(answer[-1].partition(" ")[2].strip(), line)
        return [AnalysisLine.parse(l) for l in answer if l.split()[:2] == ["analysis", "line"]]

    def catalogue(self) -> Dict[int, "Piece"]:
        """The engine's piece catalogue (`catalogue` command): id -> Piece, for drawing."""
        answer = self.ask("catalogue")
        tokens = answer.split()
        if tokens[:1] != ["catalogue"] or len(tokens) < 2:
            raise ProtocolViolation(f"expected a catalogue line, got {answer!r}")
        pieces: Dict[int, Piece] = {}
        for tok in tokens[1:]:
            ident, sep, shape = tok.partition(":")
            try:
                if not sep:
                    raise ValueError("no ':'")
                pieces[int(ident)] = Piece.from_shape(shape, int(ident))
            except ValueError as err:
                raise ProtocolViolation(f"bad catalogue entry {tok!r}: {err}") from None
        return pieces

    def fits(self) -> List[Optional[bool]]:
        """Whether each piece of the position's hand fits somewhere on the board on its own
        (`fits` command): True, False, or None for a played slot; [] for no hand. No search.

        >>> engine.position("#" * 80 + ".", [1, 28, None])      # doctest: +SKIP
        >>> engine.fits()                                        # doctest: +SKIP
        [True, False, None]
        """
        answer = self.ask("fits")
        tokens = answer.split()
        words = {"1": True, "0": False, "-": None}
        if tokens[:1] != ["fits"] or len(tokens) < 2 or not (tokens[1:] == ["none"] or all(t in words for t in tokens[1:])):
            raise ProtocolViolation(f"expected a fits line, got {answer!r}")
        return [] if tokens[1:] == ["none"] else [words[t] for t in tokens[1:]]

    def play(self, placements: Iterable[Union[Placement, str]]) -> PlayState:
        """Applies placements to the current position with the engine's rules.

        Raises EngineError (and the position is unchanged) when one is illegal.
        """
        state = self.parse_state(self.ask("play " + " ".join(str(p) for p in placements)))
        try:
            self.held = self.position_line(state.board, state.pieces, state.score, state.streak)
        except ValueError:
            self.held = None  # no piece left: no position line names it
        return state

    @staticmethod
    def parse_state(line: str) -> PlayState:
        """`position board <b> pieces <p>... score <n> streak <n> cleared <k>` -> PlayState.

        A played slot is `-` (so slot numbers stay those of the `position`); `none` is an
        empty hand.
        """
        tokens = line.split()
        if tokens[:1] != ["position"]:
            raise ProtocolViolation(f"expected a position line, got {line!r}")
        board, pieces, values = EMPTY_BOARD, [], {"score": 0, "streak": 0, "cleared": 0}
        i, key = 1, None
        while i < len(tokens):
            tok = tokens[i]
            if tok == "empty":
                board, key = EMPTY_BOARD, None
            elif tok == "board" and i + 1 < len(tokens):
                try:
                    board, key = normalise_board(tokens[i + 1]), None
                except ValueError as err:
                    raise ProtocolViolation(f"{err} in {line!r}") from None
                i += 1
            elif tok == "pieces":
                key = "pieces"
            elif tok in values and i + 1 < len(tokens):
                try:
                    values[tok] = int(tokens[i + 1])
                except ValueError:
                    raise ProtocolViolation(f"bad {tok} in {line!r}") from None
                key = None
                i += 1
            elif key == "pieces":
                if tok != "none":
                    pieces.append(None if tok == "-" else tok)
            else:
                raise ProtocolViolation(f"unexpected {tok!r} in {line!r}")
            i += 1
        return PlayState(board, pieces, values["score"], values["streak"], values["cleared"])
