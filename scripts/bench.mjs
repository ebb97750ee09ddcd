// The codec benchmark: prints figures, judges nothing (speed belongs here, not in tests).
//
//   node scripts/bench.mjs            (after scripts/build.sh has built dist/pkg)
//
// From one Node process it times:
//   1. the wasm codec's open, every check, called from JS (Verifier.verdict);
//   2. the same open returning the whole check trace as a JS object (Verifier.open);
//   3. a plain Node baseline doing the same work with node:crypto, as in seed 02;
//   4. the HMAC alone in wasm (Verifier.tagMatches): the floor no codec can beat.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const wasm = await import(`${root}dist/pkg/mrtr_js.js`);
wasm.initSync({ module: readFileSync(`${root}dist/pkg/mrtr_js_bg.wasm`) });

const key = "mrtr-lab benchmark key, 32+ bytes long";
const request = { method: "tools/call", params: { name: "buy_ticket", arguments: { quantity: 2 } } };
const digest = wasm.requestDigest(request.method, request.params);
const ticket = wasm.mint({ key, principal: "bob", digest, data: { price: 190, quantity: 2 }, nowMs: 0, ttlMs: 120000 });
const verifier = new wasm.Verifier({ key });

// The Node baseline: the same checks, in the same order, with node:crypto.
const nodeKey = Buffer.from(key);
const strictB64 = (text) => {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : null;
};
function nodeOpen(token, principal, dig, now) {
  if (token.length > 4096) return "size";
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== "v1") return "shape";
  const payload = strictB64(parts[1]);
  const tag = strictB64(parts[2]);
  if (!payload || !tag || tag.length !== 32) return "base64url";
  const want = createHmac("sha256", nodeKey).update(`${parts[0]}.${parts[1]}`).digest();
  if (!timingSafeEqual(want, tag)) return "signature";
  let claims;
  try { claims = JSON.parse(payload.toString()); } catch { return "payload"; }
  if (claims.sub !== principal) return "principal";
  if (now >= claims.exp) return "expiry";
  if (claims.dig !== dig) return "request";
  return "accepted";
}

function time(name, fn, iterations) {
  for (let i = 0; i < iterations / 10; i++) fn(); // warm up
  const runs = [];
  for (let r = 0; r < 5; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    runs.push(Number(process.hrtime.bigint() - start) / iterations);
  }
  runs.sort((a, b) => a - b);
  const ns = runs[2];
  console.log(`${name.padEnd(44)} ${(ns / 1000).toFixed(2).padStart(7)} µs/op  (median of 5 × ${iterations})`);
  return ns;
}

const check = (v, want) => { if (v !== want) throw new Error(`benchmark sanity: got ${v}, want ${want}`); };
check(verifier.verdict(ticket, "bob", digest, 8000), "accepted");
check(nodeOpen(ticket, "bob", digest, 8000), "accepted");
check(verifier.tagMatches(ticket), true);

const n = Number(process.env.BENCH_ITERATIONS ?? 100000);
console.log(`ticket: ${ticket.length} bytes, node ${process.version}`);
const wasmOpen = time("wasm open, every check (Verifier.verdict)", () => verifier.verdict(ticket, "bob", digest, 8000), n);
const wasmTrace = time("wasm open + full trace object (Verifier.open)", () => verifier.open(ticket, "bob", digest, 8000), n / 10);
const node = time("node baseline, same checks (node:crypto)", () => nodeOpen(ticket, "bob", digest, 8000), n);
const floor = time("wasm HMAC alone (Verifier.tagMatches)", () => verifier.tagMatches(ticket), n);
console.log(`ratio node baseline / wasm open: ${(node / wasmOpen).toFixed(2)}×  (goal ≥ 1.5×)`);
console.log(`ratio wasm open / wasm HMAC floor: ${(wasmOpen / floor).toFixed(2)}×  (goal ≤ 1.3×)`);
console.log(`full trace costs ${(wasmTrace / wasmOpen).toFixed(1)}× the verdict alone`);
