//! The clock timeline, as in the lesson: minted at 0 (or when round 2's ticket was), expiry
//! 120 s later, each attempt plotted at its time with its verdict.

use mrtr_sim::scenarios::{Answered, Verdict};
use yew::prelude::*;

// Whole SVG units: positions are rounded, so no float is ever formatted.
const WIDTH: i64 = 760;
const LEFT: i64 = 40;
const RIGHT: i64 = 40;

/// The timeline for these attempts on a ticket minted at `minted_ms` that lives `ttl_ms`.
pub fn diagram(verdicts: &[Verdict], minted_ms: u64, ttl_ms: u64) -> Html {
    let expires_ms = minted_ms + ttl_ms;
    let end = verdicts.iter().map(|v| v.at_ms).max().unwrap_or(0).max(expires_ms + ttl_ms / 2).max(1);
    let x = |ms: u64| LEFT + ((WIDTH - LEFT - RIGHT) as u128 * ms as u128 / end as u128) as i64;
    let height = 110 + 22 * verdicts.len() as i64;
    let (minted, expiry) = (x(minted_ms), x(expires_ms));
    let points = verdicts.iter().enumerate().map(|(i, v)| {
        let (cx, cy) = (x(v.at_ms), 92 + 22 * i as i64);
        let passed = matches!(v.answered, Answered::Accepted { .. });
        let mark = if passed { "✓" } else { "✗" };
        let state = if passed { "pass" } else { "fail" };
        let label = format!("{mark} {} s · {} · {}", v.at_ms / 1000, v.title, v.answered.word());
        let anchor = if cx > WIDTH * 3 / 5 { "end" } else { "start" };
        let tx = if anchor == "end" { cx - 9 } else { cx + 9 };
        html! {
            <g class="tl-verdict" data-state={state}>
                <line class="tl-drop" x1={cx.to_string()} y1="52" x2={cx.to_string()} y2={cy.to_string()} />
                <circle cx={cx.to_string()} cy={cy.to_string()} r="6" />
                <text x={tx.to_string()} y={(cy + 4).to_string()} text-anchor={anchor}>{ label }</text>
            </g>
        }
    });
    html! {
        <svg class="timeline" viewBox={format!("0 0 {WIDTH} {height}")} role="img" aria-labelledby="tl-name tl-desc">
            <title id="tl-name">{ "Clock timeline" }</title>
            <desc id="tl-desc">{ format!("The ticket is minted at {} s and expires at {} s; {} attempts are plotted at their times with their verdicts, also listed in the attempts table.", minted_ms / 1000, expires_ms / 1000, verdicts.len()) }</desc>
            <rect class="tl-alive" x={minted.to_string()} y="40" width={(expiry - minted).to_string()} height="12" />
            <rect class="tl-dead" x={expiry.to_string()} y="40" width={(x(end) - expiry).to_string()} height="12" />
            <text x={minted.to_string()} y="30">{ format!("minted, {} s", minted_ms / 1000) }</text>
            <text x={expiry.to_string()} y="30" text-anchor="middle">{ format!("expires, {} s", expires_ms / 1000) }</text>
            <line class="tl-expiry" x1={expiry.to_string()} y1="34" x2={expiry.to_string()} y2={height.to_string()} />
            { for points }
        </svg>
    }
}
