// An official TypeScript SDK v2 server (@modelcontextprotocol/server) with its own
// requestState codec (createRequestStateCodec), serving one MRTR tool, `deploy`, the way
// the SDK's documentation writes it: a fixture for `mrtr call` against a server that is not
// ours. Prints "listening on URL" and serves until killed.
//
//   node tests/interop/sdk-server.mjs [PORT]
import { serveFetch } from "./serve-fetch.mjs";
import {
  McpServer, acceptedContent, createMcpHandler, createRequestStateCodec, fromJsonSchema, inputRequired,
} from "@modelcontextprotocol/server";

const codec = createRequestStateCodec({ key: "an SDK v2 interop key, 32 bytes or more", ttlSeconds: 120 });
const confirmation = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };

function factory() {
  const server = new McpServer(
    { name: "sdk-v2-interop-server", version: "1.0.0" },
    { requestState: { verify: codec.verify } },
  );
  server.registerTool(
    "deploy",
    {
      description: "Deploys after the person confirms.",
      inputSchema: fromJsonSchema({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    },
    async ({ env }, ctx) => {
      const confirmed = acceptedContent(ctx.mcpReq.inputResponses, "confirm", fromJsonSchema(confirmation));
      if (confirmed?.confirm !== true) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: confirmation }) },
          requestState: await codec.mint({ env }),
        });
      }
      return { content: [{ type: "text", text: `deployed to ${env}` }] };
    },
  );
  return server;
}

const handler = createMcpHandler(factory);
serveFetch((request) => handler.fetch(request), Number(process.argv[2] ?? 0));
