//! The lab's one state, the actions a student can take, and the pure reducer that calls
//! the simulation. Components only render this state and send actions.

use mrtr_sim::cluster::{RecordMode, Replica};
use mrtr_sim::moves::{self, Move, OwnAttempt};
use mrtr_sim::person::Reply;
use mrtr_sim::scenarios::{self, Options, Prepared, Run, Scenario, Verdict};
use mrtr_ticket::{with_payload, Mode};
use serde_json::Value;
use std::rc::Rc;

/// The most moves one situation plays. Each move replays the scenario with the ones before
/// it and adds its events to every diagram, so a link or a lesson's `moves` attribute asking
/// for thousands would freeze the page (1,600 took 75 s natively, one at a time); 64 is
/// every move four times over.
pub const MAX_MOVES: usize = 64;

/// Everything the page shows is computed from this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lab {
    /// The open scenario.
    pub scenario: &'static str,
    /// Moves played so far, in order.
    pub played: Vec<Move>,
    /// The student's own attempt, when they have edited something.
    pub own: Option<OwnAttempt>,
    /// The replay record.
    pub record: RecordMode,
    /// Signed, sealed or unsigned tickets.
    pub mode: Mode,
    /// How the person answers.
    pub reply: Reply,
    /// The scenario's result for all of the above.
    pub run: Rc<Run>,
    /// How many trace events the diagrams show (`None`: all of them).
    pub cursor: Option<usize>,
    /// What the link, session file or element attributes that opened this lab asked for and
    /// the lab left out (a typo in a scenario or move name, a value it does not know), a
    /// sentence each: shown until the learner's next action.
    pub ignored: Vec<String>,
    /// The scenario played up to your own attempt, while only the attempt changes.
    prefix: Prefix,
}

/// A scenario with moves, played up to the student's own attempt, and the options it was
/// played with: an edit of the attempt then costs one more request, not the whole scenario.
#[derive(Debug, Clone, Default)]
struct Prefix(Option<(Options, Rc<Prepared>)>);

/// Derived data: it never makes two labs differ.
impl PartialEq for Prefix {
    fn eq(&self, _: &Prefix) -> bool {
        true
    }
}

impl Eq for Prefix {}

/// What a student can do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Open another scenario.
    Pick(&'static str),
    /// Play a move against the ticket.
    Play(Move),
    /// Start the scenario again (keeps the switches).
    Reset,
    /// Switch the replay record.
    Record(RecordMode),
    /// Switch signing / sealing.
    Protect(Mode),
    /// Change how the person answers.
    Reply(Reply),
    /// Replace the ticket of your attempt with this text.
    EditTicket(String),
    /// Replace one top-level payload member, keeping the old signature.
    EditPayload(String, Value),
    /// Change the character at this position of your attempt's ticket.
    FlipAt(usize),
    /// Sign your attempt's payload again with the attacker's key.
    Resign,
    /// Send your attempt at this time (ms after minting).
    Clock(u64),
    /// Send your attempt with this bearer token.
    Bearer(String),
    /// Send your attempt to this replica (or let the balancer choose).
    Replica(Option<Replica>),
    /// Send your attempt with these arguments.
    Arguments(Value),
    /// Send this request, written by hand, as your attempt (exactly as written).
    EditLine(String),
    /// Go back to the ticket the server gave.
    ResetAttempt,
    /// Move the diagrams' cursor by this many events.
    Step(isize),
    /// Show every event.
    ShowAll,
    /// Replace everything with a situation (a shared link's or a session file's, as
    /// `share::read_fragment` reads it).
    Restore(Box<Lab>),
}

impl Lab {
    /// The lab opened on a scenario with default switches.
    pub fn open(scenario: &str) -> Lab {
        Lab::open_with(scenario, [])
    }

    /// Opens a scenario with these actions applied (what a link asks for): one run of the
    /// simulation in all, as [`apply_all`](Lab::apply_all) makes it.
    pub fn open_with(scenario: &str, actions: impl IntoIterator<Item = Action>) -> Lab {
        let scenario = Lab::scenario_for(scenario).id;
        let lab = Lab {
            scenario,
            played: Vec::new(),
            own: None,
            record: default_record(scenario),
            mode: default_mode(scenario),
            reply: Reply::Accept,
            run: Rc::new(empty_run()),
            cursor: None,
            ignored: Vec::new(),
            prefix: Prefix::default(),
        };
        lab.apply_from(true, actions)
    }

    /// The scenario the lab opens for a name: the one it names (an id or an alias), or the
    /// first, deploy, when it names none.
    pub fn scenario_for(name: &str) -> &'static Scenario {
        scenarios::find(name).unwrap_or(&scenarios::SCENARIOS[0])
    }

    /// Whether the open scenario plays moves.
    pub fn takes_moves(&self) -> bool {
        scenarios::find(self.scenario).is_some_and(|s| s.takes_moves())
    }

    /// Whether a move can be played now: the scenario plays moves, and fewer than
    /// [`MAX_MOVES`] are played.
    pub fn can_play_a_move(&self) -> bool {
        self.takes_moves() && self.played.len() < MAX_MOVES
    }

    /// The ticket the server gave in this scenario.
    pub fn minted_ticket(&self) -> &str {
        self.run.figure("ticket").as_str().unwrap_or_default()
    }

    /// The ticket your attempt sends.
    pub fn attempt_ticket(&self) -> String {
        self.own.as_ref().and_then(|o| o.ticket.clone()).unwrap_or_else(|| self.minted_ticket().to_owned())
    }

    /// The request your attempt sends: the one written by hand, or the retry its parts build.
    pub fn attempt_line(&self) -> String {
        if let Some(line) = self.own.as_ref().and_then(|o| o.line.clone()) {
            return line;
        }
        let prepared = self.prefix.0.as_ref().map(|(_, prepared)| prepared);
        prepared.and_then(|p| p.attempt_line(self.own.as_ref())).unwrap_or_default()
    }

    /// The last attempt's verdict: what the checks panel shows.
    pub fn latest(&self) -> Option<&Verdict> {
        self.run.verdicts.last()
    }

    /// True when one move (the honest retry) has gone through, as the lesson asks.
    pub fn found_the_clean_move(&self) -> bool {
        self.run
            .verdicts
            .iter()
            .any(|v| v.by == Move::Honest.id() && matches!(v.answered, scenarios::Answered::Accepted { .. }))
    }

    fn options(&self) -> Options {
        let takes_moves = self.takes_moves();
        Options {
            moves: takes_moves.then(|| self.played.clone()),
            attempt: if takes_moves { self.own.clone() } else { None },
            record: Some(self.record),
            mode: Some(self.mode),
            reply: Some(self.reply),
            ..Options::default()
        }
    }

    fn recompute(&mut self) {
        // Everything but your own attempt decides the prefix (a scenario without moves has
        // no attempt, and plays whole).
        let mut shared = self.options();
        let attempt = shared.attempt.take();
        let prepared = match &self.prefix.0 {
            Some((played, prepared)) if *played == shared => Some(prepared.clone()),
            _ => scenarios::find(self.scenario).and_then(|s| s.prepare(&shared)).map(Rc::new),
        };
        let run = match &prepared {
            Some(prepared) => Ok(prepared.finish(attempt.as_ref())),
            None => scenarios::run(self.scenario, &shared),
        };
        self.prefix = Prefix(prepared.map(|p| (shared, p)));
        self.run = Rc::new(run.unwrap_or_else(|_| empty_run()));
        self.cursor = None;
    }

    fn own_mut(&mut self) -> &mut OwnAttempt {
        self.own.get_or_insert_with(OwnAttempt::default)
    }

    /// Your attempt, about to change a part of the retry it builds: a request written by
    /// hand gives way to that retry.
    fn own_parts_mut(&mut self) -> &mut OwnAttempt {
        let own = self.own_mut();
        own.line = None;
        own
    }

    /// Applies one action; the simulation runs again.
    pub fn apply(self, action: Action) -> Lab {
        self.apply_all([action])
    }

    /// Applies these actions in order with one run of the simulation at the end (what a
    /// link asks for), or a run before any action that reads the last one (an edit of the
    /// ticket the server gave, a step of the diagrams).
    pub fn apply_all(mut self, actions: impl IntoIterator<Item = Action>) -> Lab {
        self.ignored.clear();
        self.apply_from(false, actions)
    }

    /// [`apply_all`](Lab::apply_all) on a lab whose run may be `stale` already (one just
    /// opened has not run yet).
    fn apply_from(mut self, mut stale: bool, actions: impl IntoIterator<Item = Action>) -> Lab {
        for action in actions {
            if stale && action.reads_the_run() {
                self.recompute();
                stale = false;
            }
            match self.change(action) {
                Change::None => {}
                Change::Run => stale = true,
                Change::Whole(lab) => {
                    self = *lab;
                    stale = false;
                }
            }
        }
        if stale {
            self.recompute();
        }
        self
    }

    /// What one action changes, without running the simulation.
    fn change(&mut self, action: Action) -> Change {
        match action {
            Action::Pick(scenario) => return Change::Whole(Box::new(Lab::open(scenario))),
            Action::Restore(lab) => return Change::Whole(lab),
            // A scenario without moves (a flow) has nothing to play them on, and a situation
            // holds at most MAX_MOVES: either way it stays as it is.
            Action::Play(_) if !self.can_play_a_move() => return Change::None,
            Action::Play(by) => {
                self.played.push(by);
                self.own = None;
            }
            Action::Reset => {
                self.played.clear();
                self.own = None;
            }
            Action::Record(record) => self.record = record,
            Action::Protect(mode) => self.mode = mode,
            Action::Reply(reply) => self.reply = reply,
            Action::EditTicket(text) => self.own_parts_mut().ticket = Some(text),
            Action::EditPayload(member, value) => {
                let ticket = self.attempt_ticket();
                if let Some(mut payload) = mrtr_ticket::inspect(&ticket).payload {
                    payload[member.as_str()] = value;
                    self.own_parts_mut().ticket = Some(with_payload(&ticket, &payload));
                }
            }
            Action::FlipAt(at) => {
                let ticket = moves::flip_char_at(&self.attempt_ticket(), at);
                self.own_parts_mut().ticket = Some(ticket);
            }
            Action::Resign => {
                let ticket = moves::resign_with_attacker_key(&self.attempt_ticket());
                self.own_parts_mut().ticket = Some(ticket);
            }
            Action::Clock(at_ms) => self.own_mut().at_ms = Some(at_ms),
            Action::Bearer(bearer) => self.own_mut().bearer = Some(bearer),
            Action::Replica(replica) => self.own_mut().replica = replica,
            Action::Arguments(arguments) => self.own_parts_mut().arguments = Some(arguments),
            Action::EditLine(line) => self.own_mut().line = Some(line),
            Action::ResetAttempt => self.own = Some(OwnAttempt::default()),
            Action::Step(delta) => {
                let total = self.run.trace.events.len();
                let at = (self.cursor.unwrap_or(total) as isize).saturating_add(delta);
                self.cursor = Some(at.clamp(1, total as isize) as usize);
                return Change::None;
            }
            Action::ShowAll => {
                self.cursor = None;
                return Change::None;
            }
        }
        Change::Run
    }
}

/// What an action changed: nothing the simulation needs, the situation (run it again), or
/// the whole lab (a new scenario, a link).
enum Change {
    None,
    Run,
    Whole(Box<Lab>),
}

impl Action {
    /// Whether the action reads the last run: the ticket the server gave, or the events.
    fn reads_the_run(&self) -> bool {
        matches!(self, Action::EditPayload(..) | Action::FlipAt(_) | Action::Resign | Action::Step(_))
    }
}

fn default_record(scenario: &str) -> RecordMode {
    if scenario == "voucher" {
        RecordMode::Shared
    } else {
        RecordMode::Off
    }
}

fn default_mode(scenario: &str) -> Mode {
    match scenario {
        "careless" => Mode::Unsigned,
        "sealed" => Mode::Sealed,
        _ => Mode::Signed,
    }
}

fn empty_run() -> Run {
    Run {
        scenario: "deploy",
        trace: Default::default(),
        verdicts: Vec::new(),
        ledger: Default::default(),
        figures: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_sent_to_a_scenario_without_moves_leaves_it_as_it_was() {
        let expense = Lab::open("expense");
        assert!(!expense.run.trace.events.is_empty());
        let after = expense.clone().apply(Action::Play(Move::Honest));
        assert!(after.played.is_empty());
        assert_eq!(after.run, expense.run, "the scenario still shows its run");
    }

    #[test]
    fn a_situation_plays_at_most_max_moves() {
        let full =
            Lab::open("deploy").apply_all([Move::Honest, Move::Hello].repeat(MAX_MOVES).into_iter().map(Action::Play));
        assert_eq!(full.played.len(), MAX_MOVES);
        assert_eq!(full.run.verdicts.len(), MAX_MOVES, "one run, every move in it");
        assert!(!full.can_play_a_move());
        let after = full.clone().apply(Action::Play(Move::TooLate));
        assert_eq!(after.played, full.played, "the next move is not played");
        // Moves played one at a time and all at once give the same run.
        let one_by_one = Lab::open("deploy").apply(Action::Play(Move::Honest)).apply(Action::Play(Move::Hello));
        assert_eq!(
            Lab::open("deploy").apply_all([Action::Play(Move::Honest), Action::Play(Move::Hello)]).run,
            one_by_one.run
        );
        // A flow plays none.
        assert!(Lab::open("expense").apply_all([Action::Play(Move::Honest)]).played.is_empty());
    }

    #[test]
    fn opening_with_actions_is_opening_then_applying_them() {
        let actions = || {
            [
                // Reads the ticket the server gave: the lab must have run before it.
                Action::FlipAt(20),
                Action::Play(Move::Honest),
                Action::Clock(30_000),
                Action::Step(-1),
            ]
        };
        for scenario in ["deploy", "book-seat", "expense", "no-such-scenario"] {
            let opened = Lab::open_with(scenario, actions());
            assert_eq!(opened, Lab::open(scenario).apply_all(actions()), "{scenario}");
            assert!(!opened.run.trace.events.is_empty(), "{scenario} ran");
        }
        assert_eq!(Lab::open_with("deploy", []), Lab::open("deploy"));
        assert!(!Lab::open("deploy").run.trace.events.is_empty(), "opening runs the scenario");
    }

    #[test]
    fn a_written_request_is_sent_until_a_part_of_the_retry_changes() {
        let lab = Lab::open("deploy");
        let honest = lab.attempt_line();
        assert!(honest.contains("\"requestState\""), "{honest}");
        let listed = lab.apply(Action::EditLine(honest.replace("tools/call", "tools/list")));
        assert!(listed.attempt_line().contains("tools/list"));
        assert_eq!(listed.latest().map(|v| v.answered.word()).as_deref(), Some("-32602"));
        // The clock keeps it; an edit of the ticket builds the retry again.
        let late = listed.apply(Action::Clock(9_000));
        assert!(late.attempt_line().contains("tools/list"));
        let edited = late.apply(Action::FlipAt(10));
        assert!(edited.attempt_line().contains("tools/call"));
        assert_eq!(edited.latest().map(|v| v.answered.word()).as_deref(), Some("signature"));
    }
}
