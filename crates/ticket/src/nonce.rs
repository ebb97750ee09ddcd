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
