"""Confidence intervals shared by the evaluation scripts (batch_eval.py, framework_match.py)."""
from __future__ import annotations

import math
from typing import Tuple

Z95 = 1.959963984540054


def wilson(points: float, n: int) -> Tuple[float, float]:
    """95% Wilson interval of a proportion (a draw counts half a point)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(max(0.0, p * (1 - p) / n + Z95 ** 2 / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def poisson_interval(count: int) -> Tuple[float, float]:
    """95% interval of a Poisson count (Byar's approximation; exact enough for rates)."""
    lo = 0.0 if count == 0 else count * (1 - 1 / (9 * count) - Z95 / (3 * math.sqrt(count))) ** 3
    c1 = count + 1
    hi = c1 * (1 - 1 / (9 * c1) + Z95 / (3 * math.sqrt(c1))) ** 3
    return lo, hi
