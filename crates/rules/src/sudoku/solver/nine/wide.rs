//! The pieces of the band logic written for AVX-512 ([`super::Path::Avx512`]): only called
//! from the copy of the solver compiled with those features.

use super::Grid;

impl Grid {
    /// [`Grid::changed_words`] with two 16-word compares into mask registers.
    #[inline(always)]
    pub(super) fn changed_words_wide(&self) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                _mm512_cmpneq_epu32_mask, _mm512_loadu_si512, _mm512_maskz_loadu_epi32,
            };
            let (poss, seen) = (
                self.poss.as_ptr() as *const i32,
                self.seen.as_ptr() as *const i32,
            );
            // SAFETY: only called from the AVX-512 copy, which runs only on CPUs with
            // AVX-512F (`Path::is_supported`); the full loads read words 0..16 of the
            // 27-word arrays, the masked ones words 16..27 (the masked-off lanes are not read).
            unsafe {
                let low = _mm512_cmpneq_epu32_mask(
                    _mm512_loadu_si512(poss as *const _),
                    _mm512_loadu_si512(seen as *const _),
                );
                let high = _mm512_cmpneq_epu32_mask(
                    _mm512_maskz_loadu_epi32(0x7ff, poss.add(16)),
                    _mm512_maskz_loadu_epi32(0x7ff, seen.add(16)),
                );
                low as u32 | (high as u32) << 16
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.changed_words()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Path;
    use super::*;

    #[test]
    fn changed_words_agree_with_the_scalar_version() {
        if !Path::Avx512.is_supported() {
            return;
        }
        let mut x = 20_261_202u32;
        let mut changes = 0;
        for _ in 0..300 {
            let mut grid = Grid::from_cells(&[0; 81]);
            for (p, s) in grid.poss.iter_mut().zip(grid.seen.iter_mut()) {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                *p = x >> 5;
                // About one word in four differs from what was seen.
                *s = if x & 3 == 0 { *p ^ (x >> 13 | 1) } else { *p };
            }
            let scalar = grid.changed_words();
            assert_eq!(grid.changed_words_wide(), scalar);
            changes += scalar.count_ones();
        }
        assert!(changes > 300, "{changes}");
    }
}
