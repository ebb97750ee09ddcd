//! The class server against its own students: in a security course they are the adversaries,
//! and each test here plays one attack a student can make on `mrtr-class serve`, run as a real
//! process (docs/CLASSROOM.md, "What a student can and cannot do", names each). Students come
//! from addresses of their own in 127.0.0.0/8, as a class's laptops would.

mod common;
#[path = "../../cli/tests/common/crowd.rs"]
mod crowd;

use common::{join, laptop, send, Class, CODE};
use crowd::Heard;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The quick check's right answers, read off its questions by hand.
const RIGHT: [u8; 5] = [1, 2, 1, 1, 1];

/// The situation that meets `charge-less`, as the lab's share link writes it.
const CHARGE_LESS: &str = "s=buy-ticket&m=edit-payload&p=unsigned";

/// A raw GET of `path`, sent byte for byte (an HTTP client library would tidy it): the status
/// and the body.
fn raw_get(address: &str, path: &str) -> (u16, String) {
    let mut socket = std::net::TcpStream::connect(address).expect("connects");
    socket.set_read_timeout(Some(Duration::from_secs(10))).expect("a timeout");
    let head = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    socket.write_all(head.as_bytes()).expect("the request");
    let mut answer = Vec::new();
    let _ = socket.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default())
}

/// Every spelling of the quiz key's address that the file server would read, while the class
/// hides solutions: none returns the key. Shown, the key is served at its plain address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hidden_quiz_key_is_out_of_reach_by_any_spelling() {
    let class = Class::start("key", &["--settings", "hide=hints,solutions"]);
    let address = class.address();
    let every_byte: String = "probe/quiz-key.json".bytes().map(|b| format!("%{b:02X}")).collect();
    let spellings = [
        "/app/probe/quiz-key.json".to_owned(),
        "/app/probe/quiz%2Dkey.json".into(),
        "/app/probe/quiz%2dkey.json".into(),
        "/app/probe/%71uiz-key.json".into(),
        "/app//probe/quiz-key.json".into(),
        "/app/probe//quiz-key.json".into(),
        "/app/probe/./quiz-key.json".into(),
        "/app/./probe/quiz-key.json".into(),
        "/app/%70robe/quiz-key.json".into(),
        "/app/probe%2Fquiz-key.json".into(),
        "/app/probe%2fquiz-key.json".into(),
        "/app/probe/quiz-key.json/".into(),
        "/app/probe/quiz-key.json?x=1".into(),
        "/app/probe/quiz-key.json#frag".into(),
        "/app/PROBE/QUIZ-KEY.JSON".into(),
        "/app/probe/%2e/quiz-key.json".into(),
        "/app/probe/%2E%2E/probe/quiz-key.json".into(),
        "/app/probe/../probe/quiz-key.json".into(),
        format!("/app/{every_byte}"),
        format!("/app//{every_byte}?"),
    ];
    for path in &spellings {
        let (status, body) = raw_get(&address, path);
        assert!(!body.contains("\"right\""), "{path}: the key came back ({status})");
        assert!(status == 403 || status == 404 || status == 400, "{path}: {status} {body}");
    }
    // The quiz's questions are still served, and a class that shows solutions serves the key.
    assert_eq!(raw_get(&address, "/app/probe/quiz.js").0, 200);
    let (status, said) = send(
        &laptop(1),
        "POST",
        &format!("{}/api/settings", class.url),
        &class.token,
        Some(json!({"settings": "hide=hints"})),
    )
    .await;
    assert_eq!(status, 200, "{said}");
    let (status, body) = raw_get(&address, "/app/probe/quiz%2Dkey.json");
    assert!(status == 200 && body.contains("\"right\""), "shown: {status} {body}");
}

/// An LRS as xAPI 1.0.3 has it: a batch with one statement it will not take is refused whole
/// (400). This one refuses any statement whose result says "poison" while `strict` holds; it
/// keeps every other.
fn strict_lrs() -> (String, Arc<Mutex<Vec<Value>>>, Arc<std::sync::atomic::AtomicBool>) {
    let stored: Arc<Mutex<Vec<Value>>> = Arc::default();
    let strict = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let (kept, strictly) = (stored.clone(), strict.clone());
    let lrs = axum::Router::new().route(
        "/xapi/statements",
        axum::routing::post(move |body: String| {
            let (kept, strictly) = (kept.clone(), strictly.clone());
            async move {
                let strict = strictly.load(std::sync::atomic::Ordering::SeqCst);
                let Ok(batch) = serde_json::from_str::<Vec<Value>>(&body) else {
                    return axum::http::StatusCode::BAD_REQUEST;
                };
                let valid = |s: &Value| {
                    s["verb"]["id"].as_str().is_some_and(|v| v.starts_with("http://"))
                        && s["actor"].is_object()
                        && s["object"]["id"].as_str().is_some_and(|id| id.contains(':'))
                        && !(strict && s["result"]["response"].as_str().is_some_and(|r| r.contains("poison")))
                };
                if !batch.iter().all(valid) {
                    return axum::http::StatusCode::BAD_REQUEST;
                }
                kept.lock().expect("the store").extend(batch);
                axum::http::StatusCode::OK
            }
        }),
    );
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}/xapi/statements", listener.local_addr().expect("an address"));
    listener.set_nonblocking(true).expect("non-blocking");
    tokio::spawn(async move {
        let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
        let _ = axum::serve(listener, lrs).await;
    });
    (url, stored, strict)
}

/// A student cannot grade themselves through xAPI, and cannot stop the class's forwarding:
/// a statement that grades, or is not the lab's, is refused (400); the server's own `passed`
/// comes from a verified claim; a statement the LRS refuses is parked and shown to the
/// instructor, and every other goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statements_grade_only_from_the_servers_records_and_one_bad_one_stops_nothing() {
    let (lrs, stored, strict) = strict_lrs();
    let class = Class::start("xapi", &["--lrs", &lrs, "--settings", "hide=hints,solutions"]);
    let eve = laptop(2);
    let secret = join(&eve, &class, "Eve", "").await.expect("a seat");
    let statements = format!("{}/api/statements", class.url);
    let activity = format!("urn:mrtr-lab:class:{CODE}");
    // The exact shape of the server's graded quiz, 5 of 5: refused.
    let forged = mrtr_lab::xapi::quiz(&activity, 5, 5);
    let (status, said) = send(&eve, "POST", &statements, &secret, Some(forged)).await;
    assert_eq!(status, 400, "{said}");
    assert!(said["error"].as_str().is_some_and(|e| e.contains("class server")), "{said}");
    let move_ = |response: &str| {
        json!({"verb": {"id": mrtr_lab::xapi::VERB_ATTEMPTED},
            "object": {"id": format!("{activity}/scenarios/voucher/moves/send-twice")},
            "result": {"response": response}})
    };
    for forged in [
        mrtr_lab::xapi::passed(&activity, "charge-less", "Pay less"),
        json!({"verb": {"id": "not an IRI"}, "object": {"id": format!("{activity}/quiz")}}),
        json!({"verb": {"id": mrtr_lab::xapi::VERB_ATTEMPTED}, "object": {"id": "https://elsewhere.example/x"}}),
        {
            let mut with_success = move_("accepted");
            with_success["result"]["success"] = json!(true);
            with_success
        },
    ] {
        let (status, said) = send(&eve, "POST", &statements, &secret, Some(forged.clone())).await;
        assert_eq!(status, 400, "{forged} → {said}");
    }
    // Three moves, the second of which the LRS will not take, and a claim the server verifies.
    for response in ["refused", "poison", "accepted"] {
        let (status, said) = send(&eve, "POST", &statements, &secret, Some(move_(response))).await;
        assert_eq!(status, 202, "{said}");
    }
    let claim = json!({"challenge": "charge-less", "situation": CHARGE_LESS});
    let (status, said) = send(&eve, "POST", &format!("{}/api/claim", class.url), &secret, Some(claim)).await;
    assert_eq!(status, 200, "{said}");
    // Forwarded: every statement but the poisoned one, within the LRS forwarder's pauses.
    let deadline = Instant::now() + Duration::from_secs(20);
    while stored.lock().expect("the store").len() < 3 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let forwarded = stored.lock().expect("the store").clone();
    let responses: Vec<&str> = forwarded.iter().filter_map(|s| s["result"]["response"].as_str()).collect();
    assert_eq!(responses, ["refused", "accepted"], "{forwarded:?}");
    let passed: Vec<&Value> = forwarded.iter().filter(|s| s["verb"]["id"] == mrtr_lab::xapi::VERB_PASSED).collect();
    assert_eq!(passed.len(), 1, "the server's own passed, from the verified claim: {forwarded:?}");
    assert_eq!(passed[0]["object"]["id"], format!("{activity}/challenges/charge-less"));
    assert!(forwarded.iter().all(|s| s["verb"]["id"] != mrtr_lab::xapi::VERB_COMPLETED), "no forged grade");
    let (_, view) = send(&laptop(1), "GET", &format!("{}/api/class", class.url), &class.token, None).await;
    let parked = view["parked"].as_array().cloned().unwrap_or_default();
    assert_eq!(parked.len(), 1, "the refused statement, shown to the instructor: {view}");
    assert!(parked[0]["why"].as_str().is_some_and(|w| w.contains("400")), "{parked:?}");
    // The LRS set right, the instructor sends the parked statement again: it is stored.
    strict.store(false, std::sync::atomic::Ordering::SeqCst);
    let (status, said) =
        send(&laptop(1), "POST", &format!("{}/api/parked", class.url), &class.token, Some(json!({}))).await;
    assert_eq!((status, &said["again"]), (200, &json!(1)), "{said}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !stored_poison(&stored) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(stored_poison(&stored), "the parked statement reached the LRS once it took it");
    let (_, view) = send(&laptop(1), "GET", &format!("{}/api/class", class.url), &class.token, None).await;
    assert_eq!(view["parked"], json!([]), "nothing parked any more");
}

fn stored_poison(stored: &Mutex<Vec<Value>>) -> bool {
    stored.lock().expect("the store").iter().any(|s| s["result"]["response"] == "poison")
}

/// A join flood cannot lock the class: joins are bounded per address, the seats of a room
/// never pass the cap however many join at once, the instructor removes a seat and a reset
/// empties the room; with a passcode, nobody who only read the join page takes a seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_flood_neither_overfills_nor_locks_the_class() {
    let class = Class::start("flood", &[]);
    // 1,200 scripted joins, from ten addresses at once.
    let bots: Vec<reqwest::Client> = (0..10).map(|i| laptop(10 + i)).collect();
    let joins = (0..1_200).map(|i| {
        let client = bots[i % 10].clone();
        let (url, name) = (class.url.clone(), format!("bot {i}"));
        tokio::spawn(async move {
            let body = json!({"class": CODE, "name": name});
            send(&client, "POST", &format!("{url}/api/join"), "", Some(body)).await.0
        })
    });
    let mut statuses = std::collections::BTreeMap::new();
    for join in joins {
        *statuses.entry(join.await.expect("a join")).or_insert(0) += 1;
    }
    println!("1,200 joins from ten addresses: {statuses:?}");
    assert_eq!(statuses.get(&201), Some(&1_000), "exactly the cap seated: {statuses:?}");
    assert!(statuses.keys().all(|s| [201, 429, 503].contains(s)), "{statuses:?}");
    // From one address, past its burst, joins wait: 429 with Retry-After, before anything else.
    let rapid = laptop(9);
    let mut slowed = 0;
    for i in 0..200 {
        let body = Some(json!({"class": CODE, "name": format!("rapid {i}")}));
        let answer = send(&rapid, "POST", &format!("{}/api/join", class.url), "", body).await;
        slowed += usize::from(answer.0 == 429);
    }
    assert!(slowed >= 50, "200 joins from one address: {slowed} slowed down");
    // A real student from an address of their own: the class is full, said as such.
    let ada = laptop(3);
    let refused = join(&ada, &class, "Ada", "").await.expect_err("full");
    assert_eq!(refused.0, 503, "{refused:?}");
    // The instructor removes a seat: Ada takes it.
    let teacher = laptop(1);
    let (_, view) = send(&teacher, "GET", &format!("{}/api/class", class.url), &class.token, None).await;
    let bot = view["students"][0]["seat"].as_str().expect("a seat").to_owned();
    let remove = Some(json!({"seat": bot}));
    assert_eq!(send(&teacher, "POST", &format!("{}/api/remove", class.url), &class.token, remove.clone()).await.0, 200);
    assert_eq!(send(&teacher, "POST", &format!("{}/api/remove", class.url), &class.token, remove).await.0, 404);
    let secret = join(&ada, &class, "Ada", "").await.expect("the freed seat");
    assert_eq!(send(&ada, "GET", &format!("{}/api/me", class.url), &secret, None).await.0, 200);
    // A reset empties the room: the bots' seats hold nothing, a new student joins.
    let reset = Some(json!({"confirm": CODE}));
    assert_eq!(send(&teacher, "POST", &format!("{}/api/reset", class.url), &class.token, reset).await.0, 200);
    assert_eq!(send(&ada, "GET", &format!("{}/api/me", class.url), &secret, None).await.0, 401);
    let again = join(&laptop(4), &class, "Ada", "").await.expect("a seat in the new room");
    let (_, view) = send(&teacher, "GET", &format!("{}/api/class", class.url), &class.token, None).await;
    assert_eq!(view["students"].as_array().map(Vec::len), Some(1), "{}", view["students"]);
    assert_eq!(send(&laptop(4), "GET", &format!("{}/api/me", class.url), &again, None).await.0, 200);

    // A class with a passcode: the code alone seats nobody.
    let guarded = Class::start("passcode", &["--passcode", "blue heron"]);
    let refused = join(&laptop(5), &guarded, "Mallory", "").await.expect_err("no passcode");
    assert_eq!(refused.0, 403, "{refused:?}");
    assert_eq!(join(&laptop(5), &guarded, "Mallory", "red heron").await.expect_err("wrong").0, 403);
    join(&laptop(5), &guarded, "Grace", " blue heron ").await.expect("the passcode, as said in the room");
    let page = laptop(5).get(format!("{}/", guarded.url)).send().await.expect("the join page");
    let page = page.text().await.unwrap_or_default();
    assert!(page.contains("<div >") && page.contains("id=\"passcode\""), "the join page asks for it");
    let page = laptop(5).get(format!("{}/", class.url)).send().await.expect("the join page");
    assert!(page.text().await.unwrap_or_default().contains("<div hidden>"), "and only where the class has one");
}

/// One seat cannot take the class down: 600 event streams opened with one seat's secret leave
/// it two, while 30 other students join and have their claims verified.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_seat_with_600_streams_stops_no_other_student() {
    mrtr::http::raise_file_limit(2_000);
    let class = Class::start("streams", &[]);
    let mallory = laptop(6);
    let secret = join(&mallory, &class, "Mallory", "").await.expect("a seat");
    let url = format!("{}/api/seat-live", class.url);
    let mut streams = Vec::new();
    for _ in 0..600 {
        let stream = mallory.get(&url).bearer_auth(&secret).send().await.expect("a stream");
        assert_eq!(stream.status().as_u16(), 200);
        streams.push(stream);
    }
    // Meanwhile 30 students join and claim.
    let started = Instant::now();
    let students = (0..30).map(|i| {
        let (url, client) = (class.url.clone(), laptop(40 + i as u8));
        tokio::spawn(async move {
            let body = json!({"class": CODE, "name": format!("Student {i}")});
            let (status, seat) = send(&client, "POST", &format!("{url}/api/join"), "", Some(body)).await;
            assert_eq!(status, 201, "{seat}");
            let secret = seat["secret"].as_str().unwrap_or_default().to_owned();
            let claim = json!({"challenge": "charge-less", "situation": CHARGE_LESS});
            send(&client, "POST", &format!("{url}/api/claim"), &secret, Some(claim)).await.0
        })
    });
    for student in students {
        assert_eq!(student.await.expect("a student"), 200);
    }
    println!("30 students joined and claimed in {:?} beside 600 streams of one seat", started.elapsed());
    // Of the 600, the two newest are open; every older one has ended, whole.
    let mut open = 0;
    for mut stream in streams {
        loop {
            match tokio::time::timeout(Duration::from_millis(50), stream.chunk()).await {
                Ok(Ok(Some(_))) => continue,
                Ok(Ok(None)) => break,
                Ok(Err(e)) => panic!("a stream was cut, not ended: {e}"),
                Err(_) => {
                    open += 1;
                    break;
                }
            }
        }
    }
    assert_eq!(open, mrtr_class::live::STREAMS_PER_HOLDER, "the seat keeps its two newest streams");
}

/// The instructor's token is read from the Authorization header only (never an address a
/// proxy logs), kept only as its hash, and `mrtr-class token` replaces it at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_instructor_token_is_a_header_kept_as_a_hash_and_rotated() {
    let class = Class::start("token", &[]);
    let teacher = laptop(1);
    let view = format!("{}/api/class", class.url);
    assert_eq!(send(&teacher, "GET", &view, &class.token, None).await.0, 200);
    for address in [format!("{view}?token={}", class.token), format!("{}/api/live?token={}", class.url, class.token)] {
        assert_eq!(send(&teacher, "GET", &address, "", None).await.0, 401, "{address}");
    }
    let student = laptop(7);
    let secret = join(&student, &class, "Sam", "").await.expect("a seat");
    assert_eq!(send(&student, "GET", &view, &secret, None).await.0, 401, "a seat secret is no instructor token");
    assert_eq!(send(&student, "GET", &format!("{}/api/me?token={secret}", class.url), "", None).await.0, 401);
    let file = std::fs::read(class.db.trim_start_matches("sqlite://")).expect("the database file");
    let kept = String::from_utf8_lossy(&file);
    assert!(!kept.contains(&class.token), "the token is nowhere in the database in plain text");
    assert!(!kept.contains(&secret), "nor a seat's secret");
    // A new token: the old one stops working in the running server.
    let rotated = Command::new(env!("CARGO_BIN_EXE_mrtr-class"))
        .args(["token", "--class", CODE, "--db", &class.db])
        .output()
        .expect("mrtr-class token");
    assert!(rotated.status.success(), "{}", String::from_utf8_lossy(&rotated.stderr));
    let token = String::from_utf8_lossy(&rotated.stdout).trim().to_owned();
    assert_eq!(token.len(), 32);
    assert_eq!(send(&teacher, "GET", &view, &class.token, None).await.0, 401, "the old token");
    assert_eq!(send(&teacher, "GET", &view, &token, None).await.0, 200, "the new one");
    let missing = Command::new(env!("CARGO_BIN_EXE_mrtr-class"))
        .args(["token", "--class", "NOPE", "--db", &class.db])
        .output()
        .expect("mrtr-class token");
    assert!(!missing.status.success(), "no class NOPE");
}

/// SIGTERM stops the class server as it stops `mrtr serve`: the claims in flight are answered
/// and recorded, every open page's stream ends whole, and it exits 0. Back on the same
/// database, nothing is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_mid_claim_answers_the_claims_ends_the_streams_and_exits_0() {
    let mut class = Class::start("sigterm", &[]);
    let students: Vec<(reqwest::Client, String)> = {
        let mut seated = Vec::new();
        for i in 0..10 {
            let client = laptop(80 + i);
            let secret = join(&client, &class, &format!("Student {i}"), "").await.expect("a seat");
            seated.push((client, secret));
        }
        seated
    };
    let live = laptop(1)
        .get(format!("{}/api/live", class.url))
        .bearer_auth(&class.token)
        .send()
        .await
        .expect("the instructor's stream");
    let claims: Vec<_> = students
        .iter()
        .map(|(client, secret)| {
            let (client, secret, url) = (client.clone(), secret.clone(), class.url.clone());
            tokio::spawn(async move {
                let claim = json!({"challenge": "charge-less", "situation": CHARGE_LESS});
                client
                    .post(format!("{url}/api/claim"))
                    .bearer_auth(&secret)
                    .header("content-type", "application/json")
                    .body(claim.to_string())
                    .send()
                    .await
                    .map(|a| a.status().as_u16())
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let exit = tokio::task::spawn_blocking(move || {
        let code = class.terminate();
        (class, code)
    });
    let mut answered = 0;
    for claim in claims {
        // A claim sent before the stop is answered; one that came after it finds no server.
        if let Ok(Ok(status)) = claim.await {
            assert_eq!(status, 200);
            answered += 1;
        }
    }
    let body = tokio::time::timeout(Duration::from_secs(15), live.bytes()).await.expect("the stream ended");
    assert!(body.is_ok(), "the instructor's stream ended whole: {body:?}");
    let (class, code) = exit.await.expect("the server stopped");
    assert_eq!(code, Some(0), "exit 0 on SIGTERM");
    // Back on the same database: every answered claim was recorded.
    let again = Class::spawn(&class.dir, &class.db, &[]);
    let (_, view) = send(&laptop(1), "GET", &format!("{}/api/class", again.url), &class.token, None).await;
    let recorded = view["students"]
        .as_array()
        .map_or(0, |s| s.iter().filter(|s| !s["done"].as_object().is_none_or(|d| d.is_empty())).count());
    assert!(recorded >= answered, "{recorded} recorded of {answered} answered");
    println!("SIGTERM with 10 claims in flight: {answered} answered, {recorded} recorded, exit 0");
    drop(again);
    drop(class);
}

/// Past the class server's connection cap every client is answered, 200 or 503 with
/// `Retry-After`, none dropped (the cap set low here, the same accept loop as `mrtr-class serve`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_class_servers_connection_cap_every_page_is_answered() {
    let dir = std::env::temp_dir().join(format!("mrtr-hostile-cap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let store = mrtr_class::store::Store::open(&format!("sqlite://{}", dir.join("class.db").display()))
        .await
        .expect("the database");
    store.class(CODE, "", &mrtr_class::secret::sha256("token"), 0).await.expect("the class");
    let state = Arc::new(mrtr_class::state::ClassState::new(store, CODE.into(), mrtr_class::live::Live::default()));
    let router = mrtr_class::router(state, &dir);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("an address").to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(mrtr::http::serve_limited(
        listener,
        router,
        async {
            let _ = stopped.await;
        },
        32,
    ));
    let head = format!("GET / HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let heard = crowd::crowd(&address, 64, head.as_bytes()).await;
    let ok = heard.iter().filter(|h| **h == Heard::Status(200, false)).count();
    let busy = heard.iter().filter(|h| **h == Heard::Status(503, true)).count();
    assert_eq!(ok + busy, 64, "{heard:?}");
    assert!(ok >= 16, "most of the cap served: {ok}");
    let _ = stop.send(());
    let _ = served.await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// RIGHT is the quick check's key as the class server grades it.
#[test]
fn the_key_written_here_is_the_class_servers() {
    let graded = mrtr_class::quiz::grade(&RIGHT).expect("graded");
    assert_eq!(graded.score, graded.max);
}

/// Fix-It counts only when the class server has run the verifier and seen every attack
/// refused: a verifier that accepts everything, one that loops, one that allocates without
/// end are each recorded with what they let through or why they stopped, and a claim from
/// the page is no pass; the server keeps serving throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fix_it_counts_only_when_the_server_runs_the_verifier() {
    let class = Class::start("fixit", &[]);
    let student = laptop(90);
    let secret = join(&student, &class, "Fay", "").await.expect("a seat");
    let fixit = format!("{}/api/fixit", class.url);
    for (code, through) in [
        ("function open() { return accept(); }", "send-twice"),
        ("function open() { for (;;) {} }", "time limit"),
        ("function open() { const a = []; for (;;) a.push(new Array(1 << 16).fill(7)); }", "memory limit"),
        ("not javascript at all (", "does not run"),
    ] {
        let started = Instant::now();
        let (status, said) = send(&student, "POST", &fixit, &secret, Some(json!({"code": code}))).await;
        assert_eq!((status, &said["passed"]), (200, &json!(false)), "{code}: {said}");
        assert!(said["letThrough"].as_str().is_some_and(|t| t.contains(through)), "{code}: {said}");
        assert!(started.elapsed() < Duration::from_secs(15), "{code}: stopped at its limit");
        let (status, _) = send(&laptop(91), "GET", &format!("{}/", class.url), "", None).await;
        assert_eq!(status, 200, "the server keeps serving");
    }
    let teacher = laptop(1);
    let (_, view) = send(&teacher, "GET", &format!("{}/api/class", class.url), &class.token, None).await;
    let shown = &view["students"][0]["fixit"];
    assert_eq!(shown["passed"], false, "{shown}");
    let csv = teacher.get(format!("{}/api/class.csv", class.url)).bearer_auth(&class.token).send().await;
    let csv = csv.expect("the CSV").text().await.unwrap_or_default();
    assert!(csv.lines().nth(1).is_some_and(|row| row.ends_with(',')), "no Fix-It time in the CSV: {csv}");
}

/// A page that announces a body and never sends it is answered 408 when the body's time is
/// up, and the server serves others meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_never_sent_is_cut_off() {
    let class = Class::start("slow", &[]);
    let address = class.address();
    let silent = tokio::task::spawn_blocking(move || {
        let mut socket = std::net::TcpStream::connect(&address).expect("connects");
        socket.set_read_timeout(Some(Duration::from_secs(30))).expect("a timeout");
        let head = format!(
            "POST /api/join HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n"
        );
        socket.write_all(head.as_bytes()).expect("the headers");
        let started = Instant::now();
        let mut answer = [0u8; 64];
        let read = socket.read(&mut answer).unwrap_or(0);
        (String::from_utf8_lossy(&answer[..read]).into_owned(), started.elapsed())
    });
    let (status, _) = send(&laptop(92), "GET", &format!("{}/", class.url), "", None).await;
    assert_eq!(status, 200, "others are served meanwhile");
    let (answer, took) = silent.await.expect("the silent client");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?} after {took:?}");
    assert!(took < Duration::from_secs(20), "cut off at the body's time: {took:?}");
}
