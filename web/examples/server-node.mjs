// A JavaScript MCP client talking to the lab's simulated server, in Node.
//
//   node web/examples/server-node.mjs        (after scripts/build.sh)
//
// It calls `deploy`, answers the confirmation, retries with the ticket, then tries the
// same ticket as alice: every line printed is the exact JSON-RPC on the wire.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../dist/pkg/", import.meta.url));
const { initSync, LabServer } = await import(`${pkg}mrtr_js.js`);
initSync({ module: readFileSync(`${pkg}mrtr_js_bg.wasm`) });

const server = new LabServer({ replayRecord: true });
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "node-example", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
let id = 0;
function send(method, params, bearer, nowMs) {
  const line = JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: meta } });
  console.log(`--> ${line}`);
  const reply = server.handle(line, { bearer, nowMs });
  console.log(`<-- ${reply}`);
  return JSON.parse(reply);
}

const call = { name: "deploy", arguments: { env: "staging" } };
const first = send("tools/call", call, "bob-token", 0);
const answers = { confirm: { action: "accept", content: { confirm: true } } };
const retry = { ...call, inputResponses: answers, requestState: first.result.requestState };
const done = send("tools/call", retry, "bob-token", 8000);
const stolen = send("tools/call", retry, "alice-token", 9000);
console.log(`bob: ${done.result.content[0].text}; alice: ${stolen.error.message}`);
