//! A panic never blanks the page: the message is shown where a student can read it.

/// Shows a panic's message at the top of the page and in the console. Installed once, however many labs a page mounts.
pub fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = format!("The lab hit a bug and stopped: {info}. Reload the page to start again.");
            web_sys::console::error_1(&message.clone().into());
            let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
            if let (Ok(alert), Some(body)) = (document.create_element("div"), document.body()) {
                alert.set_class_name("panic");
                let _ = alert.set_attribute("role", "alert");
                alert.set_text_content(Some(&message));
                let _ = body.prepend_with_node_1(&alert);
            }
        }))
    });
}
