//! The figures a scenario measured, and the two eras side by side.

use super::{region::heading, Panel};
use mrtr_sim::scenarios::figure_words;
use serde_json::Value;
use yew::prelude::*;

fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A figure's words, with its name as `mrtr-sim --json` prints it; a name that is words
/// already stands alone.
fn named(name: &str) -> Html {
    match figure_words(name) {
        Some(words) => html! { <>{ words }<code class="figure-name">{ name }</code></> },
        None => html! { { name } },
    }
}

/// The figures table (and the era comparison when there is one).
pub fn figures(props: &Panel) -> Html {
    let figures = &props.lab.run.figures;
    let rows = figures.get("rows").and_then(Value::as_array);
    let era = rows.map(|rows| {
        html! {
            <table class="era">
                <caption>{ "The same tool body, two places to wait" }</caption>
                { super::column_heads(&["What happens", "Earlier era (server asks mid-call)", "Modern (input_required + ticket)"]) }
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr>
                            <th scope="row">{ shown(&r["question"]) }</th>
                            <td>{ shown(&r["earlier"]) }</td>
                            <td>{ shown(&r["modern"]) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        }
    });
    html! {
        <section class="figures" aria-labelledby={props.host.owns_document.then_some("figures-title")}>
            { heading("figures-title", "Measured", None) }
            { era.unwrap_or_default() }
            <dl class="figure-list">
                { for props.lab.run.listed_figures().map(|(name, v)| html! { <><dt>{ named(name) }</dt><dd>{ shown(v) }</dd></> }) }
            </dl>
        </section>
    }
}
