//! One panel per file; each takes data and `Callback` props. A panel that keeps no state of
//! its own is a function of a [`Panel`], shown by the one component [`PanelView`]; the others
//! (with hooks, or props of their own) are components.

pub mod answer;
pub mod campaign;
pub mod challenges;
pub mod checks;
pub mod controls;
pub mod editor;
pub mod figures;
pub mod header;
pub mod intro;
pub mod ledger;
pub mod moves;
pub mod parts;
pub mod picker;
pub mod probe;
pub mod quiz;
pub mod region;
pub mod request;
pub mod sequence;
pub mod session;
pub mod status;
pub mod timeline;
pub mod transcript;

use crate::host::Host;
use crate::state::{Action, Lab};
use std::ops::RangeInclusive;
use std::rc::Rc;
use yew::prelude::*;

/// The props most panels take: the lab's state and a way to act on it.
#[derive(Properties, PartialEq, Clone, Debug)]
pub struct Panel {
    /// The state to render.
    pub lab: Rc<Lab>,
    /// Sends an action to the reducer.
    pub send: Callback<Action>,
    /// Where the lab runs (whether the panel is a region landmark, region.rs; where links
    /// point).
    pub host: Host,
}

/// What a stateless panel is: its view of the lab.
pub type View = fn(&Panel) -> Html;

/// Props of [`PanelView`]: which panel, and its data.
#[derive(Properties, Clone, Debug)]
pub struct PanelProps {
    /// The panel.
    pub view: View,
    /// What it shows.
    pub panel: Panel,
}

impl PartialEq for PanelProps {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.view, other.view) && self.panel == other.panel
    }
}

/// A stateless panel: renders `view` again only when the lab, `send` or the panel changed,
/// as a component of its own per panel would. One component type for all of them, so the
/// wasm carries Yew's lifecycle code for it once, not once per panel (about 1 KB each).
#[component(PanelView)]
pub fn panel_view(props: &PanelProps) -> Html {
    (props.view)(&props.panel)
}

/// The longest wire line shown in full; longer ones (a pasted megabyte) are shown cut, and
/// the copy buttons still copy every byte.
pub const SHOWN_LINE: usize = 4 * 1024;

/// A line as shown on the page: whole, or cut with a note of its full length.
pub fn shown_line(line: &str) -> String {
    if line.len() <= SHOWN_LINE {
        return line.to_owned();
    }
    let mut cut = SHOWN_LINE;
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} bytes in all: the copy button copies them all)", &line[..cut], line.len())
}

/// `content` (a diagram, a table) in a box that scrolls sideways when it is wider than its
/// panel: focusable, so the keyboard scrolls it too, and named for what it holds. Where it is
/// wider (a phone), a line above it says so (web/styles/scroll.css: a scroll-state query).
pub fn scrolls(label: &'static str, content: Html) -> Html {
    html! { <div class="scroll-x" tabindex="0" role="group" aria-label={label}>{ content }</div> }
}

/// A table's head: a column heading for each name.
pub fn column_heads(names: &[&'static str]) -> Html {
    html! { <thead><tr>{ for names.iter().map(|name| html! { <th scope="col">{ *name }</th> }) }</tr></thead> }
}

/// A JSON text laid out on several lines; `None` when it is not JSON.
pub fn laid_out(json: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(json).ok().map(|value| format!("{value:#}"))
}

/// A link to a situation that opens it in this lab (on the lab's own page it also shows in
/// the address bar; inside a lesson page it leaves the page's address alone).
pub fn situation_link(host: &Host, fragment: &str, text: &str, send: &Callback<Action>) -> Html {
    let href = format!("{}#{fragment}", host.lab_page);
    let onclick = {
        let (fragment, send) = (fragment.to_owned(), send.clone());
        Callback::from(move |event: MouseEvent| {
            event.prevent_default();
            send.emit(Action::Restore(Box::new(crate::share::read_fragment(&fragment))));
        })
    };
    html! { <a {href} {onclick}>{ text.to_owned() }</a> }
}

/// The number to use from the field `field` (a selector) of the `form` (a selector) around
/// the button clicked. The panels keep no state for such fields: the browser does, and the
/// button reads them. What the student left there, brought into `range`, or `default` when it
/// is not a whole number; the field then shows the number used, so a value that could not be
/// used (`abc`, `-5`, `1e3`, one past the most) gives way to the one that was.
pub fn number_beside(event: &MouseEvent, form: &str, field: &str, default: u64, range: RangeInclusive<u64>) -> u64 {
    use wasm_bindgen::JsCast;
    let field = around(event, form)
        .and_then(|form| form.query_selector(field).ok().flatten())
        .and_then(|field| field.dyn_into::<web_sys::HtmlInputElement>().ok());
    let typed = field.as_ref().and_then(|f| f.value().trim().parse::<u64>().ok());
    let used = typed.map_or(default, |n| n.clamp(*range.start(), *range.end()));
    if let Some(field) = field {
        field.set_value(&used.to_string());
    }
    used
}

/// The lab an event happened in (its landmark, `.lab`): where a panel looks for another.
pub fn lab_of(event: &Event) -> Option<web_sys::Element> {
    around(event, ".lab")
}

/// The element matching `selector` around the event's target (the target itself included).
fn around(event: &Event, selector: &str) -> Option<web_sys::Element> {
    event.target_dyn_into::<web_sys::Element>()?.closest(selector).ok().flatten()
}

/// Copies text to the clipboard (best effort: the page stays as it is if it cannot).
pub fn copy(text: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}
