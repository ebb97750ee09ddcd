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
/** One side effect in the server's ledger. */
export interface LedgerEntry { atMs: number; replica: string; tool: string; what: string; cents: number | null; }
"#;
