"""One generated MCP server of the zoo: a 2026-07-28 server whose tickets, checks, record,
auth, rounds and transport follow from its dimensions (tests/zoo/dimensions.py), so the truth
of every probe verdict on it is known by construction.

    python3 tests/zoo/server.py --http             serves every case at /z/<DIMS>/mcp, where
                                                   DIMS is the case's dimensions as base64url JSON,
                                                   and a 2025-11-25 server at /legacy/mcp
    python3 tests/zoo/server.py --stdio DIMS       serves one case over stdio

Two tools, deploy and rollback ({env}), and a prompt, review ({env}), each asking ROUNDS
questions q1..qN (a boolean confirm form) before it acts. Stdlib only.
"""

import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import secrets
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEY = b"the zoo's key: 32 bytes or more, never sent"
TTL_S = 2.0
TOKENS = {"bob-token": "bob", "alice-token": "alice"}
LOCK = threading.Lock()
# The expiry's field name and unit for each value of the `time` dimension.
TIME_FIELDS = {"exp-s": ("exp", "s"), "exp-ms": ("exp", "ms"), "expiresAt-iso": ("expiresAt", "iso"),
               "deadline-ms": ("deadline", "ms"), "validUntil-s": ("validUntil", "s")}
# Encodings of a JSON body: as text, or base64 in each alphabet, padded or not.
JSON_ENCODINGS = ("json", "b64json", "b64url", "b64url-pad", "b64std-nopad")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text) or len(text) % 4 == 1:
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def unb64url_padded(text):
    if len(text) % 4 or not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError("not padded base64url")
    return base64.urlsafe_b64decode(text)


def unb64std_unpadded(text):
    if not re.fullmatch(r"[A-Za-z0-9+/]*", text) or len(text) % 4 == 1:
        raise ValueError("not unpadded base64")
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def unb64std(text):
    if len(text) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]*={0,2}", text):
        raise ValueError("not padded base64")
    return base64.b64decode(text, validate=True)


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


class Case:
    """A server of the zoo: its dimensions, its store of tickets and its record of used ones."""

    def __init__(self, dims):
        self.d = dims
        self.store = {}
        # Used tickets: one set the replicas share, or one per replica ("process").
        self.used = {}

    # ---- tickets -------------------------------------------------------------------------
    def mac(self, data):
        digest = hmac.new(KEY, data, hashlib.sha256).digest()
        return b64url(digest[:10] if self.d["tag"] == "truncated" else digest)

    def tag_ok(self, data, tag):
        if not isinstance(tag, str):
            return False
        want = self.mac(data)
        if self.d["tag"] == "prefix-checked":
            return len(tag) == len(want) and hmac.compare_digest(tag[:8], want[:8])
        return hmac.compare_digest(tag.encode(), want.encode())

    def time_field(self, claims, expires):
        name, unit = TIME_FIELDS[self.d["time"]]
        if unit == "s":
            claims[name] = int(expires)
        elif unit == "ms":
            claims[name] = int(expires * 1000)
        else:
            claims[name] = datetime.fromtimestamp(expires, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        return name, unit

    def expiry_of(self, claims):
        name, unit = TIME_FIELDS[self.d["time"]]
        value = claims.get(name)
        if unit == "iso":
            return datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("no expiry")
        return value / 1000 if unit == "ms" else value

    def mint(self, claims):
        d = self.d
        enc, tagged = d["encoding"], d["tag"] != "none"
        if enc in ("store", "digits"):
            key = secrets.token_hex(16) if enc == "store" else str(secrets.randbelow(9 * 10**11) + 10**11)
            self.store[key] = claims
            return key
        if enc in JSON_ENCODINGS:
            body = {"p": claims, "sig": self.mac(canonical({"p": claims} if d["tag"] == "hmac-whole" else claims))} if tagged else claims
            text = json.dumps(body)
            if enc == "json":
                return text
            if enc == "b64json":
                return base64.b64encode(text.encode()).decode()
            if enc == "b64url-pad":
                return base64.urlsafe_b64encode(text.encode()).decode()
            if enc == "b64std-nopad":
                return base64.b64encode(text.encode()).decode().rstrip("=")
            return b64url(text.encode())
        if enc == "json-tag":
            text = json.dumps(claims)
            return f"{text}~{self.mac(text.encode())}" if tagged else text
        sep = "~" if enc == "tilde" else "."
        payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
        head = b64url(json.dumps({"alg": "HS256" if tagged else "none", "typ": "JWT"}).encode()) if enc == "jwt" else "v1"
        signed = f"{head}{sep}{payload}"
        if tagged:
            inner = f"{signed}{sep}{self.mac((signed if d['tag'] == 'hmac-whole' else payload).encode())}"
        else:
            inner = f"{signed}." if enc == "jwt" else signed
        return b64url(inner.encode()) if enc == "nested" else inner

    def open(self, ticket):
        """The claims of a ticket, or raises with why it is refused."""
        d = self.d
        enc, tagged = d["encoding"], d["tag"] != "none"
        if enc in ("store", "digits"):
            if ticket not in self.store:
                raise ValueError("unknown ticket")
            return self.store[ticket]
        if enc in JSON_ENCODINGS:
            decode = {"json": str.encode, "b64json": unb64std, "b64url": unb64url, "b64url-pad": unb64url_padded,
                      "b64std-nopad": unb64std_unpadded}[enc]
            text = decode(ticket).decode()
            body = json.loads(text)
            if not isinstance(body, dict):
                raise ValueError("not an object")
            if tagged:
                claims = body.get("p")
                if not isinstance(claims, dict):
                    raise ValueError("no payload")
                signed = canonical({"p": claims} if d["tag"] == "hmac-whole" else claims)
                if not self.tag_ok(signed, body.get("sig")):
                    raise ValueError("bad signature")
                return claims
            return body
        if enc == "json-tag":
            text = ticket
            if tagged:
                text, sep, tag = ticket.rpartition("~")
                if not sep or not self.tag_ok(text.encode(), tag):
                    raise ValueError("bad signature")
            claims = json.loads(text)
            if not isinstance(claims, dict):
                raise ValueError("not an object")
            return claims
        if enc == "nested":
            ticket = unb64url(ticket).decode()
        sep = "~" if enc == "tilde" else "."
        parts = ticket.split(sep)
        if enc == "jwt":
            if len(parts) != 3:
                raise ValueError("malformed")
            header = json.loads(unb64url(parts[0]))
            if header.get("alg") != ("HS256" if tagged else "none"):
                raise ValueError("wrong alg")
        elif len(parts) != (3 if tagged else 2) or parts[0] != "v1":
            raise ValueError("malformed")
        if tagged:
            signed = f"{parts[0]}{sep}{parts[1]}" if d["tag"] == "hmac-whole" else parts[1]
            if not self.tag_ok(signed.encode(), parts[2]):
                raise ValueError("bad signature")
        claims = json.loads(unb64url(parts[1]))
        if not isinstance(claims, dict):
            raise ValueError("not an object")
        return claims

    # ---- the flow ------------------------------------------------------------------------
    def claims_for(self, who, method, name, arguments, round_no):
        d = self.d
        claims = {"n": secrets.token_urlsafe(16)}
        if d["bind_principal"]:
            claims["sub"] = who
        if d["bind_tool"]:
            claims["tool"] = name
        if d["bind_args"]:
            claims["args"] = arguments
        if d["bind_method"]:
            claims["m"] = method
        if d["bind_round"]:
            claims["r"] = round_no
        if d["expiry"] == "short":
            expires = time.time() + TTL_S
            if d["encoding"] in ("store", "digits"):
                claims["_exp"] = expires
            else:
                self.time_field(claims, expires)
        return claims

    def ask(self, who, method, name, arguments, round_no, with_ticket=True):
        question = f"q{round_no}"
        result = {"resultType": "input_required", "inputRequests": {question: {"method": "elicitation/create", "params": {
            "mode": "form", "message": f"{name} {arguments.get('env')}: step {round_no}?",
            "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}}}}}
        if with_ticket:
            result["requestState"] = self.mint(self.claims_for(who, method, name, arguments, round_no))
        return result

    def done(self, method, name, arguments):
        text = f"{name} {arguments.get('env')}: done"
        if method == "prompts/get":
            return {"resultType": "complete", "messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
        return {"resultType": "complete", "content": [{"type": "text", "text": text}]}

    def after(self, who, method, name, arguments, round_done):
        if round_done >= self.d["rounds"]:
            return self.done(method, name, arguments)
        return self.ask(who, method, name, arguments, round_done + 1)

    def call(self, who, method, params, replica):
        d = self.d
        name = params.get("name")
        if (method, name) not in (("tools/call", "deploy"), ("tools/call", "rollback"), ("prompts/get", "review")):
            return None, {"code": -32602, "message": f"Unknown tool: {name}"}
        arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        answers = params.get("inputResponses") if isinstance(params.get("inputResponses"), dict) else {}

        def answered(key):
            answer = answers.get(key)
            return isinstance(answer, dict) and answer.get("action") == "accept" and isinstance(answer.get("content"), dict) \
                and answer["content"].get("confirm") is True

        state = params.get("requestState", ...)
        absent = state is ... or (state is None and d["null"] == "absent") or (state == "" and d["empty"] == "absent")
        if absent:
            if d["first"] == "none" and answered("q1"):
                return self.after(who, method, name, arguments, 1), None
            return self.ask(who, method, name, arguments, 1, with_ticket=d["first"] == "ticket"), None
        if not isinstance(state, str) or state == "":
            return None, {"code": -32602, "message": "Invalid requestState: not a non-empty string"}
        try:
            claims = self.open(state)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, binascii.Error, json.JSONDecodeError) as why:
            return None, {"code": -32602, "message": f"Invalid requestState: {why}"}
        refuse = lambda why: (None, {"code": -32602, "message": f"Invalid requestState: {why}"})
        if d["bind_principal"] and claims.get("sub") != who:
            return refuse("another principal's")
        if d["bind_tool"] and claims.get("tool") != name:
            return refuse("another tool's")
        if d["bind_args"] and claims.get("args") != arguments:
            return refuse("other arguments")
        if d["bind_method"] and claims.get("m") != method:
            return refuse("another method's")
        if d["expiry"] == "short":
            try:
                expires = claims["_exp"] if d["encoding"] in ("store", "digits") else self.expiry_of(claims)
            except (ValueError, KeyError, TypeError):
                return refuse("no expiry")
            if time.time() > expires:
                return refuse("expired")
        if d["bind_round"]:
            round_no = claims.get("r")
            if not isinstance(round_no, int) or not answered(f"q{round_no}"):
                return self.ask(who, method, name, arguments, round_no if isinstance(round_no, int) else 1), None
        else:
            # The round is read from the answers: the highest question answered.
            done = [k for k in range(1, d["rounds"] + 1) if answered(f"q{k}")]
            if not done:
                return self.ask(who, method, name, arguments, 1), None
            round_no = max(done)
        nonce = claims.get("n", state)
        if d["record"] != "none":
            key = json.dumps(nonce)
            used = self.used.setdefault(replica if d["record"] == "process" else 0, set())
            if d["record"] == "racy":
                if key in used:
                    return refuse("already used")
                time.sleep(0.05)
                used.add(key)
            else:
                with LOCK:
                    if key in used:
                        return refuse("already used")
                    used.add(key)
        return self.after(who, method, name, arguments, round_no), None

    def handle(self, message, who, replica=1):
        """The JSON-RPC response to one request."""
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
        ident, method = message.get("id"), message["method"]
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        schema = {"type": "object", "properties": {"env": {"type": "string"}}, "required": ["env"]}
        if method == "tools/list":
            tools = [{"name": n, "description": f"{n} after the person confirms", "inputSchema": schema} for n in ("deploy", "rollback")]
            return {"jsonrpc": "2.0", "id": ident, "result": {"tools": tools}}
        if method == "prompts/list":
            prompts = [{"name": "review", "arguments": [{"name": "env", "required": True}]}]
            return {"jsonrpc": "2.0", "id": ident, "result": {"prompts": prompts}}
        if method == "resources/list":
            return {"jsonrpc": "2.0", "id": ident, "result": {"resources": []}}
        if method in ("tools/call", "prompts/get"):
            result, error = self.call(who, method, params, replica)
            if error:
                return {"jsonrpc": "2.0", "id": ident, "error": error}
            return {"jsonrpc": "2.0", "id": ident, "result": result}
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"Method not found: {method}"}}


def decode_dims(text):
    return json.loads(unb64url(text))


CASES = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def legacy(self, raw):
        try:
            status, body = legacy_reply(json.loads(raw))
        except (ValueError, AttributeError):
            status, body = 400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        self.reply(status, body)

    def reply(self, status, body, sse=None):
        data = json.dumps(body)
        if sse:
            end = "\r\n" if sse == "sse-crlf" else "\n"
            data = f": the zoo{end}event: message{end}id: 1{end}data: {data}{end}{end}"
            kind = "text/event-stream"
        else:
            kind = "application/json"
        raw = data.encode()
        self.send_response(status)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_POST(self):
        match = re.fullmatch(r"/z/([A-Za-z0-9_-]+)/(?:r([0-9])/)?mcp", self.path)
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        if self.path == "/legacy/mcp":
            return self.legacy(raw)
        if not match:
            return self.reply(404, {"error": "no such case"})
        with LOCK:
            case = CASES.get(match.group(1))
            if case is None:
                case = CASES[match.group(1)] = Case(decode_dims(match.group(1)))
        d = case.d
        token = (self.headers.get("authorization") or "").removeprefix("Bearer ")
        who = "anyone" if d["auth"] == "none" else TOKENS.get(token)
        if who is None:
            return self.reply(401, {"error": "invalid_token"})
        try:
            message = json.loads(raw)
        except ValueError:
            return self.reply(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        replica = int(match.group(2) or 1)
        self.reply(200, case.handle(message, who, replica), sse=d["answer"] if d["answer"] != "json" else None)


def legacy_reply(message):
    """A 2025-11-25 server: it lists other revisions, and a call without a session is refused."""
    ident, method = message.get("id"), message.get("method")
    if method == "server/discover":
        return 200, {"jsonrpc": "2.0", "id": ident, "result": {"supportedVersions": ["2025-06-18", "2025-11-25"]}}
    if method == "tools/list":
        schema = {"type": "object", "properties": {"env": {"type": "string"}}, "required": ["env"]}
        return 200, {"jsonrpc": "2.0", "id": ident, "result": {"tools": [{"name": "deploy", "inputSchema": schema}]}}
    return 400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}}


def serve_stdio(dims):
    case = Case(dims)
    out = threading.Lock()

    def answer(line):
        try:
            message = json.loads(line)
        except ValueError:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        else:
            if not isinstance(message, dict) or "id" not in message:
                return
            reply = case.handle(message, "anyone")
        with out:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()

    for line in sys.stdin:
        if line.strip():
            threading.Thread(target=answer, args=(line,), daemon=True).start()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--stdio"]:
        serve_stdio(decode_dims(sys.argv[2]))
    else:
        server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("ZOO_PORT", "0"))), Handler)
        server.daemon_threads = True
        print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
        server.serve_forever()
