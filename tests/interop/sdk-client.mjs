// The official TypeScript SDK v2 client (@modelcontextprotocol/client) against `mrtr serve
// --http`: it lists the lab's tools and calls each, answering every input request with its
// own multi-round-trip driver. Prints one line per tool and exits 1 unless every call
// completes.
//
//   node tests/interop/sdk-client.mjs http://127.0.0.1:3077/mcp
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const url = process.argv[2];
if (!url) throw new Error("usage: node tests/interop/sdk-client.mjs URL");

/** A value for each field a form or a tool's schema asks for: its first choice, a true, a 2. */
function fill(schema) {
  const values = {};
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    if (field.enum) values[name] = field.enum[0];
    else if (field.type === "boolean") values[name] = true;
    else if (field.type === "integer" || field.type === "number") values[name] = Math.max(field.minimum ?? 2, 2);
    else values[name] = "SAVE10";
  }
  return values;
}

const client = new Client(
  { name: "sdk-v2-interop", version: "1.0.0" },
  {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  },
);
client.setRequestHandler("elicitation/create", async (request) => ({
  action: "accept",
  content: fill(request.params.requestedSchema),
}));
client.setRequestHandler("sampling/createMessage", async () => ({
  role: "assistant",
  content: { type: "text", text: "developers" },
  model: "interop",
  stopReason: "endTurn",
}));
client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp/lab", name: "lab" }] }));

await client.connect(
  new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer bob-token" } } }),
);
const { tools } = await client.listTools();
let failed = 0;
for (const tool of tools) {
  try {
    const result = await client.callTool({ name: tool.name, arguments: fill(tool.inputSchema) });
    const text = result.content?.[0]?.text ?? JSON.stringify(result);
    console.log(`ok   ${tool.name}: ${text}`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${tool.name}: ${error.message}`);
  }
}
await client.close();
console.log(`sdk client: ${tools.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && tools.length > 0 ? 0 : 1);
