// An official TypeScript SDK v2 server (@modelcontextprotocol/server 2.4.0) for `mrtr probe`,
// in the setups a server author would write from the SDK's documentation. Two tools that ask
// before acting, `deploy` and `rollback`, both taking `{env}`:
//
//   demo     createRequestStateCodec({key, ttlSeconds}) and nothing more (no bind, no auth)
//   bound    bearer auth (requireBearerAuth; bob-token, alice-token) and the codec's bind to
//            the method and the authenticated client, as the codec's own doc comment shows
//   strict   bound, and the handler checks what the codec leaves to it: the state's tool and
//            arguments against the call's, and a set of used nonces (single use)
//
// --sse answers every request as an event stream (responseMode "sse"), a log notification
// first. --ttl SECONDS sets the codec's lifetime (default 600). Prints "listening on URL".
//
//   node tests/interop/sdk-probe-server.mjs SETUP [--sse] [--ttl SECONDS]
import { serveFetch } from "./serve-fetch.mjs";
import { randomUUID } from "node:crypto";
import {
  McpServer, OAuthError, ProtocolError, ProtocolErrorCode, acceptedContent, createMcpHandler, createRequestStateCodec,
  fromJsonSchema, inputRequired, requireBearerAuth,
} from "@modelcontextprotocol/server";

const [setup = "demo", ...flags] = process.argv.slice(2);
if (!["demo", "bound", "strict"].includes(setup)) throw new Error(`unknown setup ${setup}`);
const sse = flags.includes("--sse");
const ttlSeconds = flags.includes("--ttl") ? Number(flags[flags.indexOf("--ttl") + 1]) : 600;
const authenticated = setup !== "demo";

const codec = createRequestStateCodec({
  key: "an SDK v2 probe fixture key, 32 bytes or more",
  ttlSeconds,
  ...(authenticated ? { bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ""}` } : {}),
});
const used = new Set();
const confirmation = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
const refuse = (why) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid requestState: ${why}`);

function tool(server, name, verb) {
  server.registerTool(
    name,
    {
      description: `${verb} after the person confirms.`,
      inputSchema: fromJsonSchema({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    },
    async ({ env }, ctx) => {
      if (sse) await ctx.mcpReq.notify({ method: "notifications/message", params: { level: "info", data: `${name} asked` } });
      const confirmed = acceptedContent(ctx.mcpReq.inputResponses, "confirm", fromJsonSchema(confirmation));
      if (confirmed?.confirm !== true) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `${verb} ${env}?`, requestedSchema: confirmation }) },
          requestState: await codec.mint(setup === "strict" ? { tool: name, env, nonce: randomUUID() } : { env }, ctx),
        });
      }
      if (setup === "strict") {
        const state = ctx.mcpReq.requestState();
        if (!state) throw refuse("an answer needs the state that asked for it");
        if (state.tool !== name || state.env !== env) throw refuse("minted for another call");
        if (used.has(state.nonce)) throw refuse("already used");
        used.add(state.nonce);
      }
      return { content: [{ type: "text", text: `${verb} ${env}: done` }] };
    },
  );
}

/** A prompt that asks too: another method to spend a tool's state on. */
function prompt(server) {
  server.registerPrompt("release_notes", { description: "Release notes, after the person confirms." }, async (ctx) => {
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, "confirm", fromJsonSchema(confirmation));
    if (confirmed?.confirm !== true) {
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: "Show the release notes?", requestedSchema: confirmation }) },
        requestState: await codec.mint(setup === "strict" ? { tool: "release_notes", nonce: randomUUID() } : {}, ctx),
      });
    }
    if (setup === "strict") {
      const state = ctx.mcpReq.requestState();
      if (!state || state.tool !== "release_notes") throw refuse("minted for another call");
      if (used.has(state.nonce)) throw refuse("already used");
      used.add(state.nonce);
    }
    return { messages: [{ role: "user", content: { type: "text", text: "Release notes: done" } }] };
  });
}

function factory() {
  const server = new McpServer(
    { name: `sdk-v2-probe-${setup}`, version: "1.0.0" },
    { requestState: { verify: codec.verify }, capabilities: sse ? { logging: {} } : {} },
  );
  tool(server, "deploy", "Deploy");
  tool(server, "rollback", "Roll back");
  prompt(server);
  return server;
}

const tokens = { "bob-token": "bob", "alice-token": "alice" };
const gate = requireBearerAuth({
  verifier: {
    async verifyAccessToken(token) {
      if (!tokens[token]) throw new OAuthError("invalid_token", "unknown token");
      return { token, clientId: tokens[token], scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    },
  },
});
const handler = createMcpHandler(factory, { responseMode: sse ? "sse" : "auto" });

serveFetch(async (request) => {
  if (!authenticated) return handler.fetch(request);
  const auth = await gate(request);
  return auth instanceof Response ? auth : handler.fetch(request, { authInfo: auth });
});
