//! The reports of a chain run: one agent's summary lines, the lines comparing two agents,
//! and a chain's JSON object.

use lab_kit::stats;
use puzzle_rules::blockudoku::Scoring;

use super::{ChainPlan, ChainResult, Probes, BATCH, ENTRY_LEVELS};

/// The chains of one agent added up (their index and seed are 0).
fn totals(results: &[ChainResult]) -> ChainResult {
    let mut t = ChainResult::new(0, 0, false);
    t.games = 0;
    for r in results {
        t.games += r.games;
        t.deaths += r.deaths;
        t.exposure += r.exposure;
        t.played += r.played;
        t.points += r.points;
        t.clears.add(&r.clears);
        t.probe_sum += r.probe_sum;
        t.batches.extend(&r.batches);
        t.branched += r.branched;
        t.windows += r.windows;
        if let Some(w) = r.weighed {
            t.weighed = Some(t.weighed.unwrap_or(0) + w);
        }
        t.windows_weighed += r.windows_weighed;
        for (t, r) in t.entries.iter_mut().zip(r.entries) {
            *t += r;
        }
    }
    t
}

impl ChainResult {
    /// The probe's mean and its standard error (batch means), if there are 2 batches or more.
    fn probe(&self) -> (f64, Option<f64>) {
        let mean = self.probe_sum / self.exposure.max(1) as f64;
        let se = (self.batches.len() >= 2).then(|| stats::mean_and_error(&self.batches).1);
        (mean, se)
    }
}

/// `x` in scientific notation with 3 significant digits (`6.25e-6`).
pub(super) fn sci(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return "inf".into();
    }
    format!("{x:.2e}")
}

/// The summary lines of one agent's chains.
pub(super) fn summary_lines(
    agent: &str,
    scoring: Scoring,
    plan: &ChainPlan,
    set_size: usize,
    results: &[ChainResult],
    secs: f64,
    threads: usize,
) -> Vec<String> {
    let t = totals(results);
    let e = t.exposure as f64;
    let (lo, hi) = stats::poisson_interval(t.deaths, 0.95);
    let mut out = vec![format!(
        "agent {agent} scoring {} chains {} chain-rounds {} burn-in {} deaths {} rounds {}",
        scoring.name(),
        results.len(),
        plan.rounds,
        plan.burn_in,
        t.deaths,
        t.exposure
    )];
    out.push(format!(
        "hazard {} per round (95% CI {} - {}, exact Poisson)",
        sci(t.deaths as f64 / e),
        sci(lo / e),
        sci(hi / e)
    ));
    let mean_game = if t.deaths == 0 {
        format!("over {:.0} rounds", e / hi)
    } else {
        format!(
            "{:.0} rounds (95% CI {:.0} - {:.0})",
            e / t.deaths as f64,
            e / hi,
            if lo > 0.0 { e / lo } else { f64::INFINITY }
        )
    };
    out.push(format!("mean game (1 / hazard) {mean_game}"));
    if let Some(p) = plan.probes {
        out.extend(probe_lines(&t, p, set_size));
    }
    if let Some(split) = plan.split {
        out.push(format!(
            "split {} copies of {}-round windows opened at probe {}: {} windows, {} branch rounds",
            split.copies,
            split.rounds,
            sci(split.at),
            t.windows,
            t.branched
        ));
    }
    if let Some(w) = t.weighed {
        let windows = match plan.split {
            Some(_) => format!(
                "; {} of {} windows opened on a board a weighed answer left",
                t.windows_weighed, t.windows
            ),
            None => String::new(),
        };
        out.push(format!(
            "weighed answers {w} of {} measured rounds ({:.2}%){windows}",
            t.exposure,
            100.0 * w as f64 / e.max(1.0)
        ));
    }
    out.push(format!(
        "points per round {:.2}",
        t.points as f64 / (t.exposure - t.deaths).max(1) as f64
    ));
    out.push(t.clears.line(t.exposure - t.deaths));
    out.push(format!(
        "rounds per second {:.0} ({:.0} per thread, {threads} threads, {secs:.1} s, {} rounds with burn-in)",
        t.played as f64 / secs,
        t.played as f64 / secs / threads as f64,
        t.played
    ));
    out
}

/// A chain's JSON object for `--jsonl`.
pub(super) fn json_line(
    r: &ChainResult,
    agent: &str,
    scoring: Scoring,
    plan: &ChainPlan,
) -> String {
    let probe = match plan.probes {
        Some(_) => format!("{:e}", r.probe_sum / r.exposure.max(1) as f64),
        None => "null".into(),
    };
    let weighed = r.weighed.map_or("null".into(), |w| w.to_string());
    let windows = match plan.split {
        Some(_) => r.windows.to_string(),
        None => "null".into(),
    };
    let entries = match plan.probes {
        Some(_) => format!("{:?}", r.entries),
        None => "null".into(),
    };
    format!(
        "{{\"chain\":{},\"seed\":{},\"agent\":\"{}\",\"scoring\":\"{}\",\"rounds\":{},\"burn_in\":{},\"deaths\":{},\"games\":{},\"played\":{},\"points\":{},{},\"probe\":{probe},\"weighed\":{weighed},\"windows\":{windows},\"entries\":{entries}}}",
        r.index,
        r.seed,
        agent,
        scoring.name(),
        r.exposure,
        plan.burn_in,
        r.deaths,
        r.games,
        r.played,
        r.points,
        r.clears.json()
    )
}

/// The comparison lines of two agents' chains: hazard ratio and, with split windows, window
/// ratio (both exact conditional), then the probe ratio (delta method on the log scale, the
/// two estimates taken as independent).
pub(super) fn compare_lines(names: [&str; 2], a: &[ChainResult], b: &[ChainResult]) -> Vec<String> {
    let (ta, tb) = (totals(a), totals(b));
    let shown = |x: f64| {
        if x.is_nan() {
            "n/a".into()
        } else if x.is_finite() {
            format!("{x:.3}")
        } else {
            "inf".into()
        }
    };
    // A's count over B's, per measured round: exact conditional interval and p-value.
    let counts = |what: &str, a: u64, b: u64, unit: &str| {
        let r = stats::rate_ratio(a, ta.exposure as f64, b, tb.exposure as f64, 0.95);
        format!(
            "compare {} / {}: {what} ratio {} (95% CI {} - {}, exact conditional on {} {unit}), p-value {:.4}",
            names[0],
            names[1],
            shown(r.ratio),
            shown(r.low),
            shown(r.high),
            a + b,
            r.p_value
        )
    };
    let mut out = vec![counts("hazard", ta.deaths, tb.deaths, "deaths")];
    if ta.windows + tb.windows > 0 {
        // Crisis entry: how often each agent's boards opened a split window.
        out.push(counts(
            "window",
            ta.windows,
            tb.windows,
            "windows, taken as independent",
        ));
    }
    for ((level, a), b) in ENTRY_LEVELS.iter().zip(ta.entries).zip(tb.entries) {
        if a + b > 0 {
            // Entries into a crowded stretch, taken as independent as the windows are.
            out.push(counts(
                &format!("entries at {}", sci(*level)),
                a,
                b,
                "entries, taken as independent",
            ));
        }
    }
    let ((ma, sa), (mb, sb)) = (ta.probe(), tb.probe());
    if let (Some(sa), Some(sb)) = (sa, sb) {
        if ma > 0.0 && mb > 0.0 {
            let ratio = ma / mb;
            let se = ((sa / ma).powi(2) + (sb / mb).powi(2)).sqrt();
            out.push(format!(
                "compare {} / {}: probe ratio {:.3} (95% CI {:.3} - {:.3})",
                names[0],
                names[1],
                ratio,
                ratio * (-1.96 * se).exp(),
                ratio * (1.96 * se).exp()
            ));
        }
    }
    out
}

/// The probe's lines of one agent's summary: its hazard estimate and its entries.
fn probe_lines(t: &ChainResult, p: Probes, set_size: usize) -> [String; 2] {
    let e = t.exposure as f64;
    let (m, se) = t.probe();
    let how = p.describe(set_size);
    let hazard = match se {
        Some(se) => format!(
            "probe hazard {} per round (95% CI {} - {}; {how}; standard error over {} batches of {BATCH} rounds)",
            sci(m),
            sci((m - 1.96 * se).max(0.0)),
            sci(m + 1.96 * se),
            t.batches.len()
        ),
        None => format!(
            "probe hazard {} per round (no interval: fewer than 2 batches of {BATCH} rounds; {how})",
            sci(m)
        ),
    };
    let levels: Vec<String> = ENTRY_LEVELS
        .iter()
        .zip(t.entries)
        .map(|(level, n)| {
            format!(
                "{}: {n} ({:.3} per 1000)",
                sci(*level),
                1000.0 * n as f64 / e.max(1.0)
            )
        })
        .collect();
    [hazard, format!("probe entries at {}", levels.join(", "))]
}
