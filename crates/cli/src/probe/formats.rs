//! The reports for machines: versioned JSON (docs/PROBE.md), SARIF 2.1.0 and JUnit XML, and
//! the baseline a CI job compares against.

use super::Outcome;
use mrtr_probe::{Grade, Verdict, BATTERY};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;

/// The JSON report's schema identifier; a change that breaks a reader bumps it.
pub const SCHEMA: &str = "mrtr-probe-report/1";

/// The report as JSON: the summary, and each attack with every exchange in full.
pub fn json(outcome: &Outcome) -> String {
    let results: Vec<Value> = outcome
        .report
        .rows
        .iter()
        .map(|row| {
            json!({
                "attack": row.attack.id(),
                "title": row.attack.by.title(),
                "what": row.attack.by.what(),
                "grade": row.attack.grade,
                "fix": row.attack.fix,
                "known": row.known,
                "result": row.verdict,
                "exchanges": row.exchanges,
            })
        })
        .collect();
    let report = json!({
        "schema": SCHEMA,
        "target": outcome.target,
        "method": outcome.flow.method,
        "call": outcome.flow.params,
        "ticketShape": outcome.report.shape,
        "summary": {"headline": outcome.report.summary.headline(), "counts": outcome.report.summary,
            "conclusion": outcome.report.conclusion(), "exitCode": outcome.report.exit},
        "results": results,
    });
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

/// The ids of the findings in an earlier JSON report.
pub fn baseline(path: &Path) -> Result<BTreeSet<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--baseline {}: {e}", path.display()))?;
    let report: Value =
        serde_json::from_str(&text).map_err(|e| format!("--baseline {}: not JSON: {e}", path.display()))?;
    if report.get("schema").and_then(Value::as_str) != Some(SCHEMA) {
        return Err(format!("--baseline {}: not a {SCHEMA} report (mrtr probe --format json)", path.display()));
    }
    let results = report.get("results").and_then(Value::as_array).cloned().unwrap_or_default();
    Ok(results
        .iter()
        .filter(|r| r.pointer("/result/verdict").and_then(Value::as_str) == Some("finding"))
        .filter_map(|r| Some(r.get("attack")?.as_str()?.to_owned()))
        .collect())
}

fn level(grade: Grade) -> &'static str {
    match grade {
        Grade::Must => "error",
        Grade::Should => "warning",
        Grade::Note => "note",
    }
}

/// The report as SARIF 2.1.0: one rule per attack of the battery (a stable id,
/// `mrtr-probe/<attack>`), one result per finding, at the level of its grade.
pub fn sarif(outcome: &Outcome) -> String {
    // A rule per attack; the honest flow is no attack.
    let rules: Vec<Value> = BATTERY
        .iter()
        .filter(|attack| !attack.is(mrtr_sim::moves::Move::Honest))
        .map(|attack| {
            json!({
                "id": format!("mrtr-probe/{}", attack.id()),
                "name": attack.by.title(),
                "shortDescription": {"text": attack.by.title()},
                "fullDescription": {"text": attack.by.what()},
                "help": {"text": format!("{} Spec: {}", attack.fix, attack.spec)},
                "defaultConfiguration": {"level": level(attack.grade)},
            })
        })
        .collect();
    let results: Vec<Value> = outcome
        .report
        .rows
        .iter()
        .filter_map(|row| match &row.verdict {
            Verdict::Finding { grade, answered, .. } => Some(json!({
                "ruleId": format!("mrtr-probe/{}", row.attack.id()),
                // The same finding on the same target and call keeps its fingerprint run to run.
                "partialFingerprints": {"mrtrProbeFinding/v1": fingerprint(&[&outcome.target, &outcome.flow.method,
                    &outcome.flow.params.to_string(), row.attack.id()])},
                "level": level(*grade),
                "message": {"text": format!("{}: {answered}. Fix: {}", row.attack.by.title(), row.attack.fix)},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": outcome.target}}}],
                "baselineState": if row.known { "unchanged" } else { "new" },
            })),
            _ => None,
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "mrtr probe", "version": env!("CARGO_PKG_VERSION"), "rules": rules}},
            "results": results,
            // A run that could conclude nothing is a failed invocation, not a clean scan.
            "invocations": [{
                "executionSuccessful": outcome.report.summary.reason.is_none(),
                "exitCode": outcome.report.exit,
                "toolExecutionNotifications": outcome.report.summary.reason.iter().map(|why| json!({
                    "level": "error", "message": {"text": format!("inconclusive: {why}")}})).collect::<Vec<_>>(),
            }],
            "properties": {"summary": outcome.report.summary.headline()},
        }],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// A stable fingerprint of `parts`: the first 16 characters of the codec's request digest
/// (SHA-256 of canonical JSON) over them. Nothing rides on it but matching one run's finding
/// with the next's.
fn fingerprint(parts: &[&str]) -> String {
    match mrtr_ticket::RequestDigest::of("mrtr-probe/finding", &json!({ "parts": parts })) {
        Ok(digest) => digest.as_str().chars().take(16).collect(),
        Err(_) => String::new(),
    }
}

fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => out.push_str(&format!("&#x{:x};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The report as JUnit XML: a testcase per attack; a finding fails it, and a not-tested or
/// inconclusive attack is skipped with why.
pub fn junit(outcome: &Outcome) -> String {
    let count = |kind: &str| outcome.report.rows.iter().filter(|r| r.verdict.kind() == kind).count();
    let (failures, skipped) = (count("finding"), count("not-tested") + count("inconclusive"));
    let mut cases = String::new();
    for row in &outcome.report.rows {
        let name = xml(row.attack.id());
        let body = match &row.verdict {
            Verdict::Finding { grade, answered, spec } => format!(
                "<failure type=\"{}\" message=\"{}\">{}&#10;Fix: {}&#10;Spec: {}</failure>",
                grade.word(),
                xml(answered),
                xml(row.attack.by.what()),
                xml(row.attack.fix),
                xml(spec)
            ),
            Verdict::NotTested { why } => format!("<skipped message=\"not tested: {}\"/>", xml(&why.to_string())),
            Verdict::Inconclusive { why } => format!("<skipped message=\"inconclusive: {}\"/>", xml(&why.to_string())),
            Verdict::Passed { answered } => format!("<system-out>refused: {}</system-out>", xml(answered)),
            Verdict::Completed => "<system-out>completed</system-out>".to_owned(),
        };
        cases.push_str(&format!("    <testcase classname=\"mrtr-probe\" name=\"{name}\">{body}</testcase>\n"));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"mrtr probe {}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n{cases}  </testsuite>\n</testsuites>",
        xml(&outcome.target),
        outcome.report.rows.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_text_is_escaped_control_characters_too() {
        assert_eq!(xml("<a href=\"x\">&'\u{1}"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&#x1;");
    }
}
