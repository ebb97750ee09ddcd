//! Attack at scale: thousands of random malicious moves against the current server set-up,
//! run in slices of a few tens of milliseconds so the page never freezes, with a histogram
//! of the check that stopped each.

use super::{number_beside, region::heading};
use crate::state::Lab;
use mrtr_sim::campaign::{Campaign, Counts, Histogram, ACCEPTED};
use mrtr_sim::moves::Move;
use mrtr_ticket::Check;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use yew::prelude::*;

/// Moves played between two looks at the clock.
const BATCH: u64 = 256;
/// How long the campaign holds the page before it lets it repaint (and take input): well
/// under the 50 ms at which a task starts to feel like a freeze, and long enough that the
/// repaints and the yields between slices cost little of a run.
const SLICE_MS: f64 = 30.0;

/// Props of [`CampaignPanel`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// The lab, for its switches (protection, replay record).
    pub lab: Rc<Lab>,
    /// Where the lab runs (whether the panel is a region landmark, region.rs).
    pub host: crate::host::Host,
}

/// Where a run is.
#[derive(Debug, Default)]
struct Progress {
    running: bool,
    /// How many moves the run plays.
    count: u64,
    histogram: Histogram,
    elapsed_ms: f64,
}

/// The moves a run plays unless the student asks for another number, and the most it plays.
const DEFAULT_MOVES: u64 = 10_000;
const MAX_MOVES: u64 = 1_000_000;
/// The seed a run starts from unless the student writes another.
const DEFAULT_SEED: u64 = 42;

/// The verdicts in the order the server runs its checks (the first that fails stops a move),
/// the moves that passed them all last.
fn in_check_order(by_verdict: &Counts) -> impl Iterator<Item = (&str, u64)> {
    let order = Check::ALL.map(Check::id);
    let known = order.into_iter().chain([ACCEPTED]).filter_map(|v| by_verdict.iter().find(|(name, _)| *name == v));
    let others = by_verdict.iter().filter(move |(v, _)| *v != ACCEPTED && !order.contains(v));
    known.chain(others)
}

/// A histogram row's heading: the check's label and what it stops, or "Nothing".
fn stopped_by(verdict: &str) -> Html {
    match Check::from_id(verdict) {
        Some(check) => html! { <>{ check.label() }<span class="hint">{ format!(": {}", check.stops()) }</span></> },
        None if verdict == ACCEPTED => {
            html! { <>{ "Nothing" }<span class="hint">{ ": accepted, every check passed" }</span></> }
        }
        None => html! { verdict.to_owned() },
    }
}

/// A move's button label, for its id.
fn move_title(id: &str) -> &str {
    Move::from_id(id).map_or(id, |by| by.title())
}

/// A whole number with its thousands set apart: 10,000.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The campaign panel.
#[component(CampaignPanel)]
pub fn campaign_panel(props: &Props) -> Html {
    // The run's progress, which the run itself updates between slices, redrawing the panel.
    let latest = use_mut_ref(Progress::default);
    let redraw = use_force_update();
    let start = {
        let (redraw, latest) = (redraw.clone(), latest.clone());
        let (mode, record) = (props.lab.mode, props.lab.record);
        Callback::from(move |e: MouseEvent| {
            if latest.borrow().running {
                return;
            }
            // The fields are the browser's, read when the run starts.
            let count = number_beside(&e, ".campaign-form", "input[name=moves]", DEFAULT_MOVES, 1..=MAX_MOVES);
            let seed = number_beside(&e, ".campaign-form", "input[name=seed]", DEFAULT_SEED, 0..=u64::MAX);
            let campaign = Rc::new(RefCell::new(Campaign::new(seed, mode, record)));
            let (redraw, latest) = (redraw.clone(), latest.clone());
            *latest.borrow_mut() = Progress { running: true, count, ..Progress::default() };
            redraw.force_update();
            yew::platform::spawn_local(async move {
                let started = now_ms();
                let mut played = 0;
                while played < count {
                    let slice_started = now_ms();
                    while played < count && now_ms() - slice_started < SLICE_MS {
                        let step = BATCH.min(count - played);
                        campaign.borrow_mut().play(step);
                        played += step;
                    }
                    *latest.borrow_mut() = Progress {
                        running: played < count,
                        count,
                        histogram: campaign.borrow().histogram().clone(),
                        elapsed_ms: now_ms() - started,
                    };
                    redraw.force_update();
                    gloo::timers::future::sleep(Duration::ZERO).await;
                }
            });
        })
    };
    let progress = latest.borrow();
    let h = &progress.histogram;
    let total = h.total.max(1);
    // Whole milliseconds and moves per second, shares in tenths of a per cent: integers,
    // so no float is formatted (that would bring the float printer into the wasm).
    let elapsed_ms = progress.elapsed_ms.round() as u64;
    let per_second =
        if progress.elapsed_ms > 0.0 { (h.total as f64 / progress.elapsed_ms * 1000.0).round() as u64 } else { 0 };
    let share = |n: u64| {
        let tenths = (n * 1000 + total / 2) / total;
        format!("{}.{}", tenths / 10, tenths % 10)
    };
    html! {
        <section class="campaign" aria-labelledby={props.host.owns_document.then_some("campaign-title")}>
            { heading("campaign-title", "Attack at scale", None) }
            <p class="hint">{ format!(
                "Random malicious moves against this server set-up ({}, replay record {}): which check stops each, and what gets through.",
                match props.lab.mode { mrtr_ticket::Mode::Signed => "signed", mrtr_ticket::Mode::Sealed => "sealed", mrtr_ticket::Mode::Unsigned => "signing off" },
                match props.lab.record { mrtr_sim::cluster::RecordMode::Off => "off", _ => "on" },
            ) }</p>
            <div class="campaign-form">
                <label>{ "Moves " }<input type="number" name="moves" min="1" max={MAX_MOVES.to_string()} ~defaultValue={DEFAULT_MOVES.to_string()} /></label>
                <label>{ "Seed " }<input type="number" name="seed" min="0" ~defaultValue={DEFAULT_SEED.to_string()} /></label>
                <button type="button" onclick={start} disabled={progress.running}>{ if progress.running { "Running…" } else { "Run the campaign" } }</button>
            </div>
            // The bar once a run has started: it counts that run's moves.
            if progress.count > 0 {
                <progress max={progress.count.to_string()} value={h.total.to_string()} aria-label="Moves played">{ format!("{} of {}", h.total, progress.count) }</progress>
            }
            if h.total > 0 {
                <p class="campaign-rate">{ format!("{} moves in {} ms: {} moves per second", grouped(h.total), grouped(elapsed_ms), grouped(per_second)) }</p>
                <table class="histogram">
                    <caption>{ format!("What stopped {} moves", grouped(h.total)) }</caption>
                    { super::column_heads(&["Stopped by", "Moves", "Share"]) }
                    <tbody>
                        { for in_check_order(&h.by_verdict).map(|(verdict, n)| html! {
                            <tr>
                                <th scope="row">{ stopped_by(verdict) }</th>
                                <td>{ grouped(n) }</td>
                                <td><span class="bar" style={format!("width: {}%", share(n))}></span>{ format!(" {} %", share(n)) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                if h.slipped_through.is_empty() {
                    <p class="found">{ "No malicious move got through." }</p>
                } else {
                    <p class="found warn">{ format!("Got through: {}.", h.slipped_through.iter().map(|(by, n)| format!("{} × {}", move_title(by), grouped(n))).collect::<Vec<_>>().join(", ")) }</p>
                }
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_set_apart() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (10_000, "10,000"),
            (217_860, "217,860"),
            (1_000_000, "1,000,000"),
        ];
        for (n, text) in cases {
            assert_eq!(grouped(n), text);
        }
    }

    #[test]
    fn verdicts_come_in_the_order_the_checks_run_accepted_last() {
        let counts: Counts = [("accepted", 5), ("expiry", 1), ("shape", 2), ("signature", 3)].into_iter().collect();
        let order: Vec<&str> = in_check_order(&counts).map(|(v, _)| v).collect();
        assert_eq!(order, ["shape", "signature", "expiry", "accepted"]);
    }

    #[test]
    fn moves_are_named_as_on_their_buttons() {
        assert_eq!(move_title("send-twice"), "Send the honest retry twice");
        assert_eq!(move_title("no-such-move"), "no-such-move");
    }
}
