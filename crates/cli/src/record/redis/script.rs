//! The one Lua script every claim runs, the key names it touches, and what it answers.
//!
//! A used ticket is one key, `mrtr:used:<nonce>`, holding `<claim id>:<first use ms>`. Beside
//! it, `mrtr:since` says since when the record has remembered, and who remembered it:
//! `<since ms>:<run_id>:<evicted_keys>`. Every claim, atomically, in the Redis that stores
//! the ticket's key:
//!
//! 1. refuses when that Redis may evict keys (`maxmemory` set and a `maxmemory-policy` other
//!    than `noeviction`, read from `INFO memory`, which managed services answer where
//!    `CONFIG` is disabled): a used ticket's key, which expires, could be evicted and the
//!    ticket accepted again;
//! 2. finds out whether the record may have forgotten: `mrtr:since` is missing (Redis
//!    restarted empty or was flushed), was written by another Redis process (its `run_id`
//!    differs: a replica promoted after a failover, which may lack the last claims; a restart),
//!    or keys were evicted since (`evicted_keys` moved). Then the record begins again now;
//! 3. refuses a ticket issued before `since` plus the clock-skew margin;
//! 4. sets the used key with `SET NX PX`: of any number of concurrent claims exactly one wins,
//!    and a claim sent again after its answer was lost finds its own id there.
//!
//! In a Redis Cluster the two keys share a hash tag (`mrtr:{g7}:used:<nonce>`,
//! `mrtr:{g7}:since`), so the script runs on one shard, and each shard's own identity,
//! evictions and `since` are checked.

/// KEYS: the used key, the since key. ARGV: the claim's value (empty: only check), PX, the
/// since to set when the record begins again, the ticket's iat, the skew, the deadline (ms,
/// Redis's clock: a claim Redis runs after it, because it was slow or hung, records nothing,
/// since the request has been refused by then). Answers `{outcome, value}`: `claimed`,
/// `used` (the value held), `forgotten` (since), `checked` (since), `evicting` (the policy),
/// `late`; the third member says why the record began again, if it just did (`empty`,
/// `other`, `evicted`).
pub const CLAIM: &str = r"
local t = redis.call('TIME')
if ARGV[1] ~= '' and tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[6]) then
  return {'late', '', ''}
end
local memory = redis.call('INFO', 'memory')
local maxmemory = tonumber(string.match(memory, 'maxmemory:(%d+)')) or 0
local policy = string.match(memory, 'maxmemory_policy:([%w%-]+)') or 'noeviction'
if maxmemory > 0 and policy ~= 'noeviction' then
  return {'evicting', policy, ''}
end
local me = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)') or ''
local evicted = string.match(redis.call('INFO', 'stats'), 'evicted_keys:(%d+)') or '0'
local since, by, ev
local held = redis.call('GET', KEYS[2])
if held then
  since, by, ev = string.match(held, '^(%d+):(%x*):(%d*)$')
end
local began = ''
if not since then
  began = 'empty'
elseif by ~= me then
  began = 'other'
elseif ev ~= evicted then
  began = 'evicted'
end
if began ~= '' then
  since = ARGV[3]
  redis.call('SET', KEYS[2], since .. ':' .. me .. ':' .. evicted)
end
if ARGV[1] == '' then
  return {'checked', since, began}
end
if tonumber(ARGV[4]) < tonumber(since) + tonumber(ARGV[5]) then
  return {'forgotten', since, began}
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {'claimed', ARGV[1], began}
end
return {'used', redis.call('GET', KEYS[1]) or '', began}
";

/// KEYS: the used key. ARGV: the claim's value. Deletes the key only if this claim holds it:
/// a claim whose answer the client never got (Redis too slow, too few replicas acknowledged)
/// is taken back, so the client's next try is not refused as a replay.
pub const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// How many key groups a cluster's record is spread over; each has its own `since`.
pub const CLUSTER_GROUPS: u32 = 32;

/// Where a record's keys live: one Redis (one `since`), or a cluster (one per group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `mrtr:used:<nonce>` and `mrtr:since`.
    One,
    /// `mrtr:{g<n>}:used:<nonce>` and `mrtr:{g<n>}:since`, n from the nonce.
    Cluster,
}

impl Layout {
    /// The used key and the since key for `nonce`.
    pub fn keys(self, nonce: &str) -> (String, String) {
        match self {
            Layout::One => (format!("mrtr:used:{nonce}"), "mrtr:since".to_owned()),
            Layout::Cluster => {
                let group = group_of(nonce);
                (format!("mrtr:{{g{group}}}:used:{nonce}"), format!("mrtr:{{g{group}}}:since"))
            }
        }
    }

    /// Every since key, with a used key of its group (for the checks that touch each group).
    pub fn every_group(self) -> Vec<(String, String)> {
        match self {
            Layout::One => vec![self.keys("")],
            Layout::Cluster => {
                (0..CLUSTER_GROUPS).map(|g| (format!("mrtr:{{g{g}}}:used:"), format!("mrtr:{{g{g}}}:since"))).collect()
            }
        }
    }
}

/// The group of a nonce: FNV-1a of its bytes, modulo [`CLUSTER_GROUPS`].
fn group_of(nonce: &str) -> u32 {
    let hash = nonce.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    hash % CLUSTER_GROUPS
}

/// What the script answered, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// This claim holds the ticket now.
    Claimed,
    /// The ticket's key holds this value (`<claim id>:<ms>`).
    Used(String),
    /// The record began again at this time; the ticket is older (with the skew).
    Forgotten(u64),
    /// Only checked: the record has remembered since this time.
    Checked(u64),
    /// This Redis may evict keys, with this policy.
    Evicting(String),
    /// Redis ran the claim after its deadline: nothing recorded.
    Late,
}

/// Why the record began again, when a script just found it had to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Began {
    /// `mrtr:since` was missing: Redis restarted empty, was flushed, or evicted it.
    Empty,
    /// Another Redis process wrote it: a restart, or a replica promoted after a failover.
    Other,
    /// Keys were evicted since it was written.
    Evicted,
}

impl Began {
    /// The words for the log and the refusal.
    pub fn words(self) -> &'static str {
        match self {
            Began::Empty => "Redis answered without the record (restarted empty or flushed)",
            Began::Other => "another Redis process answers (a restart or a failover)",
            Began::Evicted => "Redis evicted keys",
        }
    }
}

/// Reads the script's answer `{outcome, value, began}`.
pub fn read(answer: &[String]) -> Result<(Outcome, Option<Began>), String> {
    let [outcome, value, began] = answer else {
        return Err(format!("the claim script answered {} values, not 3", answer.len()));
    };
    let ms = || value.parse::<u64>().map_err(|_| format!("the claim script answered a time '{value}'"));
    let outcome = match outcome.as_str() {
        "claimed" => Outcome::Claimed,
        "used" => Outcome::Used(value.clone()),
        "forgotten" => Outcome::Forgotten(ms()?),
        "checked" => Outcome::Checked(ms()?),
        "evicting" => Outcome::Evicting(value.clone()),
        "late" => Outcome::Late,
        other => return Err(format!("the claim script answered '{other}'")),
    };
    let began = match began.as_str() {
        "empty" => Some(Began::Empty),
        "other" => Some(Began::Other),
        "evicted" => Some(Began::Evicted),
        _ => None,
    };
    Ok((outcome, began))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clusters_keys_share_their_groups_hash_tag() {
        let (used, since) = Layout::Cluster.keys("abc");
        let tag = |k: &str| k[k.find('{').unwrap_or(0)..=k.find('}').unwrap_or(0)].to_owned();
        assert_eq!(tag(&used), tag(&since));
        assert_eq!(Layout::One.keys("abc"), ("mrtr:used:abc".into(), "mrtr:since".into()));
        assert_eq!(Layout::Cluster.every_group().len(), CLUSTER_GROUPS as usize);
    }

    #[test]
    fn answers_are_read_or_refused_with_the_reason() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(read(&s(&["claimed", "x", ""])), Ok((Outcome::Claimed, None)));
        assert_eq!(read(&s(&["forgotten", "12", "other"])), Ok((Outcome::Forgotten(12), Some(Began::Other))));
        assert_eq!(read(&s(&["evicting", "volatile-lru", ""])), Ok((Outcome::Evicting("volatile-lru".into()), None)));
        assert!(read(&s(&["forgotten", "soon", ""])).is_err());
        assert!(read(&s(&["claimed"])).is_err());
    }
}
