//! When a readable ticket says it expires and when it was issued, judged by each field's name
//! and its value's magnitude, never by whose format the ticket looks like.
//!
//! A number between 10^9 and 10^11 is seconds since the epoch (2001 to 5138); between 10^12
//! and 10^14, milliseconds (2001 to 5138 again); anything else is not a date. A string is an
//! ISO-8601 date and time (`2026-12-05T13:00:00Z`, with a fraction or an offset), or digits
//! read as a number.

use serde_json::Value;

/// A time read from a ticket, ms since the epoch.
pub type Millis = u64;

/// What a field holds, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// When the ticket expires.
    Expires,
    /// When it was issued.
    Issued,
}

/// The field `name` names, if it names a time: `exp`, `expiresAt`, `expires_at`, `deadline`,
/// `validUntil`, `notAfter`; `iat`, `issuedAt`, `created`.
pub fn field_named(name: &str) -> Option<Field> {
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    let expires = name.starts_with("exp")
        || name.contains("expir")
        || name.contains("deadline")
        || name.contains("until")
        || name.contains("notafter");
    let issued = name == "iat" || name.starts_with("issued") || name.starts_with("created") || name == "mintedat";
    if expires {
        Some(Field::Expires)
    } else if issued {
        Some(Field::Issued)
    } else {
        None
    }
}

/// `value` as a time, ms since the epoch, judged by its magnitude (numbers) or its form (text).
pub fn millis(value: &Value) -> Option<Millis> {
    match value {
        Value::Number(n) => by_magnitude(n.as_f64()?),
        Value::String(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            by_magnitude(text.parse().ok()?)
        }
        Value::String(text) => iso8601(text),
        _ => None,
    }
}

/// A number of seconds or milliseconds since the epoch, by its magnitude.
pub fn by_magnitude(t: f64) -> Option<Millis> {
    if (1e9..1e11).contains(&t) {
        Some((t * 1000.0) as Millis)
    } else if (1e12..1e14).contains(&t) {
        Some(t as Millis)
    } else {
        None
    }
}

/// The first field of `claims` (depth first, three levels deep at most) that names `field`
/// and holds a time.
pub fn find(claims: &Value, field: Field) -> Option<Millis> {
    fn walk(value: &Value, field: Field, depth: usize) -> Option<Millis> {
        let members = value.as_object()?;
        let here = members.iter().find_map(|(name, v)| (field_named(name) == Some(field)).then(|| millis(v)).flatten());
        here.or_else(|| (depth < 3).then(|| members.values().find_map(|v| walk(v, field, depth + 1))).flatten())
    }
    walk(claims, field, 0)
}

/// Whether `text` reads as an ISO-8601 date and time.
pub fn is_iso8601(text: &str) -> bool {
    iso8601(text).is_some()
}

/// `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]`, ms since the epoch.
fn iso8601(text: &str) -> Option<Millis> {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = text.get(range)?;
        part.bytes().all(|b| b.is_ascii_digit()).then(|| part.parse().ok())?
    };
    if bytes.len() < 19 || bytes.get(4) != Some(&b'-') || bytes.get(7) != Some(&b'-') {
        return None;
    }
    if !matches!(bytes.get(10), Some(b'T' | b't' | b' '))
        || bytes.get(13) != Some(&b':')
        || bytes.get(16) != Some(&b':')
    {
        return None;
    }
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut at = 19;
    let mut ms = 0i64;
    if bytes.get(at) == Some(&b'.') {
        let digits = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        let fraction = text.get(at + 1..at + 1 + digits.min(3))?;
        ms = format!("{fraction:0<3}").parse().ok()?;
        at += 1 + digits;
    }
    let offset_minutes = match text.get(at..)? {
        "Z" | "z" | "" => 0,
        rest if rest.len() == 6 && (rest.starts_with('+') || rest.starts_with('-')) && rest.as_bytes()[3] == b':' => {
            let sign = if rest.starts_with('-') { -1 } else { 1 };
            sign * (number(at + 1..at + 3)? * 60 + number(at + 4..at + 6)?)
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
    Millis::try_from(seconds * 1000 + ms).ok()
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn units_come_from_magnitude_and_names_from_meaning() {
        let at = 1_800_000_000_000u64;
        for claims in [
            json!({"exp": 1_800_000_000u64}),
            json!({"exp": at}),
            json!({"expiresAt": "2027-01-15T08:00:00Z"}),
            json!({"p": {"deadline_ms": at}}),
            json!({"validUntil": "1800000000"}),
        ] {
            let found = find(&claims, Field::Expires).expect("a time");
            assert!(found.abs_diff(at) < 86_400_000 * 2, "{claims}: {found}");
        }
        assert_eq!(find(&json!({"exp": 42}), Field::Expires), None, "not a date in any unit");
        assert_eq!(find(&json!({"n": 1_800_000_000u64}), Field::Expires), None, "not named a time");
        assert_eq!(find(&json!({"iat": 1_700_000_000u64}), Field::Issued), Some(1_700_000_000_000));
    }

    #[test]
    fn iso_dates_read_with_fractions_and_offsets() {
        assert_eq!(iso8601("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(iso8601("1970-01-01T00:00:01.5Z"), Some(1_500));
        assert_eq!(iso8601("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(iso8601("2000-03-01T00:00:00Z"), Some(951_868_800_000));
        assert_eq!(iso8601("2000-13-01T00:00:00Z"), None);
        assert_eq!(iso8601("staging"), None);
    }
}
