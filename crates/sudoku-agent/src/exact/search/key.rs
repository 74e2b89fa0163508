//! State keys of the exact search: the value of every cell, the reach of each player, the
//! taboo-listed moves still proposable and the player to move, packed into `K` words and
//! minimised over the board's symmetries and renamings of the values (a solve over the
//! empty cells of a big board has neither: its keys are the state as it is).

use std::hash::{Hash, Hasher};

use smallvec::SmallVec;

use super::{Search, MAX_CELLS};

/// A state key of `K` words (see the module comment).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Key<const K: usize>([u64; K]);

impl<const K: usize> Hash for Key<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for &w in &self.0 {
            state.write_u64(w);
        }
    }
}

impl<const K: usize> Search<'_, K> {
    /// The state's key: the smallest over the symmetries of the board and renamings of
    /// the values.
    pub(super) fn key(&self) -> Key<K> {
        let cells = self.t.cells;
        let mut live = [0u32; MAX_CELLS];
        let mut empty = self.empty;
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            live[cell] = self.listed[cell] & self.free_values(cell);
        }
        let playable = [self.playable(0), self.playable(1)];
        let mut best = self.key_under(&self.t.symmetries[0], &live[..cells], playable);
        let filled = cells - self.empty.count_ones() as usize;
        let maps = if filled <= self.t.symmetric_fill {
            &self.t.symmetries[1..]
        } else {
            &[]
        };
        for map in maps {
            let key = self.key_under(map, &live[..cells], playable);
            if key < best {
                best = key;
            }
        }
        best
    }

    /// The key of the state seen through the cell map `map` (new cell `i` shows old cell
    /// `map[i]`), values renamed in order of first appearance, then values not on the board
    /// by where they are taboo-listed (values alike in both are interchangeable); without
    /// [`super::Tables::rename_values`] the values as they are.
    fn key_under(&self, map: &[usize], live: &[u32], playable: [u128; 2]) -> Key<K> {
        let size = self.t.size;
        let mut label = [0u8; 33];
        let mut next = 1u8;
        if !self.t.rename_values {
            for (v, l) in label.iter_mut().enumerate().skip(1).take(size) {
                *l = v as u8;
            }
            next = size as u8 + 1;
        }
        for &cell in map {
            let v = self.values[cell] as usize;
            if v != 0 && label[v] == 0 {
                label[v] = next;
                next += 1;
            }
        }
        if (next as usize) <= size {
            let mut signature = [0u128; 33];
            for (i, &cell) in map.iter().enumerate() {
                let mut values = live[cell];
                while values != 0 {
                    let v = values.trailing_zeros() as usize + 1;
                    values &= values - 1;
                    signature[v] |= 1u128 << i;
                }
            }
            let mut rest: SmallVec<[usize; 32]> = (1..=size).filter(|&v| label[v] == 0).collect();
            rest.sort_by_key(|&v| std::cmp::Reverse(signature[v]));
            for v in rest {
                label[v] = next;
                next += 1;
            }
        }
        let mut words = [0u64; K];
        let mut at = 0usize;
        let mut put = |bits: u128, width: usize| {
            let mut bits = bits;
            let mut width = width;
            while width > 0 {
                let (w, b) = (at / 64, at % 64);
                let take = width.min(64 - b);
                let chunk = (bits as u64) & (u64::MAX >> (64 - take));
                words[w] |= chunk << b;
                bits >>= take;
                width -= take;
                at += take;
            }
        };
        for &cell in map {
            put(label[self.values[cell] as usize] as u128, self.t.value_bits);
        }
        if !self.t.classic {
            for mask in playable {
                let moved = map
                    .iter()
                    .enumerate()
                    .fold(0u128, |acc, (i, &cell)| acc | ((mask >> cell) & 1) << i);
                put(moved, self.t.cells);
            }
        }
        for &cell in map {
            if self.values[cell] == 0 {
                let mut values = live[cell];
                let mut renamed = 0u32;
                while values != 0 {
                    let v = values.trailing_zeros() as usize + 1;
                    values &= values - 1;
                    renamed |= 1 << (label[v] - 1);
                }
                put(renamed as u128, size);
            }
        }
        put(self.turn as u128, 1);
        Key(words)
    }
}
