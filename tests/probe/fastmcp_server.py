"""A FastMCP 4.2.3 server (PrefectHQ's framework on top of the official Python SDK) for
`mrtr probe`, written as FastMCP's documentation shows for 2026-07-28: guard tools `deploy`
and `rollback`, each taking `{env}`, that return an `InputRequiredResult` to ask for a
confirmation and read `ctx.input_responses` / `ctx.request_state` when the client retries.
The tool puts its plan in `request_state`; FastMCP seals it at the wire with the SDK's
request-state boundary under its default policy (a per-process ephemeral key, the audience
set to the server's name), and unseals it before the tool runs.

    python fastmcp_server.py PORT
"""

import json
import sys
import time

from fastmcp import Context, FastMCP
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

PORT = int(sys.argv[1])
server = FastMCP("fastmcp-probe")


def guarded(ctx: Context, verb: str, env: str) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None:
        plan = json.dumps({"plan": f"{verb} {env} at {int(time.time())}"})
        question = ElicitRequest(params=ElicitRequestFormParams(
            message=f"{verb} {env}?",
            requested_schema={"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]},
        ))
        return InputRequiredResult(input_requests={"confirm": question}, request_state=plan)
    plan = json.loads(ctx.request_state)["plan"] if ctx.request_state else f"{verb} {env}"
    confirmed = getattr(answer, "action", None) == "accept" and (getattr(answer, "content", None) or {}).get("confirm")
    return f"{plan}: done" if confirmed else "not confirmed"


@server.tool
def deploy(env: str, ctx: Context) -> str | InputRequiredResult:
    """Deploys after the person confirms."""
    return guarded(ctx, "Deploy", env)


@server.tool
def rollback(env: str, ctx: Context) -> str | InputRequiredResult:
    """Rolls back after the person confirms."""
    return guarded(ctx, "Roll back", env)


if __name__ == "__main__":
    print(f"listening on http://127.0.0.1:{PORT}/mcp", flush=True)
    server.run(transport="http", host="127.0.0.1", port=PORT, stateless_http=True, json_response=True,
               show_banner=False, log_level="warning")
