// A minimal 2026-07-28 MCP server over HTTP with one fault at a time, for `mrtr probe`'s
// tests: each fault is one rule of the probe, shown against a server that breaks exactly it.
// Two tools that ask before acting, `deploy` and `rollback` ({env}); bearer tokens bob-token
// and alice-token. Without a fault every check holds: MAC, principal, tool, arguments, expiry
// and single use.
//
//   node tests/probe/fixture-server.mjs FAULT [--shape SHAPE] [--tls CERT KEY]
//
// FAULT (one of):
//   none              every check holds
//   believes          reads the ticket's claims without verifying its MAC (answers still needed)
//   no-tool-binding   binds the arguments but not the tool's name
//   drops-non-string  treats a requestState that is not a string as absent, and takes the answers
//   check-then-set    its used-ticket record checks, waits, then sets (a race lets several through)
//   first-token-only  knows bob-token only: any other token gets 401
//   anyone            authenticates nobody: any bearer token (or none) is served
//   expiry-seconds    its tickets carry `exp` in seconds (2 s), no `iat`
// --shape SHAPE: the tickets' shape, each verified by looking its exact bytes up server-side:
//   jwt, two-part, rmcp, sealed-one, opaque, array-payload, number-payload, string-payload
// --tls CERT KEY: HTTPS with that certificate and key (PEM files) instead of plain HTTP.
import { createServer } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { readFileSync } from "node:fs";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const args = process.argv.slice(2);
const fault = args[0] ?? "none";
const shape = args.includes("--shape") ? args[args.indexOf("--shape") + 1] : "lab";
const FAULTS = ["none", "believes", "no-tool-binding", "drops-non-string", "check-then-set", "first-token-only", "anyone", "expiry-seconds"];
if (!FAULTS.includes(fault)) throw new Error(`unknown fault ${fault}`);

const KEY = Buffer.from("a fixture server's key, 32 bytes or more");
const TTL_MS = fault === "expiry-seconds" ? 2000 : 120_000;
const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const mac = (text) => b64(createHmac("sha256", KEY).update(text).digest());
const used = new Set();
/** Tickets of the foreign shapes, by their exact bytes: what each one was issued for. */
const issued = new Map();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function principal(req) {
  const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
  if (fault === "anyone") return "anyone";
  const known = fault === "first-token-only" ? { "bob-token": "bob" } : { "bob-token": "bob", "alice-token": "alice" };
  return known[token];
}

function mint(claims) {
  if (shape !== "lab") {
    const made = {
      jwt: () => `${b64(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${b64(JSON.stringify({ n: claims.nonce, exp: Math.floor(claims.exp / 1000) }))}.${b64(randomBytes(32))}`,
      "two-part": () => `${b64(JSON.stringify({ n: claims.nonce }))}.${b64(randomBytes(32))}`,
      rmcp: () => `rs1.${b64(Buffer.concat([Buffer.alloc(8), Buffer.from(JSON.stringify({ n: claims.nonce }))]))}.${b64(randomBytes(32))}`,
      "sealed-one": () => `v1.${b64(randomBytes(48))}`,
      opaque: () => randomBytes(24).toString("hex"),
      "array-payload": () => `v1.${b64(JSON.stringify([claims.nonce, 1]))}.${b64(randomBytes(32))}`,
      "number-payload": () => `v1.${b64(String(Math.floor(Math.random() * 1e9)))}.${b64(randomBytes(32))}`,
      "string-payload": () => `v1.${b64(JSON.stringify(claims.nonce))}.${b64(randomBytes(32))}`,
    }[shape];
    if (!made) throw new Error(`unknown shape ${shape}`);
    const ticket = made();
    issued.set(ticket, claims);
    return ticket;
  }
  const body = fault === "expiry-seconds" ? { ...claims, exp: Math.floor(claims.exp / 1000), iat: undefined } : claims;
  const signed = `v1.${b64(JSON.stringify(body))}`;
  return `${signed}.${mac(signed)}`;
}

/** The claims of `ticket`, or why it is refused. */
function open(ticket) {
  if (shape !== "lab") return issued.get(ticket) ?? "unknown ticket";
  const parts = ticket.split(".");
  if (parts.length !== 3) return "malformed";
  let claims;
  try { claims = JSON.parse(Buffer.from(parts[1], "base64url").toString()); } catch { return "malformed"; }
  if (fault !== "believes") {
    const expected = Buffer.from(mac(`${parts[0]}.${parts[1]}`));
    const given = Buffer.from(parts[2]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad signature";
  }
  if (typeof claims !== "object" || claims === null) return "malformed";
  if (fault === "expiry-seconds") claims.exp *= 1000;
  return claims;
}

const confirmation = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
const tool = (name) => ({ name, description: `${name} after the person confirms`, inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] } });
const refuse = (id, why) => ({ jsonrpc: "2.0", id, error: { code: -32602, message: `Invalid requestState: ${why}` } });

async function call(id, params, who) {
  const name = params.name;
  if (name !== "deploy" && name !== "rollback") return { jsonrpc: "2.0", id, error: { code: -32602, message: `Unknown tool: ${name}` } };
  const env = params.arguments?.env;
  const state = params.requestState;
  const confirmed = params.inputResponses?.confirm?.content?.confirm === true;
  const ask = () => ({ jsonrpc: "2.0", id, result: { resultType: "input_required",
    inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form", message: `${name} ${env}?`, requestedSchema: confirmation } } },
    requestState: mint({ sub: who, tool: name, env, exp: Date.now() + TTL_MS, iat: Date.now(), nonce: b64(randomBytes(9)) }) } });
  const done = () => ({ jsonrpc: "2.0", id, result: { resultType: "complete", content: [{ type: "text", text: `${name} ${env}: done` }] } });
  if (state === undefined) return ask();
  if (typeof state !== "string") return fault === "drops-non-string" && confirmed ? done() : refuse(id, "not a string");
  const claims = open(state);
  if (typeof claims === "string") return refuse(id, claims);
  if (fault !== "believes") {
    if (claims.sub !== who) return refuse(id, "another principal's");
    if (fault !== "no-tool-binding" && claims.tool !== name) return refuse(id, "another tool's");
    if (claims.env !== env) return refuse(id, "other arguments");
    if (!(Date.now() < claims.exp)) return refuse(id, "expired");
    if (used.has(claims.nonce)) return refuse(id, "already used");
    if (fault === "check-then-set") await sleep(30);
    used.add(claims.nonce);
  }
  return confirmed ? done() : ask();
}

async function answer(message, who) {
  const { id, method, params = {} } = message;
  if (method === "tools/list") return { jsonrpc: "2.0", id, result: { tools: [tool("deploy"), tool("rollback")] } };
  if (method === "tools/call") return call(id, params, who);
  return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
}

const tls = args.includes("--tls") ? args.slice(args.indexOf("--tls") + 1, args.indexOf("--tls") + 3) : null;
const serve = tls ? (handler) => createTlsServer({ cert: readFileSync(tls[0]), key: readFileSync(tls[1]) }, handler) : createServer;
const http = serve(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const reply = (status, body) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const who = principal(req);
  if (!who) {
    res.writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer error="invalid_token"' });
    return res.end(JSON.stringify({ error: "invalid_token" }));
  }
  let message;
  try { message = JSON.parse(Buffer.concat(chunks).toString()); } catch {
    return reply(400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  reply(200, await answer(message, who));
});
http.listen(0, "127.0.0.1", () => console.log(`listening on ${tls ? "https" : "http"}://127.0.0.1:${http.address().port}/mcp`));
