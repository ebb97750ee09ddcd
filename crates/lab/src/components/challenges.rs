//! Challenges with an automatic success check, hints, and progress kept in the browser.

use super::{region::heading, situation_link};
use crate::host::{Host, LabEvent};
use crate::state::{Action, Lab};
use mrtr_sim::challenges::CHALLENGES;
use std::rc::Rc;
use yew::prelude::*;

const PROGRESS_KEY: &str = "mrtr-lab-challenges";

/// The ids of the challenges done, in the order they were done (a handful: a list, not a set).
fn load() -> Vec<String> {
    let saved = crate::browser::stored(PROGRESS_KEY).unwrap_or_default();
    let mut done = Vec::new();
    for id in saved.split(',').filter(|id| !id.is_empty()) {
        mark(&mut done, id);
    }
    done
}

/// Adds `id` to `done`; false if it was there already.
fn mark(done: &mut Vec<String>, id: &str) -> bool {
    let new = !done.iter().any(|d| d == id);
    if new {
        done.push(id.to_owned());
    }
    new
}

fn save(done: &[String]) {
    crate::browser::store(PROGRESS_KEY, &done.join(","));
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
}

/// The challenges panel. When a challenge's check first passes, the host hears of it.
#[component(Challenges)]
pub fn challenges(props: &Props) -> Html {
    let host = &props.host;
    let done = use_state(load);
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
    let reset = {
        let done = done.clone();
        Callback::from(move |_: MouseEvent| {
            save(&[]);
            done.set(Vec::new());
        })
    };
    let title = format!("Challenges: {} of {} done", done.len().min(CHALLENGES.len()), CHALLENGES.len());
    let reset = html! { <button type="button" class="secondary" onclick={reset}>{ "Reset progress" }</button> };
    html! {
        <section class="challenges" aria-labelledby={host.owns_document.then_some("challenges-title")}>
            { heading("challenges-title", title, Some(reset)) }
            <ol class="challenge-list">
                { for CHALLENGES.iter().enumerate().map(|(i, c)| {
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
                                if shown < 3 && !achieved {
                                    <button type="button" class="secondary" onclick={more}>{ "Show a hint" }</button>
                                }
                                if c.impossible.is_some() && !given_up && !achieved {
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
        </section>
    }
}
