//! The lock-free transposition table shared by the search threads: two words per slot,
//! key XOR data, so a torn write reads as a miss. Entries of earlier searches are told
//! apart by a generation instead of being cleared.

use std::sync::atomic::{AtomicU64, Ordering};

/// Lock-free transposition table shared by the search threads (key XOR data check).
pub struct Table {
    pub(super) slots: Vec<[AtomicU64; 2]>,
    pub(super) mask: usize,
    pub(super) generation: AtomicU64,
}

/// What a stored value says about the true value (Stockfish's `BOUND_EXACT`,
/// `BOUND_LOWER`, `BOUND_UPPER`). The discriminants are the two bits stored in a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// The value is exact.
    Exact = 0,
    /// The true value is at least this (a beta cut-off).
    Lower = 1,
    /// The true value is at most this (no move raised alpha).
    Upper = 2,
}

impl Bound {
    fn from_bits(bits: u8) -> Bound {
        match bits {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) value: i32,
    pub(super) depth: u8,
    pub(super) bound: Bound,
    pub(super) best: u16,
    /// The value does not depend on the depth: no horizon and no unproven entry below it,
    /// so it holds at any depth and may back an `exact` score.
    pub(super) proven: bool,
}

impl Table {
    /// A table of 2^`bits` entries.
    pub fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table {
            slots: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: n - 1,
            generation: AtomicU64::new(1),
        }
    }

    /// Forgets everything (new game, or determinism for a fresh search).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    /// The entry of `hash` stored in search `generation` ([`Table::generation`] when the
    /// searching thread started: a helper still running when the next search starts keeps
    /// its own, so its entries, made in another root's game, are never read as this one's).
    pub(super) fn probe(&self, hash: u64, generation: u16) -> Option<Entry> {
        let s = &self.slots[hash as usize & self.mask];
        let key = s[0].load(Ordering::Relaxed);
        let data = s[1].load(Ordering::Relaxed);
        if key ^ data != hash || data & VALID == 0 || (data >> 32) as u16 != generation {
            return None;
        }
        Some(Entry {
            value: data as u16 as i16 as i32,
            depth: (data >> 16) as u8,
            bound: Bound::from_bits((data >> 24) as u8 & 3),
            best: (data >> 48) as u16,
            proven: data & PROVEN != 0,
        })
    }

    /// Stores `e` for `hash` as an entry of search `generation` (see [`Table::probe`]).
    pub(super) fn store(&self, hash: u64, e: Entry, generation: u16) {
        let s = &self.slots[hash as usize & self.mask];
        let old = s[1].load(Ordering::Relaxed);
        let gen = generation;
        // Keep a deeper entry of the same position unless this one is exact; never let an
        // unproven entry replace a proven one.
        if s[0].load(Ordering::Relaxed) ^ old == hash && (old >> 32) as u16 == gen {
            let old_proven = old & PROVEN != 0;
            if (old_proven && !e.proven)
                || ((old >> 16) as u8 > e.depth && e.bound != Bound::Exact && !e.proven)
            {
                return;
            }
        }
        let data = (e.value.clamp(-32000, 32000) as i16 as u16 as u64)
            | ((e.depth as u64) << 16)
            | ((e.bound as u64) << 24)
            | VALID
            | if e.proven { PROVEN } else { 0 }
            | ((gen as u64) << 32)
            | ((e.best as u64) << 48);
        s[0].store(hash ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }

    pub(super) fn generation(&self) -> u16 {
        self.generation.load(Ordering::Relaxed) as u16
    }

    /// Starts a new search: entries of earlier searches are ignored from now on, which is
    /// what a clear would do, without touching every slot.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }
}

pub(super) const VALID: u64 = 1 << 26;
/// Set in a slot whose value is proven ([`Entry::proven`]).
pub(super) const PROVEN: u64 = 1 << 27;
