//! The scenario picker.

use super::Panel;
use crate::state::Action;
use mrtr_sim::scenarios::SCENARIOS;
use yew::prelude::*;

/// One button per scenario the class is offered; the open one is pressed.
pub fn picker(props: &Panel) -> Html {
    let class = &props.host.class;
    html! {
        <nav class="picker" aria-label="Scenarios">
            <ul>
                { for SCENARIOS.iter().filter(|s| class.offers(s.id)).map(|s| {
                    let send = props.send.clone();
                    let id = s.id;
                    let pressed = props.lab.scenario == id;
                    html! {
                        <li>
                            <button type="button" aria-pressed={pressed.to_string()}
                                onclick={move |_| send.emit(Action::Pick(id))}>{ s.title }</button>
                        </li>
                    }
                }) }
            </ul>
        </nav>
    }
}
