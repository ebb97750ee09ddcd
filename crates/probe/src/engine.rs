//! The whole battery, sans-IO: the honest flow first, then each chosen attack on flows of its
//! own, every verdict recorded, and the report (summary, grade, exit code) made in one place.
//! `mrtr probe`, the page's "Test your server" and Fix-It are drivers over it: they send each
//! line and hand back the reply, so they cannot disagree about what a run means.

use crate::battery::{Attack, BATTERY};
use crate::run::{Exchange, Run, Send, Step};
use crate::setup::Setup;
use crate::summary::Summary;
use crate::verdict::Verdict;
use crate::why::{TokenHint, Why};
use mrtr_sim::moves::Move;
use mrtr_wire::{Grade, Reply, Shape};
use serde::Serialize;
use std::collections::VecDeque;

/// One attack's result.
#[derive(Debug, Clone)]
pub struct Row {
    /// The attack.
    pub attack: &'static Attack,
    /// Its verdict.
    pub verdict: Verdict,
    /// What it sent and what came back.
    pub exchanges: Vec<Exchange>,
    /// True for a finding a baseline already has.
    pub known: bool,
}

impl Row {
    /// The exchange that shows a finding: the last whose answer took a line carrying a ticket
    /// or answers (it completed or reached the tool), which is the attack's own rather than a
    /// control before it; else the last one sent.
    pub fn evidence(&self) -> Option<&Exchange> {
        let taken = |e: &&Exchange| {
            let carries =
                e.sent.pointer("/params/requestState").is_some() || e.sent.pointer("/params/inputResponses").is_some();
            let reply = e.reply.get("result");
            carries
                && reply
                    .is_some_and(|r| r.get("resultType").and_then(serde_json::Value::as_str) != Some("input_required"))
        };
        self.exchanges.iter().rev().find(taken).or(self.exchanges.last())
    }
}

/// What a battery run concluded.
#[derive(Debug, Clone)]
pub struct Report {
    /// One row per attack, the honest flow first.
    pub rows: Vec<Row>,
    /// The shape of the flow's ticket, once one was seen.
    pub shape: Option<Shape>,
    /// The counts, and why the run is inconclusive where it is.
    pub summary: Summary,
    /// The exit code (`mrtr_probe::exit`): 0 clean, 1 a finding at the failing grade not in the
    /// baseline, 2 inconclusive.
    pub exit: u8,
}

/// A report's meaning in one word, as every driver shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Conclusion {
    /// Nothing at the failing grade got through, and something was tested.
    Passed,
    /// Something at the failing grade got through.
    Failed,
    /// Nothing could be concluded (the honest flow failed, or nothing was testable).
    Inconclusive,
}

impl Report {
    /// The run's meaning: the same for the terminal, the page and Fix-It.
    pub fn conclusion(&self) -> Conclusion {
        match self.exit {
            crate::summary::exit::CLEAN => Conclusion::Passed,
            crate::summary::exit::FINDING => Conclusion::Failed,
            _ => Conclusion::Inconclusive,
        }
    }
}

/// A battery under way: [`Battery::next_attack`] starts each attack, [`Battery::next`] (or
/// [`Battery::next_race`]) takes each reply, and [`Battery::report`] concludes.
///
/// ```
/// use mrtr_probe::{Battery, Conclusion, Flow, Grade, Reply, Setup, Tokens};
/// use serde_json::json;
///
/// let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).unwrap();
/// let setup = Setup::new(flow, Tokens { first: Some("bob-token".into()), second: None });
/// // A server that asks once with a ticket it never checks.
/// let report = Battery::new(setup, |_| true).run(|send| {
///     let id = send.message["id"].clone();
///     Reply::http(200, Ok(if send.message["params"].get("requestState").is_none() {
///         json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
///             "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form", "message": "OK?",
///                 "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}},
///             "requestState": r#"{"sub": "bob", "n": "k2j4h5g6f7"}"#}})
///     } else {
///         json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "content": []}})
///     }))
/// }, || 0, Grade::Must, |_| false);
/// assert_eq!(report.conclusion(), Conclusion::Failed);
/// assert!(report.summary.must > 0);
/// ```
#[derive(Debug)]
pub struct Battery {
    setup: Setup,
    queue: VecDeque<&'static Attack>,
    current: Option<(&'static Attack, Run)>,
    rows: Vec<Row>,
    shape: Option<Shape>,
}

impl Battery {
    /// What `--only` and `--skip` (or the page's `only`, `skip`) choose: the attacks named in
    /// `only` (all when it is empty) but those in `skip`; an id the battery does not have is
    /// refused, naming the ids it has.
    pub fn chosen(only: &[String], skip: &[String]) -> Result<impl Fn(&Attack) -> bool + 'static, String> {
        if let Some(unknown) = only.iter().chain(skip).find(|id| Attack::named(id).is_none()) {
            let ids: Vec<&str> = BATTERY.iter().map(|a| a.id()).collect();
            return Err(format!("no attack '{unknown}': the attacks are {}", ids.join(", ")));
        }
        let (only, skip) = (only.to_vec(), skip.to_vec());
        Ok(move |a: &Attack| {
            (only.is_empty() || only.iter().any(|id| id == a.id())) && !skip.iter().any(|id| id == a.id())
        })
    }

    /// The honest flow and every attack `chosen` says yes to, in the battery's order.
    pub fn new(setup: Setup, chosen: impl Fn(&Attack) -> bool) -> Battery {
        let queue = BATTERY.iter().filter(|a| a.is(Move::Honest) || chosen(a)).collect();
        Battery { setup, queue, current: None, rows: Vec::new(), shape: None }
    }

    /// Starts the next attack at `now_ms` (the driver's clock) with ids from `first_id`: its
    /// first step, or `None` when every attack has its row. Attacks after an honest flow that
    /// did not complete get their row at once, inconclusive, without a step.
    pub fn next_attack(&mut self, now_ms: u64, first_id: i64) -> Option<Step> {
        if let Some((attack, run)) = self.current.take() {
            let why = Why::OutOfTurn("another attack before this one ended");
            self.push(attack, Verdict::Inconclusive { why }, run.exchanges().to_vec());
        }
        while let Some(attack) = self.queue.pop_front() {
            let gated = self.rows.first().and_then(|honest| Verdict::after_honest(&honest.verdict));
            if let Some(verdict) = gated {
                self.push(attack, verdict, Vec::new());
                continue;
            }
            self.setup.now_ms = now_ms;
            self.setup.first_id = first_id;
            let (run, step) = attack.start(&self.setup);
            self.current = Some((attack, run));
            return Some(self.settle(step));
        }
        None
    }

    /// The attack under way.
    pub fn attack(&self) -> Option<&'static Attack> {
        self.current.as_ref().map(|(attack, _)| *attack)
    }

    /// Takes the reply to the last [`Step::Send`]; a [`Step::Done`] records the attack's row.
    pub fn next(&mut self, reply: impl Into<Reply>) -> Step {
        match self.current.as_mut() {
            Some((_, run)) => {
                let step = run.next(reply);
                self.settle(step)
            }
            None => Step::Done(Verdict::Inconclusive { why: Why::OutOfTurn("a reply with no attack under way") }),
        }
    }

    /// Takes the replies to a [`Step::Race`], in the order of its lines.
    pub fn next_race(&mut self, replies: Vec<Reply>) -> Step {
        match self.current.as_mut() {
            Some((_, run)) => {
                let step = run.next_race(replies);
                self.settle(step)
            }
            None => Step::Done(Verdict::Inconclusive { why: Why::OutOfTurn("race replies with no attack under way") }),
        }
    }

    fn settle(&mut self, step: Step) -> Step {
        if let Step::Done(verdict) = &step {
            if let Some((attack, run)) = self.current.take() {
                self.shape = self.shape.take().or_else(|| run.shape());
                self.push(attack, verdict.clone(), run.exchanges().to_vec());
            }
        }
        step
    }

    fn push(&mut self, attack: &'static Attack, verdict: Verdict, exchanges: Vec<Exchange>) {
        // An honest flow turned away for want of a token says to give one.
        let verdict = match verdict {
            Verdict::Inconclusive { why: Why::Answer(answer) }
                if self.rows.is_empty() && answer.is_unauthenticated() =>
            {
                let hint = if self.setup.tokens.first.is_none() { TokenHint::GiveOne } else { TokenHint::Refused };
                Verdict::Inconclusive { why: Why::Unauthenticated { answer, hint } }
            }
            other => other,
        };
        self.rows.push(Row { attack, verdict, exchanges, known: false });
    }

    /// The rows so far.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Replaces the honest flow's verdict (a driver that learned more about why it failed, such
    /// as replicas that work alone but not together).
    pub fn explain_honest(&mut self, why: String) {
        if let Some(first) = self.rows.first_mut() {
            first.verdict = Verdict::Inconclusive { why: Why::Said(why) };
        }
    }

    /// The report: findings at `fail_on` or stronger fail the run unless `known` (a baseline)
    /// has them.
    pub fn report(mut self, fail_on: Grade, known: impl Fn(&Attack) -> bool) -> Report {
        for row in &mut self.rows {
            row.known = known(row.attack) && matches!(row.verdict, Verdict::Finding { .. });
        }
        let pairs: Vec<(&Attack, Verdict)> = self.rows.iter().map(|r| (r.attack, r.verdict.clone())).collect();
        let summary = Summary::of(&pairs, &known);
        let exit = summary.exit_code(&pairs, fail_on, &known);
        Report { rows: self.rows, shape: self.shape, summary, exit }
    }

    /// Runs the whole battery with a blocking `send` (a race sent one line after another) and
    /// `now` for each attack's clock, and reports.
    pub fn run(
        mut self,
        mut send: impl FnMut(&Send) -> Reply,
        mut now: impl FnMut() -> u64,
        fail_on: Grade,
        known: impl Fn(&Attack) -> bool,
    ) -> Report {
        // In process, a late answer cannot be taken for another attack's: ids may start at 0.
        while let Some(mut step) = self.next_attack(now(), 0) {
            loop {
                step = match step {
                    Step::Send(line) => self.next(send(&line)),
                    Step::Race(lines) => {
                        let replies = lines.iter().map(&mut send).collect();
                        self.next_race(replies)
                    }
                    Step::Done(_) => break,
                };
            }
        }
        self.report(fail_on, known)
    }
}
