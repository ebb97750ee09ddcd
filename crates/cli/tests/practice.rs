//! The class's practice servers (`mrtr::practice`, at a class server's address) answer a
//! probe as `mrtr serve` does.

/// The class's practice servers answer a probe as `mrtr serve` does: the safe one refuses
/// every attack, the careless one lets the forgeries through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_practice_servers_answer_the_probe() {
    let routes = mrtr::practice::routes(Vec::new(), Vec::new()).expect("the practice servers");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let _ = mrtr::http::serve_on(listener, routes, async {
            let _ = stopped.await;
        })
        .await;
    });
    let probe = |path: &str| {
        let url = format!("{base}{path}");
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_mrtr"))
                .args(["probe", &url, "--call", r#"tools/call deploy {"env":"staging"}"#])
                .args(["--token", "bob-token", "--second-token", "alice-token", "--format", "json"])
                .output()
                .expect("mrtr probe")
        })
    };
    let safe = probe("/practice/safe/mcp").await.expect("the safe probe");
    assert_eq!(safe.status.code(), Some(0), "{}", String::from_utf8_lossy(&safe.stdout));
    let careless = probe("/practice/careless/mcp").await.expect("the careless probe");
    assert_eq!(careless.status.code(), Some(1), "a MUST finding: {}", String::from_utf8_lossy(&careless.stdout));
    let _ = stop.send(());
    let _ = task.await;
}
