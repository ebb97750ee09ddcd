//! The lab's panels, laid out for a host: every panel on the lab's own page and in a full
//! `<mrtr-lab>`, the essentials in a compact one and in the iframe. It also tells the host
//! what happened: a verdict after each new attempt, a step when the diagrams' cursor moves.

use crate::components::{
    answer::answer,
    checks::checks,
    controls::controls,
    editor::editor,
    figures::figures,
    intro::{intro, intro_compact},
    ledger::ledger_panel,
    moves::moves,
    parts::AfterLab,
    picker::picker,
    request::request_writer,
    sequence::sequence_panel,
    status::status,
    timeline::timeline_panel,
    transcript::transcript,
    Panel, PanelView, View,
};
use crate::host::{Host, LabEvent};
use crate::share::MAIN_ID;
use crate::state::{Action, Lab};
use std::rc::Rc;
use yew::prelude::*;

/// How much of the lab a host shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The scenario picker, every panel, the campaign, the challenges and the quick check.
    Full,
    /// What the scenario teaches, the moves, the verdict, the answer and the sequence.
    Compact,
}

/// Props of [`LabView`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// The state to render.
    pub lab: Rc<Lab>,
    /// Sends an action to the reducer.
    pub send: Callback<Action>,
    /// Which panels.
    pub layout: Layout,
    /// Whether the full layout offers the other scenarios (the lab's own page does; a lab in
    /// a lesson stays on the scenario its author chose unless asked).
    #[prop_or(true)]
    pub picker: bool,
    /// Where the lab runs: who hears its events, where its links point.
    pub host: Host,
}

/// The reducer's state: the lab behind its own `Rc`, so every render of a host hands its
/// panels the same pointer until an action makes a new lab (and comparing props stays a
/// pointer comparison).
struct Current(Rc<Lab>);

impl Reducible for Current {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(Current(Rc::new(Lab::clone(&self.0).apply(action))))
    }
}

/// The lab's state for a host: the reducer, and a `send` that stays the same callback across
/// renders (so panels whose data did not change are not rendered again). `init` opens the lab
/// the host asked for, with what of the request it ignored (a typo in a scenario or move
/// name, a value it does not know) in `Lab::ignored`: the page shows that until the first
/// action, and the console keeps it for the page's author.
#[hook]
pub fn use_lab<F: FnOnce() -> Lab>(init: F) -> (Rc<Lab>, Callback<Action>) {
    let lab = use_reducer(move || {
        let lab = init();
        crate::browser::mark("mrtr-lab:opened");
        for sentence in &lab.ignored {
            web_sys::console::warn_1(&format!("mrtr-lab ignored: {sentence}").into());
        }
        Current(Rc::new(lab))
    });
    let dispatcher = lab.dispatcher();
    let send = use_memo((), move |_| Callback::from(move |action| dispatcher.dispatch(action)));
    (lab.0.clone(), (*send).clone())
}

/// The state every panel but the verdict and the checks shows: the lab as it was one task
/// ago (`None` until the first render is on screen). The verdict and the checks render at
/// once; the rest follows in the next task, so a keystroke in the ticket editor shows its
/// verdict without waiting for the diagrams, and the page is usable before they are drawn.
#[hook]
fn use_deferred(lab: Rc<Lab>) -> Option<Rc<Lab>> {
    let deferred = use_state(|| None::<Rc<Lab>>);
    let generation = use_mut_ref(|| 0u64);
    {
        let deferred = deferred.clone();
        use_effect_with(lab, move |lab| {
            *generation.borrow_mut() += 1;
            let (mine, lab) = (*generation.borrow(), lab.clone());
            yew::platform::spawn_local(async move {
                gloo::timers::future::sleep(std::time::Duration::ZERO).await;
                if *generation.borrow() == mine {
                    deferred.set(Some(lab));
                }
            });
        });
    }
    (*deferred).clone()
}

/// What changed between two renders that a host hears about.
fn news(before: Option<&Lab>, now: &Lab) -> Vec<LabEvent> {
    let Some(before) = before else { return Vec::new() };
    let mut events = Vec::new();
    if before.run.verdicts != now.run.verdicts {
        events.extend(LabEvent::latest_verdict(now));
    }
    if before.cursor != now.cursor && before.run.trace == now.run.trace {
        let total = now.run.trace.events.len();
        let shown = now.cursor.unwrap_or(total).min(total);
        let summary = shown.checked_sub(1).and_then(|i| now.run.trace.events.get(i)).map(|e| e.summary.clone());
        events.push(LabEvent::Step { scenario: now.scenario, shown, total, summary: summary.unwrap_or_default() });
    }
    events
}

/// A panel without state of its own ([`View`]), showing `lab`.
fn panel(view: View, lab: &Rc<Lab>, send: &Callback<Action>, host: &Host) -> Html {
    html! { <PanelView {view} panel={Panel { lab: lab.clone(), send: send.clone(), host: host.clone() }} /> }
}

/// The lab's panels.
#[component(LabView)]
pub fn lab_view(props: &Props) -> Html {
    let host = &props.host;
    let owns_document = host.owns_document;
    {
        let previous = use_mut_ref(|| None::<Rc<Lab>>);
        let emit = host.emit.clone();
        use_effect_with(props.lab.clone(), move |lab| {
            let before = previous.borrow_mut().replace(lab.clone());
            for event in news(before.as_deref(), lab) {
                emit.emit(event);
            }
        });
    }
    let later = use_deferred(props.lab.clone());
    let (lab, send) = (&props.lab, &props.send);
    // The `main` landmark on the lab's own page and in the iframe; a labelled region inside a
    // lesson page, which has a `main` of its own.
    let landmark = if owns_document { "main" } else { "section" };
    let label = (!owns_document).then(|| {
        let title = mrtr_sim::scenarios::find(lab.scenario).map_or("", |s| s.title);
        format!("mrtr-lab: {title}")
    });
    // The controls show the settled state, or the current one on the very first render.
    let settled = later.clone().unwrap_or_else(|| lab.clone());
    let picker_shown = props.picker && props.layout == Layout::Full;
    if !host.class.offers(lab.scenario) {
        // Said, never swapped for an offered one: a lesson's prose describes its own lab.
        return html! {
            <>
                if picker_shown {
                    { panel(picker, lab, send, host) }
                }
                <p class="not-offered" role="status">{ "This class does not offer this lab's scenario." }</p>
            </>
        };
    }
    if props.layout == Layout::Compact {
        return html! {
            <@{landmark} class="lab compact" aria-label={label}>
                <div class="column controls-column">
                    { panel(intro_compact, &settled, send, host) }
                    { panel(moves, &settled, send, host) }
                </div>
                <div class="column results-column">
                    { panel(status, lab, send, host) }
                    { panel(checks, lab, send, host) }
                    if let Some(later) = later {
                        { panel(answer, &later, send, host) }
                        { panel(sequence_panel, &later, send, host) }
                    }
                </div>
            </@>
        };
    }
    let takes_moves = settled.takes_moves();
    html! {
        <>
            if picker_shown {
                { panel(picker, &settled, send, host) }
            }
            <@{landmark} id={MAIN_ID} class="lab" aria-label={label}>
                <div class="column controls-column">
                    { panel(intro, &settled, send, host) }
                    { panel(moves, &settled, send, host) }
                    { panel(controls, &settled, send, host) }
                    { panel(editor, &settled, send, host) }
                    // Below the editor, out of the first window: drawn a task later.
                    if let Some(later) = later.clone() {
                        { panel(request_writer, &later, send, host) }
                    }
                </div>
                <div class="column results-column">
                    { panel(status, lab, send, host) }
                    { panel(checks, lab, send, host) }
                    if let Some(later) = later.clone() {
                        if !takes_moves {
                            { panel(figures, &later, send, host) }
                        }
                        { panel(timeline_panel, &later, send, host) }
                        { panel(answer, &later, send, host) }
                        { panel(sequence_panel, &later, send, host) }
                        { panel(ledger_panel, &later, send, host) }
                        { panel(transcript, &later, send, host) }
                    }
                </div>
            </@>
            if let Some(later) = later {
                <AfterLab lab={later} send={send.clone()} host={host.clone()} />
            }
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mrtr_sim::moves::Move;

    #[test]
    fn a_move_is_news_and_the_first_render_is_not() {
        let before = Lab::open("deploy");
        assert!(news(None, &before).is_empty());
        let after = before.clone().apply(Action::Play(Move::TamperByte));
        let events = news(Some(&before), &after);
        assert!(matches!(&events[..], [LabEvent::Verdict { verdict, .. }] if verdict.by == "tamper-byte"));
    }

    #[test]
    fn a_step_back_is_news_with_the_event_shown_last() {
        let before = Lab::open("deploy").apply(Action::Play(Move::Honest));
        let after = before.clone().apply(Action::Step(-1));
        let total = before.run.trace.events.len();
        match &news(Some(&before), &after)[..] {
            [LabEvent::Step { shown, total: t, summary, .. }] => {
                assert_eq!((*shown, *t), (total - 1, total));
                assert_eq!(summary, &before.run.trace.events[total - 2].summary);
            }
            other => panic!("{other:?}"),
        }
        assert!(news(Some(&after), &after).is_empty());
    }
}
