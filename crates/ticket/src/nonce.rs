//! Randomness comes from the caller: the codec draws none of its own.

/// A source of random bytes for ticket nonces (and, in sealed mode, AEAD nonces).
///
/// A real server passes its operating system's CSPRNG; the simulation passes a seeded,
/// portable generator so that every run is reproducible.
pub trait NonceSource {
    /// Fills `dest` with random bytes.
    fn fill(&mut self, dest: &mut [u8]);
}

impl<F: FnMut(&mut [u8])> NonceSource for F {
    fn fill(&mut self, dest: &mut [u8]) {
        self(dest)
    }
}

/// Repeats one fixed byte pattern: for known-answer vectors only, never for a server.
#[derive(Debug, Clone)]
pub struct FixedNonces(pub Vec<u8>);

impl NonceSource for FixedNonces {
    fn fill(&mut self, dest: &mut [u8]) {
        for (i, byte) in dest.iter_mut().enumerate() {
            *byte = self.0.get(i % self.0.len().max(1)).copied().unwrap_or(0);
        }
    }
}

/// The workspace's one seeded generator, SplitMix64 (Steele, Lea and Flood 2014): small,
/// fast, portable, the same sequence on every platform for the same seed. The simulation's
/// world draws from it, and the tests draw their cases from it. Never for a real server's
/// nonces: the lab's only need to be distinct and reproducible.
///
/// ```
/// use mrtr_ticket::SplitMix64;
/// let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator that always produces the same sequence for the same seed.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}

impl NonceSource for SplitMix64 {
    fn fill(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        // A fixed value guards against an accidental change of algorithm.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }
}
