//! What each figure measures, in words, for a student reading the figures beside their names
//! (the names are `mrtr-sim --json`'s keys, and stay as they are).

/// What the figure `name` measures, in words. A name may carry a group before a dot
/// (`charge_bad.requests`): the words are the last part's. None for a name that is already
/// words (the wrong-input cases, e.g. "not JSON-RPC").
///
/// ```
/// use mrtr_sim::scenarios::figure_words;
/// assert_eq!(figure_words("clientRoundLimit").as_deref(), Some("The client's limit on rounds"));
/// assert_eq!(figure_words("charge_bad.requests").as_deref(), Some("Requests the client sent"));
/// assert_eq!(figure_words("sampling-only.deploy").as_deref(), Some("Calling deploy with a client declaring sampling-only"));
/// assert_eq!(figure_words("unknown method"), None);
/// ```
pub fn figure_words(name: &str) -> Option<String> {
    // The capabilities scenario: each tool, called by clients declaring different things.
    let grouped = name.rsplit_once('.');
    if let Some((client, tool @ ("name_release" | "deploy"))) = grouped {
        return Some(format!("Calling {tool} with a client declaring {client}"));
    }
    let last = grouped.map_or(name, |(_, last)| last);
    let words = match last {
        "requests" => "Requests the client sent",
        "prompts" => "Questions put to the person",
        "outcome" => "How the call ended",
        "message" => "What the tool said",
        "structured" => "The tool's structured result",
        "effects" | "ledgerEntries" => "Side effects in the ledger",
        "payloadReadable" => "Ticket payload readable by the client",
        "mintedOn" => "Replica that minted the ticket",
        "round" => "Round of input the ticket belongs to",
        "mintedAtMs" => "Ticket minted at (ms on the virtual clock)",
        "firstRetryOn" => "Replica the first retry reached",
        "firstTicket" => "The first round's ticket",
        "quoted" => "Price quoted to the person",
        "charged" => "Prices charged",
        "redeemed" => "Vouchers redeemed",
        "booked" => "Seats booked",
        "wantedRounds" => "Rounds the server wanted",
        "clientRoundLimit" => "The client's limit on rounds",
        "toolsListed" => "Tools listed",
        "toolsListWithTicket" => "tools/list sent with a requestState",
        _ => return None,
    };
    Some(words.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::scenarios::{Options, SCENARIOS};

    /// Figures every scenario shows, played as it opens and with every move: each has words,
    /// unless its name is words already.
    #[test]
    fn every_figure_a_scenario_shows_has_words() {
        for scenario in SCENARIOS {
            let mut options = Options::default();
            if scenario.takes_moves() {
                options.moves = Some(Move::ALL.to_vec());
            }
            let run = scenario.run(&options);
            for (name, _) in run.listed_figures() {
                assert!(
                    figure_words(name).is_some() || name.contains(' '),
                    "{}: the figure {name} has no words (scenarios/figure_words.rs)",
                    scenario.id
                );
            }
        }
    }
}
