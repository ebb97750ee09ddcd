//! Starts the lab in the page.

// Talc instead of Rust's default dlmalloc: 2.3 KB less gzip, and the same edit and campaign
// figures in interleaved runs. Only the lab's binary sets it; the empty Yew page the budget
// compares against keeps the default.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    mrtr_lab::start();
}
