//! `mrtr-class serve`: one command runs a class on one machine (`mrtr class serve` runs it too).
//! A crate of its own, so that a server author's build of `mrtr` compiles no database driver.
//!
//! Students open the printed address, join with the class code and a display name (a secret
//! kept in their browser holds the seat), and play the lab with the class's settings baked
//! in. When the lab says a challenge is met, the page sends the situation, and the server
//! replays it with the lab's own simulation before it records anything ([`evidence`]). The
//! instructor signs in with the token printed at start: a live table of students ×
//! challenges, the common mistakes, the settings, a CSV export, a room reset. Records live in
//! SQLite (a file) or PostgreSQL ([`store`]), and survive a restart.
//!
//! The students of a security class are its adversaries: what each may do, and the test that
//! holds it, is docs/CLASSROOM.md's table "What a student can and cannot do".
//!
//! ```text
//! mrtr-class serve --class CS-101                       # http://127.0.0.1:8090/, class.db
//! mrtr-class serve --class CS-101 --db postgres://u@host/class --addr 0.0.0.0:8090 --host lab.school.example
//! mrtr-class token --class CS-101                       # a new instructor token; the old one stops working
//! ```

pub mod api;
pub mod bounds;
pub mod evidence;
pub mod export;
pub mod extract;
pub mod fixit;
pub mod live;
pub mod lrs;
mod pages;
pub mod quiz;
pub mod refusal;
pub mod secret;
pub mod state;
pub mod store;
pub mod xapi;

use axum::routing::{get, post};
use axum::Router;
use clap::{Args, Subcommand};
use state::ClassState;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// The largest request body: a situation (64 KB) with room for its JSON.
const MAX_BODY: usize = 128 * 1024;
/// How long a page may take to send a request's body.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request may take until its answer starts (an event stream then streams on).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most connections the class server keeps open: a thousand open pages, each with its
/// event stream and a request or two, with room to spare. Past it a connection waits.
pub const MAX_CONNECTIONS: usize = 4_096;

/// `mrtr-class …`: the class server.
#[derive(Debug, clap::Parser)]
#[command(name = "mrtr-class", version)]
pub struct ClassArgs {
    #[command(subcommand)]
    command: ClassCommand,
}

#[derive(Debug, Subcommand)]
enum ClassCommand {
    /// Serve a class: the lab for students, a live view for the instructor.
    Serve(ServeArgs),
    /// Give the class a new instructor token and print it: the old one stops working at once,
    /// in a class server running on the same database too.
    Token(TokenArgs),
}

/// `mrtr-class token`.
#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The class's code.
    #[arg(long, default_value = "CLASS")]
    class: String,
    /// The class's database, as `mrtr-class serve --db` gives it.
    #[arg(long, default_value = "sqlite://class.db")]
    db: String,
}

/// `mrtr-class serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The class's code, which students type to join.
    #[arg(long, default_value = "CLASS")]
    class: String,
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8090")]
    addr: SocketAddr,
    /// The database: a SQLite file (`sqlite://class.db`) or PostgreSQL (`postgres://…`).
    #[arg(long, default_value = "sqlite://class.db")]
    db: String,
    /// Settings for a new class, as a lesson's meta element writes them
    /// (`hide=hints,solutions&scenarios=voucher,deploy`). The instructor's page changes them.
    #[arg(long, default_value = "")]
    settings: String,
    /// The built lab to serve (scripts/build.sh writes it).
    #[arg(long, default_value = "dist")]
    dist: PathBuf,
    /// A host name students reach this machine by (repeat it), beside localhost: the practice
    /// servers answer requests addressed to it, from pages of its origin.
    #[arg(long = "host")]
    hosts: Vec<String>,
    /// Forward the lab's xAPI statements to this LRS's statements resource
    /// (`https://lrs.example/xapi/statements`); kept here until it stored them.
    #[arg(long)]
    lrs: Option<String>,
    /// The `Authorization` header for the LRS (`Basic …`).
    #[arg(long, requires = "lrs")]
    lrs_authorization: Option<String>,
    /// A passcode students type beside the class code to join (say it in the room): nobody
    /// who only read the class code off the join page takes a seat.
    #[arg(long)]
    passcode: Option<String>,
}

/// Runs `mrtr-class …`.
pub async fn run(args: ClassArgs) -> Result<(), String> {
    match args.command {
        ClassCommand::Serve(args) => serve(args).await,
        ClassCommand::Token(args) => {
            let store = store::Store::open(&args.db).await.map_err(|e| e.to_string())?;
            let token = api::new_token();
            if !store.rotate_token(&args.class, &secret::sha256(&token)).await.map_err(|e| e.to_string())? {
                return Err(format!("{}: no class {} here", args.db, args.class));
            }
            println!("{token}");
            Ok(())
        }
    }
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let code = args.class.trim().to_owned();
    if code.is_empty()
        || code.len() > mrtr_lab::class::MAX_CODE_LEN
        || !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return Err("--class: a class code is 1 to 64 letters, digits and dashes".into());
    }
    if !args.dist.join("embed.html").is_file() {
        return Err(format!(
            "{}: no built lab here (embed.html); run scripts/build.sh first, or give --dist",
            args.dist.display()
        ));
    }
    let store = store::Store::open(&args.db).await.map_err(|e| e.to_string())?;
    let now = state::now_ms();
    let token = api::new_token();
    let (class, made) =
        store.class(&code, &args.settings, &secret::sha256(&token), now).await.map_err(|e| e.to_string())?;
    if let Some(url) = &args.lrs {
        let lrs = lrs::Lrs {
            url: url.clone(),
            authorization: args.lrs_authorization.clone(),
            idle: Duration::from_secs(2),
            most_backoff: Duration::from_secs(60),
        };
        tokio::spawn(lrs::forward(store.clone(), lrs));
        println!("statements forwarded to {url}");
    }
    let live = live::Live::default();
    let passcode = args.passcode.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned);
    let state = Arc::new(ClassState { passcode, ..ClassState::new(store, class.code.clone(), live.clone()) });
    let listener = tokio::net::TcpListener::bind(args.addr).await.map_err(|e| format!("{}: {e}", args.addr))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    println!("class {} on http://{bound}/ (students join with the code {})", class.code, class.code);
    if made {
        println!("instructor: http://{bound}/instructor#token={token}");
        println!("(the token is kept only as its hash: keep this address; `mrtr-class token` makes a new one)");
    } else {
        println!("instructor: http://{bound}/instructor#token=… (the token printed when the class was made;");
        println!("  `mrtr-class token --class {} --db …` prints a new one)", class.code);
    }
    if state.passcode.is_some() {
        println!("students join with the class code and the passcode");
    }
    println!("records: {}", args.db);
    let origins = args.hosts.iter().map(|host| format!("http://{host}:{}", bound.port())).collect();
    let router = router(state, &args.dist).merge(mrtr::practice::routes(args.hosts.clone(), origins)?);
    println!("practice servers: http://{bound}/practice/safe/mcp and /practice/careless/mcp (bob-token, alice-token)");
    let stop = async move {
        mrtr::http::stop_signal().await;
        // The open pages' event streams end, so the server stops at once and nothing is cut;
        // the claims in flight are answered before it returns.
        live.close();
    };
    mrtr::http::serve_limited(listener, router, stop, MAX_CONNECTIONS).await.map_err(|e| e.to_string())
}

/// The class server's routes.
pub fn router(state: Arc<ClassState>, dist: &std::path::Path) -> Router {
    let api = Router::new()
        .route("/api/join", post(api::join))
        .route("/api/claim", post(api::claim))
        .route("/api/statements", post(api::statement))
        .route("/api/quiz", post(api::quiz))
        .route("/api/fixit", post(api::fixit))
        .route("/api/me", get(api::me))
        .route("/api/seat-live", get(api::seat_live))
        .route("/api/class", get(api::class))
        .route("/api/class.csv", get(api::csv))
        .route("/api/live", get(api::live))
        .route("/api/reset", post(api::reset))
        .route("/api/settings", post(api::settings))
        .route("/api/remove", post(api::remove))
        .route("/api/parked", post(api::send_parked_again))
        .route("/", get(pages::join))
        .route("/lab", get(pages::lab))
        .route("/instructor", get(pages::instructor))
        .route("/class.js", get(pages::class_js))
        .route("/instructor.js", get(pages::instructor_js))
        .with_state(state.clone());
    // The built lab's files, behind the guard that keeps what the class hides out of reach.
    let files = Router::new()
        .fallback_service(tower_http::services::ServeDir::new(dist))
        .layer(axum::middleware::from_fn_with_state((state, Arc::new(dist.to_path_buf())), pages::guard_files));
    api.nest("/app", files)
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        .layer(TimeoutLayer::with_status_code(axum::http::StatusCode::REQUEST_TIMEOUT, REQUEST_TIMEOUT))
}
