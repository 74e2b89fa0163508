"""The sequential probability ratio test of batch_eval.py --sprt, over game-pair units."""
from __future__ import annotations

from typing import Dict, Optional, Sequence

from .stats import sprt_bounds, sprt_decision
from .jobs import job_key
from .summary import game_pairs


class Sprt:
    """The sequential test of `--sprt elo0,elo1,alpha,beta` over game-pair units, taken in unit
    order (seed, then index) so a rerun decides at the same pair, whatever order units finish in."""

    def __init__(self, spec: str, jobs: Sequence[Dict[str, object]]):
        self.elo0, self.elo1, self.alpha, self.beta = (float(t) for t in spec.split(","))
        if not (0 < self.alpha < 1 and 0 < self.beta < 1) or self.elo0 >= self.elo1:
            raise ValueError(f"--sprt {spec}: need elo0 < elo1 and alpha, beta between 0 and 1")
        self.keys = [job_key(j) for j in jobs]
        self.counts = [0] * 5
        self.pairs = 0  # units of the prefix taken so far
        self.llr, self.verdict = 0.0, None

    def advance(self, done: Dict[str, Dict[str, object]]) -> Optional[str]:
        """Takes the finished units that extend the prefix; "H0"/"H1" once a bound is crossed."""
        while self.verdict is None and self.pairs < len(self.keys) and self.keys[self.pairs] in done:
            for points in game_pairs(done[self.keys[self.pairs]]):
                self.counts[int(round(points * 2))] += 1
            self.pairs += 1
            self.llr, self.verdict = sprt_decision(self.counts, self.elo0, self.elo1, self.alpha, self.beta)
        return self.verdict

    def line(self) -> str:
        lower, upper = sprt_bounds(self.alpha, self.beta)
        head = f"SPRT elo0 {self.elo0:g} elo1 {self.elo1:g} alpha {self.alpha:g} beta {self.beta:g}: "
        if self.verdict is None:
            return head + f"no decision after {self.pairs} pairs (LLR {self.llr:.2f}, bounds {lower:.2f} {upper:.2f})"
        bound = upper if self.verdict == "H1" else lower
        return head + (f"{self.verdict} accepted after {self.pairs} pairs (LLR {self.llr:.2f}, bound {bound:.2f}; "
                       f"{'elo1' if self.verdict == 'H1' else 'elo0'} is the likelier)")
