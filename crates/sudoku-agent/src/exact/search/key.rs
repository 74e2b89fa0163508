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
        let identity = &self.t.symmetries[0];
        let Some(mut best) = self.key_under(identity, &live[..cells], playable, None) else {
            unreachable!("a key without a bound is always given");
        };
        let filled = cells - self.empty.count_ones() as usize;
        let maps = if filled <= self.t.symmetric_fill {
            &self.t.symmetries[1..]
        } else {
            &[]
        };
        for map in maps {
            if let Some(key) = self.key_under(map, &live[..cells], playable, Some(&best)) {
                if key < best {
                    best = key;
                }
            }
        }
        best
    }

    /// The key of the state seen through the cell map `map` (new cell `i` shows old cell
    /// `map[i]`), values renamed in order of first appearance, then values not on the board
    /// by where they are taboo-listed (values alike in both are interchangeable); without
    /// [`super::Tables::rename_values`] the values as they are. `None` when the key is
    /// certainly bigger than `best` (its first complete words already are).
    fn key_under(
        &self,
        map: &[usize],
        live: &[u32],
        playable: [u128; 2],
        best: Option<&Key<K>>,
    ) -> Option<Key<K>> {
        let size = self.t.size;
        let identity = std::ptr::eq(map, self.t.symmetries[0].as_slice());
        let mut label = [0u8; 33];
        let mut next = 1u8;
        if !self.t.rename_values {
            for (v, l) in label.iter_mut().enumerate().skip(1).take(size) {
                *l = v as u8;
            }
            next = size as u8 + 1;
        }
        let mut key = Packer {
            words: [0u64; K],
            at: 0,
        };
        // Values not on the board are renamed after these, so the labels of the values on
        // the board are final as soon as they are given.
        for &cell in map {
            let v = self.values[cell] as usize;
            if v != 0 && label[v] == 0 {
                label[v] = next;
                next += 1;
            }
            key.put(label[v] as u64, self.t.value_bits);
        }
        if !self.t.classic {
            let mut moved = playable;
            if !identity {
                moved = [0; 2];
                for (i, &cell) in map.iter().enumerate() {
                    moved[0] |= ((playable[0] >> cell) & 1) << i;
                    moved[1] |= ((playable[1] >> cell) & 1) << i;
                }
            }
            key.put_wide(moved[0], self.t.cells);
            key.put_wide(moved[1], self.t.cells);
        }
        if let Some(best) = best {
            let done = key.at / 64;
            if key.words[..done] > best.0[..done] {
                return None;
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
        let renamed = |cell: usize| -> u64 {
            let mut values = live[cell];
            if !self.t.rename_values {
                return values as u64;
            }
            let mut renamed = 0u64;
            while values != 0 {
                let v = values.trailing_zeros() as usize + 1;
                values &= values - 1;
                renamed |= 1 << (label[v] - 1);
            }
            renamed
        };
        if identity {
            // The empty cells in their order, without a pass over the filled ones.
            let mut empty = self.empty;
            while empty != 0 {
                let cell = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                key.put(renamed(cell), size);
            }
        } else {
            for &cell in map {
                if self.values[cell] == 0 {
                    key.put(renamed(cell), size);
                }
            }
        }
        key.put(self.turn as u64, 1);
        Some(Key(key.words))
    }
}

/// Key words filled from the lowest bit up.
struct Packer<const K: usize> {
    words: [u64; K],
    at: usize,
}

impl<const K: usize> Packer<K> {
    /// Appends the low `width` bits of `bits` (`width` at most 64).
    #[inline]
    fn put(&mut self, bits: u64, width: usize) {
        if width == 0 {
            return;
        }
        let bits = bits & (u64::MAX >> (64 - width));
        let (w, b) = (self.at / 64, self.at % 64);
        self.words[w] |= bits << b;
        if b + width > 64 {
            self.words[w + 1] |= bits >> (64 - b);
        }
        self.at += width;
    }

    /// Appends the low `width` bits of `bits` (`width` at most 128).
    #[inline]
    fn put_wide(&mut self, bits: u128, width: usize) {
        let low = width.min(64);
        self.put(bits as u64, low);
        self.put((bits >> 64) as u64, width - low);
    }
}
