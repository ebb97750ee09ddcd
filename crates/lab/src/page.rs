//! The lab's own page (index.html, whose body says `data-mrtr-lab="page"`): every panel, the
//! theme switch, and the situation in the address bar, both ways; a class's settings
//! (`?hide=…&scenarios=…&class=…`, [`Class`]) in its query.

use crate::browser::{apply_theme, current_fragment, page_address, page_theme, query, show_fragment, store};
use crate::class::Class;
use crate::components::header::header;
use crate::host::Host;
use crate::share;
use crate::state::Action;
use crate::view::{self, LabView, Layout};
use gloo::events::EventListener;
use gloo::timers::future::sleep;
use std::time::Duration;
use yew::prelude::*;

/// Where the browser keeps the page's theme. index.html's first script reads it, before
/// anything is drawn, into `<html data-theme>`; the lab reads it back from there.
const THEME_KEY: &str = "mrtr-lab-theme";
/// How long the address bar waits after the last change before it shows the new situation.
const LINK_DELAY: Duration = Duration::from_millis(250);
/// A link to a place in the page scrolls there this many times before the address bar shows
/// the situation ([`page_anchor`]): the panels above it take their real heights meanwhile.
const ANCHOR_SCROLLS: usize = 5;
/// How long after each of those scrolls the next one comes.
const ANCHOR_SETTLE: Duration = Duration::from_millis(60);

/// The place in the page a link names (`#quiz-title`: [`share::is_page_anchor`]), if it
/// names one. The lab opens there; the browser cannot, the place not being drawn when the
/// page loads.
fn page_anchor() -> Option<web_sys::Element> {
    let fragment = current_fragment();
    share::is_page_anchor(&fragment).then(|| web_sys::window()?.document()?.get_element_by_id(&fragment)).flatten()
}

/// Restores the situation when someone pastes another link into the same tab.
fn on_hash_change(send: Callback<Action>) -> Option<EventListener> {
    let window = web_sys::window()?;
    Some(EventListener::new(&window, "hashchange", move |_| {
        let fragment = current_fragment();
        if share::is_situation(&fragment) {
            send.emit(Action::Restore(Box::new(share::read_fragment(&fragment))));
        }
    }))
}

/// The whole lab.
#[component(App)]
pub fn app() -> Html {
    // What an instructor set, from the address's query (a lesson's or an iframe's link to
    // the whole lab carries it): a link naming no situation opens the first scenario offered.
    let host = use_memo((), |_| {
        let query = query();
        Host::page(&page_address(), Class::read(&mut |name| query.as_ref()?.get(name)))
    });
    let (state, send) = view::use_lab(|| {
        let fragment = current_fragment();
        host.class.open(share::read_fragment(&fragment), share::is_situation(&fragment))
    });
    // The page is already in this theme (index.html's first script): it changes on a choice.
    let theme = use_state(page_theme);
    let on_theme = {
        let setter = theme.setter();
        Callback::from(move |t: String| {
            store(THEME_KEY, &t);
            apply_theme(&t);
            setter.set(t);
        })
    };
    {
        let send = send.clone();
        // The listener lives as long as the app.
        use_effect_with((), move |_| {
            let listener = on_hash_change(send);
            move || drop(listener)
        });
    }
    {
        // The address bar follows the situation, a moment after the last change: writing
        // history costs a few milliseconds, too many for every keystroke, and the fragment
        // is worked out only for the state that stays.
        let generation = use_mut_ref(|| 0u64);
        let state = state.clone();
        use_effect(move || {
            *generation.borrow_mut() += 1;
            let mine = *generation.borrow();
            yew::platform::spawn_local(async move {
                sleep(LINK_DELAY).await;
                // The page's first link may name a place in it: the panels below the first
                // window are drawn now (a task after the first render), so scroll there, and
                // again while the panels above it, drawn only as they come near the window
                // (`content-visibility`), take their real heights and move it; until the
                // learner's first action.
                if let Some(place) = (mine == 1).then(page_anchor).flatten() {
                    for _ in 0..ANCHOR_SCROLLS {
                        if *generation.borrow() != mine {
                            break;
                        }
                        place.scroll_into_view();
                        sleep(ANCHOR_SETTLE).await;
                    }
                }
                if *generation.borrow() == mine {
                    show_fragment(&share::to_fragment(&state));
                }
            });
        });
    }
    html! {
        <>
            { header(&theme, &on_theme) }
            <LabView lab={state} {send} layout={Layout::Full} host={(*host).clone()} />
            <footer class="site-footer">
                <p>{ "The server key in this lab is a lab key, printed in its source on purpose: nothing here is secret. Everything runs in your browser; nothing is sent anywhere." }</p>
            </footer>
        </>
    }
}
