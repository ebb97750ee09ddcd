//! Export the situation as a JSON file, and import one: the same state a shared link holds.

use super::Panel;
use crate::share;
use crate::state::Action;
use serde_json::json;
use serde_json::Value;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What an exported session file looks like.
pub fn session_json(fragment: &str) -> String {
    format!("{:#}", json!({"mrtrLab": 1, "situation": fragment}))
}

/// The largest session file read. An exported one is a few KB (a link keeps at most an
/// 8 KB ticket and a 16 KB request); a file picked by mistake (a video, a disk image) is
/// refused before it is read into the page.
pub const MAX_SESSION_BYTES: u64 = 1024 * 1024;

/// Whether a file of this size is read at all, or why not.
pub fn readable_size(bytes: u64) -> Result<(), String> {
    if bytes > MAX_SESSION_BYTES {
        return Err(format!("this file is {bytes} bytes; a session file is a few KB, and at most {MAX_SESSION_BYTES}"));
    }
    Ok(())
}

/// The situation inside a session file, or what is wrong with the file.
pub fn situation_of(text: &str) -> Result<String, String> {
    let value = serde_json::from_str::<Value>(text).map_err(|e| format!("this file is not JSON ({e})"))?;
    if value.get("mrtrLab").and_then(Value::as_u64) != Some(1) {
        return Err("this JSON is not an mrtr-lab session (no \"mrtrLab\": 1)".into());
    }
    value
        .get("situation")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| "the session has no \"situation\"".into())
}

fn download(name: &str, text: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    web_sys::Url::revoke_object_url(&url).ok()
}

/// The export and import buttons.
#[component(Session)]
pub fn session(props: &Panel) -> Html {
    let problem = use_state(|| None::<String>);
    // The situation is written out when asked for, not at every render.
    let lab = props.lab.clone();
    let export = Callback::from(move |_: MouseEvent| {
        let _ = download("mrtr-lab-session.json", &session_json(&share::to_fragment(&lab)));
    });
    let import = {
        let (send, problem) = (props.send.clone(), problem.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
            if let Err(why) = readable_size(file.size() as u64) {
                problem.set(Some(format!("Not imported: {why}.")));
                return;
            }
            let (send, problem) = (send.clone(), problem.clone());
            yew::platform::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|t| t.as_string())
                    .unwrap_or_default();
                match situation_of(&text) {
                    Ok(situation) => {
                        problem.set(None);
                        send.emit(Action::Restore(Box::new(share::read_fragment(&situation))));
                    }
                    Err(why) => problem.set(Some(format!("Not imported: {why}."))),
                }
            });
        })
    };
    html! {
        <>
            <button type="button" class="secondary" onclick={export}>{ "Export session (JSON)" }</button>
            <label class="import">
                { "Import session " }
                <input type="file" accept="application/json,.json" onchange={import} />
            </label>
            if let Some(why) = &*problem {
                <p class="problems" role="alert">{ why.clone() }</p>
            }
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_file_round_trips_and_bad_files_are_explained() {
        assert_eq!(situation_of(&session_json("s=voucher&r=off")), Ok("s=voucher&r=off".to_owned()));
        assert!(situation_of("{").expect_err("broken").starts_with("this file is not JSON"));
        assert!(situation_of("{\"a\":1}").expect_err("foreign").contains("not an mrtr-lab session"));
        assert_eq!(readable_size(40_000), Ok(()));
        assert!(readable_size(MAX_SESSION_BYTES + 1).expect_err("too large").starts_with("this file is 1048577 bytes"));
    }
}
