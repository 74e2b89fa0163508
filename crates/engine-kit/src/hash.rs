//! A fast hasher for search tables whose keys are whole machine words (board bits, packed
//! states): one rotate, xor and multiply per word (the Fx hash of rustc). Keys are exact,
//! not attacker-chosen, so only speed matters; std's SipHash would cost more than the
//! lookup it serves. Fed words with `write_u64`, its values are fixed by this code alone,
//! the same on every platform and Rust release, so it also seeds reproducible answers.

use std::hash::{BuildHasherDefault, Hasher};

/// The Fx word hasher: feed it words with `write_u64` (or `write_u128`, two words).
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

/// Builds [`WordHasher`]s, for `HashMap<K, V, WordHash>` and `HashSet<K, WordHash>`.
pub type WordHash = BuildHasherDefault<WordHasher>;

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }

    fn write_u8(&mut self, byte: u8) {
        self.write_u64(byte as u64);
    }

    fn write_u16(&mut self, half: u16) {
        self.write_u64(half as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(t: &T) -> u64 {
        WordHash::default().hash_one(t)
    }

    #[test]
    fn a_u128_hashes_as_its_two_words() {
        let mut h = WordHasher::default();
        h.write_u64(7);
        h.write_u64(9);
        let mut w = WordHasher::default();
        w.write_u128(7 | (9u128 << 64));
        assert_eq!(h.finish(), w.finish());
    }

    #[test]
    fn word_values_are_fixed_by_this_code() {
        let mut h = WordHasher::default();
        h.write_u64(1);
        assert_eq!(h.finish(), 0x51_7c_c1_b7_27_22_0a_95);
        h.write_u64(2);
        let expected = (0x51_7c_c1_b7_27_22_0a_95u64.rotate_left(5) ^ 2)
            .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        assert_eq!(h.finish(), expected);
    }

    #[test]
    fn nearby_keys_hash_apart() {
        let hashes: std::collections::HashSet<u64> = (0u64..1000).map(|k| hash(&k)).collect();
        assert_eq!(hashes.len(), 1000);
        assert_ne!(hash(&(1u128, 0u16)), hash(&(1u128, 1u16)));
    }
}
