//! The sequence diagram: one lane per actor, one row per event, growing step by step.

use mrtr_sim::text::clip;
use mrtr_sim::trace::{Actor, Event, Kind};
use yew::prelude::*;

// Whole SVG units: the geometry is integers, so no float is ever formatted.
const WIDTH: i32 = 800;
const TOP: i32 = 44;
const ROW: i32 = 30;

fn lane_x(actor: Actor) -> i32 {
    let index = Actor::ALL.iter().position(|a| *a == actor).unwrap_or(0) as i32;
    70 + index * 124
}

/// An arrow's `data-kind`, which colours it.
fn kind_of(event: &Event) -> &'static str {
    match event.kind {
        Kind::Request => "request",
        Kind::Response if event.summary.starts_with("error") => "error",
        Kind::Response => "response",
        Kind::Checks if event.summary.ends_with("all passed") => "pass",
        Kind::Checks => "error",
        Kind::Fault => "error",
        Kind::Effect => "effect",
        Kind::Ask | Kind::Answer => "person",
        _ => "note",
    }
}

/// The diagram for the first `shown` events (the ones that draw: routes and clock moves are
/// folded into the rows they belong to).
pub fn diagram(events: &[Event]) -> Html {
    let rows: Vec<&Event> = events.iter().filter(|e| !matches!(e.kind, Kind::Route | Kind::Clock)).collect();
    let height = TOP + ROW * rows.len().max(1) as i32 + 16;
    let lanes = Actor::ALL.iter().map(|actor| {
        let x = lane_x(*actor);
        html! {
            <g class="seq-lane">
                <rect x={(x - 54).to_string()} y="6" width="108" height="24" rx="6" />
                <text x={x.to_string()} y="23" text-anchor="middle">{ actor.name() }</text>
                <line x1={x.to_string()} y1="30" x2={x.to_string()} y2={height.to_string()} />
            </g>
        }
    });
    let arrows = rows.iter().enumerate().map(|(i, event)| {
        let y = TOP + ROW * i as i32 + 12;
        let (from, to) = (lane_x(event.from), lane_x(event.to));
        // A label starts right of its dot or its arrow's left end, and is cut to what fits
        // before the diagram's right edge (at 6.5 units a character, wider than most), 66
        // characters at most. The lanes leave room on the right for the labels of B's dots.
        let x = if event.from == event.to { from + 10 } else { from.min(to) + 8 };
        let label = format!("{} · {}", mrtr_ticket::secs(event.at_ms), event.summary);
        let label = clip(label, ((WIDTH - x) * 2 / 13).min(66) as usize);
        let kind = kind_of(event);
        if event.from == event.to {
            html! {
                <g class="seq-event" data-kind={kind}>
                    <circle cx={from.to_string()} cy={y.to_string()} r="5" />
                    <text x={x.to_string()} y={(y + 4).to_string()}>{ label }</text>
                </g>
            }
        } else {
            let head = if from < to { to - 8 } else { to + 8 };
            let points = format!("{to},{y} {head},{} {head},{}", y - 4, y + 4);
            html! {
                <g class="seq-event" data-kind={kind}>
                    <line x1={from.to_string()} y1={y.to_string()} x2={to.to_string()} y2={y.to_string()} />
                    <polygon points={points} />
                    <text x={x.to_string()} y={(y - 5).to_string()}>{ label }</text>
                </g>
            }
        }
    });
    html! {
        <svg class="sequence" viewBox={format!("0 0 {WIDTH} {height}")} role="img" aria-labelledby="seq-name seq-desc">
            <title id="seq-name">{ "Sequence diagram" }</title>
            <desc id="seq-desc">{ format!("{} steps between client, balancer, replicas A and B, person and ledger; the same steps are listed as text below.", rows.len()) }</desc>
            { for lanes }
            { for arrows }
        </svg>
    }
}

/// The same events as an ordered list: the diagram's text twin.
pub fn text_twin(events: &[Event]) -> Html {
    html! {
        <ol class="seq-text">
            { for events.iter().filter(|e| !matches!(e.kind, Kind::Route | Kind::Clock)).map(|e| html! {
                <li>{ format!("{}: {} → {}: {}", mrtr_ticket::secs(e.at_ms), e.from.name(), e.to.name(), e.summary) }</li>
            }) }
        </ol>
    }
}
