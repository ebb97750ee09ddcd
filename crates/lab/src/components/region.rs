//! A panel's frame: a `section` named by its heading. On the lab's own page (and in the
//! iframe) each panel is a region landmark a screen reader can jump to; inside a lesson page
//! only the lab as a whole is one, so two labs on a page do not repeat the same landmarks.

use crate::host::Host;
use yew::prelude::*;

/// Props of [`Region`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// The panel's class.
    pub class: &'static str,
    /// The id of the heading that names it.
    pub heading: &'static str,
    /// The heading's text.
    pub title: AttrValue,
    /// What sits on the heading's line, after it (buttons): the two share a `panel-head` row.
    #[prop_or_default]
    pub beside: Option<Html>,
    /// The panel.
    pub children: Html,
}

/// A panel's `section`, its heading first.
#[component(Region)]
pub fn region(props: &Props) -> Html {
    let landmark = use_context::<Host>().is_none_or(|h| h.owns_document);
    let heading = html! { <h2 id={props.heading}>{ props.title.clone() }</h2> };
    html! {
        <section class={props.class} aria-labelledby={landmark.then_some(props.heading)}>
            if let Some(beside) = props.beside.clone() {
                <div class="panel-head">{ heading }{ beside }</div>
            } else {
                { heading }
            }
            { props.children.clone() }
        </section>
    }
}
