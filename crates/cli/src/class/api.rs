//! The class server's JSON API: students join and claim challenges, the instructor reads the
//! class, exports it, changes its settings and resets the room. Every refusal is a status and
//! a sentence; nothing a page sends is believed without a check.

use super::evidence::{self, MAX_SITUATION};
use super::export;
use super::live::Live;
use super::quiz;
use super::store::{ClassRow, Completion, FixItReport, QuizGrade, Seat, Store};
use axum::extract::{FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use mrtr_lab::class::Class;
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Arc;

/// The longest display name kept.
pub const MAX_NAME: usize = 40;
/// The most seats a class takes: a flood of joins stops here.
pub const MAX_SEATS: i64 = 1_000;
/// The longest Fix-It verifier kept.
pub const MAX_FIXIT_CODE: usize = 32 * 1024;
/// The longest xAPI statement kept.
pub const MAX_STATEMENT: usize = 16 * 1024;

/// What every handler shares.
#[derive(Debug)]
pub struct ClassState {
    /// The records.
    pub store: Store,
    /// The class's code.
    pub code: String,
    /// Every open page.
    pub live: Live,
}

type Shared = State<Arc<ClassState>>;

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// A refusal: the status and one sentence, as JSON.
pub fn refuse(status: StatusCode, why: impl std::fmt::Display) -> Response {
    (status, Json(json!({ "error": why.to_string() }))).into_response()
}

fn failed(why: String) -> Response {
    tracing::error!(target: "mrtr::class", "{why}");
    refuse(StatusCode::SERVICE_UNAVAILABLE, "the class database did not answer; nothing was recorded, try again")
}

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).unwrap_or_else(|_| unreachable!("the system's random source"));
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new instructor token (printed at start).
pub fn new_token() -> String {
    random_hex(16)
}

/// The class's settings, read as a lesson's meta element writes them (`hide=…&scenarios=…`),
/// without a class code: the class's own code is the one its pages carry.
pub fn settings_of(text: &str) -> Class {
    Class { code: None, ..Class::from_query(text) }
}

fn bearer(parts: &Parts) -> Option<String> {
    let header = parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    if let Some(token) = header.and_then(|h| mrtr_wire::bearer::token(h).ok()) {
        return Some(token.to_owned());
    }
    // Event streams: a browser's EventSource cannot set a header.
    let query: Query<HashMap<String, String>> = Query::try_from_uri(&parts.uri).ok()?;
    query.0.get("token").cloned()
}

/// A request from a student: the seat their secret holds (a bearer token, or `?token=`), or
/// the refusal.
#[derive(Debug)]
pub struct Student(pub Seat);

impl FromRequestParts<Arc<ClassState>> for Student {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<ClassState>) -> Result<Self, Response> {
        let Some(secret) = bearer(parts) else {
            return Err(refuse(
                StatusCode::UNAUTHORIZED,
                "join the class first: no seat secret came with this request",
            ));
        };
        match state.store.seat_by_secret(&state.code, &sha256(&secret)).await {
            Ok(Some(seat)) => Ok(Student(seat)),
            Ok(None) => {
                Err(refuse(StatusCode::UNAUTHORIZED, "this seat secret holds no seat in this class: join again"))
            }
            Err(why) => Err(failed(why)),
        }
    }
}

/// A request from the instructor (their token), with the class as it stands; or the refusal.
#[derive(Debug)]
pub struct Instructor(pub ClassRow);

impl FromRequestParts<Arc<ClassState>> for Instructor {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<ClassState>) -> Result<Self, Response> {
        let Current(class) = Current::from_request_parts(parts, state).await?;
        match bearer(parts) {
            Some(token) if constant_time_eq(&token, &class.instructor_token) => Ok(Instructor(class)),
            _ => Err(refuse(
                StatusCode::UNAUTHORIZED,
                "the instructor's token (printed when the class server started) is needed",
            )),
        }
    }
}

fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A JSON request body; one that is not JSON, or not the JSON an endpoint takes, is refused
/// with a JSON sentence saying so (400, or 415 without `content-type: application/json`).
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = Response;

    async fn from_request(request: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(refuse(rejection.status(), rejection.body_text())),
        }
    }
}

/// `POST /api/join {"class", "name"}`: a seat and its secret.
#[derive(Debug, Deserialize)]
pub struct Join {
    class: String,
    name: String,
}

/// Seats a student.
pub async fn join(State(state): Shared, Body(join): Body<Join>) -> Response {
    if !join.class.trim().eq_ignore_ascii_case(&state.code) {
        return refuse(
            StatusCode::NOT_FOUND,
            format!("no class has the code {:?}", mrtr_sim::text::clip(join.class, 20)),
        );
    }
    let name: String = join.name.trim().chars().filter(|c| !c.is_control()).collect();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return refuse(StatusCode::BAD_REQUEST, format!("a display name has 1 to {MAX_NAME} characters"));
    }
    match state.store.seat_count(&state.code).await {
        Ok(count) if count >= MAX_SEATS => {
            return refuse(StatusCode::TOO_MANY_REQUESTS, format!("the class is full ({MAX_SEATS} seats)"))
        }
        Err(why) => return failed(why),
        Ok(_) => {}
    }
    let secret = random_hex(24);
    let seat = Seat { id: random_hex(8), name: name.clone(), joined_ms: now_ms() };
    if let Err(why) = state.store.join(&state.code, &seat, &sha256(&secret)).await {
        return failed(why);
    }
    state.live.tell("joined", json!({"seat": seat.id, "name": name}));
    (StatusCode::CREATED, Json(json!({"seat": seat.id, "name": name, "secret": secret, "class": state.code})))
        .into_response()
}

/// `POST /api/claim {"challenge", "situation"}`: a challenge met, checked by replaying it.
#[derive(Debug, Deserialize)]
pub struct Claim {
    challenge: String,
    situation: String,
}

/// Checks and records a claim.
pub async fn claim(
    State(state): Shared,
    Student(seat): Student,
    Current(class): Current,
    Body(claim): Body<Claim>,
) -> Response {
    if claim.situation.len() > MAX_SITUATION {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, evidence::Refusal::TooLarge);
    }
    // The replay is CPU work of milliseconds: off the async threads.
    let settings = class.settings.clone();
    let (id, situation) = (claim.challenge.clone(), claim.situation.clone());
    let checked = tokio::task::spawn_blocking(move || evidence::verify(&id, &situation, &settings_of(&settings))).await;
    let checked = match checked {
        Ok(checked) => checked,
        Err(_) => return refuse(StatusCode::UNPROCESSABLE_ENTITY, "the situation could not be replayed"),
    };
    let at_ms = now_ms();
    let challenge = mrtr_sim::text::clip(claim.challenge, 64);
    if let Err(refusal) = checked {
        let reason = refusal.to_string();
        if let Err(why) = state.store.refuse(class.generation, &seat.id, &challenge, &reason, at_ms).await {
            return failed(why);
        }
        state
            .live
            .tell("refused", json!({"seat": seat.id, "name": seat.name, "challenge": challenge, "reason": reason}));
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, format!("not recorded: {reason}"));
    }
    let done = Completion { seat: seat.id.clone(), challenge: challenge.clone(), situation: claim.situation, at_ms };
    match state.store.complete(class.generation, &done).await {
        Ok(true) => {
            state
                .live
                .tell("completed", json!({"seat": seat.id, "name": seat.name, "challenge": challenge, "atMs": at_ms}));
            Json(json!({"recorded": true, "challenge": challenge})).into_response()
        }
        Ok(false) => {
            Json(json!({"recorded": false, "challenge": challenge, "why": "already recorded"})).into_response()
        }
        Err(why) => failed(why),
    }
}

/// The class as it stands (its settings and generation) when a request comes, or the refusal.
/// Handlers take it after `Student`: a request without a seat is refused before the class is read.
#[derive(Debug)]
pub struct Current(pub ClassRow);

impl FromRequestParts<Arc<ClassState>> for Current {
    type Rejection = Response;

    async fn from_request_parts(_: &mut Parts, state: &Arc<ClassState>) -> Result<Self, Response> {
        match state.store.find_class(&state.code).await {
            Ok(Some(class)) => Ok(Current(class)),
            Ok(None) => Err(refuse(StatusCode::NOT_FOUND, "no such class")),
            Err(why) => Err(failed(why)),
        }
    }
}

/// The activity IRI of a class's statements (the prefix of their object ids; the class's lab
/// page gives its element the same).
pub fn activity(code: &str) -> String {
    format!("urn:mrtr-lab:class:{code}")
}

/// `POST /api/quiz {"answers": [1, 2, 1, 1, 1]}`: the quick check, graded here.
#[derive(Debug, Deserialize)]
pub struct Answers {
    answers: Vec<u8>,
}

/// Grades and keeps a seat's quick check, and keeps its xAPI statement.
pub async fn quiz(
    State(state): Shared,
    Student(seat): Student,
    Current(class): Current,
    Body(body): Body<Answers>,
) -> Response {
    let graded = match quiz::grade(&body.answers) {
        Ok(graded) => graded,
        Err(why) => return refuse(StatusCode::BAD_REQUEST, why),
    };
    let at_ms = now_ms();
    let grade = QuizGrade { seat: seat.id.clone(), score: graded.score as i64, max: graded.max as i64, at_ms };
    let answers = serde_json::to_string(&body.answers).unwrap_or_default();
    if let Err(why) = state.store.grade_quiz(class.generation, &grade, &answers).await {
        return failed(why);
    }
    if let Err(why) = keep(&state, &class, &seat, quiz::statement(&activity(&state.code), graded), at_ms).await {
        return failed(why);
    }
    state.live.tell("quiz", json!({"seat": seat.id, "name": seat.name, "score": graded.score, "max": graded.max}));
    // The score goes back only where the class shows solutions: a graded session says nothing.
    let solutions = !settings_of(&class.settings).hide_solutions;
    Json(json!({"recorded": true, "score": solutions.then_some(graded.score), "max": graded.max})).into_response()
}

/// `POST /api/fixit {"code"}`: Fix-It passed in the student's browser, with the verifier.
#[derive(Debug, Deserialize)]
pub struct FixIt {
    code: String,
}

/// Keeps a Fix-It pass as reported: the server cannot run the student's JavaScript, so the
/// instructor sees it marked as reported and can read the verifier.
pub async fn fixit(
    State(state): Shared,
    Student(seat): Student,
    Current(class): Current,
    Body(body): Body<FixIt>,
) -> Response {
    if body.code.len() > MAX_FIXIT_CODE {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, format!("a verifier of at most {MAX_FIXIT_CODE} bytes is kept"));
    }
    let at_ms = now_ms();
    let report = FixItReport { seat: seat.id.clone(), code: body.code, at_ms };
    if let Err(why) = state.store.report_fixit(class.generation, &report).await {
        return failed(why);
    }
    state.live.tell("fixit", json!({"seat": seat.id, "name": seat.name, "atMs": at_ms}));
    Json(json!({"recorded": true})).into_response()
}

/// Keeps `statement` as the seat's, with the actor, time and id the class server gives every one.
async fn keep(
    state: &ClassState,
    class: &ClassRow,
    seat: &Seat,
    mut statement: Value,
    at_ms: i64,
) -> Result<(), String> {
    // The lab writes the verb, object and result; the class server adds who, when, and an id
    // by which an LRS keeps a statement sent twice once.
    let id = uuid::Uuid::new_v4().to_string();
    statement["id"] = id.clone().into();
    statement["actor"] = json!({"objectType": "Agent", "name": seat.name,
        "account": {"homePage": activity(&state.code), "name": seat.id}});
    statement["timestamp"] = export::iso_ms(at_ms).into();
    state.store.statement(class.generation, &seat.id, &id, &statement.to_string(), at_ms).await
}

/// `POST /api/statements`: an xAPI statement the seat's lab emitted, kept.
pub async fn statement(
    State(state): Shared,
    Student(seat): Student,
    Current(class): Current,
    Body(body): Body<Value>,
) -> Response {
    if body.to_string().len() > MAX_STATEMENT || !body.is_object() {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!("a statement is one JSON object of at most {MAX_STATEMENT} bytes"),
        );
    }
    match keep(&state, &class, &seat, body, now_ms()).await {
        Ok(()) => (StatusCode::ACCEPTED, Json(json!({"kept": true}))).into_response(),
        Err(why) => failed(why),
    }
}

/// `GET /api/me`: the seat's own progress and the class's settings.
pub async fn me(State(state): Shared, Student(seat): Student) -> Response {
    let Ok(Some(class)) = state.store.find_class(&state.code).await else {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "the class database did not answer");
    };
    let done: Vec<String> = match state.store.completions(&state.code, class.generation).await {
        Ok(all) => all.into_iter().filter(|c| c.seat == seat.id).map(|c| c.challenge).collect(),
        Err(why) => return failed(why),
    };
    let challenges: Vec<&str> = mrtr_sim::challenges::CHALLENGES.iter().map(|c| c.id).collect();
    Json(json!({"seat": seat.id, "name": seat.name, "class": state.code, "settings": class.settings,
        "generation": class.generation, "done": done, "challenges": challenges}))
    .into_response()
}

/// The class as the instructor sees it: students × challenges, and the common mistakes.
pub async fn overview(state: &ClassState, generation: i64) -> Result<Value, String> {
    let progress = state.store.progress(&state.code, generation).await?;
    let mistakes = state.store.refusal_counts(&state.code, generation).await?;
    let statements = state.store.statement_count(&state.code, generation).await?;
    let class = state.store.find_class(&state.code).await?.map(|c| c.settings).unwrap_or_default();
    let challenges: Vec<&str> = mrtr_sim::challenges::CHALLENGES.iter().map(|c| c.id).collect();
    let students: Vec<Value> = progress
        .seats
        .iter()
        .map(|seat| {
            let mine: serde_json::Map<String, Value> = progress
                .done
                .iter()
                .filter(|c| c.seat == seat.id)
                .map(|c| (c.challenge.clone(), json!(c.at_ms)))
                .collect();
            let quiz = progress.quiz.iter().find(|q| q.seat == seat.id);
            let fixit = progress.fixit.iter().find(|f| f.seat == seat.id);
            json!({"seat": seat.id, "name": seat.name, "joinedMs": seat.joined_ms, "done": mine,
                "quiz": quiz.map(|q| json!({"score": q.score, "max": q.max, "atMs": q.at_ms})),
                "fixit": fixit.map(|f| json!({"atMs": f.at_ms, "code": f.code}))})
        })
        .collect();
    let mistakes: Vec<Value> = mistakes
        .into_iter()
        .map(|(challenge, reason, n)| json!({"challenge": challenge, "reason": reason, "count": n}))
        .collect();
    Ok(json!({"class": state.code, "settings": class, "generation": generation, "challenges": challenges,
        "students": students, "mistakes": mistakes, "statements": statements}))
}

/// `GET /api/class`: the instructor's overview.
pub async fn class(State(state): Shared, Instructor(class): Instructor) -> Response {
    match overview(&state, class.generation).await {
        Ok(view) => Json(view).into_response(),
        Err(why) => failed(why),
    }
}

/// `GET /api/class.csv`: one row per student, one column per challenge (when met, ISO-8601).
pub async fn csv(State(state): Shared, Instructor(class): Instructor) -> Response {
    let body = match state.store.progress(&state.code, class.generation).await {
        Ok(progress) => export::csv(&progress),
        Err(why) => return failed(why),
    };
    let name = format!(
        "attachment; filename=\"{}-progress.csv\"",
        state.code.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_")
    );
    ([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, name)], body)
        .into_response()
}

/// `GET /api/live`: the instructor's event stream of every change.
pub async fn live(State(state): Shared, _: Instructor) -> Response {
    state.live.stream(|_| true).into_response()
}

/// `GET /api/seat-live`: a student's event stream (resets and settings).
pub async fn seat_live(State(state): Shared, _: Student) -> Response {
    state.live.stream(|change| matches!(change["type"].as_str(), Some("reset" | "settings"))).into_response()
}

/// `POST /api/reset {"confirm": CODE}`: a new generation; every open page is told.
#[derive(Debug, Deserialize)]
pub struct Reset {
    confirm: String,
}

/// Resets the room once the instructor confirms with the class's code.
pub async fn reset(State(state): Shared, _: Instructor, Body(reset): Body<Reset>) -> Response {
    if reset.confirm != state.code {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!("to reset the room, confirm with the class's code, {}", state.code),
        );
    }
    match state.store.reset(&state.code).await {
        Ok(generation) => {
            state.live.tell("reset", json!({"generation": generation}));
            Json(json!({"generation": generation, "archived": generation - 1})).into_response()
        }
        Err(why) => failed(why),
    }
}

/// `POST /api/settings {"settings": "hide=hints,solutions&scenarios=voucher"}`.
#[derive(Debug, Deserialize)]
pub struct Settings {
    settings: String,
}

/// Changes the class's settings; every open page is told.
pub async fn settings(State(state): Shared, _: Instructor, Body(new): Body<Settings>) -> Response {
    let text = settings_of(&new.settings).query();
    match state.store.set_settings(&state.code, &text).await {
        Ok(()) => {
            state.live.tell("settings", json!({"settings": text}));
            Json(json!({"settings": text})).into_response()
        }
        Err(why) => failed(why),
    }
}
