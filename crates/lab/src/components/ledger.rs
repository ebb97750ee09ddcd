//! The ledger of side effects.

use super::{region::heading, Panel};
use mrtr_sim::ledger::money;
use yew::prelude::*;

/// Every side effect, in order.
pub fn ledger_panel(props: &Panel) -> Html {
    let entries = props.lab.run.ledger.entries();
    let title = format!("Ledger: {} side effect{}", entries.len(), if entries.len() == 1 { "" } else { "s" });
    html! {
        <section class="ledger" aria-labelledby={props.host.owns_document.then_some("ledger-title")}>
            { heading("ledger-title", title, None) }
            if entries.is_empty() {
                <p class="hint">{ "Nothing happened yet." }</p>
            } else {
                <table>
                    { super::column_heads(&["Time", "Replica", "Tool", "What", "Amount"]) }
                    <tbody>
                        { for entries.iter().map(|e| html! {
                            <tr>
                                <td>{ mrtr_ticket::secs(e.at_ms) }</td>
                                <td>{ e.replica.clone() }</td>
                                <td><code>{ e.tool.clone() }</code></td>
                                <td>{ e.what.clone() }</td>
                                <td>{ e.cents.map(money).unwrap_or_default() }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </section>
    }
}
