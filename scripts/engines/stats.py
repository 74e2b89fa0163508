"""Statistics shared by the evaluation scripts (batch_eval.py, framework_match.py).

Standard library only, so the Ray workers and a bare Python can import it. Intervals are 95%.

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


# --- special functions ------------------------------------------------------------------------

def _gamma_p(a: float, x: float) -> float:
    """Regularised lower incomplete gamma P(a, x) (series or continued fraction)."""
    if x <= 0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(100000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return min(1.0, total * math.exp(log_front))
    return max(0.0, 1.0 - _gamma_q_fraction(a, x, log_front))


def _gamma_q_fraction(a: float, x: float, log_front: float) -> float:
    """Upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def _beta_i(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b) (continued fraction, Numerical Recipes' betacf)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _beta_i(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 100000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + num / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h / a


def _solve_increasing(f, target: float, lo: float, hi: float, tol: float = 1e-13) -> float:
    """x in [lo, hi] with f(x) = target, f increasing (bisection; hi grows until it brackets;
    stops within `tol` relative to max(1, hi))."""
    while f(hi) < target:
        lo, hi = hi, hi * 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo <= tol * max(1.0, hi):
            break
    return (lo + hi) / 2


# --- Poisson counts and rates (Blockudoku hazard) -----------------------------------------

def poisson_interval(count: int, confidence: float = 0.95) -> Tuple[float, float]:
    """Exact (Garwood) interval of the mean of a Poisson count.

    lower: P(X >= count | mu) = tail, upper: P(X <= count | mu) = tail, tail = (1 - confidence) / 2.
    For the hazard of a Blockudoku agent divide by the exposure (rounds played).
    """
    tail = (1 - confidence) / 2
    # P(X >= k | mu) = P(k, mu) (lower regularised gamma), increasing in mu.
    lo = 0.0 if count == 0 else _solve_increasing(lambda mu: _gamma_p(count, mu), tail, 0.0, count + 1.0)
    # P(X <= k | mu) = 1 - P(k + 1, mu), decreasing in mu.
    hi = _solve_increasing(lambda mu: _gamma_p(count + 1, mu), 1 - tail, 0.0, count + 2.0)
    return lo, hi


def hazard(deaths: int, exposure: float) -> Tuple[float, float, float]:
    """(deaths per round, 95% interval low, high) from deaths over `exposure` rounds."""
    if exposure <= 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = poisson_interval(deaths)
    return deaths / exposure, lo / exposure, hi / exposure


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> Tuple[float, float]:
    """Exact binomial interval of a proportion: k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    tail = (1 - confidence) / 2
    # P(X >= k | p) = I_p(k, n - k + 1), increasing in p; P(X <= k | p) = 1 - I_p(k + 1, n - k).
    lo = 0.0 if k == 0 else _bisect_unit(lambda p: _beta_i(k, n - k + 1, p), tail)
    hi = 1.0 if k == n else _bisect_unit(lambda p: _beta_i(k + 1, n - k, p), 1 - tail)
    return lo, hi


def _bisect_unit(f, target: float) -> float:
    return _solve_increasing(f, target, 0.0, 1.0, tol=1e-15)


def binomial_test(k: int, n: int, p: float) -> float:
    """Two-sided exact binomial test: the probability of an outcome no likelier than k (as R's binom.test)."""
    if n == 0:
        return 1.0
    if p <= 0:
        return 1.0 if k == 0 else 0.0
    if p >= 1:
        return 1.0 if k == n else 0.0

    def log_pmf(i: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p) + (n - i) * math.log1p(-p)

    observed = log_pmf(k)
    bound = observed + math.log1p(1e-7)  # ties within rounding count as equally likely
    total = sum(math.exp(log_pmf(i)) for i in range(n + 1) if log_pmf(i) <= bound)
    return min(1.0, total)


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
    """The p-quantile (0.5 < p < 1) of Student's t with `dof` degrees of freedom.

    For t > 0, P(T <= t) = 1 - I_x(dof / 2, 1 / 2) / 2 with x = dof / (dof + t^2)."""
    return _solve_increasing(lambda t: 1 - _beta_i(dof / 2, 0.5, dof / (dof + t * t)) / 2, p, 0.0, 2.0)


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
