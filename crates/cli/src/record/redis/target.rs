//! Which Redis a record talks to, and how a connection to it is made: one server
//! (`redis://`, or `rediss://` over TLS), the primary a set of Sentinels names
//! (`redis+sentinel://`), or a Redis Cluster (`redis+cluster://`). An ACL user and password
//! come in the address (`redis://USER:PASSWORD@HOST:PORT`); a CA file for TLS with
//! `--record-ca`.
//!
//! Every connection is async and multiplexed: one TCP connection carries every claim of a
//! replica, with a timeout on connecting and on each answer, so a Redis that hangs holds
//! nobody longer than that.

use redis::aio::MultiplexedConnection;
use redis::cluster::ClusterClient;
use redis::cluster_async::ClusterConnection;
use redis::sentinel::{SentinelClient, SentinelNodeConnectionInfo, SentinelServerType};
use redis::{AsyncConnectionConfig, Cmd, FromRedisValue, RedisResult, TlsCertificates, TlsMode};
use std::time::Duration;

/// How long connecting, and each answer, may take.
pub const TIMEOUT: Duration = Duration::from_millis(800);

/// Where the record lives.
pub enum Target {
    /// One Redis server.
    One(redis::Client),
    /// The primary that Sentinels name; asked again on every new connection.
    Sentinel(tokio::sync::Mutex<SentinelClient>),
    /// A Redis Cluster.
    Cluster(ClusterClient),
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Target::One(_) => "Target::One",
            Target::Sentinel(_) => "Target::Sentinel",
            Target::Cluster(_) => "Target::Cluster",
        })
    }
}

/// A connection made.
#[derive(Clone)]
pub enum Connection {
    /// To one server (directly or through Sentinel).
    One(MultiplexedConnection),
    /// To a cluster: routed by key.
    Cluster(ClusterConnection),
}

impl Connection {
    /// A handle on the same connection that waits as long as it takes: for taking a claim
    /// back, which must be sent after the claim however long Redis keeps both waiting.
    pub fn patient(&self) -> Connection {
        match self {
            Connection::One(c) => {
                let mut c = c.clone();
                c.set_response_timeout(Duration::from_secs(60));
                Connection::One(c)
            }
            Connection::Cluster(c) => Connection::Cluster(c.clone()),
        }
    }

    /// Sends `cmd` and reads its answer.
    pub async fn query<T: FromRedisValue>(&mut self, cmd: &Cmd) -> RedisResult<T> {
        match self {
            Connection::One(c) => cmd.query_async(c).await,
            Connection::Cluster(c) => cmd.query_async(c).await,
        }
    }
}

impl Target {
    /// The target `address` names, with `ca` (PEM) trusted for TLS. Says what is wrong with it.
    pub fn parse(address: &str, ca: Option<Vec<u8>>) -> Result<Target, String> {
        let certs = || TlsCertificates { client_tls: None, root_cert: ca.clone() };
        let (scheme, rest) = address.split_once("://").ok_or("an address such as redis://HOST:PORT")?;
        let tls = scheme.starts_with("rediss");
        let plain = if tls { "rediss" } else { "redis" };
        match scheme {
            "redis" | "rediss" => {
                let client = if tls {
                    redis::Client::build_with_tls(address, certs())
                } else {
                    if ca.is_some() {
                        return Err("--record-ca is for a rediss:// (TLS) address".into());
                    }
                    redis::Client::open(address)
                };
                client.map(Target::One).map_err(|e| e.to_string())
            }
            "redis+sentinel" | "rediss+sentinel" => {
                // USER:PASSWORD@H1:P1,H2:P2/SERVICE[/DB]: the credentials are the primary's.
                let (auth, rest) = match rest.rsplit_once('@') {
                    Some((auth, rest)) => (Some(auth), rest),
                    None => (None, rest),
                };
                let (hosts, path) = rest.split_once('/').ok_or("redis+sentinel://H1:P1,H2:P2/SERVICE")?;
                let (service, db) = match path.split_once('/') {
                    Some((service, db)) => {
                        (service, db.parse::<i64>().map_err(|_| format!("a database number, not '{db}'"))?)
                    }
                    None => (path, 0),
                };
                if service.is_empty() {
                    return Err("the Sentinel service name is missing: redis+sentinel://H1:P1,H2:P2/SERVICE".into());
                }
                // The Sentinels are reached in plain text; the primary over TLS for rediss+sentinel.
                let sentinels: Vec<String> = hosts.split(',').map(|h| format!("redis://{h}")).collect();
                let mut node = redis::RedisConnectionInfo::default().set_db(db);
                if let Some((user, password)) = auth.map(|a| a.split_once(':').unwrap_or(("", a))) {
                    if !user.is_empty() {
                        node = node.set_username(user);
                    }
                    node = node.set_password(password);
                }
                let mut info = SentinelNodeConnectionInfo::default().set_redis_connection_info(node);
                if tls {
                    info = info.set_tls_mode(TlsMode::Secure);
                }
                let client = SentinelClient::build(sentinels, service, Some(info), SentinelServerType::Master)
                    .map_err(|e| e.to_string())?;
                if tls && ca.is_some() {
                    return Err("--record-ca with Sentinel: give the CA to the system's trust store".into());
                }
                Ok(Target::Sentinel(tokio::sync::Mutex::new(client)))
            }
            "redis+cluster" | "rediss+cluster" => {
                let (auth, hosts) = match rest.rsplit_once('@') {
                    Some((auth, hosts)) => (Some(auth), hosts),
                    None => (None, rest),
                };
                let auth = auth.map(|a| format!("{a}@")).unwrap_or_default();
                let nodes: Vec<String> =
                    hosts.trim_end_matches('/').split(',').map(|h| format!("{plain}://{auth}{h}")).collect();
                let mut builder = ClusterClient::builder(nodes)
                    .connection_timeout(TIMEOUT)
                    .response_timeout(TIMEOUT)
                    .retries(2)
                    .max_retry_wait(200)
                    .min_retry_wait(50);
                if tls {
                    builder = builder.tls(TlsMode::Secure).certs(certs());
                }
                builder.build().map(Target::Cluster).map_err(|e| e.to_string())
            }
            other => Err(format!("redis://, rediss://, redis+sentinel:// or redis+cluster://, not '{other}://'")),
        }
    }

    /// Whether keys are spread over a cluster's shards.
    pub fn is_cluster(&self) -> bool {
        matches!(self, Target::Cluster(_))
    }

    /// A new connection, within [`TIMEOUT`] for each step.
    pub async fn connect(&self) -> Result<Connection, String> {
        let config =
            AsyncConnectionConfig::new().set_connection_timeout(Some(TIMEOUT)).set_response_timeout(Some(TIMEOUT));
        let made = match self {
            Target::One(client) => {
                client.get_multiplexed_async_connection_with_config(&config).await.map(Connection::One)
            }
            Target::Sentinel(client) => {
                let asked = tokio::time::timeout(TIMEOUT * 2, async {
                    client.lock().await.get_async_connection_with_config(&config).await
                });
                match asked.await {
                    Ok(made) => made.map(Connection::One),
                    Err(_) => return Err("the Sentinels did not name a primary in time".into()),
                }
            }
            Target::Cluster(client) => client.get_async_connection().await.map(Connection::Cluster),
        };
        made.map_err(|e| e.to_string())
    }
}

/// `address` without its password, for messages and the log.
pub fn shown(address: &str) -> String {
    match (address.split_once("://"), address.rfind('@')) {
        (Some((scheme, rest)), Some(at)) => {
            let auth = &rest[..at - scheme.len() - 3];
            let user = auth.split_once(':').map_or("", |(user, _)| user);
            format!("{scheme}://{user}:***@{}", &address[at + 1..])
        }
        _ => address.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_address_is_read_and_a_wrong_one_said() {
        assert!(matches!(Target::parse("redis://127.0.0.1:6379", None), Ok(Target::One(_))));
        assert!(matches!(Target::parse("redis://app:secret@127.0.0.1:6379/2", None), Ok(Target::One(_))));
        assert!(matches!(
            Target::parse("redis+sentinel://127.0.0.1:26379,127.0.0.1:26380/main", None),
            Ok(Target::Sentinel(_))
        ));
        assert!(matches!(Target::parse("redis+cluster://127.0.0.1:7000,127.0.0.1:7001", None), Ok(Target::Cluster(_))));
        assert!(Target::parse("redis+sentinel://127.0.0.1:26379/", None).is_err());
        assert!(Target::parse("memcached://x", None).is_err());
        assert!(Target::parse("redis://127.0.0.1:6379", Some(b"pem".to_vec())).is_err());
    }

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(shown("redis://app:secret@h:1/0"), "redis://app:***@h:1/0");
        assert_eq!(shown("redis://:secret@h:1"), "redis://:***@h:1");
        assert_eq!(shown("redis://h:1"), "redis://h:1");
    }
}
