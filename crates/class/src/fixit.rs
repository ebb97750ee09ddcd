//! Fix-It verified on the class server: the learner's verifier, the JavaScript their page ran,
//! runs here again in a sandboxed engine (QuickJS), against the battery the page runs
//! ([`mrtr_probe::fixit`]). Only a pass found here counts.
//!
//! The sandbox has no I/O (QuickJS without its `std` and `os` modules: no files, no network,
//! no timers), at most [`MEMORY`] bytes of heap, and [`TIME`] of the learner's code running
//! over the whole run (the battery's own work, and a busy machine's waits between, do not
//! count): past it the engine stops the code, and the run fails. The learner's code sees what the page gives it:
//! `lab.sign`, `lab.decode`, `lab.digest`, `lab.equal`, `accept` and `refuse`
//! (`web/probe/verifier.js`), written here in Rust over the same codec.
//!
//! ```
//! use mrtr_class::fixit::{verify, verify_within, Failure, Limits};
//! use std::time::Duration;
//! let starter = "function open(ticket, { principal, request, now, used }) {\n\
//!     const [version, payload, tag] = ticket.split('.');\n\
//!     if (lab.sign(version + '.' + payload) !== tag) return refuse('bad signature');\n\
//!     return accept();\n}";
//! let report = verify(starter).unwrap();
//! assert!(!report.passed, "the course's raw server lets the replay through");
//! assert!(report.failed().contains(&"send-twice"));
//! let quick = Limits { time: Duration::from_millis(300), ..Limits::default() };
//! assert!(matches!(verify_within("while (true) {}", quick), Err(Failure::TooLong)));
//! assert!(matches!(verify("function open("), Err(Failure::Compile(_))));
//! ```

use mrtr_probe::fixit::{run, FixItReport, Verifier};
use mrtr_sim::cluster::LAB_KEY;
use mrtr_ticket::{Codec, Key, Mode, RequestDigest};
use rquickjs::{Context, Ctx, Function, Object, Runtime, Value};
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The heap the learner's code may use.
pub const MEMORY: usize = 32 << 20;
/// How long a whole run may take (the page stops its worker after as long).
pub const TIME: Duration = Duration::from_secs(5);

/// What a run may use: [`verify`] gives [`TIME`] and [`MEMORY`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The whole run's time.
    pub time: Duration,
    /// The heap.
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { time: TIME, memory: MEMORY }
    }
}
/// The stack the learner's code may use.
const STACK: usize = 512 << 10;

/// Why a verifier could not be run to the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// It does not parse, or defines no `open`.
    Compile(String),
    /// It ran past [`TIME`] (an endless loop?).
    TooLong,
    /// It used more than [`MEMORY`].
    TooLarge,
    /// The engine could not be started.
    Engine(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Compile(why) => write!(f, "your verifier does not run: {why}"),
            Failure::TooLong => {
                f.write_str("stopped at the time limit: your verifier did not answer (an endless loop?)")
            }
            Failure::TooLarge => f.write_str("stopped at the memory limit: your verifier used more than it may"),
            Failure::Engine(why) => write!(f, "the JavaScript engine did not start: {why}"),
        }
    }
}

/// The time the learner's code has run: what the interrupt handler reads.
#[derive(Debug, Default)]
struct Clock {
    /// Spent in calls that ended.
    spent: Cell<Duration>,
    /// When the call running now began.
    since: Cell<Option<Instant>>,
}

impl Clock {
    fn running(&self) -> Duration {
        self.spent.get() + self.since.get().map_or(Duration::ZERO, |since| since.elapsed())
    }

    /// Runs `call` (the learner's code), counting its time.
    fn time<T>(&self, call: impl FnOnce() -> T) -> T {
        self.since.set(Some(Instant::now()));
        let answer = call();
        self.spent.set(self.running());
        self.since.set(None);
        answer
    }
}

/// The learner's `open` in the sandbox, and the set of used tickets it keeps.
struct Sandboxed<'js> {
    ctx: Ctx<'js>,
    open: Function<'js>,
    used: Value<'js>,
    /// Set once the run must stop: the time ran out, or the heap.
    stopped: Rc<Cell<Option<Failure>>>,
    clock: Rc<Clock>,
}

impl Verifier for Sandboxed<'_> {
    fn open(
        &mut self,
        ticket: &serde_json::Value,
        principal: &str,
        request: &serde_json::Value,
        now_ms: u64,
    ) -> Result<(), String> {
        if let Some(failure) = self.stopped.take() {
            self.stopped.set(Some(failure));
            return Err("the verifier was stopped".into());
        }
        let unbuilt = |_| "the verifier's arguments could not be built".to_owned();
        let ticket = self.ctx.json_parse(ticket.to_string()).map_err(unbuilt)?;
        let context = self
            .ctx
            .json_parse(serde_json::json!({"principal": principal, "request": request, "now": now_ms}).to_string())
            .map_err(unbuilt)?;
        if let Some(object) = context.as_object() {
            object.set("used", self.used.clone()).map_err(unbuilt)?;
        }
        let said: rquickjs::Result<Value> = self.clock.time(|| self.open.call((ticket, context)));
        let said = match said {
            Ok(said) => said,
            Err(rquickjs::Error::Exception) => {
                let thrown = self.ctx.catch();
                let message = thrown
                    .as_object()
                    .and_then(|o| o.get::<_, String>("message").ok())
                    .or_else(|| thrown.as_string().and_then(|s| s.to_string().ok()))
                    .unwrap_or_else(|| "an exception".into());
                if message.contains("interrupted") {
                    self.stopped.set(Some(Failure::TooLong));
                } else if message.contains("out of memory") {
                    self.stopped.set(Some(Failure::TooLarge));
                }
                return Err(format!("your verifier threw: {message}"));
            }
            Err(e) => return Err(format!("your verifier failed: {e}")),
        };
        if said.is_promise() {
            return Err("open must answer at once, not with a Promise (the helpers are synchronous)".into());
        }
        let ok =
            said.as_bool().or_else(|| said.as_object().and_then(|o| o.get::<_, Option<bool>>("ok").ok().flatten()));
        match ok {
            Some(true) => Ok(()),
            Some(false) => {
                let reason = said.as_object().and_then(|o| o.get::<_, Option<String>>("reason").ok().flatten());
                Err(reason.unwrap_or_else(|| "refused".into()))
            }
            None => Err("open answered neither accept() nor refuse(reason)".into()),
        }
    }
}

/// Throws `message` as a JavaScript `Error`.
fn throw(ctx: &Ctx<'_>, message: &str) -> rquickjs::Error {
    rquickjs::Exception::throw_message(ctx, message)
}

/// The helpers the page gives the learner's code (`web/probe/verifier.js`'s `helpers`).
fn helpers<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    let lab = Object::new(ctx.clone())?;
    let key = Key::new(LAB_KEY).map_err(|e| throw(ctx, &e.to_string()))?;
    let codec = Codec::new(key, Mode::Signed);
    lab.set("sign", Function::new(ctx.clone(), move |signed: String| codec.tag_of(&signed))?)?;
    lab.set(
        "decode",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, part: Value<'js>| -> rquickjs::Result<String> {
            let part = part.as_string().and_then(|s| s.to_string().ok()).ok_or_else(|| throw(&ctx, "not base64url"))?;
            if !part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
                return Err(throw(&ctx, "not base64url"));
            }
            let bytes = mrtr_ticket::base64url_decode(&part).map_err(|_| throw(&ctx, "not base64url"))?;
            String::from_utf8(bytes).map_err(|_| throw(&ctx, "The encoded data was not valid for encoding utf-8"))
        })?,
    )?;
    lab.set(
        "digest",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, request: Value<'js>| -> rquickjs::Result<String> {
            let text = ctx.json_stringify(request)?.map(|s| s.to_string()).transpose()?.unwrap_or_default();
            let request: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            let method = request["method"].as_str().unwrap_or_default();
            let params = request.get("params").cloned().unwrap_or_else(|| serde_json::json!({}));
            RequestDigest::of(method, &params).map(|d| d.to_string()).map_err(|e| throw(&ctx, &e.to_string()))
        })?,
    )?;
    lab.set(
        "equal",
        Function::new(ctx.clone(), |a: Value<'js>, b: Value<'js>| -> bool {
            match (a.as_string().and_then(|a| a.to_string().ok()), b.as_string().and_then(|b| b.to_string().ok())) {
                (Some(a), Some(b)) => {
                    a.len() == b.len() && subtle::ConstantTimeEq::ct_eq(a.as_bytes(), b.as_bytes()).into()
                }
                _ => false,
            }
        })?,
    )?;
    Ok(lab)
}

/// Runs the learner's verifier `source` against the battery, in the sandbox: the report, or
/// why it could not be run to the end.
pub fn verify(source: &str) -> Result<FixItReport, Failure> {
    verify_within(source, Limits::default())
}

/// [`verify`] within other limits.
pub fn verify_within(source: &str, limits: Limits) -> Result<FixItReport, Failure> {
    let runtime = Runtime::new().map_err(|e| Failure::Engine(e.to_string()))?;
    runtime.set_memory_limit(limits.memory);
    runtime.set_max_stack_size(STACK);
    let clock = Rc::new(Clock::default());
    let read = clock.clone();
    runtime.set_interrupt_handler(Some(Box::new(move || read.running() >= limits.time)));
    let context = Context::full(&runtime).map_err(|e| Failure::Engine(e.to_string()))?;
    let stopped = Rc::new(Cell::new(None));
    let report = context.with(|ctx| {
        let compiled = clock.time(|| compile(&ctx, source));
        let open = match compiled {
            Ok(open) => open,
            Err(why) if why.contains("interrupted") => return Err(Failure::TooLong),
            Err(why) if why.contains("out of memory") => return Err(Failure::TooLarge),
            Err(why) => return Err(Failure::Compile(why)),
        };
        let used = ctx.eval::<Value, _>("new Set()").map_err(|e| Failure::Engine(e.to_string()))?;
        let mut sandboxed = Sandboxed { ctx: ctx.clone(), open, used, stopped: stopped.clone(), clock: clock.clone() };
        Ok(run(&mut sandboxed))
    })?;
    match stopped.take() {
        Some(failure) => Err(failure),
        None => Ok(report),
    }
}

/// The learner's `open`, compiled as the page compiles it: the source as the body of a
/// function of `lab`, `accept` and `refuse`, in strict mode (so it cannot close that function
/// and reach past it).
fn compile<'js>(ctx: &Ctx<'js>, source: &str) -> Result<Function<'js>, String> {
    let said = |ctx: &Ctx<'js>, e: rquickjs::Error| match e {
        rquickjs::Error::Exception => {
            let thrown = ctx.catch();
            thrown.as_object().and_then(|o| o.get::<_, String>("message").ok()).unwrap_or_else(|| "an exception".into())
        }
        other => other.to_string(),
    };
    let make: Function = ctx
        .eval(
            r#"(source) => new Function("lab", "accept", "refuse",
                `"use strict";\n${source}\n;return typeof open === "function" ? open : undefined;`)"#,
        )
        .map_err(|e| said(ctx, e))?;
    let factory: Function = make.call((source,)).map_err(|e| said(ctx, e))?;
    let accept: Function = ctx.eval("() => ({ ok: true })").map_err(|e| said(ctx, e))?;
    let refuse: Function =
        ctx.eval(r#"(reason) => ({ ok: false, reason: String(reason ?? "refused") })"#).map_err(|e| said(ctx, e))?;
    let lab = helpers(ctx).map_err(|e| said(ctx, e))?;
    let open: Value = factory.call((lab, accept, refuse)).map_err(|e| said(ctx, e))?;
    open.into_function().ok_or_else(|| "define function open(ticket, { principal, request, now, used })".into())
}
