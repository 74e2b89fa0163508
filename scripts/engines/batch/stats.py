"""Statistics shared by the evaluation scripts (batch_eval.py, framework_match.py).

Intervals are 95%. The exact distributions are scipy.stats' (the `batch` extra:
`python3 -m pip install -e 'scripts[batch]'`); the Ray workers never import this module.

- Proportions: `wilson` (score of a match, a draw counting half a point).
- Blockudoku hazard (deaths per round over a known exposure): `poisson_interval`, the exact
  (Garwood) interval of a Poisson count, and `rate_ratio`, two agents compared by the
  conditional binomial test: given D deaths in all, agent A's share of them is binomial with
  p = eA*rA / (eA*rA + eB*rB), so its exact (Clopper-Pearson) interval gives the ratio rA/rB
  and the test of p = eA / (eA + eB) its p-value.
- Competitive Sudoku Elo from game pairs (same board, sides swapped): `pentanomial` counts
  pairs by their points (0, 0.5, 1, 1.5, 2), `elo_pentanomial` gives the Elo difference with an
  interval from the variance of the pair scores (as fishtest and fastchess do; pairs, not games,
  are the independent trials), `sprt_llr`/`sprt_bounds` the sequential test between two Elo
  hypotheses (fishtest's generalised SPRT on pentanomial results, exact form).
"""
from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

from scipy import stats as distributions

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


# --- Poisson counts and rates (Blockudoku hazard) -----------------------------------------

def poisson_interval(count: int, confidence: float = 0.95) -> Tuple[float, float]:
    """Exact (Garwood) interval of the mean of a Poisson count.

    lower: P(X >= count | mu) = tail, upper: P(X <= count | mu) = tail, tail = (1 - confidence) / 2,
    that is chi-square quantiles: chi2(tail; 2 count) / 2 and chi2(1 - tail; 2 count + 2) / 2.
    For the hazard of a Blockudoku agent divide by the exposure (rounds played).
    """
    tail = (1 - confidence) / 2
    lo = 0.0 if count == 0 else float(distributions.chi2.ppf(tail, 2 * count)) / 2
    hi = float(distributions.chi2.ppf(1 - tail, 2 * count + 2)) / 2
    return lo, hi


def hazard(deaths: int, exposure: float) -> Tuple[float, float, float]:
    """(deaths per round, 95% interval low, high) from deaths over `exposure` rounds."""
    if exposure <= 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = poisson_interval(deaths)
    return deaths / exposure, lo / exposure, hi / exposure


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> Tuple[float, float]:
    """Exact (Clopper-Pearson) binomial interval of a proportion: k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    ci = distributions.binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


def binomial_test(k: int, n: int, p: float) -> float:
    """Two-sided exact binomial test: the probability of an outcome no likelier than k (as R's binom.test)."""
    if n == 0:
        return 1.0
    return float(distributions.binomtest(k, n, p).pvalue)


def rate_ratio(deaths_a: int, exposure_a: float, deaths_b: int,
               exposure_b: float) -> Tuple[float, Tuple[float, float], float]:
    """Hazard of A over hazard of B: (ratio, 95% interval, two-sided p-value of "same hazard").

    Conditional binomial method: given D = deaths_a + deaths_b, deaths_a ~ Binomial(D, pi) with
    pi / (1 - pi) = ratio * exposure_a / exposure_b.
    """
    total = deaths_a + deaths_b
    scale = exposure_b / exposure_a

    def ratio_of(pi: float) -> float:
        return float("inf") if pi >= 1 else pi / (1 - pi) * scale

    ratio = ratio_of(deaths_a / total) if total else float("nan")
    lo, hi = clopper_pearson(deaths_a, total)
    p_value = binomial_test(deaths_a, total, exposure_a / (exposure_a + exposure_b))
    return ratio, (ratio_of(lo), ratio_of(hi)), p_value


def t_quantile(p: float, dof: int) -> float:
    """The p-quantile of Student's t with `dof` degrees of freedom."""
    return float(distributions.t.ppf(p, dof))


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Tuple[float, float, float, float]:
    """(mean, standard error, low, high): Student's t interval of the mean of independent values
    (nan where there are too few: the error and bounds with fewer than two)."""
    n = len(values)
    if n == 0:
        return (float("nan"),) * 4
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), float("nan"), float("nan")
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * se
    return mean, se, mean - half, mean + half


def ratio_interval(a: float, se_a: float, b: float, se_b: float) -> Tuple[float, float, float]:
    """a / b of two independent positive estimates with standard errors: (ratio, 95% low, high),
    normal on the log scale (delta method; nan bounds where an estimate is not positive or an
    error is unknown)."""
    if not (a > 0 and b > 0) or se_a != se_a or se_b != se_b:
        return (a / b if b else float("nan")), float("nan"), float("nan")
    r, half = a / b, Z95 * math.sqrt((se_a / a) ** 2 + (se_b / b) ** 2)
    return r, r * math.exp(-half), r * math.exp(half)


# --- Elo from game pairs (Competitive Sudoku) ----------------------------------------------

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


def pentanomial(pair_points: Sequence[float]) -> List[int]:
    """Counts of game pairs that scored 0, 0.5, 1, 1.5 and 2 points (of 2)."""
    counts = [0] * 5
    for points in pair_points:
        counts[int(round(points * 2))] += 1
    return counts


def elo(score: float) -> float:
    """Logistic Elo difference of an expected score (0.75 -> +190.8)."""
    if score <= 0:
        return float("-inf")
    if score >= 1:
        return float("inf")
    return -400 * math.log10(1 / score - 1)


def expected_score(elo_diff: float) -> float:
    return 1 / (1 + 10 ** (-elo_diff / 400))


def _pair_mean_var(counts: Sequence[float]) -> Tuple[float, float, float]:
    """(pairs, mean, variance) of the per-game score of a pair (its points / 2)."""
    n = sum(counts)
    if n == 0:
        return 0, float("nan"), float("nan")
    mean = sum(c * x / 2 for c, x in zip(counts, PAIR_POINTS)) / n
    var = sum(c * (x / 2 - mean) ** 2 for c, x in zip(counts, PAIR_POINTS)) / n
    return n, mean, var


def elo_pentanomial(counts: Sequence[int]) -> Tuple[float, float, float]:
    """(Elo difference, 95% low, high) from pentanomial pair counts.

    The score's standard error is the pair scores' standard deviation over sqrt(pairs); the
    interval's ends are the Elo of score -/+ 1.96 standard errors (nan while every pair has
    scored alike, as no spread is seen yet; infinite where the score's interval reaches 0 or 1).
    """
    n, mean, var = _pair_mean_var(counts)
    if n == 0:
        return float("nan"), float("-inf"), float("inf")
    if var == 0:
        # Every pair scored alike: the spread is unknown, so is the interval (nan, nan).
        return elo(mean), float("nan"), float("nan")
    half = Z95 * math.sqrt(var / n)
    return elo(mean), elo(mean - half), elo(mean + half)


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    """(lower, upper) log-likelihood-ratio bounds: below accepts H0, above accepts H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _mle_with_mean(pdf: Sequence[Tuple[float, float]], s: float) -> List[float]:
    """The distribution on the same values closest in likelihood to `pdf` with mean s
    (fishtest LLRcalc.MLE_expected): p_i / (1 + x (v_i - s)), x solving sum p_i a_i / (1 + x a_i) = 0."""
    shifts = [v - s for v, _ in pdf]
    lo, hi = -1 / max(shifts), -1 / min(shifts)  # 1 + x a_i > 0 for every value
    for _ in range(300):
        mid = (lo + hi) / 2
        if sum(p * a / (1 + mid * a) for (_, p), a in zip(pdf, shifts)) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return [p / (1 + x * a) for (_, p), a in zip(pdf, shifts)]


def sprt_llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo elo1) against H0 (Elo elo0) from pentanomial counts.

    fishtest's generalised SPRT (LLRcalc.LLR_logistic, statistic "expectation"): the observed
    distribution of pair scores is compared with the closest distributions whose means are the
    expected scores of elo1 and elo0; empty bins count as 0.001 pairs (fishtest's
    regularisation). Exact, not the normal approximation, so a few pairs cannot cross a bound.
    """
    if sum(counts) == 0:
        return 0.0
    regular = [c if c else 1e-3 for c in counts]
    n = sum(regular)
    pdf = [(x / 2, c / n) for x, c in zip(PAIR_POINTS, regular)]
    p0 = _mle_with_mean(pdf, expected_score(elo0))
    p1 = _mle_with_mean(pdf, expected_score(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


def sprt_decision(counts: Sequence[int], elo0: float, elo1: float, alpha: float,
                  beta: float) -> Tuple[float, Optional[str]]:
    """(LLR, "H0" or "H1" when a bound is crossed, else None)."""
    llr = sprt_llr(counts, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return llr, "H1"
    if llr <= lower:
        return llr, "H0"
    return llr, None
