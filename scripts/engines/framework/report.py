"""What a framework match prints: one line a game, and W-D-L with its interval, by side."""
from __future__ import annotations

from typing import List, Sequence, Tuple

from .games import Game


def game_line(g: Game, a: str, b: str) -> str:
    """One game, players by label (`a` is the player named first on the command line)."""
    first, second = (a, b) if g.a_first else (b, a)
    head = f"game {g.number:>3}: {first} (1st) - {second} (2nd)"
    if g.result is None:
        return f"{head}  not finished: {g.error}"
    score = f"{g.scores[0]}-{g.scores[1]}" if g.scores else "forfeit" if g.forfeit else "?"
    who = "draw" if g.result == "draw" else f"{first if g.result == '1' else second} wins"
    line = f"{head}  {score:>7}  {who}"
    if g.forfeit:
        line += f"  [{g.forfeit}]"
    return line


def wdl(games: Sequence[Game]) -> Tuple[int, int, int, float]:
    pts = [g.a_points for g in games if g.a_points is not None]
    wins = sum(1 for p in pts if p == 1.0)
    draws = sum(1 for p in pts if p == 0.5)
    return wins, draws, len(pts) - wins - draws, sum(pts)


def summary(games: Sequence[Game], a: str, b: str) -> List[str]:
    from engines.batch.stats import wilson  # scipy: checked by main() before any game

    done = [g for g in games if g.result is not None]
    w, d, l, pts = wdl(done)
    n = len(done)
    lo, hi = wilson(pts, n)
    pct = f"{100 * pts / n:.1f}%" if n else "-"
    lines = [f"{a} vs {b}: {n} games, W-D-L {w}-{d}-{l}, score {pts:g}/{n} = {pct} (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"]
    sides = []
    for label, first in (("as first", True), ("as second", False)):
        sel = [g for g in done if g.a_first == first]
        sw, sd, sl, sp = wdl(sel)
        own = [g.scores[0 if first else 1] for g in sel if g.scores]
        other = [g.scores[1 if first else 0] for g in sel if g.scores]
        mean = f", mean score {sum(own) / len(own):.1f}-{sum(other) / len(other):.1f}" if own else ""
        share = f"{100 * sp / len(sel):.1f}%" if sel else "-"
        sides.append(f"{label} {sw}-{sd}-{sl} ({share}{mean})")
    lines.append(f"  {a}: " + "; ".join(sides))
    a_lost = sum(1 for g in done if g.forfeit and g.a_points == 0.0)
    b_lost = sum(1 for g in done if g.forfeit and g.a_points == 1.0)
    lines.append(f"  forfeits (games lost by a taboo-listed, invalid or missing move): {a} {a_lost}, {b} {b_lost}")
    failed = len(games) - n
    if failed:
        lines.append(f"  {failed} game(s) did not finish (reported above)")
    return lines


