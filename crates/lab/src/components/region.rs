//! A panel's frame: a `section` named by its heading. On the lab's own page (and in the
//! iframe) each panel is a region landmark a screen reader can jump to; inside a lesson page
//! only the lab as a whole is one, so two labs on a page do not repeat the same landmarks.
//!
//! Each panel writes its own section, its class a literal, with
//! `aria-labelledby={props.host.owns_document.then_some(id)}`, and its heading with
//! [`heading`]: Yew builds a class from a variable through its class lists, which cost the
//! lab's wasm 3.5 KB gzip, so no class here is a variable.

use yew::prelude::*;

/// A panel's heading, with what sits on its line after it (buttons) when there is something:
/// the two then share a `panel-head` row.
pub fn heading(id: &'static str, title: impl Into<AttrValue>, beside: Option<Html>) -> Html {
    heading_of(id, title.into(), beside)
}

/// [`heading`] once, whatever the title was made from.
fn heading_of(id: &'static str, title: AttrValue, beside: Option<Html>) -> Html {
    let heading = html! { <h2 {id}>{ title }</h2> };
    match beside {
        Some(beside) => html! { <div class="panel-head">{ heading }{ beside }</div> },
        None => heading,
    }
}
