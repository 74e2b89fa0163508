//! Statistics for measuring strength: the Wilson score interval of a proportion, the exact
//! (Garwood) Poisson interval of a count, the exact binomial test and Clopper-Pearson
//! interval, and the rate ratio of two Poisson counts over their exposures (the conditional
//! binomial test: given the total count, the first count is binomial under equal rates).
//!
//! Everything is computed from the binomial and Poisson distributions themselves (sums of
//! probabilities in log space, bisection for interval ends), so the intervals are exact, not
//! normal approximations.

/// The Wilson score interval of a proportion `p` observed over `n` trials, for the normal
/// quantile `z` (1.96 or 1.959964 for 95%), clamped to `0..=1`. With no trials, `(0, 1)`.
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms: about 15 significant digits).
pub fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// `P(X <= k)` for `X ~ Poisson(mean)`.
pub fn poisson_cdf(k: u64, mean: f64) -> f64 {
    if mean <= 0.0 {
        return 1.0;
    }
    // Terms from the mode outwards would be more careful; log-space terms summed upwards are
    // enough for the counts (thousands) and means this crate meets.
    let mut total = 0.0;
    for i in 0..=k {
        let i = i as f64;
        total += (i * mean.ln() - mean - ln_gamma(i + 1.0)).exp();
    }
    total.min(1.0)
}

/// The exact (Garwood) two-sided interval of a Poisson mean, `k` events observed, at
/// confidence `level` (0.95): the means for which `P(X >= k)` and `P(X <= k)` are
/// `(1 - level) / 2`. For `k = 0` the lower end is 0.
pub fn poisson_interval(k: u64, level: f64) -> (f64, f64) {
    let tail = (1.0 - level) / 2.0;
    let hi_bound = {
        let mut h = k as f64 + 10.0;
        while poisson_cdf(k, h) > tail {
            h *= 2.0;
        }
        h
    };
    // P(X <= k) falls as the mean grows.
    let upper = bisect(0.0, hi_bound, |m| poisson_cdf(k, m) > tail);
    let lower = if k == 0 {
        0.0
    } else {
        // P(X >= k) = 1 - P(X <= k - 1) rises with the mean.
        bisect(0.0, hi_bound, |m| 1.0 - poisson_cdf(k - 1, m) < tail)
    };
    (lower, upper)
}

/// The point where `below` turns from true to false on `[lo, hi]` (`below` true at `lo`).
fn bisect(mut lo: f64, mut hi: f64, below: impl Fn(f64) -> bool) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if below(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// `P(X = k)` for `X ~ Binomial(n, p)`.
pub fn binomial_pmf(k: u64, n: u64, p: f64) -> f64 {
    if k > n {
        return 0.0;
    }
    if p <= 0.0 {
        return (k == 0) as u64 as f64;
    }
    if p >= 1.0 {
        return (k == n) as u64 as f64;
    }
    let (k, n) = (k as f64, n as f64);
    (ln_gamma(n + 1.0) - ln_gamma(k + 1.0) - ln_gamma(n - k + 1.0)
        + k * p.ln()
        + (n - k) * (1.0 - p).ln())
    .exp()
}

/// `P(X <= k)` for `X ~ Binomial(n, p)`.
pub fn binomial_cdf(k: u64, n: u64, p: f64) -> f64 {
    (0..=k.min(n))
        .map(|i| binomial_pmf(i, n, p))
        .sum::<f64>()
        .min(1.0)
}

/// The exact two-sided binomial test of `k` successes in `n` trials against success chance
/// `p`: the total probability of every outcome no more likely than `k` (R's `binom.test`).
pub fn binomial_test(k: u64, n: u64, p: f64) -> f64 {
    let observed = binomial_pmf(k, n, p);
    // A relative tolerance, as R uses, so that outcomes equal to the observed one up to
    // rounding count on both sides.
    let cut = observed * (1.0 + 1e-7);
    (0..=n)
        .map(|i| binomial_pmf(i, n, p))
        .filter(|&q| q <= cut)
        .sum::<f64>()
        .min(1.0)
}

/// The Clopper-Pearson (exact) interval of a binomial proportion, `k` of `n`, at `level`.
pub fn clopper_pearson(k: u64, n: u64, level: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let tail = (1.0 - level) / 2.0;
    let lower = if k == 0 {
        0.0
    } else {
        // P(X >= k) rises with p.
        bisect(0.0, 1.0, |p| 1.0 - binomial_cdf(k - 1, n, p) < tail)
    };
    let upper = if k == n {
        1.0
    } else {
        // P(X <= k) falls as p grows.
        bisect(0.0, 1.0, |p| binomial_cdf(k, n, p) > tail)
    };
    (lower, upper)
}

/// Two Poisson counts compared over their exposures: `a` events in `exposure_a` against `b`
/// in `exposure_b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateRatio {
    /// `(a / exposure_a) / (b / exposure_b)`; infinite when `b` is 0 and `a` is not, NaN
    /// when both are 0.
    pub ratio: f64,
    /// Exact interval of the ratio at the asked level (from the Clopper-Pearson interval
    /// of `a` among `a + b`); `(0, inf)` when there are no events at all.
    pub low: f64,
    /// Upper end (infinite when `b` is 0).
    pub high: f64,
    /// Two-sided p-value of equal rates (exact binomial test of `a` among `a + b` against
    /// `exposure_a / (exposure_a + exposure_b)`); 1 when there are no events.
    pub p_value: f64,
}

/// The rate ratio of `a` events in `exposure_a` to `b` events in `exposure_b`, with its
/// exact conditional interval at `level` and the p-value of equal rates.
pub fn rate_ratio(a: u64, exposure_a: f64, b: u64, exposure_b: f64, level: f64) -> RateRatio {
    let total = a + b;
    let ratio = (a as f64 / exposure_a) / (b as f64 / exposure_b);
    if total == 0 {
        return RateRatio {
            ratio,
            low: 0.0,
            high: f64::INFINITY,
            p_value: 1.0,
        };
    }
    let share = exposure_a / (exposure_a + exposure_b);
    let (pl, pu) = clopper_pearson(a, total, level);
    let to_ratio = |p: f64| {
        if p >= 1.0 {
            f64::INFINITY
        } else {
            p / (1.0 - p) * exposure_b / exposure_a
        }
    };
    RateRatio {
        ratio,
        low: to_ratio(pl),
        high: to_ratio(pu),
        p_value: binomial_test(a, total, share),
    }
}

/// Mean and standard error of the mean of `xs` (standard error 0 for fewer than 2 values).
pub fn mean_and_error(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(1.0, 100.0, 1.959_964);
        assert!((lo - 0.963).abs() < 0.001 && hi == 1.0, "{lo} {hi}");
        let (lo, hi) = wilson(0.5, 100.0, 1.959_964);
        assert!(
            (lo - 0.404).abs() < 0.001 && (hi - 0.596).abs() < 0.001,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0.0, 0.0, 1.96), (0.0, 1.0));
        let (lo, hi) = wilson(0.01, 1000.0, 1.96);
        assert!(lo < 0.01 && 0.01 < hi);
    }

    #[test]
    fn ln_gamma_matches_factorials() {
        assert!(ln_gamma(1.0).abs() < 1e-13);
        assert!(close(ln_gamma(11.0), 3_628_800f64.ln(), 1e-13));
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-12
        ));
        assert!(close(ln_gamma(1001.0), 5_912.128_178_488_163, 1e-13));
    }

    // Reference values computed with mpmath at 30 digits (R's poisson.test gives the same).
    #[test]
    fn garwood_interval_matches_reference_values() {
        let cases = [
            (0, 0.0, 3.688_879_454_113_936),
            (1, 0.025_317_807_984_289_877, 5.571_643_390_938_898),
            (10, 4.795_388_696_132_434, 18.390_356_042_017_78),
            (47, 34.533_832_167_065_76, 62.500_036_340_646_96),
        ];
        for (k, lo, hi) in cases {
            let (l, h) = poisson_interval(k, 0.95);
            assert!(close(l, lo, 1e-9) || (lo == 0.0 && l == 0.0), "{k}: {l}");
            assert!(close(h, hi, 1e-9), "{k}: {h}");
        }
    }

    #[test]
    fn binomial_test_and_clopper_pearson_match_reference_values() {
        // binom.test(3, 10), binom.test(2, 20), binom.test(10, 47, 0.3) in R; the values were
        // computed with mpmath at 30 digits by the same rule (outcomes no more likely).
        assert!(close(binomial_test(3, 10, 0.5), 0.343_75, 1e-12));
        assert!(close(
            binomial_test(2, 20, 0.5),
            0.000_402_450_561_523_437_5,
            1e-10
        ));
        assert!(close(
            binomial_test(10, 47, 0.3),
            0.207_298_429_695_593_6,
            1e-9
        ));
        assert_eq!(binomial_test(5, 10, 0.5), 1.0);
        // binom.test(3, 10)$conf.int (mpmath).
        let (lo, hi) = clopper_pearson(3, 10, 0.95);
        assert!(close(lo, 0.066_739_511_177_734_47, 1e-8), "{lo}");
        assert!(close(hi, 0.652_452_850_059_997_3, 1e-8), "{hi}");
        assert_eq!(clopper_pearson(0, 10, 0.95).0, 0.0);
        assert_eq!(clopper_pearson(10, 10, 0.95).1, 1.0);
    }

    #[test]
    fn rate_ratio_of_equal_exposures() {
        // 10 against 30 events over equal exposures: ratio 1/3; binom.test(10, 40) gives the
        // p-value and the interval of the share, turned into the ratio p / (1 - p).
        let r = rate_ratio(10, 1e6, 30, 1e6, 0.95);
        assert!(close(r.ratio, 1.0 / 3.0, 1e-12));
        assert!(
            close(r.p_value, 0.002_221_433_773_229_364, 1e-9),
            "{}",
            r.p_value
        );
        let (pl, pu) = clopper_pearson(10, 40, 0.95);
        assert!(close(r.low, pl / (1.0 - pl), 1e-12) && close(r.high, pu / (1.0 - pu), 1e-12));
        assert!(r.low < 1.0 / 3.0 && 1.0 / 3.0 < r.high && r.high < 1.0);
        // Unequal exposures scale the ratio (share 2/3 under equal rates; mpmath p-value); no
        // events at all say nothing.
        let r = rate_ratio(10, 2e6, 10, 1e6, 0.95);
        assert!(close(r.ratio, 0.5, 1e-12) && close(r.p_value, 0.152_342_235_111_427_5, 1e-9));
        let r = rate_ratio(0, 1.0, 0, 1.0, 0.95);
        assert_eq!((r.low, r.high, r.p_value), (0.0, f64::INFINITY, 1.0));
    }

    #[test]
    fn mean_and_standard_error() {
        let (m, se) = mean_and_error(&[1.0, 2.0, 3.0, 4.0]);
        assert!(close(m, 2.5, 1e-15));
        // sd = sqrt(5/3), se = sd / 2.
        assert!(close(se, (5.0f64 / 3.0).sqrt() / 2.0, 1e-15));
        assert_eq!(mean_and_error(&[7.0]), (7.0, 0.0));
    }
}
