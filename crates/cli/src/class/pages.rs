//! The class's own pages, built into the binary: joining, the lab with the class's settings
//! baked into its address, and the instructor's view (`web/class/`).

use super::api::{activity, refuse, settings_of, ClassState};
use axum::extract::State;
use axum::http::header;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;

const JOIN: &str = include_str!("../../../../web/class/join.html");
const LAB: &str = include_str!("../../../../web/class/lab.html");
const INSTRUCTOR: &str = include_str!("../../../../web/class/instructor.html");
const CLASS_JS: &str = include_str!("../../../../web/class/class.js");
const INSTRUCTOR_JS: &str = include_str!("../../../../web/class/instructor.js");

/// `GET /`: join with the class code and a name.
pub async fn join(State(state): State<Arc<ClassState>>) -> Html<String> {
    Html(JOIN.replace("{{CLASS}}", &html_escape(&state.code)))
}

/// `GET /lab`: the lab as a `<mrtr-lab>` element carrying the class's settings, so it hides
/// what the instructor hid and offers only the scenarios offered.
pub async fn lab(State(state): State<Arc<ClassState>>) -> Response {
    let settings = match state.store.find_class(&state.code).await {
        Ok(Some(class)) => class.settings,
        _ => String::new(),
    };
    // Read and written again: only what the lab knows reaches the element.
    let class = settings_of(&settings);
    // `class-code`: the element's name for it (`class` is HTML's own attribute).
    // `activity`: the prefix of its statements' object ids, as the server's own quiz statement.
    let mut attributes =
        vec![("class-code".to_owned(), state.code.clone()), ("activity".into(), activity(&state.code))];
    attributes.extend(class.parts());
    let attributes: serde_json::Map<String, serde_json::Value> =
        attributes.into_iter().map(|(name, value)| (name, value.into())).collect();
    let attributes = serde_json::Value::Object(attributes).to_string();
    Html(LAB.replace("{{CLASS}}", &html_escape(&state.code)).replace("{{ATTRIBUTES}}", &html_escape(&attributes)))
        .into_response()
}

/// `GET /instructor`: the live view (the token comes in the address's fragment).
pub async fn instructor(State(state): State<Arc<ClassState>>) -> Html<String> {
    Html(INSTRUCTOR.replace("{{CLASS}}", &html_escape(&state.code)))
}

/// `GET /app/probe/quiz-key.json`: the quick check's answers, which the lab fetches to explain
/// them; refused while the class hides solutions (the class server grades the quiz then).
pub async fn quiz_key(State(state): State<Arc<ClassState>>) -> Response {
    let hidden = match state.store.find_class(&state.code).await {
        Ok(Some(class)) => settings_of(&class.settings).hide_solutions,
        _ => true,
    };
    if hidden {
        return refuse(StatusCode::FORBIDDEN, "this class hides solutions: the class server grades the quick check");
    }
    ([(header::CONTENT_TYPE, "application/json")], super::quiz::KEY_JSON).into_response()
}

/// `GET /class.js`.
pub async fn class_js() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], CLASS_JS).into_response()
}

/// `GET /instructor.js`.
pub async fn instructor_js() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], INSTRUCTOR_JS).into_response()
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
