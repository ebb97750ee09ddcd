// The codec as a JavaScript library (dist/pkg, wasm-pack --target web), in Node.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { equal, ok, throwsWith } from "./assert.mjs";

async function load(root) {
  const wasm = await import(join(root, "dist/pkg/mrtr_js.js"));
  wasm.initSync({ module: readFileSync(join(root, "dist/pkg/mrtr_js_bg.wasm")) });
  return wasm;
}

const key = "mrtr-lab demo key, not a secret!";
const request = { method: "tools/call", params: { name: "deploy", arguments: { env: "staging" } } };
// What an MCP 2026-07-28 client puts in every request's `_meta`.
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "node", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };

export const tests = {
  async "mint and open round-trip, and every check is in the trace"({ root }) {
    const m = await load(root);
    const ticket = m.mint({ key, principal: "bob", request, data: { env: "staging" }, nowMs: 0, ttlMs: 120000 });
    ok(ticket.startsWith("v1."), ticket);
    const report = m.open(ticket, { key, principal: "bob", request, nowMs: 8000 });
    equal(report.ok, true);
    equal(report.steps.map((s) => s.check), ["size", "shape", "base64url", "signature", "payload", "principal", "expiry", "request", "single-use"]);
    equal(report.claims.data, { env: "staging" });
  },
  async "alice, the clock and another request each fail their own check"({ root }) {
    const m = await load(root);
    const ticket = m.mint({ key, principal: "bob", request, data: {}, nowMs: 0, ttlMs: 120000 });
    equal(m.open(ticket, { key, principal: "alice", request, nowMs: 20000 }).failedCheck, "principal");
    equal(m.open(ticket, { key, principal: "bob", request, nowMs: 300000 }).failedCheck, "expiry");
    const prod = { method: "tools/call", params: { name: "deploy", arguments: { env: "prod" } } };
    const refused = m.open(ticket, { key, principal: "bob", request: prod, nowMs: 30000 });
    equal(refused.failedCheck, "request");
    equal(refused.error.code, -32602);
    const lines = m.explain(ticket, { key, principal: "alice", request, nowMs: 20000 });
    ok(lines.includes("✗ Principal = the caller: minted for bob, presented by alice"), lines.join("\n"));
  },
  async "inspect reads without the key and names what is broken"({ root }) {
    const m = await load(root);
    const seen = m.inspect("v1.eyJzdWIiOiJib2IifQ.x+y");
    equal(seen.payload, { sub: "bob" });
    ok(seen.problems.some((p) => p.includes("'+'")), seen.problems.join("; "));
    equal(m.inspect("hello").problems[0], "expected three parts separated by dots, found 1");
  },
  async "bad options throw errors that say which"({ root }) {
    const m = await load(root);
    await throwsWith(() => m.mint({ key: "short", principal: "bob", request, nowMs: 0, ttlMs: 1 }), "at least 32 bytes");
    await throwsWith(() => m.open("x", { key, principal: "bob", nowMs: 0 }), "either `request`");
    await throwsWith(() => m.open("x", { key, principal: "bob", request, nowMs: -1 }), "nowMs");
    await throwsWith(() => m.open("x", { key, principal: 7, request, nowMs: 0 }), "bad options: `principal`: invalid type: integer `7`, expected a string");
    await throwsWith(() => m.open("x", { key: 5, principal: "bob", request, nowMs: 0 }), "`key`: invalid type: integer `5`");
    await throwsWith(() => m.open("x", { key, principal: "bob", request: { method: 3 }, nowMs: 0 }), "`request.method`: invalid type");
    // A name the call does not know is refused, not ignored: a misspelt option must not
    // leave a verifier without its record.
    await throwsWith(() => new m.Verifier({ key, replayrecord: true }), "unknown field `replayrecord`, expected one of `key`, `mode`, `maxLen`, `replayRecord`");
    await throwsWith(() => m.open("x", { key, principal: "bob", request, nowMs: 0, colour: 1 }), "unknown field `colour`, expected one of `key`, `mode`, `maxLen`, `replayRecord`, `principal`");
    await throwsWith(() => m.open("x", { key, principal: "bob", request: { ...request, id: 1 }, nowMs: 0 }), "`request`: unknown field `id`");
    await throwsWith(() => new m.LabServer({ replayrecord: true }), "unknown field `replayrecord`");
    await throwsWith(() => new m.LabServer().handle("{}", { bearer: "bob-token", nowMs: 0, principle: "bob" }), "unknown field `principle`");
    // What JSON cannot hold is refused at its place; a member left undefined is not given.
    await throwsWith(() => m.mint({ key, principal: "bob", request, data: { when: new Date(0) }, nowMs: 0, ttlMs: 1 }), "`data.when`: a Date is not JSON data");
    await throwsWith(() => m.mint({ key, principal: "bob", request, data: { n: [1, 2n] }, nowMs: 0, ttlMs: 1 }), "`data.n[1]`: a bigint is not JSON data");
    await throwsWith(() => m.open("x", { key, principal: "bob", request, nowMs: NaN }), "`nowMs`: NaN is not a number JSON can hold");
    equal(m.open("x", { key, mode: undefined, principal: "bob", request, nowMs: 0 }).failedCheck, "shape");
    // A time left out is not time 0, wherever a time is asked for.
    await throwsWith(() => new m.Verifier({ key }).verdict("v1.a.b", "bob", "d"), "`now_ms` must be a number of milliseconds from 0 to Number.MAX_SAFE_INTEGER, got NaN");
    await throwsWith(() => new m.LabServer().handle("{}", { bearer: "bob-token", nowMs: -5 }), "`nowMs`: invalid value: integer `-5`, expected a number of milliseconds from 0 to Number.MAX_SAFE_INTEGER");
    await throwsWith(() => new m.LabServer({ ttlMs: -1 }), "`ttlMs`: invalid value: integer `-1`, expected a number of milliseconds");
    const huge = "A".repeat(1 << 20);
    equal(m.open(huge, { key, principal: "bob", request, nowMs: 0 }).failedCheck, "size");
    // Not a string where a string belongs: a sentence, not a memory fault.
    await throwsWith(() => m.open(12345, { key, principal: "bob", request, nowMs: 0 }), "`ticket` must be a string, got number");
    await throwsWith(() => m.inspect(), "`ticket` must be a string, got undefined");
    await throwsWith(() => m.open("v1.a.b"), "bad options: expected an object, got undefined");
    await throwsWith(() => new m.LabServer().handle("{}", null), "bad options: expected an object, got null");
    // An array is an object to `typeof`, not to these calls: the same sentence everywhere.
    await throwsWith(() => m.open("v1.a.b", [key]), "bad options: expected an object, got array");
    await throwsWith(() => new m.Verifier([key]), "bad options: expected an object, got array");
    await throwsWith(() => m.requestDigest("tools/call", [1, 2]), "bad options: expected an object, got array");
    // A seed is a whole number: 1.5 must not quietly play seed 1's run, nor -1 seed 0's.
    await throwsWith(() => new m.LabServer({ seed: 1.5 }), "`seed`: invalid value: floating point `1.5`, expected a whole number from 0 to Number.MAX_SAFE_INTEGER");
    await throwsWith(() => new m.LabServer({ seed: -1 }), "`seed`: invalid value: integer `-1`, expected a whole number");
    // A number where serde would say "f64" or "usize" is described in JavaScript's terms.
    await throwsWith(() => m.mint({ key, principal: "bob", request, nowMs: "7", ttlMs: 1 }), "`nowMs`: invalid type: string \"7\", expected a number of milliseconds");
    await throwsWith(() => new m.Verifier({ key, maxLen: 2.5 }), "`maxLen`: invalid value: floating point `2.5`, expected a whole number");
    equal(new m.Verifier({ key, maxLen: null }).verdict("v1.a.b", "bob", "d", 0), "base64url", "null is not given");
    await throwsWith(() => m.requestDigest(null, {}), "`method` must be a string, got null");
    await throwsWith(() => new m.LabServer().handle(42, { bearer: "bob-token", nowMs: 0 }), "`line` must be a string, got number");
    await throwsWith(() => new m.Verifier({ key }).verdict("v1.a.b", { name: "bob" }, "d", 0), "`principal` must be a string, got object");
    // Arguments the conversion into Rust cannot take whole: refused with a sentence, and
    // the module still works (an overflow of the wasm's stack would break every later call).
    let deep = {};
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    await throwsWith(() => m.requestDigest("tools/call", deep), "arrays and objects nested more than 127 deep");
    const itself = {};
    itself.again = itself;
    await throwsWith(() => m.mint({ key, principal: "bob", request, data: itself, nowMs: 0, ttlMs: 1 }), "or a value that contains itself");
    let shared = {};
    for (let i = 0; i < 60; i++) shared = { left: shared, right: shared };
    await throwsWith(() => m.requestDigest("tools/call", shared), "more than 1048576 values");
    equal(m.requestDigest("tools/call", { name: "deploy" }).length, 43, "the module still answers");
  },
  async "a ticket carrying numbers past 2^53 is read the way JSON.parse reads them"({ root }) {
    const m = await load(root);
    // An attacker's payload: inspect must still describe it, not refuse the whole result.
    const payload = Buffer.from('{"exp":18446744073709551615,"sub":"bob"}').toString("base64url");
    const seen = m.inspect(`v1.${payload}.AAAA`);
    equal(seen.payload, JSON.parse('{"exp":18446744073709551615,"sub":"bob"}'));
    // No ticket is minted to expire past 2^53 − 1 ms (docs/TOKEN.md), nor for a lifetime of 0.
    await throwsWith(() => m.mint({ key, principal: "bob", request, data: {}, nowMs: Number.MAX_SAFE_INTEGER, ttlMs: 1 }),
      "no ticket minted: `exp` is 9007199254740992, above 2^53 − 1");
    await throwsWith(() => m.mint({ key, principal: "bob", request, nowMs: 0, ttlMs: 0 }), "no ticket minted: a lifetime of 0 ms");
    // Nor for params that are not an object.
    await throwsWith(() => m.mint({ key, principal: "bob", request: { method: "tools/call", params: ["deploy"] }, nowMs: 0, ttlMs: 1 }),
      "`request.params`: a request's params are an object (or absent), not an array");
    const last = m.mint({ key, principal: "bob", request, data: {}, nowMs: Number.MAX_SAFE_INTEGER - 1, ttlMs: 1 });
    const report = m.open(last, { key, principal: "bob", request, nowMs: 1 });
    equal([report.ok, report.claims.exp], [true, Number.MAX_SAFE_INTEGER]);
  },
  async "a verifier with a replay record makes tickets single-use; an option given as null is not given"({ root }) {
    const m = await load(root);
    const digest = m.requestDigest(request.method, request.params);
    const ticket = m.mint({ key, principal: "bob", digest, data: {}, nowMs: 0, ttlMs: 120000 });
    const verifier = new m.Verifier({ key, replayRecord: true });
    equal(verifier.verdict(ticket, "bob", digest, 1000), "accepted");
    equal(verifier.verdict(ticket, "bob", digest, 2000), "single-use");
    equal(new m.Verifier({ key }).verdict(ticket, "bob", digest, 2000), "accepted");
    // An optional option given as null counts as not given, as undefined does: signed, no record.
    const plain = new m.Verifier({ key, mode: null, maxLen: null, replayRecord: null });
    equal([plain.verdict(ticket, "bob", digest, 1000), plain.verdict(ticket, "bob", digest, 2000)], ["accepted", "accepted"]);
    equal(m.open(ticket, { key, mode: null, replayRecord: null, principal: "bob", digest, nowMs: 1000 }).ok, true);
    const listed = m.mint({ key, principal: "bob", request: { method: "tools/list" }, nowMs: 0, ttlMs: 1000 });
    equal([null, {}].map((params) => m.open(listed, { key, principal: "bob", request: { method: "tools/list", params }, nowMs: 1 }).failedCheck), [null, null]);
    const server = new m.LabServer({ mode: null, ttlMs: null, replayRecord: null, seed: null });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...request.params, _meta: meta } };
    const asked = JSON.parse(server.handle(JSON.stringify(call), { bearer: "bob-token", principal: null, nowMs: 0 }));
    equal(asked.result.resultType, "input_required", JSON.stringify(asked));
  },

  async "the simulated server answers JSON-RPC lines like the lab's replicas"({ root }) {
    const m = await load(root);
    const server = new m.LabServer({ seed: 1, replayRecord: true });
    const params = { name: "deploy", arguments: { env: "staging" }, _meta: meta };
    const first = JSON.parse(server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }), { bearer: "bob-token", nowMs: 0 }));
    equal(first.result.resultType, "input_required");
    const retry = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { ...params,
      inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: first.result.requestState } };
    const done = JSON.parse(server.handle(JSON.stringify(retry), { bearer: "bob-token", nowMs: 8000 }));
    equal(done.result.content[0].text, "deployed to staging");
    const again = JSON.parse(server.handle(JSON.stringify({ ...retry, id: 3 }), { bearer: "bob-token", nowMs: 9000 }));
    equal(again.error.data.check, "single-use");
    const alice = JSON.parse(server.handle(JSON.stringify({ ...retry, id: 4 }), { bearer: "alice-token", nowMs: 9000 }));
    equal(alice.error.data.check, "principal");
    equal(server.ledger().map((e) => e.what), ["deployed to staging"]);
    equal(JSON.parse(server.handle("{oops", { bearer: "bob-token", nowMs: 0 })).error.code, -32700);
    equal(server.handle(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), { principal: "bob", nowMs: 0 }), "");
    await throwsWith(() => server.handle("{}", { bearer: "mallory-token", nowMs: 0 }), "unknown bearer token");
  },
};
