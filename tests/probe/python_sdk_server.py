"""An official Python SDK server (`mcp` 2.3.0, MCPServer) for `mrtr probe`, written as its
documentation shows: two tools, `deploy` and `rollback`, each asking for a confirmation
through a resolver (`Elicit`), with the SDK's default request-state protection (sealed
tickets bound to the method, the tool, a digest of the arguments and the server's name).

    python python_sdk_server.py PORT [--auth] [--ttl SECONDS]
    python python_sdk_server.py --stdio [--ttl SECONDS]

--auth adds the SDK's own bearer authentication (a token verifier knowing bob-token and
alice-token), which the SDK then binds into every ticket as the principal. --ttl sets the
tickets' lifetime (the SDK's default: 600 s). --stdio serves on stdin and stdout instead, as
the SDK's stdio transport does (no auth there: the process is the client's own).
"""

import sys
import time
from typing import Annotated

from pydantic import BaseModel

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Elicit, MCPServer, RequestStateSecurity, Resolve

STDIO = "--stdio" in sys.argv[1:]
PORT = 0 if STDIO else int(sys.argv[1])
AUTH = "--auth" in sys.argv[2:]
TTL = float(sys.argv[sys.argv.index("--ttl") + 1]) if "--ttl" in sys.argv else 600.0


class Confirm(BaseModel):
    confirm: bool


class Tokens:
    """A token verifier that knows two principals."""

    async def verify_token(self, token: str) -> AccessToken | None:
        client = {"bob-token": "bob", "alice-token": "alice"}.get(token)
        if client is None:
            return None
        return AccessToken(token=token, client_id=client, scopes=[], expires_at=int(time.time()) + 3600)


security = RequestStateSecurity(keys=[b"a python sdk probe fixture key, 32 bytes+"], ttl=TTL)
auth = {}
if AUTH:
    auth = {
        "token_verifier": Tokens(),
        "auth": AuthSettings(
            issuer_url="http://127.0.0.1:9/", resource_server_url=f"http://127.0.0.1:{PORT}/mcp", required_scopes=[]
        ),
    }
server = MCPServer("python-sdk-probe", request_state_security=security, **auth)


def ask_deploy(env: str) -> Elicit[Confirm]:
    return Elicit(f"Deploy {env}?", Confirm)


def ask_rollback(env: str) -> Elicit[Confirm]:
    return Elicit(f"Roll back {env}?", Confirm)


@server.tool()
def deploy(env: str, answer: Annotated[Confirm, Resolve(ask_deploy)]) -> str:
    """Deploys after the person confirms."""
    return f"Deploy {env}: done" if answer.confirm else "not confirmed"


@server.tool()
def rollback(env: str, answer: Annotated[Confirm, Resolve(ask_rollback)]) -> str:
    """Rolls back after the person confirms."""
    return f"Roll back {env}: done" if answer.confirm else "not confirmed"


if __name__ == "__main__" and STDIO:
    server.run("stdio")
elif __name__ == "__main__":
    print(f"listening on http://127.0.0.1:{PORT}/mcp", flush=True)
    server.run("streamable-http", host="127.0.0.1", port=PORT, stateless_http=True, json_response=True)
