//! The lesson's quick check: five questions, an explanation after each answer, and a link
//! into the scenario that shows it. The questions are `<mrtr-quiz>` (`web/probe/quiz.js`),
//! one of the parts that load as they come near (parts.rs), so they weigh nothing on a page's
//! first visit (3.6 KB gzip of the lab's wasm as a Yew component). Its events come back
//! through the parts' listener: the score leaves as the lab's quiz event, a question's link
//! opens its situation in this lab.

use super::region::heading;
use crate::host::Host;
use yew::prelude::*;

/// The quick check's panel.
pub fn quiz(host: &Host) -> Html {
    html! {
        <section class="quiz" aria-labelledby={host.owns_document.then_some("quiz-title")}>
            { heading("quiz-title", "Quick check", None) }
            <mrtr-quiz lab-page={host.lab_page.clone()} hide-solutions={host.class.hide_solutions.then_some("")}></mrtr-quiz>
        </section>
    }
}
