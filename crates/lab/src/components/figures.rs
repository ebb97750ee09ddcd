//! The figures a scenario measured, and the two eras side by side.

use super::{region::Region, Panel};
use serde_json::Value;
use yew::prelude::*;

fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The figures table (and the era comparison when there is one).
#[component(Figures)]
pub fn figures(props: &Panel) -> Html {
    let figures = &props.lab.run.figures;
    let rows = figures.get("rows").and_then(Value::as_array);
    let era = rows.map(|rows| {
        html! {
            <table class="era">
                <caption>{ "The same tool body, two places to wait" }</caption>
                <thead><tr><th scope="col">{ "What happens" }</th><th scope="col">{ "Earlier era (server asks mid-call)" }</th><th scope="col">{ "Modern (input_required + ticket)" }</th></tr></thead>
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
    let plain: Vec<(&String, &Value)> =
        figures.iter().filter(|(k, _)| !matches!(k.as_str(), "rows" | "ticket" | "verdicts")).collect();
    html! {
        <Region class="figures" heading="figures-title">
            <h2 id="figures-title">{ "Measured" }</h2>
            { era.unwrap_or_default() }
            <dl class="figure-list">
                { for plain.into_iter().map(|(k, v)| html! { <><dt>{ k.clone() }</dt><dd>{ shown(v) }</dd></> }) }
            </dl>
        </Region>
    }
}
