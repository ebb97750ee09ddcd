// A tmcp server (tmcp 1.20.0 with @tmcp/transport-http 0.9.0, an MCP implementation outside the
// official SDKs) for `mrtr probe`, written as tmcp's README and doc comments show: tools that
// ask before acting, `deploy` and `rollback`, both taking `{env}`, each marked `replayable`
// (tmcp runs the handler again from the top on every retry), with tmcp's default request state
// converter (plain JSON: the client can read and change it, as tmcp's docs say). The setups:
//
//   plan      the handler saves its plan with setRequestState before asking, so the first
//             round's ticket is `{"version":1,"inputResponses":{},"state":{...}}`
//   answers   the handler saves nothing: round 1 carries no ticket (answers-only retry), and
//             round 2's ticket holds round 1's answer; the tool asks twice (confirm, then why)
//
// Prints "listening on URL".   node tests/probe/tmcp-server.mjs SETUP
import { serveFetch } from "../interop/serve-fetch.mjs";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import * as v from "valibot";

const setup = process.argv[2] ?? "plan";
if (!["plan", "answers"].includes(setup)) throw new Error(`unknown setup ${setup}`);

const server = new McpServer(
  { name: "tmcp-probe", version: "1.0.0", description: "deploys after a person confirms" },
  { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } },
);

const Confirm = v.object({ confirm: v.boolean() });
const Reason = v.object({ reason: v.string() });

function askingTool(name, verb) {
  server.tool(
    { name, description: `${verb} after a person confirms`, schema: v.object({ env: v.string() }), replayable: true },
    async ({ env }) => {
      if (setup === "plan") {
        const plan = server.ctx.requestState ?? { plan: `${name}-${env}-${Date.now()}` };
        server.setRequestState(plan);
        const answer = await server.elicitation(`${verb} ${env} (${plan.plan})?`, Confirm);
        const done = answer.action === "accept" && answer.content?.confirm;
        return { content: [{ type: "text", text: done ? `${verb} ${env}: done` : "not confirmed" }] };
      }
      const answer = await server.elicitation(`${verb} ${env}?`, Confirm);
      if (!(answer.action === "accept" && answer.content?.confirm)) {
        return { content: [{ type: "text", text: "not confirmed" }] };
      }
      const why = await server.elicitation(`Why ${verb.toLowerCase()} ${env}?`, Reason);
      return { content: [{ type: "text", text: `${verb} ${env}: done (${why.content?.reason ?? "no reason"})` }] };
    },
  );
}
askingTool("deploy", "Deploy");
askingTool("rollback", "Roll back");

const transport = new HttpTransport(server);
serveFetch(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }));
