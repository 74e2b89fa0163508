//! The dealer and the hazard of a board: a hand is three pieces of a set dealt uniformly with
//! replacement, and the chance that the next hand cannot be placed at all on a board is the
//! chance the game ends there. It depends on the board and the set only, not on who plays,
//! so it measures any engine with far less noise than counting deaths, and an engine can
//! steer by it.
//!
//! [`Dealer::dead_chance`] is exact: it visits every multiset of three pieces (18,424 for
//! the 47 catalogue pieces) with its weight among the `n^3` ordered deals. Most hands are
//! settled by a greedy test (each piece at its lowest fitting anchor, in the three orders
//! that end with a different piece); only the rest go to the full search of
//! [`can_place_all`].

use super::board::Board;
use super::game::can_place_all;
use super::piece::Piece;
use crate::rng::SplitMix64;

/// The most pieces a dealt set may hold. The exact chance of a dead hand visits every
/// multiset of three pieces, `n (n + 1) (n + 2) / 6` of them, and keeps a board for each of
/// the `n^2` ordered pairs: 128 pieces take 357,760 multisets (19 times the 47 catalogue
/// pieces' 18,424) and 16,384 pairs, where a set of half a million pieces (a 1 MiB piece
/// file) would take 10^16 hands and terabytes. Programs that read a piece set refuse a
/// larger one.
pub const MAX_SET_PIECES: usize = 128;

/// A set of pieces dealt three at a time, uniformly with replacement.
#[derive(Clone, Copy, Debug)]
pub struct Dealer<'a> {
    set: &'a [Piece],
}

/// The board after `piece` at its lowest fitting anchor (cleared), or `None` when it fits
/// nowhere.
#[inline]
fn greedy(board: Board, piece: &Piece) -> Option<Board> {
    let fits = piece.fit_anchors(board);
    if fits == 0 {
        return None;
    }
    let a = fits.trailing_zeros() as usize;
    let mask = piece.mask_at(a / 9, a % 9)?;
    Some(board.place_mask(mask).0)
}

impl<'a> Dealer<'a> {
    /// A dealer of `set` (at least one piece, at most [`MAX_SET_PIECES`] for the exact
    /// chances to stay affordable).
    pub fn new(set: &'a [Piece]) -> Dealer<'a> {
        assert!(!set.is_empty(), "a dealer needs pieces");
        Dealer { set }
    }

    /// The pieces dealt.
    pub fn set(&self) -> &'a [Piece] {
        self.set
    }

    /// The exact chance that a hand dealt now cannot be placed on `board`.
    pub fn dead_chance(&self, board: Board) -> f64 {
        let dead = self.dead_deals(board);
        let n = self.set.len() as f64;
        dead as f64 / (n * n * n)
    }

    /// How many of the `n^3` ordered deals cannot be placed on `board`.
    pub fn dead_deals(&self, board: Board) -> u64 {
        self.dead_deals_until(board, || true)
            .expect("never interrupted")
    }

    /// [`Dealer::dead_deals`], asking `keep_going` between pairs of pieces (about a thousand
    /// times) and giving up with `None` when it says no: a search that must answer now can
    /// stop a slow count on a crowded board.
    pub fn dead_deals_until(
        &self,
        board: Board,
        mut keep_going: impl FnMut() -> bool,
    ) -> Option<u64> {
        let set = self.set;
        let n = set.len();
        let firsts: Vec<Option<Board>> = set.iter().map(|p| greedy(board, p)).collect();
        // Greedy boards after two pieces (x then y, x <= y by index), filled on demand.
        let mut pairs: Vec<Option<Option<Board>>> = vec![None; n * n];
        let mut pair = |x: usize, y: usize| -> Option<Board> {
            *pairs[x * n + y].get_or_insert_with(|| firsts[x].and_then(|b| greedy(b, &set[y])))
        };
        let mut dead = 0u64;
        for a in 0..n {
            for b in a..n {
                if !keep_going() {
                    return None;
                }
                let ab = pair(a, b);
                for c in b..n {
                    let fits_after = |two: Option<Board>, last: usize| {
                        two.is_some_and(|t| set[last].fit_anchors(t) != 0)
                    };
                    if fits_after(ab, c) || fits_after(pair(a, c), b) || fits_after(pair(b, c), a) {
                        continue;
                    }
                    if can_place_all(board, &[&set[a], &set[b], &set[c]]) {
                        continue;
                    }
                    // Ordered deals of this multiset: 6, 3 or 1.
                    dead += match (a == b, b == c) {
                        (false, false) => 6,
                        (true, true) => 1,
                        _ => 3,
                    };
                }
            }
        }
        Some(dead)
    }

    /// Whether some two pieces of the set (the same piece twice included) cannot both be
    /// placed on `board`, in either order: a board in crisis, where every hand holding them
    /// dies unless its third piece clears room first. Nearly every board whose next hand dies
    /// with chance 0.001 or more has one. Far cheaper than [`Dealer::dead_deals`] (pairs, not
    /// triples; it stops at the first dead pair), so a search can ask it of many boards.
    pub fn has_dead_pair(&self, board: Board) -> bool {
        let set = self.set;
        // Where each piece fits. A placement of `a` overlaps at most `|a| * |b|` placements of
        // `b` (one per pair of their cells), so `b` with more fits than that still fits after
        // any placement of `a` (clears only empty cells): such a pair is never dead, and on
        // most boards that settles every pair without placing anything.
        let fits: Vec<u128> = set.iter().map(|p| p.fit_anchors(board)).collect();
        if fits.contains(&0) {
            return true;
        }
        let mut firsts: Vec<Option<Board>> = vec![None; set.len()];
        let mut first = |i: usize| -> Board {
            *firsts[i].get_or_insert_with(|| greedy(board, &set[i]).expect("it fits"))
        };
        // Piece `b` fits after piece `a` at some placement of `a`.
        let fits_after = |a: usize, b: usize| {
            super::masks::cells(fits[a]).any(|anchor| {
                set[a]
                    .mask_at(anchor / 9, anchor % 9)
                    .is_some_and(|m| set[b].fit_anchors(board.place_mask(m).0) != 0)
            })
        };
        for (a, pa) in set.iter().enumerate() {
            for (b, pb) in set.iter().enumerate().skip(a) {
                let overlaps = pa.size() * pb.size();
                if fits[a].count_ones() > overlaps || fits[b].count_ones() > overlaps {
                    continue;
                }
                if pb.fit_anchors(first(a)) != 0 || pa.fit_anchors(first(b)) != 0 {
                    continue;
                }
                if !fits_after(a, b) && !fits_after(b, a) {
                    return true;
                }
            }
        }
        false
    }

    /// A hand of three pieces (indices into the set) drawn with `rng`.
    pub fn deal(&self, rng: &mut SplitMix64) -> [usize; 3] {
        let n = self.set.len();
        [rng.below(n), rng.below(n), rng.below(n)]
    }

    /// The share of `samples` hands drawn with `rng` that cannot be placed on `board`: an
    /// unbiased estimate of [`Dealer::dead_chance`].
    pub fn dead_chance_sampled(&self, board: Board, samples: u64, rng: &mut SplitMix64) -> f64 {
        if samples == 0 {
            return 0.0;
        }
        let dead = (0..samples)
            .filter(|_| {
                let h = self.deal(rng);
                !can_place_all(board, &[&self.set[h[0]], &self.set[h[1]], &self.set[h[2]]])
            })
            .count();
        dead as f64 / samples as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blockudoku::{catalogue, cell_bit, FULL};

    fn p(id: usize) -> Piece {
        Piece::catalogue(id).unwrap().clone()
    }

    // Every ordered deal checked by the rules' own test, no shortcuts.
    fn brute_dead_deals(set: &[Piece], board: Board) -> u64 {
        let mut dead = 0;
        for a in set {
            for b in set {
                for c in set {
                    dead += !can_place_all(board, &[a, b, c]) as u64;
                }
            }
        }
        dead
    }

    #[test]
    fn small_sets_match_brute_force() {
        let mut rng = crate::rng::SplitMix64(11);
        let sets = [
            vec![p(1), p(4), p(28)],
            vec![p(8), p(9), p(28), p(32), p(33), p(6)],
            vec![p(14), p(20), p(40), p(41), p(45), p(47), p(2)],
        ];
        for set in &sets {
            let dealer = Dealer::new(set);
            for density in [0.3, 0.5, 0.6, 0.7, 0.8] {
                for _ in 0..25 {
                    let board = Board::from_fn(|_| rng.chance(density));
                    assert_eq!(
                        dealer.dead_deals(board),
                        brute_dead_deals(set, board),
                        "{board}"
                    );
                }
            }
        }
    }

    #[test]
    fn catalogue_matches_brute_force_on_crowded_boards() {
        let mut rng = crate::rng::SplitMix64(12);
        let dealer = Dealer::new(catalogue());
        for _ in 0..3 {
            let board = Board::from_fn(|_| rng.chance(0.62));
            assert_eq!(
                dealer.dead_deals(board),
                brute_dead_deals(catalogue(), board)
            );
        }
    }

    // A dead pair as defined: two pieces of the set the rules' own test cannot place.
    #[test]
    fn dead_pairs_match_brute_force() {
        let mut rng = crate::rng::SplitMix64(13);
        // Boards of each density, `per` of them: has_dead_pair against the definition (two
        // pieces of `set` the rules' own test cannot place); how many were dead and live.
        let mut check = |set: &[Piece], densities: &[f64], per: usize| {
            let dealer = Dealer::new(set);
            let (mut dead, mut live) = (0, 0);
            for &density in densities {
                for _ in 0..per {
                    let board = Board::from_fn(|_| rng.chance(density));
                    let brute = set
                        .iter()
                        .any(|a| set.iter().any(|b| !can_place_all(board, &[a, b])));
                    assert_eq!(dealer.has_dead_pair(board), brute, "{board}");
                    dead += brute as u32;
                    live += !brute as u32;
                }
            }
            (dead, live)
        };
        let (dead, live) = check(catalogue(), &[0.05, 0.1, 0.15, 0.2, 0.3, 0.4], 12);
        assert!(dead > 5 && live > 5, "dead {dead} live {live}");
        assert!(!Dealer::new(catalogue()).has_dead_pair(Board::EMPTY));
        // Small pieces on crowded boards: pairs that fit one by one but not together, and
        // pairs only a placement other than the lowest one lets in.
        let small = [p(1), p(4), p(5), p(10), p(28)];
        let (dead, live) = check(&small, &[0.7, 0.75, 0.8, 0.85], 40);
        assert!(dead > 5 && live > 5, "small set: dead {dead} live {live}");
    }

    #[test]
    fn known_boards() {
        let dealer = Dealer::new(catalogue());
        assert_eq!(dealer.dead_chance(Board::EMPTY), 0.0);
        // One hole: a dot fills it and clears everything, so a hand with a dot lives and a
        // hand without one dies.
        let board = Board::from_bits(FULL & !cell_bit(0, 0));
        let no_dot = 46u64 * 46 * 46;
        assert_eq!(dealer.dead_deals(board), no_dot);
        let set = [p(1), p(4)];
        let d = Dealer::new(&set);
        assert_eq!(d.dead_chance(board), 1.0 / 8.0);
    }

    #[test]
    fn sampling_estimates_the_exact_chance() {
        let set = [p(1), p(4)];
        let dealer = Dealer::new(&set);
        let board = Board::from_bits(FULL & !cell_bit(0, 0));
        let mut rng = SplitMix64(5);
        let est = dealer.dead_chance_sampled(board, 20_000, &mut rng);
        // Exact 1/8; 20,000 samples have standard error 0.0023.
        assert!((est - 0.125).abs() < 0.012, "{est}");
        assert_eq!(dealer.dead_chance_sampled(board, 0, &mut rng), 0.0);
    }
}
