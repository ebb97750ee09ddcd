//! Challenges with an automatic success check, hints, and progress kept in the browser.

use super::{region::heading, situation_link};
use crate::host::{Host, LabEvent};
use crate::progress::{self, mark, save};
use crate::state::{Action, Lab};
use crate::xapi::FIX_IT;
use mrtr_sim::challenges::CHALLENGES;
use std::rc::Rc;
use yew::prelude::*;

/// The ids a continue code carries, in its order: the challenges, then Fix-It.
fn progress_ids() -> String {
    // An impossible challenge is never done, so no code can say it is.
    CHALLENGES.iter().filter(|c| c.impossible.is_none()).map(|c| c.id).chain([FIX_IT]).collect::<Vec<_>>().join(",")
}

/// What the student asked of one challenge on this page: hints shown, and whether they gave up.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Asked {
    hints: usize,
    given_up: bool,
}

/// Props of [`Challenges`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// The lab, whose run each challenge checks.
    pub lab: Rc<Lab>,
    /// Opens a challenge's scenario.
    pub send: Callback<Action>,
    /// Where the lab runs: hears of each challenge met, and says whether the panel is a
    /// region landmark (region.rs).
    pub host: Host,
    /// How many times the record was changed from outside (`<mrtr-progress>`: a reset, a
    /// continue code): a new number reads it again.
    pub progress: u32,
}

/// The challenges panel. When a challenge's check first passes, the host hears of it.
#[component(Challenges)]
pub fn challenges(props: &Props) -> Html {
    let host = &props.host;
    let done = use_state(progress::load);
    {
        // <mrtr-progress> changed the record (a reset, a continue code): read it again (parts.rs).
        let done = done.clone();
        use_effect_with(props.progress, move |_| done.set(progress::load()));
    }
    let asked = use_state(|| vec![Asked::default(); CHALLENGES.len()]);
    {
        let (done, emit) = (done.clone(), host.emit.clone());
        let lab = props.lab.clone();
        use_effect_with(lab, move |lab| {
            let mut next = (*done).clone();
            for c in CHALLENGES {
                if c.achieved(&lab.run, lab.mode) && mark(&mut next, c.id) {
                    emit.emit(LabEvent::Challenge { id: c.id, goal: c.goal });
                }
            }
            if next != *done {
                save(&next);
                done.set(next);
            }
        });
    }
    // The challenges in the scenarios the class is offered. The same record holds Fix-It's
    // pass (web/probe/elements.js): only these count here.
    let class = host.class.clone();
    let offered = || CHALLENGES.iter().enumerate().filter(|(_, c)| class.offers(c.scenario));
    let met = offered().filter(|(_, c)| done.iter().any(|d| d == c.id)).count();
    let title = format!("Challenges: {met} of {} done", offered().count());
    html! {
        <section class="challenges" aria-labelledby={host.owns_document.then_some("challenges-title")}>
            { heading("challenges-title", title, None) }
            <ol class="challenge-list">
                { for offered().map(|(i, c)| {
                    let achieved = done.iter().any(|d| d == c.id);
                    let Asked { hints: shown, given_up } = asked[i];
                    let more = {
                        let asked = asked.clone();
                        Callback::from(move |_: MouseEvent| {
                            let mut next = (*asked).clone();
                            next[i].hints = (next[i].hints + 1).min(3);
                            asked.set(next);
                        })
                    };
                    let give_up = {
                        let asked = asked.clone();
                        Callback::from(move |_: MouseEvent| {
                            let mut next = (*asked).clone();
                            next[i].given_up = true;
                            asked.set(next);
                        })
                    };
                    html! {
                        <li class="challenge" data-state={achieved.then_some("achieved")} data-challenge={c.id}>
                            <p class="goal">
                                <span class="challenge-state">{ if achieved { "✓ done: " } else { "" } }</span>
                                { c.goal }
                                { " " }{ situation_link(host, &format!("s={}", c.scenario), "Start here", &props.send) }
                            </p>
                            if shown > 0 {
                                <ol class="hints">{ for c.hints[..shown].iter().map(|h| html! { <li>{ *h }</li> }) }</ol>
                            }
                            <div class="challenge-actions">
                                if shown < 3 && !achieved && !class.hide_hints {
                                    <button type="button" class="secondary" onclick={more}>{ "Show a hint" }</button>
                                }
                                if c.impossible.is_some() && !given_up && !achieved && !class.hide_solutions {
                                    <button type="button" class="secondary" onclick={give_up}>{ "Give up" }</button>
                                }
                            </div>
                            if given_up {
                                <p class="explain" data-state="right">{ c.impossible.unwrap_or_default() }</p>
                            }
                        </li>
                    }
                }) }
            </ol>
            <mrtr-progress ids={progress_ids()}></mrtr-progress>
        </section>
    }
}
