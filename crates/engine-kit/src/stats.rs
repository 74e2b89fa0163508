//! Statistics for measuring strength: the Wilson score interval of a rate.

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

#[cfg(test)]
mod tests {
    use super::wilson;

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
}
