"""scripts/engines/batch/stats.py against published values (R, Garwood's table, fishtest's formulas)."""
import math
from fractions import Fraction

import pytest

from engines.batch.stats import (
    binomial_test, clopper_pearson, elo, elo_pentanomial, expected_score, hazard, pentanomial,
    poisson_interval, rate_ratio, sprt_bounds, sprt_decision, sprt_llr, wilson,
)


def test_exact_poisson_interval_matches_garwood_table():
    # Garwood (1936) / R: poisson.test(k)$conf.int
    assert poisson_interval(0) == pytest.approx((0.0, 3.688879), abs=1e-6)
    assert poisson_interval(1) == pytest.approx((0.025318, 5.571643), abs=1e-6)
    assert poisson_interval(10) == pytest.approx((4.795389, 18.390356), abs=1e-6)
    assert poisson_interval(100) == pytest.approx((81.363991, 121.626794), abs=1e-5)
    lo, hi = poisson_interval(5000)  # large counts: close to the normal interval
    assert lo == pytest.approx(5000 - 1.96 * math.sqrt(5000), rel=2e-3) and hi == pytest.approx(5000 + 1.96 * math.sqrt(5001), rel=2e-3)
    rate, lo, hi = hazard(47, 7_518_948)  # the README's pooled default-agent deaths
    assert rate == pytest.approx(6.25e-6, rel=1e-3) and lo < rate < hi


def test_clopper_pearson_and_binomial_test_match_r():
    # R: binom.test(5, 10)$conf.int = 0.1870860 0.8129140; binom.test(0, 10) upper 0.3084971
    assert clopper_pearson(5, 10) == pytest.approx((0.1870860, 0.8129140), abs=1e-7)
    assert clopper_pearson(0, 10) == pytest.approx((0.0, 0.3084971), abs=1e-7)
    assert clopper_pearson(10, 10)[1] == 1.0
    # R: binom.test(7, 10)$p.value = 0.34375 (= 352/1024 exactly)
    assert binomial_test(7, 10, 0.5) == pytest.approx(0.34375, abs=1e-12)
    # binom.test(9, 10, 0.3): only outcomes 9 and 10 are as unlikely; exact sum with fractions
    exact = sum(Fraction(math.comb(10, i)) * Fraction(3, 10) ** i * Fraction(7, 10) ** (10 - i) for i in (9, 10))
    assert binomial_test(9, 10, 0.3) == pytest.approx(float(exact), rel=1e-9)
    assert binomial_test(5, 10, 0.5) == pytest.approx(1.0)


def test_rate_ratio_matches_r_poisson_test():
    # R: poisson.test(c(30, 10), c(1e6, 1e6)): rate ratio 3, 95% CI 1.427408 6.879302, p 0.002221
    ratio, (lo, hi), p = rate_ratio(30, 1e6, 10, 1e6)
    assert ratio == pytest.approx(3.0)
    assert (lo, hi) == pytest.approx((1.427408, 6.879302), abs=1e-5)
    assert p == pytest.approx(0.002221, abs=5e-6)
    # Unequal exposures: the ratio is of rates, and equal rates give p = 1.
    ratio, (lo, hi), p = rate_ratio(20, 2e6, 10, 1e6)
    assert ratio == pytest.approx(1.0) and lo < 1 < hi and p == pytest.approx(1.0)
    ratio, (lo, hi), _ = rate_ratio(0, 1000, 5, 1000)
    assert ratio == 0 and lo == 0 and hi > 1


def test_wilson_matches_published_values():
    # Wilson interval of 50/100 (Newcombe 1998, method 3): 0.4038-0.5962
    assert wilson(50, 100) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    assert wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)


def test_elo_from_game_pairs():
    assert elo(0.75) == pytest.approx(190.848502, abs=1e-6)
    assert elo(0.5) == 0 and expected_score(elo(0.64)) == pytest.approx(0.64)
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2]) == [1, 1, 2, 1, 2]
    # 10 pairs 1-2-3-2-2: mean pair score 0.55, variance 0.0975 (by hand: (0.3025 + 2*0.09 + 3*0.0025 + 2*0.04 + 2*0.2025) / 10)
    value, lo, hi = elo_pentanomial([1, 2, 3, 2, 2])
    se = math.sqrt(0.0975 / 10)
    assert value == pytest.approx(elo(0.55))
    assert lo == pytest.approx(elo(0.55 - 1.959964 * se), abs=1e-3) and hi == pytest.approx(elo(0.55 + 1.959964 * se), abs=1e-3)
    # Every pair alike (all split 1-1, or all won twice): no spread seen, no interval yet
    value, lo, hi = elo_pentanomial([0, 0, 10, 0, 0])
    assert value == 0 and math.isnan(lo) and math.isnan(hi)
    value, lo, hi = elo_pentanomial([0, 0, 0, 0, 10])
    assert value == float("inf") and math.isnan(lo) and math.isnan(hi)


def test_sprt():
    # fishtest's bounds for alpha = beta = 0.05: -2.94 and 2.94
    assert sprt_bounds(0.05, 0.05) == pytest.approx((-math.log(19), math.log(19)))
    # Every pair won twice: the closest distribution with mean s keeps all mass on 2 points but
    # what the mean needs, so the LLR per pair is log(s1 / s0).
    assert sprt_llr([0, 0, 0, 0, 1], 0, 100) == pytest.approx(math.log(expected_score(100) / 0.5), rel=1e-2)
    # Many pairs: the exact LLR is close to the normal approximation N (s1-s0)(2m-s0-s1)/(2 var).
    counts = [30, 120, 300, 160, 40]
    n = sum(counts)
    mean = sum(c * k / 4 for k, c in enumerate(counts)) / n
    var = sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(counts)) / n
    s0, s1 = 0.5, expected_score(10)
    assert sprt_llr(counts, 0, 10) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), rel=0.02)
    assert sprt_decision([0, 0, 50, 0, 0], 0, 10, 0.05, 0.05)[1] is None  # LLR -1.45: not yet
    assert sprt_decision([0, 0, 500, 0, 0], 0, 10, 0.05, 0.05)[1] == "H0"
    assert sprt_decision([0, 0, 0, 0, 20], 0, 100, 0.05, 0.05)[1] == "H1"


def test_t_quantiles_and_mean_interval_match_r():
    from engines.batch.stats import mean_interval, t_quantile

    # R: qt(0.975, c(1, 3, 10, 30))
    for dof, q in ((1, 12.706204736), (3, 3.182446305), (10, 2.228138852), (30, 2.042272456)):
        assert abs(t_quantile(0.975, dof) - q) < 1e-7, dof
    # R: t.test(c(1, 2, 3, 4))$conf.int = 0.4457397 4.5542603
    mean, se, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and abs(se - 0.6454972) < 1e-7
    assert abs(lo - 0.4457397) < 1e-6 and abs(hi - 4.5542603) < 1e-6
    one = mean_interval([3.0])
    assert one[0] == 3.0 and all(x != x for x in one[1:])


def test_ratio_interval_is_symmetric_on_the_log_scale():
    import math

    from engines.batch.stats import ratio_interval

    r, lo, hi = ratio_interval(2.0, 0.2, 1.0, 0.1)
    half = 1.959963985 * math.sqrt(0.1 ** 2 + 0.1 ** 2)
    assert r == 2.0 and abs(lo - 2 * math.exp(-half)) < 1e-9 and abs(hi - 2 * math.exp(half)) < 1e-9
    assert ratio_interval(1.0, 0.3, 1.0, 0.3)[1] < 1 < ratio_interval(1.0, 0.3, 1.0, 0.3)[2]
    assert all(x != x for x in ratio_interval(0.0, 0.1, 1.0, 0.1)[1:])
