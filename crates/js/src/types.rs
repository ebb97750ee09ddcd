//! TypeScript types for the options and results, so lesson authors get real checking.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** The request a ticket is bound to. */
export interface RequestRef { method: string; params?: Record<string, unknown>; }
/** Key and protection, common to every call. The key is text of at least 32 bytes. */
export interface CodecOptions { key: string; mode?: "signed" | "sealed" | "unsigned"; maxLen?: number; replayRecord?: boolean; }
/** What `mint` needs: give `request` or `digest`. */
export interface MintOptions extends CodecOptions { principal: string; request?: RequestRef; digest?: string; data?: unknown; nowMs: number; ttlMs: number; }
/** What `open` and `explain` need: give `request` or `digest`. */
export interface OpenOptions extends CodecOptions { principal: string; request?: RequestRef; digest?: string; nowMs: number; }
export type CheckId = "size" | "shape" | "base64url" | "signature" | "payload" | "principal" | "expiry" | "request" | "single-use";
export type CheckStatus = "passed" | "failed" | "not-reached" | "skipped";
/** One check of a trace. */
export interface StepReport { check: CheckId; label: string; status: CheckStatus; mark: string; detail: string; }
/** The claims inside a ticket. */
export interface Claims { data: unknown; dig: string; exp: number; iat: number; nonce: string; sub: string; }
/** Every check of one `open`, with the first failure and the JSON-RPC error a server sends. */
export interface Report {
  ok: boolean;
  failedCheck: CheckId | null;
  failure: ({ kind: string } & Record<string, unknown>) | null;
  steps: StepReport[];
  claims: Claims | null;
  error: { code: number; message: string; data: { reason: string; check: CheckId } } | null;
}
/** One dot-separated part of a ticket and where it sits; whatever follows the third dot is one "extra" part. */
export interface Part { role: "prefix" | "payload" | "tag" | "nonce" | "sealed-box" | "extra"; start: number; end: number; text: string; }
/** What anyone can read from a ticket without the key. */
export interface Inspection { parts: Part[]; payload_text: string | null; payload: unknown; problems: string[]; sealed: boolean; }
/** Options of `new LabServer(…)`. */
export interface LabServerOptions { mode?: "signed" | "sealed" | "unsigned"; ttlMs?: number; replayRecord?: boolean; seed?: number; }
/** Who sends a line, and when: `bearer` ("bob-token" or "alice-token") or `principal`. */
export interface HandleContext { bearer?: string; principal?: string; nowMs: number; }
/** What Fix-It's verifier is given beside the ticket: who presents it, the request it came with (without `_meta`, `inputResponses` and `requestState`), the server's clock in ms, and the record of used tickets it may keep. */
export interface VerifierContext { principal: string; request: { method: string; params: Record<string, unknown> }; now: number; used: Set<unknown>; }
/** `{ok: true}` (or `true`) accepts; `{ok: false, reason}` (or a throw) refuses. */
export type VerifierAnswer = boolean | { ok: true } | { ok: false; reason?: string };
/** One attack of a Fix-It run: `ok` when it was refused (or, for the honest retry, completed). */
export interface FixItRow { attack: string; title: string; what: string; ok: boolean; result: ProbeVerdict; }
/** A Fix-It run: `passed` when the honest flow completed and every attack was refused. */
export interface FixItReport { passed: boolean; call: string; results: FixItRow[]; }
/** One attack of the probe's battery. */
export interface ProbeAttack { id: string; title: string; what: string; grade: "must" | "should" | "note"; spec: string; fix: string; }
/** What a probe run works with: the call that asks (`METHOD NAME ARGUMENTS`), the tokens, whether to wait out a ticket's life, the race's size, which attacks (`only`, `skip`), the weakest grade that fails the run, and other targets the server lists (another tool's call, another method's `[method, params]`, other arguments it accepts). */
export interface ProbeSetup { call: string; token?: string; secondToken?: string; waitExpiry?: boolean; ttlMs?: number; race?: number; only?: string[]; skip?: string[]; failOn?: "must" | "should" | "note"; otherTool?: { name: string; arguments?: Record<string, unknown> }; otherMethod?: [string, Record<string, unknown>]; otherArguments?: Record<string, unknown>; lists?: { tools?: Record<string, unknown>; prompts?: Record<string, unknown>; resources?: Record<string, unknown> }; }
/** A reply for `ProbeBattery.next`: the HTTP status and the parsed body (or why it is not JSON). */
export interface ProbeReply { status: number; body: Record<string, unknown> | string; }
/** What a probe verdict says. */
export interface ProbeVerdict { verdict: "passed" | "finding" | "completed" | "not-tested" | "inconclusive"; answered?: string; why?: string; grade?: "must" | "should" | "note"; spec?: string; }
/** One attack's row of a probe report: what it is, its verdict, and what this run sent that shows it. */
export interface ProbeRow { attack: string; title: string; what: string; grade: "must" | "should" | "note"; fix: string; result: ProbeVerdict; itSent: string | null; }
/** A probe run's report, as `mrtr probe` concludes it: `conclusion` and `exitCode` mean the same in the terminal and on the page. */
export interface ProbeReport { conclusion: "passed" | "failed" | "inconclusive"; exitCode: 0 | 1 | 2; headline: string; counts: { honestCompleted: boolean; passed: number; must: number; should: number; note: number; known: number; notTested: number; inconclusive: number; reason: string | null }; shape: string | null; rows: ProbeRow[]; }
/** One line to send (after `waitMs`, with `headers`). */
export interface ProbeSend { message: Record<string, unknown>; bearer: string | null; waitMs: number; headers: Record<string, string>; }
/** The next step of an attack: a line to send, lines to send all at once (then `nextRace`), or its verdict. */
export type ProbeStep = { send: ProbeSend } | { race: ProbeSend[] } | { done: ProbeVerdict };
/** One side effect in the server's ledger. */
export interface LedgerEntry { atMs: number; replica: string; tool: string; what: string; cents: number | null; }
/** One finding of `lintTranscript`: the grade, the rule's id, who did it, where, what, and the MRTR page's sentence. */
export interface LintFinding { grade: "must" | "should" | "note"; rule: string; side: "client" | "server"; operation: number; line: number; says: string; spec: string; }
/** One round of an operation: its request and response (indexes in `transcript.messages`), how it joined and how it ended. */
export interface LintRound { request: number; response: number | null; id: unknown; sent_state: unknown; answered: string[]; joined: "first" | "by-ticket" | "by-request" | "by-answers" | "again"; end: { kind: "asked"; asked: string[]; ticket: number | null; odd_state: unknown } | { kind: "complete" } | { kind: "error"; code: number; message: string } | { kind: "no-response" }; }
/** What `lintTranscript` reads: the messages, the operations with their rounds, the tickets, the findings, and the report as text. */
export interface LintReport { schema: "mrtr-lint-report/1"; headline: string; text: string; words: { heading: string; rounds: [string, string][] }[]; transcript: { format: string; messages: { line: number; from_client: boolean; who: string | null; json: Record<string, unknown> }[]; skipped: { line: number; why: string }[]; skipped_count: number; unreadable: { line: number; why: string }[] }; grouped: { operations: { method: string; target: string | null; who: string | null; rounds: LintRound[] }[]; tickets: { name: string; text: string; shape: string; claims: unknown; expires_at_ms: number | null; operation: number; who: string | null }[]; orphans: number[] }; findings: LintFinding[]; }
"#;
