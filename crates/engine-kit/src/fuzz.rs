//! The parser fuzz both engines run in their tests: seeded lines of random bytes, of the
//! words of the engine's grammar and the shared head's ([`HEAD_WORDS`]), or of random
//! tokens drawn from the engine's alphabet; and the check every refusal must pass, one
//! printable line ([`assert_one_line`]).

/// The shared head's words and numbers at and past its ranges' ends.
pub const HEAD_WORDS: [&str; 19] = [
    "hello",
    "isready",
    "setoption",
    "name",
    "value",
    "Threads",
    "newgame",
    "go",
    "movetime",
    "nodes",
    "depth",
    "infinite",
    "stop",
    "quit",
    "0",
    "1",
    "-5",
    "86400001",
    "18446744073709551616",
];

/// Seeded fuzz lines (an endless iterator).
pub struct Lines {
    state: u64,
    words: Vec<&'static str>,
    alphabet: Vec<char>,
}

impl Lines {
    /// Lines from `seed` of the engine's `words` and the shared head's, and of tokens made
    /// of the characters of `alphabet` (boards, pieces, moves).
    pub fn new(seed: u64, words: &[&'static str], alphabet: &str) -> Lines {
        let mut all = words.to_vec();
        all.extend(HEAD_WORDS);
        Lines {
            state: seed,
            words: all,
            alphabet: alphabet.chars().collect(),
        }
    }

    /// A number below `n` (SplitMix64).
    pub fn below(&mut self, n: usize) -> usize {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }

    /// One token: a word (seven times in ten), characters of the alphabet, or any
    /// characters at all.
    fn token(&mut self) -> String {
        match self.below(10) {
            0..=6 => {
                let i = self.below(self.words.len());
                self.words[i].to_string()
            }
            7 | 8 => {
                let n = self.below(100);
                (0..n)
                    .map(|_| {
                        let i = self.below(self.alphabet.len());
                        self.alphabet[i]
                    })
                    .collect()
            }
            _ => {
                let n = self.below(10);
                (0..n)
                    .filter_map(|_| char::from_u32(self.below(0x11_0000) as u32))
                    .collect()
            }
        }
    }
}

impl Iterator for Lines {
    type Item = String;

    /// Random bytes (three times in ten, read as UTF-8 with replacements), else up to 12
    /// tokens joined by spaces.
    fn next(&mut self) -> Option<String> {
        if self.below(10) < 3 {
            let bytes: Vec<u8> = (0..self.below(300))
                .map(|_| self.below(256) as u8)
                .collect();
            return Some(String::from_utf8_lossy(&bytes).into_owned());
        }
        let tokens: Vec<String> = (0..self.below(13)).map(|_| self.token()).collect();
        Some(tokens.join(" "))
    }
}

/// Panics unless `reply`, the refusal of `line`, is one printable line: not empty, no
/// control characters (and so no line end), no Unicode line separators.
pub fn assert_one_line(line: &str, reply: &str) {
    let bad = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
    assert!(
        !reply.is_empty() && !reply.chars().any(bad),
        "{line:?} -> {reply:?}"
    );
}

/// A count from the environment variable `var` (the fuzz's cases or seconds), `default`
/// without one.
pub fn from_env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_seeded_and_varied() {
        let a: Vec<String> = Lines::new(7, &["position"], ".#").take(50).collect();
        let b: Vec<String> = Lines::new(7, &["position"], ".#").take(50).collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|l| l.contains("position")));
        assert!(a.iter().any(|l| l.contains("go")));
        assert!(a.iter().any(|l| l.contains("##") || l.contains("..")));
    }

    #[test]
    #[should_panic]
    fn a_reply_of_two_lines_fails() {
        assert_one_line("x", "bad\nline");
    }
}
