//! Fuzzes the probe with a hostile server: every attack of the battery against replies and a
//! ticket made of arbitrary bytes (`mrtr_probe::hostile`). No input may panic the probe or
//! keep an attack going past its step limit.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    mrtr_probe::hostile::play(data);
});
