//! The class's own pages, built into the binary: joining, the lab with the class's settings
//! baked into its address, and the instructor's view (`web/class/`); and the guard in front of
//! the built lab's files, which keeps what a class hides out of reach by any spelling.

use crate::refusal::refuse;
use crate::state::{activity, settings_of, ClassState};
use axum::extract::{Request, State};
use axum::http::header;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

const JOIN: &str = include_str!("../../../web/class/join.html");
const LAB: &str = include_str!("../../../web/class/lab.html");
const INSTRUCTOR: &str = include_str!("../../../web/class/instructor.html");
const CLASS_JS: &str = include_str!("../../../web/class/class.js");
const INSTRUCTOR_JS: &str = include_str!("../../../web/class/instructor.js");

/// `GET /`: join with the class code and a name (and the passcode, where the class has one).
pub async fn join(State(state): State<Arc<ClassState>>) -> Html<String> {
    let passcode = if state.passcode.is_some() { "" } else { "hidden" };
    Html(JOIN.replace("{{CLASS}}", &html_escape(&state.code)).replace("{{PASSCODE}}", passcode))
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

/// Where the quick check's key lies in the built lab.
const KEY_PATH: [&str; 2] = ["probe", "quiz-key.json"];

/// The file a request for `path` under the built lab `dist` names, decoded as the file server
/// decodes it (percent-decoded, then split; `.` and empty segments dropped, `..` refused).
fn served_path(dist: &Path, path: &str) -> Option<PathBuf> {
    let decoded = percent_encoding::percent_decode_str(path.trim_start_matches('/')).decode_utf8().ok()?;
    let mut file = dist.to_path_buf();
    for component in Path::new(&*decoded).components() {
        match component {
            Component::Normal(part) => file.push(part),
            Component::CurDir => {}
            Component::Prefix(_) | Component::RootDir | Component::ParentDir => return None,
        }
    }
    Some(file)
}

/// The file's identity on its device: two paths that reach it (a link, another spelling on a
/// file system that ignores case) have the same.
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Whether a request for `path` under `dist` reaches the quick check's key: it names the key's
/// place in any spelling the file server reads, or a file that is the key.
pub fn reaches_key(dist: &Path, path: &str) -> bool {
    let Some(file) = served_path(dist, path) else { return false };
    let place = dist.join(KEY_PATH.iter().collect::<PathBuf>());
    let named = file.strip_prefix(dist).is_ok_and(|rest| {
        let parts: Vec<_> = rest.components().filter_map(|c| c.as_os_str().to_str()).collect();
        parts.len() == KEY_PATH.len() && parts.iter().zip(KEY_PATH).all(|(a, b)| a.eq_ignore_ascii_case(b))
    });
    named || identity(&place).is_some_and(|key| identity(&file) == Some(key))
}

/// In front of the built lab's files: a request that reaches the quick check's key is
/// answered by [`quiz_key`], which refuses it while the class hides solutions.
pub async fn guard_files(
    State((state, dist)): State<(Arc<ClassState>, Arc<PathBuf>)>,
    request: Request,
    next: Next,
) -> Response {
    if reaches_key(&dist, request.uri().path()) {
        return quiz_key(State(state)).await;
    }
    next.run(request).await
}

/// The quick check's answers, which the lab fetches to explain them; refused while the class
/// hides solutions (the class server grades the quiz then).
pub async fn quiz_key(State(state): State<Arc<ClassState>>) -> Response {
    let hidden = match state.store.find_class(&state.code).await {
        Ok(Some(class)) => settings_of(&class.settings).hide_solutions,
        _ => true,
    };
    if hidden {
        return refuse(StatusCode::FORBIDDEN, "this class hides solutions: the class server grades the quick check");
    }
    ([(header::CONTENT_TYPE, "application/json")], crate::quiz::KEY_JSON).into_response()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_the_key_reaches_it() {
        let dist = std::env::temp_dir().join(format!("mrtr-key-spellings-{}", std::process::id()));
        std::fs::create_dir_all(dist.join("probe")).expect("a dist");
        std::fs::write(dist.join("probe/quiz-key.json"), "[]").expect("the key");
        std::fs::write(dist.join("probe/quiz.js"), "").expect("the quiz");
        let every_byte: String =
            "/".to_owned() + &"probe/quiz-key.json".bytes().map(|b| format!("%{b:02X}")).collect::<String>();
        for path in [
            "/probe/quiz-key.json",
            "/probe/quiz%2Dkey.json",
            "/probe/quiz%2dkey.json",
            "/probe/%71uiz-key.json",
            "//probe/quiz-key.json",
            "/probe//quiz-key.json",
            "/probe/./quiz-key.json",
            "/./probe/quiz-key.json",
            "/%70robe/quiz-key.json",
            "/probe%2Fquiz-key.json",
            "/probe%2fquiz-key.json",
            "/probe/quiz-key.json/",
            "/PROBE/Quiz-Key.JSON",
            "/probe/%2E/quiz-key.json",
            &every_byte,
        ] {
            assert!(reaches_key(&dist, path), "{path}");
        }
        for path in ["/probe/quiz.js", "/probe/quiz-key.json.map", "/probe/../probe/quiz-key.json", "/", "/%FF"] {
            assert!(!reaches_key(&dist, path), "{path}");
        }
        let _ = std::fs::remove_dir_all(&dist);
    }
}
