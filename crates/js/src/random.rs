//! Random bytes from the JS host's `crypto.getRandomValues` (browsers and Node 19+).

use mrtr_ticket::NonceSource;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(dest: &mut [u8]);
}

/// The host's CSPRNG.
#[derive(Debug)]
pub struct CryptoRandom;

impl NonceSource for CryptoRandom {
    fn fill(&mut self, dest: &mut [u8]) {
        get_random_values(dest);
    }
}
