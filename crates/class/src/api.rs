//! The class server's JSON API: students join and claim challenges, the instructor reads the
//! class, exports it, changes its settings, removes a seat and resets the room. Every refusal
//! is a status and a sentence; nothing a page sends is believed without a check.
//!
//! Students are the adversaries of a security class, so every student-facing route is
//! bounded ([`crate::bounds`]): joins per client address, claims and statements per seat,
//! the replays the server runs at once, and each seat's event streams ([`crate::live`]).
//! Secrets come in the `Authorization` header only ([`crate::extract`]), never in an address
//! a proxy would log.

use crate::evidence::{self, MAX_SITUATION};
use crate::export;
use crate::extract::{Body, Current, Instructor, Peer, Student};
use crate::quiz;
use crate::refusal::{busy, failed, refuse};
use crate::secret;
use crate::state::{activity, now_ms, settings_of, ClassState};
use crate::store::{ClassRow, Completion, FixItReport, QuizGrade, Seat, StoreError};
use crate::xapi;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The longest display name kept.
pub const MAX_NAME: usize = 40;
/// The most seats a class takes: a flood of joins stops here.
pub const MAX_SEATS: i64 = 1_000;
/// The longest Fix-It verifier kept.
pub const MAX_FIXIT_CODE: usize = 32 * 1024;
/// The longest xAPI statement kept.
pub const MAX_STATEMENT: usize = 16 * 1024;
type Shared = State<Arc<ClassState>>;

/// A new instructor token (printed once; only its hash is kept).
pub fn new_token() -> String {
    secret::random(16)
}

/// `POST /api/join {"class", "name", "passcode"?}`: a seat and its secret.
#[derive(Debug, Deserialize)]
pub struct Join {
    class: String,
    name: String,
    #[serde(default)]
    passcode: String,
}

/// Seats a student in the current room.
pub async fn join(State(state): Shared, Peer(address): Peer, Body(join): Body<Join>) -> Response {
    if let Err(slowed) = state.bounds.join(&address) {
        return slowed.into_response();
    }
    if !join.class.trim().eq_ignore_ascii_case(&state.code) {
        return refuse(
            StatusCode::NOT_FOUND,
            format!("no class has the code {:?}", mrtr_sim::text::clip(join.class, 20)),
        );
    }
    if let Some(passcode) = &state.passcode {
        let given = secret::sha256(join.passcode.trim());
        if !secret::matches(passcode, &given) {
            return refuse(StatusCode::FORBIDDEN, "this class needs its passcode: ask your instructor");
        }
    }
    let name: String = join.name.trim().chars().filter(|c| !c.is_control()).collect();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return refuse(StatusCode::BAD_REQUEST, format!("a display name has 1 to {MAX_NAME} characters"));
    }
    let secret = secret::random(24);
    let seat = Seat { id: secret::random(8), name: name.clone(), joined_ms: now_ms() };
    match state.store.join(&state.code, &seat, &secret::sha256(&secret), MAX_SEATS).await {
        Ok(true) => {}
        Ok(false) => {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the class is full ({MAX_SEATS} seats): ask your instructor"),
            )
        }
        Err(why) => return failed(why),
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
    let settings = class.settings.clone();
    let (id, situation) = (claim.challenge.clone(), claim.situation.clone());
    let replayed = state.bounds.run(&seat.id, move || evidence::verify(&id, &situation, &settings_of(&settings)));
    let checked = match replayed.await {
        Ok(checked) => checked,
        Err(refused) => return refused,
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
            // The xAPI `passed` statement comes from this record, and from nowhere else.
            if let Some(met) = mrtr_sim::challenges::challenge(&challenge) {
                let statement = mrtr_lab::xapi::passed(&activity(&state.code), met.id, met.goal);
                if let Err(why) = keep(&state, &class, &seat, statement, at_ms).await {
                    return failed(why);
                }
            }
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

/// `POST /api/fixit {"code"}`: the Fix-It verifier the student's page ran, to run here again.
#[derive(Debug, Deserialize)]
pub struct FixIt {
    code: String,
}

/// Runs the seat's Fix-It verifier here, in the sandbox, against the battery the page runs
/// ([`crate::fixit`]), and keeps what it found: only a pass found here counts, and the
/// instructor sees what a verifier lets through.
pub async fn fixit(
    State(state): Shared,
    Student(seat): Student,
    Current(class): Current,
    Body(body): Body<FixIt>,
) -> Response {
    if body.code.len() > MAX_FIXIT_CODE {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, format!("a verifier of at most {MAX_FIXIT_CODE} bytes is kept"));
    }
    let code = body.code.clone();
    let (passed, let_through) = match state.bounds.run(&seat.id, move || crate::fixit::verify(&code)).await {
        Ok(Ok(report)) => (report.passed, report.failed().join(",")),
        Ok(Err(failure)) => (false, failure.to_string()),
        Err(refused) => return refused,
    };
    let at_ms = now_ms();
    let report =
        FixItReport { seat: seat.id.clone(), code: body.code, at_ms, passed, let_through: let_through.clone() };
    if let Err(why) = state.store.report_fixit(class.generation, &report).await {
        return failed(why);
    }
    if passed {
        let statement =
            mrtr_lab::xapi::passed(&activity(&state.code), mrtr_lab::xapi::FIX_IT, mrtr_lab::xapi::FIX_IT_GOAL);
        if let Err(why) = keep(&state, &class, &seat, statement, at_ms).await {
            return failed(why);
        }
    }
    state.live.tell(
        "fixit",
        json!({"seat": seat.id, "name": seat.name, "atMs": at_ms, "passed": passed, "letThrough": let_through}),
    );
    Json(json!({"recorded": true, "passed": passed, "letThrough": let_through})).into_response()
}

/// Keeps `statement` as the seat's, with the actor, time and id the class server gives every one.
async fn keep(
    state: &ClassState,
    class: &ClassRow,
    seat: &Seat,
    mut statement: Value,
    at_ms: i64,
) -> Result<(), StoreError> {
    // The lab writes the verb, object and result; the class server adds who, when, and an id
    // by which an LRS keeps a statement sent twice once.
    let id = uuid::Uuid::new_v4().to_string();
    statement["id"] = id.clone().into();
    statement["actor"] = json!({"objectType": "Agent", "name": seat.name,
        "account": {"homePage": activity(&state.code), "name": seat.id}});
    statement["timestamp"] = export::iso_ms(at_ms).into();
    state.store.statement(class.generation, &seat.id, &id, &statement.to_string(), at_ms).await
}

/// `POST /api/statements`: an xAPI statement the seat's lab emitted, kept when it is one the
/// lab emits that grades nothing ([`xapi::student`]), written again from what was checked.
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
    if let Err(slowed) = state.bounds.statement(&seat.id) {
        return slowed.into_response();
    }
    let mut statement = match xapi::student(&body, &activity(&state.code)) {
        Ok(statement) => statement,
        Err(refused) => return refuse(StatusCode::BAD_REQUEST, format!("not kept: {refused}")),
    };
    statement["context"] = json!({ "extensions": { mrtr_lab::xapi::CLASS_EXTENSION: state.code } });
    match keep(&state, &class, &seat, statement, now_ms()).await {
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
pub async fn overview(state: &ClassState, generation: i64) -> Result<Value, StoreError> {
    let progress = state.store.progress(&state.code, generation).await?;
    let mistakes = state.store.refusal_counts(&state.code, generation).await?;
    let statements = state.store.statement_count(&state.code, generation).await?;
    let parked: Vec<Value> = state
        .store
        .parked(&state.code, generation)
        .await?
        .into_iter()
        .map(|(seat, id, why)| json!({"seat": seat, "id": id, "why": why}))
        .collect();
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
                "fixit": fixit.map(|f| json!({"atMs": f.at_ms, "code": f.code, "passed": f.passed,
                    "letThrough": f.let_through}))})
        })
        .collect();
    let mistakes: Vec<Value> = mistakes
        .into_iter()
        .map(|(challenge, reason, n)| json!({"challenge": challenge, "reason": reason, "count": n}))
        .collect();
    Ok(json!({"class": state.code, "settings": class, "generation": generation, "challenges": challenges,
        "students": students, "mistakes": mistakes, "statements": statements, "parked": parked}))
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

/// A stream, or 503 when the class keeps as many open as it may.
fn stream_or_busy<S: IntoResponse>(stream: Result<S, crate::live::Full>) -> Response {
    match stream {
        Ok(stream) => stream.into_response(),
        Err(crate::live::Full) => busy("the class has as many pages open as it can follow", "10"),
    }
}

/// `GET /api/live`: the instructor's event stream of every change.
pub async fn live(State(state): Shared, _: Instructor) -> Response {
    stream_or_busy(state.live.stream("instructor", |_| true))
}

/// `GET /api/seat-live`: a student's event stream (resets, settings, and this seat removed).
pub async fn seat_live(State(state): Shared, Student(seat): Student) -> Response {
    let id = seat.id.clone();
    stream_or_busy(state.live.stream(&seat.id, move |change| match change["type"].as_str() {
        Some("reset" | "settings") => true,
        Some("removed") => change["seat"] == id.as_str(),
        _ => false,
    }))
}

/// `POST /api/parked`: the statements the LRS refused, sent again (once the LRS is set right).
pub async fn send_parked_again(State(state): Shared, _: Instructor) -> Response {
    match state.store.unpark(&state.code).await {
        Ok(count) => Json(json!({"again": count})).into_response(),
        Err(why) => failed(why),
    }
}

/// `POST /api/remove {"seat"}`: a seat of the current room.
#[derive(Debug, Deserialize)]
pub struct Remove {
    seat: String,
}

/// Removes a seat (a name the instructor does not know, a flood): its secret holds nothing
/// from then on, and its place is free.
pub async fn remove(State(state): Shared, _: Instructor, Body(remove): Body<Remove>) -> Response {
    match state.store.remove_seat(&state.code, &remove.seat).await {
        Ok(true) => {
            state.live.tell("removed", json!({"seat": remove.seat}));
            Json(json!({"removed": remove.seat})).into_response()
        }
        Ok(false) => refuse(StatusCode::NOT_FOUND, "the room has no such seat"),
        Err(why) => failed(why),
    }
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
