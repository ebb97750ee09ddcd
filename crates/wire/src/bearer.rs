//! Bearer tokens in `Authorization` headers (RFC 6750 §2.1), read one way by the server, the
//! lint and the probe: the scheme in any case, the token as RFC 6750's `b64token` allows.
//!
//! ```
//! use mrtr_wire::bearer::{self, Why};
//!
//! assert_eq!(bearer::token("Bearer bob-token"), Ok("bob-token"));
//! assert_eq!(bearer::token("  BEARER   bob-token "), Ok("bob-token"));
//! assert_eq!(bearer::token("Basic Ym9iOnB3"), Err(Why::OtherScheme));
//! assert_eq!(bearer::token("Bearer two words"), Err(Why::Malformed));
//! assert_eq!(bearer::header("bob-token"), "Bearer bob-token");
//! ```

use std::fmt;

/// The scheme a server names in `WWW-Authenticate` when it wants a bearer token.
pub const CHALLENGE: &str = "Bearer";

/// Why an `Authorization` header carries no bearer token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Another scheme (`Basic …`), or no scheme at all.
    OtherScheme,
    /// `Bearer` with no token, or a token RFC 6750 does not allow (spaces, commas, quotes).
    Malformed,
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Why::OtherScheme => "the Authorization header must be 'Bearer <token>'",
            Why::Malformed => "the bearer token is empty or holds characters a token may not (RFC 6750)",
        })
    }
}

/// The token of an `Authorization: Bearer <token>` header's value.
pub fn token(header: &str) -> Result<&str, Why> {
    let header = header.trim();
    let (scheme, rest) = header.split_once([' ', '\t']).unwrap_or((header, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(Why::OtherScheme);
    }
    let token = rest.trim();
    let allowed = |b: u8| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b);
    let body = token.trim_end_matches('=');
    if body.is_empty() || !body.bytes().all(allowed) {
        return Err(Why::Malformed);
    }
    Ok(token)
}

/// The `Authorization` header's value for `token`.
pub fn header(token: &str) -> String {
    format!("{CHALLENGE} {token}")
}

/// True when a `WWW-Authenticate` value asks for a bearer token (among other challenges too).
pub fn is_challenged(www_authenticate: &str) -> bool {
    www_authenticate.split(',').any(|part| {
        let scheme = part.trim().split([' ', '\t']).next().unwrap_or_default();
        scheme.eq_ignore_ascii_case(CHALLENGE)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_read_as_the_rfc_writes_them() {
        for (header, want) in [
            ("Bearer abc", Ok("abc")),
            ("bearer abc", Ok("abc")),
            ("bEaReR\tabc", Ok("abc")),
            ("Bearer a.b-c_d~e+f/g==", Ok("a.b-c_d~e+f/g==")),
            ("Bearer", Err(Why::Malformed)),
            ("Bearer ", Err(Why::Malformed)),
            ("Bearer ===", Err(Why::Malformed)),
            ("Bearer a b", Err(Why::Malformed)),
            ("Bearer a,b", Err(Why::Malformed)),
            ("Bearer \"abc\"", Err(Why::Malformed)),
            ("Bearerabc", Err(Why::OtherScheme)),
            ("Basic abc", Err(Why::OtherScheme)),
            ("", Err(Why::OtherScheme)),
            ("abc", Err(Why::OtherScheme)),
        ] {
            assert_eq!(token(header), want, "{header:?}");
        }
    }

    #[test]
    fn a_challenge_is_found_among_others() {
        assert!(is_challenged("Bearer"));
        assert!(is_challenged(r#"Basic realm="x", bearer realm="mcp", error="invalid_token""#));
        assert!(!is_challenged(r#"Basic realm="x""#));
    }
}
