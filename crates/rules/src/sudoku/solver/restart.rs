//! Restarts for the search for one solution, shared by the general and the 16x16 paths:
//! random choices among equals ([`Pick`]) and Luby's schedule of run lengths ([`find_one`]).

use super::answer::Tally;
use crate::rng::SplitMix64;

/// The `k`-th set bit of `bits` (from the lowest), as a mask.
pub(super) fn nth_bit(mut bits: u32, k: usize) -> u32 {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits & bits.wrapping_neg()
}

/// How a search chooses among equal options: the first (the complete search), or at random
/// (the restarts of [`find_one`]).
pub(super) struct Pick(pub(super) Option<SplitMix64>);

impl Pick {
    /// True with probability `1 / n` in a restart (reservoir sampling over ties), never
    /// in the complete search.
    pub(super) fn one_in(&mut self, n: usize) -> bool {
        self.0.as_mut().is_some_and(|rng| rng.below(n) == 0)
    }

    /// An index in `0..n` at random in a restart, `None` otherwise.
    pub(super) fn index(&mut self, n: u32) -> Option<usize> {
        self.0.as_mut().map(|rng| rng.below(n as usize))
    }
}

/// The best of a stream of offers by key (the greatest wins); in a restart equal keys are
/// chosen among at random (reservoir sampling: the `k`-th equal offer wins with probability
/// `1 / k`), in the complete search the first stays.
pub(super) struct Choice<K, T> {
    best: Option<(K, T)>,
    ties: usize,
}

impl<K: Ord, T> Choice<K, T> {
    pub(super) fn new() -> Choice<K, T> {
        Choice {
            best: None,
            ties: 0,
        }
    }

    /// Offers `item` with `key`.
    pub(super) fn offer(&mut self, key: K, item: T, pick: &mut Pick) {
        match &self.best {
            Some((best, _)) if key < *best => {}
            Some((best, _)) if key == *best => {
                self.ties += 1;
                if pick.one_in(self.ties) {
                    self.best = Some((key, item));
                }
            }
            _ => (self.best, self.ties) = (Some((key, item)), 1),
        }
    }

    /// The chosen offer, `None` when there was none.
    pub(super) fn best(self) -> Option<(K, T)> {
        self.best
    }
}

/// Search nodes of the shortest run at least; the runs of [`find_one`] take this, or the
/// open cells if more (a run places at least one value per node, so a shorter one could not
/// reach a solution even without a wrong guess), times the Luby sequence (1, 1, 2, 1, 1, 2,
/// 4, ...).
const RESTART_NODES: usize = 100;

/// The `i`-th term (from 1) of the Luby sequence.
fn luby(i: usize) -> usize {
    let mut i = i;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = usize::BITS - i.leading_zeros();
        if i == (1usize << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// Looks for one solution with restarts: a complete search that has not found one within its
/// run's nodes starts again with random choices and a longer run (Luby's schedule). Finding a
/// solution of a consistent but sparse large board takes a fixed-order search seconds or
/// minutes when an early guess was wrong, and randomised restarts milliseconds. The first run
/// is the plain search; a run that ends before its nodes run out has searched its whole tree,
/// so "no solution" stays a proof. The schedule does not depend on the budget, so a larger
/// budget replays a smaller one's runs and decides whatever that one decided.
///
/// `search` runs one complete search from the propagated root, choosing with the given
/// [`Pick`]; `open` is the root's open cells.
pub(super) fn find_one(
    open: usize,
    tally: &mut Tally,
    mut search: impl FnMut(&mut Tally, &mut Pick),
) {
    let budget = tally.max_nodes;
    let unit = RESTART_NODES.max(open);
    let mut pick = Pick(None);
    for run in 1.. {
        let end = budget.min(tally.nodes.saturating_add(unit * luby(run)));
        tally.max_nodes = end;
        search(tally, &mut pick);
        if tally.stopped {
            return;
        }
        tally.max_nodes = budget;
        if tally.count > 0 || tally.nodes <= end || end == budget {
            return;
        }
        tally.nodes = end;
        if pick.0.is_none() {
            pick = Pick(Some(SplitMix64(RESTART_SEED)));
        }
    }
}

/// The seed of the restarts' random choices (fixed: the same board gets the same answer).
const RESTART_SEED: u64 = 0x005E_ED0F_5D0C;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let terms: Vec<usize> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn nth_bit_counts_from_the_lowest() {
        assert_eq!(nth_bit(0b1011_0100, 0), 0b100);
        assert_eq!(nth_bit(0b1011_0100, 1), 0b1_0000);
        assert_eq!(nth_bit(0b1011_0100, 3), 0b1000_0000);
    }
}
