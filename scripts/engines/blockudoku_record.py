"""Blockudoku game records (protocol/records.md, "Blockudoku"): written and read here, the
rules applied by the engine (the window replays a record through `position`/`play`;
`blockudoku-lab replay FILE` checks one from the command line)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .errors import ProtocolViolation
from .blockudoku import Placement
from .pieces import Piece

HEADER = "blockudoku-record 1"


class RecordError(ValueError):
    """A record that is not in the format; the message names the line."""


@dataclass
class RecordGame:
    """One game of a record: the hands dealt and the placements, in order."""

    index: str = "0"
    seed: Optional[int] = None
    # ("hand", [piece ids]) or ("play", [Placement, ...]); slots are the hand's, 1-3.
    events: List[Tuple[str, list]] = field(default_factory=list)
    result: Optional[Tuple[str, int, int]] = None  # (died|capped, rounds, score)


@dataclass
class Record:
    """A record file: the piece set (catalogue ids), the scoring rule and the games."""

    set_ids: List[int]
    scoring: str = "blockudoku"
    games: List[RecordGame] = field(default_factory=list)
    comment: str = ""


def set_line(set_ids: List[int], catalogue: Dict[int, Piece], engine_catalogue: bool) -> str:
    """`set catalogue` for the engine's own 47 pieces in id order, else every shape."""
    if engine_catalogue:
        return "set catalogue"
    return "set " + " ".join(catalogue[i].shape for i in set_ids)


def format_record(record: Record, catalogue: Dict[int, Piece], engine_catalogue: bool = True) -> str:
    lines = [HEADER]
    if record.comment:
        lines.append(f"# {record.comment}")
    lines += [set_line(record.set_ids, catalogue, engine_catalogue), f"scoring {record.scoring}"]
    number = {pid: k for k, pid in enumerate(record.set_ids, 1)}
    for game in record.games:
        lines.append(f"game {game.index}" + (f" seed {game.seed}" if game.seed is not None else ""))
        for kind, items in game.events:
            if kind == "hand":
                lines.append("hand " + " ".join(str(number[pid]) for pid in items))
            else:
                lines.append("play " + " ".join(str(p) for p in items))
        if game.result is not None:
            kind, rounds, score = game.result
            lines.append(f"result {kind} rounds {rounds} score {score}")
        lines.append("end")
    return "\n".join(lines) + "\n"


def parse_record(text: str, catalogue: Dict[int, Piece]) -> Record:
    """The record's structure; hands given as catalogue ids (a `set` of shapes is matched to
    the catalogue by shape). Legality is not checked here."""
    by_shape = {p.shape: pid for pid, p in catalogue.items()}
    rows = [(n, l.strip()) for n, l in enumerate(text.splitlines(), 1)]
    rows = [(n, l) for n, l in rows if l and not l.startswith("#")]
    if not rows or rows[0][1] != HEADER:
        raise RecordError(f"the first line must be {HEADER!r}")
    record = Record(set_ids=[])
    game: Optional[RecordGame] = None
    for n, line in rows[1:]:
        word, _, rest = line.partition(" ")
        toks = rest.split()
        try:
            if word == "set":
                if toks == ["catalogue"]:
                    record.set_ids = sorted(catalogue)
                else:
                    record.set_ids = [by_shape[Piece.from_shape(t).shape] for t in toks]
            elif word == "scoring":
                record.scoring = rest.strip()
            elif word == "game":
                game = RecordGame(index=toks[0] if toks else "?")
                if len(toks) >= 3 and toks[1] == "seed":
                    game.seed = int(toks[2])
                record.games.append(game)
            elif word == "end":
                if game is None:
                    raise RecordError(f"line {n}: end before a game line")
                game = None
            elif word in ("hand", "play", "result"):
                if game is None:
                    raise RecordError(f"line {n}: {word} before a game line")
                if word == "hand":
                    if not record.set_ids:
                        raise RecordError(f"line {n}: hand before the set line")
                    game.events.append(("hand", [record.set_ids[int(t) - 1] for t in toks]))
                elif word == "play":
                    game.events.append(("play", [Placement.parse(t) for t in toks]))
                else:
                    game.result = (toks[0], int(toks[2]), int(toks[4]))
            else:
                raise RecordError(f"line {n}: unknown line {word!r}")
        except RecordError:
            raise
        except (ValueError, IndexError, KeyError, ProtocolViolation) as err:
            raise RecordError(f"line {n}: {line!r}: {err}") from None
    if not record.games:
        raise RecordError("the record holds no game")
    return record
