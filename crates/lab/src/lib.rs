//! # mrtr-lab: the front end
//!
//! A Yew app that renders what `mrtr-sim` produces and holds no protocol logic: one state
//! ([`state::Lab`]) with an [`state::Action`] enum and a pure reducer that calls the
//! simulation; small components, one per file, taking data and `Callback` props; diagrams
//! as pure functions from the trace to SVG.
//!
//! ```
//! use mrtr_lab::state::{Action, Lab};
//! use mrtr_sim::moves::Move;
//! let lab = Lab::open("deploy").apply(Action::Play(Move::OtherPrincipal));
//! assert_eq!(lab.latest().unwrap().answered.word(), "principal");
//! ```
#![deny(missing_docs)]

#[cfg(feature = "app")]
pub mod browser;
pub mod class;
#[cfg(feature = "app")]
pub mod components;
#[cfg(feature = "app")]
pub mod diagrams;
#[cfg(feature = "app")]
pub mod element;
#[cfg(feature = "app")]
pub mod embed;
#[cfg(feature = "app")]
pub mod host;
#[cfg(feature = "app")]
pub mod page;
#[cfg(feature = "app")]
pub mod panic;
#[cfg(feature = "app")]
pub mod progress;
pub mod setup;
pub mod share;
pub mod state;
#[cfg(feature = "app")]
pub mod ticket_widget;
pub mod xapi;

#[cfg(feature = "app")]
pub mod view;

#[cfg(feature = "app")]
/// The id of the element the lab's page and the iframe draw the app in (index.html).
pub const APP_ROOT: &str = "mrtr-lab-app";

#[cfg(feature = "app")]
/// Starts what the page asks for, after installing the panic hook, in the page's
/// [`APP_ROOT`]: the iframe lab on `embed.html`, the whole lab on a page whose body says
/// `data-mrtr-lab="page"` (index.html), and nothing on other pages: there `<mrtr-lab>`
/// elements mount themselves ([`element`]).
pub fn start() {
    browser::mark("mrtr-lab:start");
    panic::install_panic_hook();
    let document = web_sys::window().and_then(|w| w.document());
    // The app's own element in the page (index.html: after the skip links, which the app
    // would otherwise clear away); a page without one is a lesson page.
    let Some(root) = document.as_ref().and_then(|d| d.get_element_by_id(APP_ROOT)) else { return };
    if let Some(params) = embed::params() {
        yew::Renderer::<embed::Embedded>::with_root_and_props(root, embed::EmbeddedProps { params }).render();
        return;
    }
    if document
        .and_then(|d| d.body())
        .is_some_and(|body| body.get_attribute("data-mrtr-lab").as_deref() == Some("page"))
    {
        yew::Renderer::<page::App>::with_root(root).render();
    }
}
