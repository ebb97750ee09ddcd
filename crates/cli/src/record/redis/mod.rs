//! The record in a Redis every replica shares: one server, a Sentinel-managed primary, or a
//! Redis Cluster (`target.rs`), claimed by one atomic script (`script.rs`).
//!
//! What keeps single use, and what fails closed:
//!
//! - **Eviction.** A Redis that may evict keys (`maxmemory` with any policy but `noeviction`)
//!   fails the start, naming the policy and the fix; if the policy changes at runtime every
//!   claim is refused ("unavailable") until it is back, and once keys were evicted the record
//!   begins again (`since`). A full `noeviction` Redis refuses claims, and recovers when
//!   memory frees.
//! - **Another Redis.** Every claim compares the `run_id` of the Redis that runs it with the
//!   one that began the record: after a failover to a replica that lagged, or a restart, the
//!   record begins again, so a used ticket the new Redis never heard of is refused.
//! - **Replication.** With `--record-sync N`, a claim waits (`WAIT`) for N replicas to have it,
//!   and is taken back and refused when fewer do: a failover then cannot lose it.
//! - **A hung Redis.** Each claim has a bounded time; the first that runs out shuts the record
//!   (a breaker): claims are refused at once while a background task asks Redis every
//!   [`WATCH_EVERY`], and it opens again when Redis answers. A claim whose answer did not come
//!   is taken back on the same connection, so it cannot land later unknown to the client.
//!
//! The record's calls run on its own small runtime, one multiplexed connection carrying every
//! claim; the server core, which is synchronous, waits for each on a channel.

mod script;
mod target;

use self::script::{Layout, Outcome};
pub use self::target::shown;
use self::target::{Connection, Target};
use mrtr_ticket::Refused;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the background task checks the record: a shut record is asked whether Redis
/// answers again, an open one whether it began again (so that a restart is noticed before
/// the next claim, shortening the window in which fresh tickets are refused).
pub const WATCH_EVERY: Duration = Duration::from_millis(200);

/// The longest a claim may wait for its answer in all, beyond which it is refused.
const CLAIM_BUDGET: Duration = Duration::from_secs(2);

/// Redis records nothing for a claim it runs this long after the request (by its clock): the
/// request may have been refused by then.
const SEND_BY: Duration = Duration::from_millis(900);

/// `--record-sync`: how many replicas must have a claim, and how long to wait for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordSync {
    /// Replicas that must acknowledge each claim.
    pub replicas: u32,
    /// How long `WAIT` waits for them, ms.
    pub wait_ms: u64,
}

/// How the Redis record is set up, beside its address.
#[derive(Debug, Clone, Default)]
pub struct RedisOptions {
    /// A CA certificate (PEM) to trust for `rediss://`.
    pub ca: Option<Vec<u8>>,
    /// Wait for replicas after each claim.
    pub sync: Option<RecordSync>,
}

/// A Redis that every replica shares.
pub struct RedisRecord {
    shared: Arc<Shared>,
    /// The record's own runtime, on a thread of its own for the life of the process (a
    /// runtime may be neither started nor dropped inside the server's).
    runtime: tokio::runtime::Handle,
}

impl std::fmt::Debug for RedisRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisRecord").field("address", &self.shared.address).finish_non_exhaustive()
    }
}

struct Shared {
    target: Target,
    /// The address without its password.
    address: String,
    layout: Layout,
    skew_ms: u64,
    sync: Option<RecordSync>,
    /// The connection in use, cloned by each claim; `None` until one is made.
    current: Mutex<Option<Connection>>,
    /// Only one task connects at a time.
    connecting: tokio::sync::Mutex<()>,
    /// Why the record is shut, while it is.
    shut: Mutex<Option<String>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What went wrong asking Redis: a fault of the link (no answer, a broken or refused
/// connection), which shuts the record, or an answer that refuses (out of memory, read-only).
#[derive(Debug)]
enum Fault {
    /// `retry`: the connection broke before Redis could have run the command.
    Link {
        why: String,
        retry: bool,
    },
    Answer(String),
}

impl From<redis::RedisError> for Fault {
    fn from(e: redis::RedisError) -> Fault {
        if e.is_io_error() || e.is_timeout() || e.is_connection_dropped() || e.is_connection_refusal() {
            Fault::Link { why: e.to_string(), retry: !e.is_timeout() }
        } else {
            Fault::Answer(e.to_string())
        }
    }
}

impl RedisRecord {
    /// Connects to `address` and checks it: it answers, it will not evict used tickets, and
    /// with `--record-sync` enough replicas acknowledge. Marks when the record began if no
    /// replica has yet (`now − skew`, so nothing this replica issues from now on is refused,
    /// while a ticket from before is). Fails with the reason.
    pub fn open(address: &str, now_ms: u64, skew_ms: u64, options: &RedisOptions) -> Result<RedisRecord, String> {
        let said = |e: String| format!("--record {}: {e}", shown(address));
        let target = Target::parse(address, options.ca.clone()).map_err(said)?;
        if options.sync.is_some() && target.is_cluster() {
            return Err(said("--record-sync waits on one primary's replicas: not with a cluster".into()));
        }
        let runtime = own_runtime().map_err(said)?;
        let layout = if target.is_cluster() { Layout::Cluster } else { Layout::One };
        let shared = Arc::new(Shared {
            target,
            address: shown(address),
            layout,
            skew_ms,
            sync: options.sync,
            current: Mutex::new(None),
            connecting: tokio::sync::Mutex::new(()),
            shut: Mutex::new(None),
        });
        let checked = wait_on(
            &runtime,
            CLAIM_BUDGET * 4,
            {
                let shared = shared.clone();
                async move { shared.first_check(now_ms.saturating_sub(skew_ms)).await }
            },
            |_| async {},
        );
        checked.unwrap_or_else(|| Err("Redis did not answer in time".into())).map_err(said)?;
        runtime.spawn(watch(shared.clone()));
        Ok(RedisRecord { shared, runtime })
    }

    /// Claims `nonce` for the request whose claim id is `claim`: the first use, this very
    /// claim again (Redis's answer to it was lost and it was sent once more), a use before, or
    /// a ticket older than the record. Waits at most [`CLAIM_BUDGET`].
    pub(super) fn claim(&self, nonce: &str, claim: &str, iat_ms: u64, exp_ms: u64, now_ms: u64) -> Result<(), Refused> {
        if let Some(why) = lock(&self.shared.shut).clone() {
            return Err(Refused::Unavailable(why));
        }
        let (shared, nonce, claim) = (self.shared.clone(), nonce.to_owned(), claim.to_owned());
        let value = format!("{claim}:{now_ms}");
        let claimed = {
            let (shared, nonce, value) = (shared.clone(), nonce.clone(), value.clone());
            async move { shared.claim(&nonce, &claim, &value, iat_ms, exp_ms, now_ms).await }
        };
        // Nobody waits for this answer any more (the request was refused): a claim that landed
        // is taken back, so it spends nothing.
        let abandoned = move |outcome: Result<(), Refused>| async move {
            if outcome.is_ok() {
                if let Ok(connection) = shared.connection().await {
                    let _ = connection.patient().query::<i64>(&release(&shared.layout.keys(&nonce).0, &value)).await;
                }
            }
        };
        wait_on(&self.runtime, CLAIM_BUDGET, claimed, abandoned)
            .unwrap_or_else(|| Err(Refused::Unavailable("Redis did not answer in time: try again shortly".into())))
    }
}

/// A runtime of one worker on a thread of its own, which lives as long as the process.
fn own_runtime() -> Result<tokio::runtime::Handle, String> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("mrtr-redis".into())
        .spawn(move || {
            let built = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("mrtr-redis")
                .enable_all()
                .build();
            match built {
                Ok(runtime) => {
                    let _ = tx.send(Ok(runtime.handle().clone()));
                    runtime.block_on(std::future::pending::<()>());
                }
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                }
            }
        })
        .map_err(|e| e.to_string())?;
    rx.recv().map_err(|e| e.to_string())?
}

/// Runs `work` on `runtime` and waits for it, at most `budget`, from any thread (a server's
/// blocking pool, a test, the start inside the server's runtime). What `work` gives after the
/// wait was given up goes to `abandoned`.
fn wait_on<T: Send + 'static, F: std::future::Future<Output = ()> + Send + 'static>(
    runtime: &tokio::runtime::Handle,
    budget: Duration,
    work: impl std::future::Future<Output = T> + Send + 'static,
    abandoned: impl FnOnce(T) -> F + Send + 'static,
) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    runtime.spawn(async move {
        if let Err(std::sync::mpsc::TrySendError::Full(late) | std::sync::mpsc::TrySendError::Disconnected(late)) =
            tx.try_send(work.await)
        {
            abandoned(late).await;
        }
    });
    rx.recv_timeout(budget).ok()
}

impl Shared {
    /// The connection in use, or a new one. A claim (`for_claim`) does not connect while the
    /// record is shut: it is refused at once, and the background look reconnects.
    async fn connection_for(&self, for_claim: bool) -> Result<Connection, Fault> {
        if let Some(connection) = lock(&self.current).clone() {
            return Ok(connection);
        }
        let _one = self.connecting.lock().await;
        if let Some(connection) = lock(&self.current).clone() {
            return Ok(connection);
        }
        if let Some(why) = lock(&self.shut).clone().filter(|_| for_claim) {
            return Err(Fault::Link { why, retry: false });
        }
        let connection = self.target.connect().await.map_err(|why| Fault::Link { why, retry: false })?;
        *lock(&self.current) = Some(connection.clone());
        Ok(connection)
    }

    /// The connection in use, or a new one.
    async fn connection(&self) -> Result<Connection, Fault> {
        self.connection_for(false).await
    }

    fn forget_connection(&self) {
        lock(&self.current).take();
    }

    fn shut(&self, why: String) {
        self.forget_connection();
        let mut shut = lock(&self.shut);
        if shut.is_none() {
            tracing::warn!("the record of used tickets is shut: {why}");
        }
        *shut = Some(why);
    }

    /// The script's command for one key pair; a claim (a `value`) Redis runs after
    /// `deadline_ms` records nothing.
    fn script(
        &self,
        keys: &(String, String),
        value: &str,
        px: u64,
        since_if_new: u64,
        iat_ms: u64,
        deadline_ms: u64,
    ) -> redis::Cmd {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(script::CLAIM)
            .arg(2)
            .arg(&keys.0)
            .arg(&keys.1)
            .arg(value)
            .arg(px)
            .arg(since_if_new)
            .arg(iat_ms)
            .arg(self.skew_ms)
            .arg(deadline_ms);
        cmd
    }

    /// Runs the script on `connection`.
    async fn run(&self, connection: &mut Connection, cmd: &redis::Cmd) -> Result<Outcome, Fault> {
        let answer: Vec<String> = connection.query(cmd).await?;
        let (outcome, began) = script::read(&answer).map_err(Fault::Answer)?;
        if let (Some(began), Outcome::Claimed | Outcome::Forgotten(_) | Outcome::Checked(_) | Outcome::Used(_)) =
            (began, &outcome)
        {
            tracing::warn!("the record of used tickets began again: {}", began.words());
        }
        Ok(outcome)
    }

    /// At the start: every key group checked (one for a single Redis), the record begun where
    /// it had not, and with `--record-sync` its replicas counted.
    async fn first_check(&self, since_if_new: u64) -> Result<(), String> {
        let mut connection = self.connection().await.map_err(|fault| match fault {
            Fault::Link { why, .. } | Fault::Answer(why) => why,
        })?;
        for keys in self.layout.every_group() {
            let outcome = self.run(&mut connection, &self.script(&keys, "", 1, since_if_new, 0, 0)).await;
            match outcome {
                Ok(Outcome::Evicting(policy)) => return Err(evicting_at_start(&policy)),
                Ok(_) => {}
                Err(Fault::Answer(why)) if why.contains("can't run this command") => {
                    return Err(format!("{why} The record's ACL user needs ~mrtr:* +eval +get +set +del +info +time (and +wait with --record-sync)"))
                }
                Err(Fault::Link { why, .. } | Fault::Answer(why)) => return Err(why),
            }
        }
        if let Some(sync) = self.sync {
            let acked: i64 = connection
                .query(redis::cmd("WAIT").arg(sync.replicas).arg(sync.wait_ms))
                .await
                .map_err(|e| e.to_string())?;
            if acked < i64::from(sync.replicas) {
                return Err(format!(
                    "--record-sync {}: only {acked} replica(s) acknowledged within {} ms",
                    sync.replicas, sync.wait_ms
                ));
            }
        }
        Ok(())
    }

    /// One claim, with one more try on a new connection when the one in use broke; Redis
    /// records nothing for a claim it runs after the deadline.
    async fn claim(
        &self,
        nonce: &str,
        claim: &str,
        value: &str,
        iat_ms: u64,
        exp_ms: u64,
        now_ms: u64,
    ) -> Result<(), Refused> {
        let keys = self.layout.keys(nonce);
        let px = exp_ms.saturating_sub(now_ms).saturating_add(self.skew_ms).max(1);
        // Redis must run the claim within SEND_BY of the request, by its own clock: later, the
        // request may have been refused already (CLAIM_BUDGET leaves the skew for the clocks).
        let deadline_ms = now_ms.saturating_add(SEND_BY.as_millis() as u64);
        let cmd = self.script(&keys, value, px, now_ms, iat_ms, deadline_ms);
        let mut tried = 0;
        let outcome = loop {
            tried += 1;
            let mut connection = match self.connection_for(true).await {
                Ok(connection) => connection,
                Err(fault) => break Err(fault),
            };
            match self.run(&mut connection, &cmd).await {
                Ok(Outcome::Claimed) => {
                    break self.replicated(&mut connection, &keys.0, value).await.map(|()| Outcome::Claimed)
                }
                Ok(outcome) => break Ok(outcome),
                Err(Fault::Link { why, retry }) => {
                    // Taken back on the same connection, after the claim: if Redis runs the
                    // claim late, it runs this right after it.
                    let mut late = connection.patient();
                    let release = release(&keys.0, value);
                    tokio::spawn(async move {
                        let _ = late.query::<i64>(&release).await;
                    });
                    self.forget_connection();
                    if tried == 1 && retry {
                        continue;
                    }
                    break Err(Fault::Link { why, retry });
                }
                Err(fault) => {
                    self.forget_connection();
                    break Err(fault);
                }
            }
        };
        match outcome {
            Ok(Outcome::Claimed | Outcome::Checked(_)) => Ok(()),
            Ok(Outcome::Used(held)) => match held.split_once(':') {
                Some((id, _)) if id == claim => Ok(()),
                Some((_, at)) => Err(Refused::AlreadyUsed(at.parse().unwrap_or(now_ms))),
                None => Err(Refused::AlreadyUsed(now_ms)),
            },
            Ok(Outcome::Forgotten(since)) => Err(Refused::Forgotten { since_ms: since.saturating_add(self.skew_ms) }),
            Ok(Outcome::Late) => Err(Refused::Unavailable(
                "Redis ran the claim too late (it was slow or did not answer): nothing was recorded; try again shortly"
                    .into(),
            )),
            Ok(Outcome::Evicting(policy)) => Err(Refused::Unavailable(format!(
                "Redis may evict used tickets (maxmemory-policy {policy} with maxmemory set): refused until \
                 the policy is noeviction"
            ))),
            Err(Fault::Answer(why)) => Err(Refused::Unavailable(format!("Redis refused the claim: {why}"))),
            Err(Fault::Link { why, .. }) => {
                self.shut(format!("Redis did not answer ({why}): try again shortly"));
                Err(Refused::Unavailable(format!("Redis did not answer ({why}): try again shortly")))
            }
        }
    }

    /// With `--record-sync`, waits for the replicas to have the claim; when too few do, takes
    /// it back and refuses.
    async fn replicated(&self, connection: &mut Connection, used: &str, value: &str) -> Result<(), Fault> {
        let Some(sync) = self.sync else { return Ok(()) };
        let acked: i64 = connection.query(redis::cmd("WAIT").arg(sync.replicas).arg(sync.wait_ms)).await?;
        if acked >= i64::from(sync.replicas) {
            return Ok(());
        }
        let _ = connection.query::<i64>(&release(used, value)).await;
        Err(Fault::Answer(format!(
            "only {acked} of {} replica(s) acknowledged the claim within {} ms, so it was taken back",
            sync.replicas, sync.wait_ms
        )))
    }

    /// The background task's look: a shut record is reopened when Redis answers; an open one
    /// has every group checked, so a record that began again is noticed at once.
    async fn look(&self) {
        let now = crate::clock::now_ms();
        let shut = lock(&self.shut).is_some();
        let mut connection = match self.connection().await {
            Ok(connection) => connection,
            Err(Fault::Link { why, .. } | Fault::Answer(why)) => {
                if !shut {
                    self.shut(format!("Redis did not answer ({why}): try again shortly"));
                }
                return;
            }
        };
        for keys in self.layout.every_group() {
            match self.run(&mut connection, &self.script(&keys, "", 1, now, 0, 0)).await {
                Ok(_) => {}
                Err(Fault::Link { why, .. }) => {
                    if !shut {
                        self.shut(format!("Redis did not answer ({why}): try again shortly"));
                    } else {
                        self.forget_connection();
                    }
                    return;
                }
                Err(Fault::Answer(_)) => {}
            }
        }
        if shut {
            tracing::warn!("the record of used tickets answers again");
            lock(&self.shut).take();
        }
    }
}

/// Takes a claim back if it is still this one's.
fn release(used: &str, value: &str) -> redis::Cmd {
    let mut cmd = redis::cmd("EVAL");
    cmd.arg(script::RELEASE).arg(1).arg(used).arg(value);
    cmd
}

fn evicting_at_start(policy: &str) -> String {
    format!(
        "Redis may evict keys (maxmemory is set and maxmemory-policy is {policy}): a used ticket's key could be \
         evicted and the ticket accepted again. Set maxmemory-policy to noeviction (CONFIG SET maxmemory-policy \
         noeviction, redis.conf, or your provider's parameter group), or give the record a Redis of its own"
    )
}

/// The background task: a look every [`WATCH_EVERY`], each bounded in time.
async fn watch(shared: Arc<Shared>) {
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        let _ = tokio::time::timeout(CLAIM_BUDGET, shared.look()).await;
    }
}

/// A fresh claim id: 12 random bytes, hex.
pub(super) fn claim_id() -> String {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).unwrap_or_else(|e| panic!("the operating system's random generator: {e}"));
    hex::encode(bytes)
}
