"""Opening suites for framework matches: `position` lines read, and written as the board files
each framework version starts from (or refused with the reason)."""
from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass
from typing import List, Tuple

from .players import MatchError


@dataclass
class Opening:
    """A position line of an opening suite, as the framework needs it."""
    line: str
    m: int
    n: int
    cells: List[Tuple[int, str]]  # (value, owner: '+', '-' or '' for a given), row by row
    mode: str
    turn: int
    scores: Tuple[int, int]
    taboo: List[Tuple[int, int, int]]
    allowed: Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]


def parse_opening(line: str) -> Opening:
    """A `position <m>x<n> <rows> [mode M] [turn T] [scores A B] [taboo ...] [allowed1 ...]
    [allowed2 ...]` line (protocol/sudoku.md); ValueError says what is wrong."""
    words = line.split()
    if len(words) < 3 or words[0] != "position" or not re.fullmatch(r"\d+x\d+", words[1]):
        raise ValueError("expected 'position <m>x<n> <rows> ...'")
    m, n = map(int, words[1].split("x"))
    size = m * n
    cells: List[Tuple[int, str]] = []
    for row in words[2].split("/"):
        for ch in re.findall(r"[^+-][+-]?", row):
            value = 0 if ch[0] in ".0" else int(ch[0], 36)
            if value > size:
                raise ValueError(f"value {ch[0]!r} does not fit a {m}x{n} board")
            cells.append((value, ch[1:]))
    if len(cells) != size * size:
        raise ValueError(f"{len(cells)} cells, a {m}x{n} board has {size * size}")
    mode, turn, scores, taboo, allowed = "classic", None, (0, 0), [], ([], [])
    key, k = None, 3
    while k < len(words):
        w = words[k]
        if w == "mode" and k + 1 < len(words):
            mode, k = words[k + 1], k + 2
        elif w == "turn" and k + 1 < len(words):
            turn, k = int(words[k + 1]), k + 2
        elif w == "scores" and k + 2 < len(words):
            scores, k = (int(words[k + 1]), int(words[k + 2])), k + 3
        elif w in ("taboo", "allowed1", "allowed2"):
            key, k = w, k + 1
        elif key == "taboo" and re.fullmatch(r"\d+,\d+=\d+", w):
            r, c, v = map(int, re.split("[,=]", w))
            taboo.append((r, c, v))
            k += 1
        elif key in ("allowed1", "allowed2") and re.fullmatch(r"\d+,\d+", w):
            allowed[int(key[-1]) - 1].append(tuple(map(int, w.split(","))))  # type: ignore[arg-type]
            k += 1
        else:
            raise ValueError(f"unexpected word {w!r}")
    if turn is None:
        owned = sum(1 for _, o in cells if o)
        turn = 1 if (owned + len(taboo)) % 2 == 0 else 2
    return Opening(line, m, n, cells, mode, turn, scores, taboo, allowed)


def read_openings(path: str) -> List[Opening]:
    try:
        lines = pathlib.Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise MatchError(f"--openings {path}: cannot read it ({err})") from None
    suite = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            suite.append(parse_opening(line))
        except ValueError as err:
            raise MatchError(f"--openings {path}: line {number}: {err}") from None
    if not suite:
        raise MatchError(f"--openings {path}: no opening in the file")
    if len({(o.m, o.n, o.mode) for o in suite}) > 1:
        raise MatchError(f"--openings {path}: the openings differ in board or mode (one file per board and mode)")
    return suite


def opening_board_file(o: Opening, has_playmode: bool) -> str:
    """The opening as a board file the framework starts from (MatchError when it cannot)."""
    size = o.m * o.n
    if not has_playmode:
        if o.mode != "classic" or o.turn != 1 or o.scores != (0, 0) or o.taboo:
            raise MatchError("the 2022/23 framework starts from a board of givens with player 1 to move: "
                             "it takes classic openings without scores or taboo moves, player 1 to move")
        rows = [" ".join(f"{v:>3}" if v else "  ." for v, _ in o.cells[r * size:(r + 1) * size]) for r in range(size)]
        return f"{o.m} {o.n}\n" + "\n".join(rows) + "\n"
    if o.mode == "classic":
        raise MatchError("the 2024/25 framework fails in classic mode before the first move: "
                         "play classic openings with --framework 2022")
    if any(v and not owner for v, owner in o.cells):
        raise MatchError("the 2024/25 framework gives every filled cell to a player: openings with givens "
                         "cannot be played in its modes")
    rows = [" ".join(f"{v}{owner}" if v else "." for v, owner in o.cells[r * size:(r + 1) * size])
            for r in range(size)]
    squares = lambda cells: ", ".join(f"({r},{c})" for r, c in cells)  # noqa: E731
    owned = [[(k // size, k % size) for k, (v, owner) in enumerate(o.cells) if v and owner == mark]
             for mark in "+-"]
    return (f"rows = {o.m}\ncolumns = {o.n}\nboard =\n" + "".join(f"   {row}\n" for row in rows)
            + f"taboo-moves = [{', '.join(f'({r},{c}) -> {v}' for r, c, v in o.taboo)}]\n"
            + f"scores = [{o.scores[0]}, {o.scores[1]}]\ncurrent-player = {o.turn}\n"
            + f"allowed-squares1 = {squares(o.allowed[0])}\nallowed-squares2 = {squares(o.allowed[1])}\n"
            + f"occupied-squares1 = {squares(owned[0])}\noccupied-squares2 = {squares(owned[1])}\n")


