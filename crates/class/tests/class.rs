//! `mrtr-class serve` with a class of 30: every student joins and meets challenges at once,
//! the instructor's live stream hears each completion, the CSV holds exactly what happened,
//! forged, garbled and impossible claims are refused with their reasons, a replayed claim
//! counts once, a room reset starts over (the old progress archived) and tells every open
//! page, and a restart loses nothing. On SQLite (a file), and on PostgreSQL where the test
//! command started one (`MRTR_TEST_POSTGRES`).

use mrtr_class::live::Live;
use mrtr_class::state::ClassState;
use mrtr_class::store::Store;
use mrtr_lab::share;
use mrtr_lab::state::{Action, Lab};
use mrtr_sim::cluster::RecordMode;
use mrtr_sim::moves::Move;
use mrtr_ticket::Mode;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

const STUDENTS: usize = 30;
const CODE: &str = "CS-101";
/// The instructor's token the tests' class was made with (only its hash is kept).
const TOKEN: &str = "instructor-token-for-tests";
/// The quick check's right answers, read off its questions by hand.
const RIGHT: [u8; 5] = [1, 2, 1, 1, 1];

/// Student `i`'s quick check: the first `i % 6` questions answered wrong, the rest right.
fn answers(i: usize) -> (Vec<u8>, usize) {
    let wrong = i % 6;
    let answers = RIGHT.iter().enumerate().map(|(q, &right)| if q < wrong { (right + 1) % 3 } else { right }).collect();
    (answers, RIGHT.len() - wrong)
}

/// The Fix-It verifier the browser's tests pass with (tests/e2e/fixit-solution.mjs).
fn solution() -> String {
    let module = include_str!("../../../tests/e2e/fixit-solution.mjs");
    let (start, end) = (module.find('`').unwrap_or(0) + 1, module.rfind('`').unwrap_or(0));
    module[start..end].to_owned()
}

/// The situations a student's lab sends when it meets each challenge, made by playing the
/// lab's own state as a student clicks.
fn met(challenge: &str) -> String {
    let lab = match challenge {
        "charge-less" => {
            Lab::open("buy-ticket").apply(Action::Protect(Mode::Unsigned)).apply(Action::Play(Move::EditPayload))
        }
        "redeem-twice" => {
            Lab::open("voucher").apply(Action::Record(RecordMode::Off)).apply(Action::Play(Move::SendTwice))
        }
        other => panic!("no way to meet {other}"),
    };
    share::to_fragment(&lab)
}

struct Server {
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    async fn start(db: &str, dist: &std::path::Path) -> (Server, String) {
        let store = Store::open(db).await.expect("the database");
        store.class(CODE, "", &mrtr_class::secret::sha256(TOKEN), 0).await.expect("the class");
        let state = Arc::new(ClassState::new(store, CODE.into(), Live::default()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let url = format!("http://{}", listener.local_addr().expect("an address"));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let router = mrtr_class::router(state, dist);
        let task = tokio::spawn(async move {
            let _ = mrtr::http::serve_on(listener, router, async {
                let _ = stopped.await;
            })
            .await;
        });
        (Server { url, stop: Some(stop), task }, TOKEN.to_owned())
    }

    async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = self.task.await;
    }
}

async fn post(client: &reqwest::Client, url: &str, secret: &str, body: Value) -> (u16, Value) {
    let answer = client
        .post(url)
        .bearer_auth(secret)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("an answer");
    let status = answer.status().as_u16();
    (status, serde_json::from_str(&answer.text().await.unwrap_or_default()).unwrap_or(Value::Null))
}

async fn get(client: &reqwest::Client, url: &str, token: &str) -> (u16, String) {
    let answer = client.get(url).bearer_auth(token).send().await.expect("an answer");
    (answer.status().as_u16(), answer.text().await.unwrap_or_default())
}

/// Reads an event stream until `want` data lines came (or `within` passed).
async fn hear(mut stream: reqwest::Response, want: usize, within: Duration) -> Vec<Value> {
    let mut heard = Vec::new();
    let mut text = String::new();
    let deadline = Instant::now() + within;
    while heard.len() < want && Instant::now() < deadline {
        let Ok(Ok(Some(chunk))) = tokio::time::timeout(Duration::from_millis(200), stream.chunk()).await else {
            continue;
        };
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            for line in event.lines() {
                if let Some(data) = line.strip_prefix("data:") {
                    heard.extend(serde_json::from_str::<Value>(data.trim()).ok());
                }
            }
        }
    }
    heard
}

async fn a_class_runs(db: &str) {
    let dist = std::env::temp_dir().join(format!("mrtr-class-dist-{}", std::process::id()));
    std::fs::create_dir_all(&dist).expect("a dist folder");
    std::fs::write(dist.join("embed.html"), "<!doctype html><title>lab</title>").expect("embed.html");
    let (server, token) = Server::start(db, &dist).await;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(20)).build().expect("a client");
    let live = client.get(format!("{}/api/live", server.url)).bearer_auth(&token).send().await.expect("the live view");
    assert_eq!(live.status().as_u16(), 200);

    // 30 students join and meet two challenges each, all at once.
    let started = Instant::now();
    let students = (0..STUDENTS).map(|i| {
        let (client, url) = (client.clone(), server.url.clone());
        tokio::spawn(async move {
            let (status, seat) = post(
                &client,
                &format!("{url}/api/join"),
                "",
                json!({"class": CODE, "name": format!("Student {i:02}")}),
            )
            .await;
            assert_eq!(status, 201, "{seat}");
            let secret = seat["secret"].as_str().expect("a secret").to_owned();
            for challenge in ["charge-less", "redeem-twice"] {
                let claim = json!({"challenge": challenge, "situation": met(challenge)});
                let (status, said) = post(&client, &format!("{url}/api/claim"), &secret, claim).await;
                assert_eq!((status, &said["recorded"]), (200, &json!(true)), "{said}");
            }
            // The quick check, graded by the server; every third student sends a Fix-It verifier
            // that holds, and the one after it one that accepts everything: the server runs each.
            let (answers, score) = answers(i);
            let (status, said) = post(&client, &format!("{url}/api/quiz"), &secret, json!({"answers": answers})).await;
            assert_eq!((status, &said["score"]), (200, &json!(score)), "{said}");
            if i % 3 < 2 {
                let holds = i.is_multiple_of(3);
                let code = if holds { solution() } else { "function open() { return accept(); }".to_owned() };
                let (status, said) = post(&client, &format!("{url}/api/fixit"), &secret, json!({"code": code})).await;
                assert_eq!((status, &said["passed"]), (200, &json!(holds)), "{said}");
                let through = said["letThrough"].as_str().unwrap_or_default().to_owned();
                assert_eq!(through.is_empty(), holds, "what it let through: {through}");
            }
            secret
        })
    });
    let mut secrets = Vec::new();
    for student in students {
        secrets.push(student.await.expect("a student"));
    }
    let fixits = (0..STUDENTS).filter(|i| i % 3 < 2).count();
    let heard = hear(live, STUDENTS + 2 * STUDENTS + STUDENTS + fixits, Duration::from_secs(10)).await;
    let completions = heard.iter().filter(|c| c["type"] == "completed").count();
    println!(
        "{STUDENTS} students joined and met 2 challenges each in {:?}; the live view heard {completions}",
        started.elapsed()
    );
    assert_eq!(completions, 2 * STUDENTS, "the live view hears every completion");
    assert_eq!(heard.iter().filter(|c| c["type"] == "quiz").count(), STUDENTS, "and every quick check");

    // What is not evidence is refused, with its reason, and recorded as a mistake.
    let me = &secrets[0];
    let claim = |challenge: &str, situation: &str| json!({"challenge": challenge, "situation": situation});
    let refusals = [
        (
            claim("staging-to-prod", "s=deploy&m=edit-payload,resign,other-arguments,tamper-byte&p=signed"),
            "does not meet",
        ),
        (claim("loop-forever", "s=greedy"), "does not meet"),
        (claim("charge-less", "s=buy-ticket&m=honest"), "does not meet"),
        (claim("charge-less", &met("redeem-twice")), "played in buy-ticket"),
        (claim("charge-less", "s=buy-ticket&m=edit-payload&p=nonsense"), "not one the lab writes"),
        (claim("no-such-challenge", "s=voucher"), "no challenge has this id"),
    ];
    for (body, reason) in refusals {
        let (status, said) = post(&client, &format!("{}/api/claim", server.url), me, body.clone()).await;
        assert_eq!(status, 422, "{body} → {said}");
        assert!(said["error"].as_str().unwrap_or_default().contains(reason), "{body} → {said}");
    }
    let (status, _) =
        post(&client, &format!("{}/api/claim", server.url), "stolen", claim("charge-less", &met("charge-less"))).await;
    assert_eq!(status, 401, "a seat secret nobody was given holds no seat");
    // A quick check of the wrong length, or naming an option no question has; a verifier
    // larger than any written by hand.
    for answers in [json!([1, 2]), json!([1, 2, 1, 1, 7]), json!([1, 2, 1, 1, -1]), json!("12111")] {
        let (status, said) = post(&client, &format!("{}/api/quiz", server.url), me, json!({"answers": answers})).await;
        assert!(status == 400 || status == 422, "{answers} → {status} {said}");
        assert!(said["error"].as_str().is_some_and(|e| !e.is_empty()), "{said}");
    }
    let code = json!({"code": "x".repeat(40_000)});
    assert_eq!(post(&client, &format!("{}/api/fixit", server.url), me, code).await.0, 413);
    let huge = "s=voucher&".to_owned() + &"m=honest&".repeat(20_000);
    let (status, _) = post(&client, &format!("{}/api/claim", server.url), me, claim("redeem-twice", &huge)).await;
    assert_eq!(status, 413, "a situation larger than the lab writes");
    // A replayed claim counts once.
    let (status, said) =
        post(&client, &format!("{}/api/claim", server.url), me, claim("redeem-twice", &met("redeem-twice"))).await;
    assert_eq!((status, said["recorded"].clone()), (200, json!(false)), "{said}");
    // A body that is not the JSON an endpoint takes gets a JSON sentence, not a panic.
    let answer = client
        .post(format!("{}/api/claim", server.url))
        .bearer_auth(me)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status().as_u16(), 400);
    let said: Value = serde_json::from_str(&answer.text().await.unwrap_or_default()).expect("a JSON refusal");
    assert!(said["error"].as_str().is_some_and(|e| !e.is_empty()), "{said}");
    // Joining needs the right code and a name.
    for (body, status) in
        [(json!({"class": "CS-999", "name": "Eve"}), 404), (json!({"class": CODE, "name": "  "}), 400)]
    {
        assert_eq!(post(&client, &format!("{}/api/join", server.url), "", body).await.0, status);
    }

    // The instructor's view and the CSV hold exactly what happened.
    let (status, view) = get(&client, &format!("{}/api/class", server.url), &token).await;
    assert_eq!(status, 200);
    let view: Value = serde_json::from_str(&view).expect("JSON");
    assert_eq!(view["students"].as_array().map(Vec::len), Some(STUDENTS));
    let mistakes: i64 =
        view["mistakes"].as_array().expect("mistakes").iter().map(|m| m["count"].as_i64().unwrap_or(0)).sum();
    assert_eq!(mistakes, 6, "{}", view["mistakes"]);
    let (status, csv) = get(&client, &format!("{}/api/class.csv", server.url), &token).await;
    assert_eq!(status, 200);
    let rows: Vec<&str> = csv.split("\r\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(
        rows[0],
        "name,joined,charge-less,redeem-twice,staging-to-prod,loop-forever,met,quick check (of 5),fix-it (verified)"
    );
    assert_eq!(rows.len(), STUDENTS + 1);
    for row in &rows[1..] {
        let cells: Vec<&str> = row.split(',').collect();
        let i: usize = cells[0].trim_start_matches("Student ").parse().expect("a student's number");
        assert_eq!(&cells[4..8], ["", "", "2", &answers(i).1.to_string()], "{row}");
        assert!(cells[2].contains('T') && cells[3].contains('T'), "two challenges met: {row}");
        assert_eq!(cells[8].contains('T'), i.is_multiple_of(3), "Fix-It verified for every third: {row}");
        let shown = &view["students"]
            .as_array()
            .expect("students")
            .iter()
            .find(|s| s["name"] == cells[0])
            .expect("in the view")["quiz"];
        assert_eq!(shown["score"], json!(answers(i).1), "{shown}");
    }
    assert_eq!(get(&client, &format!("{}/api/class", server.url), "not-the-token").await.0, 401);

    // The quiz's key reaches a browser only while the class shows solutions; hidden, the
    // server still grades, and says the score to nobody but the instructor.
    let key = format!("{}/app/probe/quiz-key.json", server.url);
    let (status, text) = get(&client, &key, "").await;
    let served: Value = serde_json::from_str(&text).expect("the key, as JSON");
    assert_eq!((status, served.as_array().map(Vec::len)), (200, Some(RIGHT.len())));
    let hide = json!({"settings": "hide=solutions"});
    assert_eq!(post(&client, &format!("{}/api/settings", server.url), &token, hide).await.0, 200);
    let (status, text) = get(&client, &key, "").await;
    assert_eq!(status, 403, "{text}");
    let (status, said) = post(&client, &format!("{}/api/quiz", server.url), me, json!({"answers": RIGHT})).await;
    assert_eq!((status, &said["score"]), (200, &Value::Null), "{said}");
    let (_, view) = get(&client, &format!("{}/api/class", server.url), &token).await;
    let view: Value = serde_json::from_str(&view).expect("JSON");
    assert_eq!(view["students"][0]["quiz"]["score"], json!(5), "the later answers replace the earlier: {view}");

    // A room reset: a new generation and an empty room, every open student page told, the
    // seats and progress archived.
    let seat_live = client
        .get(format!("{}/api/seat-live", server.url))
        .bearer_auth(&secrets[1])
        .send()
        .await
        .expect("a student's stream");
    let (status, said) = post(&client, &format!("{}/api/reset", server.url), &token, json!({"confirm": "wrong"})).await;
    assert_eq!(status, 400, "{said}");
    let (status, said) = post(&client, &format!("{}/api/reset", server.url), &token, json!({"confirm": CODE})).await;
    assert_eq!(status, 200, "{said}");
    let told = hear(seat_live, 1, Duration::from_secs(5)).await;
    assert_eq!(told.first().map(|c| c["type"].clone()), Some(json!("reset")), "{told:?}");
    let (status, _) = get(&client, &format!("{}/api/me", server.url), &secrets[1]).await;
    assert_eq!(status, 401, "a seat of the archived room holds nothing in the new one");
    let (_, csv) = get(&client, &format!("{}/api/class.csv", server.url), &token).await;
    assert_eq!(csv.split_terminator("\r\n").count(), 1, "an empty room: the header alone: {csv}");
    let (status, seat) =
        post(&client, &format!("{}/api/join", server.url), "", json!({"class": CODE, "name": "Student 01"})).await;
    assert_eq!(status, 201, "{seat}");
    let again = seat["secret"].as_str().expect("a secret").to_owned();
    let (status, said) =
        post(&client, &format!("{}/api/claim", server.url), &again, claim("charge-less", &met("charge-less"))).await;
    assert_eq!((status, said["recorded"].clone()), (200, json!(true)), "after a reset a challenge counts again");
    server.stop().await;

    // A restart loses nothing: the seats, this generation's progress, the token.
    let (server, again) = Server::start(db, &dist).await;
    assert_eq!(again, token);
    let (_, view) = get(&client, &format!("{}/api/class", server.url), &token).await;
    let view: Value = serde_json::from_str(&view).expect("JSON");
    assert_eq!(view["generation"], 2);
    assert_eq!(view["students"].as_array().map(Vec::len), Some(1), "the one who joined the new room");
    let done: usize = view["students"]
        .as_array()
        .expect("students")
        .iter()
        .map(|s| s["done"].as_object().map_or(0, |d| d.len()))
        .sum();
    assert_eq!(done, 1);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dist);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_of_30_on_sqlite() {
    let file = std::env::temp_dir().join(format!("mrtr-class-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    a_class_runs(&format!("sqlite://{}", file.display())).await;
    let _ = std::fs::remove_file(&file);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_of_30_on_postgres() {
    let Ok(url) = std::env::var("MRTR_TEST_POSTGRES") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI runs this test on PostgreSQL: scripts/test.sh sets MRTR_TEST_POSTGRES"
        );
        eprintln!("skipped: MRTR_TEST_POSTGRES is not set (scripts/test.sh starts a PostgreSQL and sets it)");
        return;
    };
    // A database of its own, so that runs never meet.
    let name = format!("mrtr_class_{}", std::process::id());
    let admin = sqlx::postgres::PgPoolOptions::new().max_connections(1).connect(&url).await.expect("PostgreSQL");
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}")).execute(&admin).await.expect("drop");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&admin).await.expect("create");
    let base = url.rsplit_once('/').map_or(url.clone(), |(base, _)| base.to_owned());
    a_class_runs(&format!("{base}/{name}")).await;
    admin.close().await;
}

/// Statements reach an LRS that is down at first: kept meanwhile, each forwarded once it
/// answers, every one carrying its seat as the actor, its id and a timestamp.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statements_reach_an_lrs_that_was_down() {
    use axum::routing::post as route_post;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    // An LRS that answers 503 to its first three POSTs, then stores.
    let refused = Arc::new(AtomicUsize::new(0));
    let stored: Arc<Mutex<Vec<Value>>> = Arc::default();
    let lrs = {
        let (refused, stored) = (refused.clone(), stored.clone());
        axum::Router::new().route(
            "/xapi/statements",
            route_post(move |headers: axum::http::HeaderMap, body: String| {
                let (refused, stored) = (refused.clone(), stored.clone());
                async move {
                    assert_eq!(headers.get("x-experience-api-version").map(|v| v.as_bytes()), Some(&b"1.0.3"[..]));
                    if refused.fetch_add(1, Ordering::SeqCst) < 3 {
                        return axum::http::StatusCode::SERVICE_UNAVAILABLE;
                    }
                    let batch: Vec<Value> = serde_json::from_str(&body).expect("an array of statements");
                    stored.lock().expect("the store").extend(batch);
                    axum::http::StatusCode::OK
                }
            }),
        )
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let lrs_url = format!("http://{}/xapi/statements", listener.local_addr().expect("an address"));
    tokio::spawn(async move {
        let _ = axum::serve(listener, lrs).await;
    });

    let file = std::env::temp_dir().join(format!("mrtr-class-lrs-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let db = format!("sqlite://{}", file.display());
    let dist = std::env::temp_dir().join(format!("mrtr-class-lrs-dist-{}", std::process::id()));
    std::fs::create_dir_all(&dist).expect("a dist folder");
    let (server, _) = Server::start(&db, &dist).await;
    let store = Store::open(&db).await.expect("the database");
    let forwarding = mrtr_class::lrs::Lrs {
        url: lrs_url,
        authorization: Some("Basic dGVzdDp0ZXN0".into()),
        idle: Duration::from_millis(50),
        most_backoff: Duration::from_millis(200),
    };
    let forwarder = tokio::spawn(mrtr_class::lrs::forward(store, forwarding));

    let client = reqwest::Client::new();
    let (_, seat) = post(&client, &format!("{}/api/join", server.url), "", json!({"class": CODE, "name": "Ada"})).await;
    let secret = seat["secret"].as_str().expect("a secret").to_owned();
    for i in 0..7 {
        let statement = json!({"verb": {"id": "http://adlnet.gov/expapi/verbs/attempted"},
            "object": {"objectType": "Activity", "id": format!("urn:mrtr-lab:class:{CODE}/scenarios/voucher/moves/m{i}")}});
        let (status, _) = post(&client, &format!("{}/api/statements", server.url), &secret, statement).await;
        assert_eq!(status, 202);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while stored.lock().expect("the store").len() < 7 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    forwarder.abort();
    let stored = stored.lock().expect("the store").clone();
    assert!(refused.load(Ordering::SeqCst) > 3, "the LRS was down first");
    assert_eq!(stored.len(), 7, "every statement once: {stored:?}");
    let ids: std::collections::HashSet<&str> = stored.iter().filter_map(|s| s["id"].as_str()).collect();
    assert_eq!(ids.len(), 7);
    assert!(stored.iter().all(|s| s["actor"]["name"] == "Ada" && s["actor"]["account"]["name"] == seat["seat"]));
    assert!(stored.iter().all(|s| s["timestamp"].as_str().is_some_and(|t| t.ends_with('Z'))));
    server.stop().await;
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_dir_all(&dist);
}
