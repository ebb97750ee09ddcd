//! Starts the lab in the page.

fn main() {
    mrtr_lab::start();
}
