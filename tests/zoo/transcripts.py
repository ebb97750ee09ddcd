"""`mrtr lint` on transcripts generated with their truth known by construction: flows of
honest and misbehaving clients and servers, each planted mistake recorded with the rule it
breaks, written in every capture form lint reads (JSON-RPC lines with LF or CRLF, C->S/S->C
arrows, HAR files with JSON or event-stream bodies in LF, CRLF or CR, base64 bodies, bodies
missing or still gzip-compressed, a HAR cut short, a capture by tee with answers before their
requests), including concurrent honest flows handed identical ticket bytes and numeric tickets.
Lint must report exactly the planted rules, and the exit code they give.

    python3 tests/zoo/transcripts.py MRTR [--seed N] [--count N]
"""

import argparse
import base64
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import time

PLANTS = {
    # plant: (the rule it breaks, its grade)
    "none": None,
    "same-id": ("retry-same-id", "must"),
    "changed-ticket": ("ticket-not-echoed", "must"),
    "left-out-ticket": ("ticket-missing", "must"),
    "made-up-ticket": ("ticket-not-issued", "must"),
    "missing-answer": ("answer-missing", "must"),
    "extra-answer": ("answer-not-asked", "note"),
    "replay": ("ticket-sent-again", "note"),
    "elsewhere": ("ticket-elsewhere", "must"),
    "wrong-method": ("asks-on-wrong-method", "must"),
    "asks-nothing": ("asks-for-nothing", "must"),
    "numeric-ticket": ("state-not-string", "must"),
    "no-expiry": ("ticket-without-expiry", "should"),
    "identical-twins": None,
}
FORMS = ["lines-lf", "lines-crlf", "arrows", "har-json", "har-sse-lf", "har-sse-crlf", "har-sse-cr", "har-base64",
         "har-gzip-body", "har-missing-body", "har-cut", "tee"]


class Transcript:
    """Messages in the order they were exchanged, each exchange kept together."""

    def __init__(self, rng):
        self.rng = rng
        self.exchanges = []  # (request, response or None, flow index)
        self.truth = []  # rule ids planted, with the flow they were planted in
        self.next_id = 1
        self.now = int(time.time())

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def ticket(self, kind, nonce=None):
        nonce = nonce or "".join(self.rng.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(16))
        if kind == "opaque":
            return base64.urlsafe_b64encode(bytes(self.rng.randrange(256) for _ in range(33))).decode()
        claims = {"n": nonce}
        if kind == "readable":
            claims["exp"] = self.now + 120
        return base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()


def call(ident, env, extra=None):
    params = {"name": "deploy", "arguments": {"env": env}}
    params.update(extra or {})
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


def asked(ident, key, state=...):
    result = {"resultType": "input_required", "inputRequests": {key: {"method": "elicitation/create", "params": {
        "mode": "form", "message": f"{key}?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}}}
    if state is not ...:
        result["requestState"] = state
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def done(ident):
    return {"jsonrpc": "2.0", "id": ident, "result": {"resultType": "complete", "content": [{"type": "text", "text": "done"}]}}


def refused(ident):
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32602, "message": "Invalid requestState"}}


ANSWER = {"action": "accept", "content": {"ok": True}}


def flow(t, index, plant):
    """One operation's exchanges, with `plant` in it; the rules it plants go to t.truth."""
    rng = t.rng
    env = f"env-{index}"
    rounds = rng.choice([1, 2, 3])
    kind = "numeric" if plant == "numeric-ticket" else rng.choice(["readable", "opaque"])
    if plant == "no-expiry":
        kind = "readable-no-exp"
    answers_only_first = plant == "made-up-ticket"
    if plant == "wrong-method":
        ident = t.new_id()
        req = {"jsonrpc": "2.0", "id": ident, "method": "tools/list", "params": {}}
        t.exchanges.append((req, asked(ident, "why", t.ticket("opaque")), index))
        t.truth.append("asks-on-wrong-method")
        return
    if plant == "asks-nothing":
        ident = t.new_id()
        t.exchanges.append((call(ident, env), {"jsonrpc": "2.0", "id": ident, "result": {"resultType": "input_required"}}, index))
        t.truth.append("asks-for-nothing")
        return
    ident = t.new_id()
    first = call(ident, env)
    state = 4242 + index if kind == "numeric" else (... if answers_only_first else t.ticket(kind))
    key = "q1"
    t.exchanges.append((first, asked(ident, key, state), index))
    if kind == "numeric":
        t.truth.append("state-not-string")
    if kind == "readable-no-exp":
        t.truth.append("ticket-without-expiry")
    if plant == "elsewhere":
        # The ticket spent on another request's first call (other arguments).
        other = t.new_id()
        t.exchanges.append((call(other, env + "-other", {"requestState": state}), refused(other), index))
        t.truth.append("ticket-elsewhere")
    last_retry = None
    for r in range(1, rounds + 1):
        retry_id = ident if (plant == "same-id" and r == 1) else t.new_id()
        params = {"inputResponses": {key: ANSWER}}
        if state is not ...:
            params["requestState"] = state
        if r == 1 and plant == "made-up-ticket":
            params["requestState"] = "made-up-by-the-client"
            t.exchanges.append((call(retry_id, env, params), refused(retry_id), index))
            t.truth.append("ticket-not-issued")
            return
        if r == 1 and plant == "changed-ticket":
            text = state
            middle = len(text) // 2
            params["requestState"] = text[:middle] + ("A" if text[middle] != "A" else "B") + text[middle + 1:]
            t.exchanges.append((call(retry_id, env, params), refused(retry_id), index))
            t.truth.append("ticket-not-echoed")
            return
        if r == 1 and plant == "left-out-ticket":
            del params["requestState"]
            t.exchanges.append((call(retry_id, env, params), refused(retry_id), index))
            t.truth.append("ticket-missing")
            return
        if r == 1 and plant == "missing-answer":
            params["inputResponses"] = {}
            t.exchanges.append((call(retry_id, env, params), refused(retry_id), index))
            t.truth.append("answer-missing")
            return
        if r == 1 and plant == "extra-answer":
            params["inputResponses"]["not-asked"] = ANSWER
            t.truth.append("answer-not-asked")
        if r == 1 and plant == "same-id":
            t.truth.append("retry-same-id")
        request = call(retry_id, env, params)
        if r == rounds:
            t.exchanges.append((request, done(retry_id), index))
        else:
            key = f"q{r + 1}"
            state = 4242 + index + 100 * r if kind == "numeric" else t.ticket(kind)
            if kind == "numeric":
                t.truth.append("state-not-string")
            if kind == "readable-no-exp":
                t.truth.append("ticket-without-expiry")
            t.exchanges.append((request, asked(retry_id, key, state), index))
        last_retry = request
    if plant == "replay" and last_retry is not None:
        again = json.loads(json.dumps(last_retry))
        again["id"] = t.new_id()
        t.exchanges.append((again, refused(again["id"]), index))
        t.truth.append("ticket-sent-again")


def twins(t, index):
    """Two concurrent honest flows of the same request handed identical ticket bytes."""
    a, b = t.new_id(), t.new_id()
    same = "static-ticket-" + str(index)
    env = f"twin-{index}"
    ra, rb = t.new_id(), t.new_id()
    retry = lambda ident: call(ident, env, {"inputResponses": {"q1": ANSWER}, "requestState": same})
    # Interleaved: both ask, both retry, both complete.
    t.exchanges.append((call(a, env), asked(a, "q1", same), index))
    t.exchanges.append((call(b, env), asked(b, "q1", same), index))
    t.exchanges.append((retry(ra), done(ra), index))
    t.exchanges.append((retry(rb), done(rb), index))


def sse(message, end):
    return f": stream{end}event: message{end}id: 1{end}data: {json.dumps(message)}{end}{end}"


def render(t, form):
    """The transcript's text in `form`, the rules visible in it, and whether part of it cannot be read."""
    rng = t.rng
    truth = list(t.truth)
    unreadable = False
    if form.startswith("lines") or form == "arrows" or form == "tee":
        end = "\r\n" if form == "lines-crlf" else "\n"
        lines = []
        for request, response, _ in t.exchanges:
            pair = [("C->S ", request), ("S->C ", response)]
            if form == "tee" and rng.random() < 0.5:
                pair.reverse()
            for mark, message in pair:
                lines.append((mark if form == "arrows" else "") + json.dumps(message))
        return end.join(lines) + end, truth, unreadable
    entries = []
    cut_after = None
    if form == "har-cut":
        # Cut after the last exchange of a flow, part way into the next one.
        # With one flow, the cut comes before any entry ends.
        flows = sorted({f for _, _, f in t.exchanges})
        keep = rng.choice(flows[:-1]) if len(flows) > 1 else None
        cut_after = -1 if keep is None else max(i for i, (_, _, f) in enumerate(t.exchanges) if f == keep)
        truth = truth_of_flows(t, {f for f in flows if keep is not None and f <= keep})
        unreadable = True
    spoiled = None
    if form in ("har-gzip-body", "har-missing-body"):
        # The complete result of some flow: nothing later depends on it.
        finals = [i for i, (_, response, _) in enumerate(t.exchanges) if response.get("result", {}).get("resultType") == "complete"]
        if finals:
            spoiled = rng.choice(finals)
            unreadable = True
    for i, (request, response, _) in enumerate(t.exchanges):
        body = json.dumps(response)
        content = {"mimeType": "application/json", "size": len(body), "text": body}
        if form.startswith("har-sse"):
            end = {"har-sse-lf": "\n", "har-sse-crlf": "\r\n", "har-sse-cr": "\r"}[form]
            content = {"mimeType": "text/event-stream", "text": sse(response, end)}
        elif form == "har-base64":
            content = {"mimeType": "application/json", "encoding": "base64", "text": base64.b64encode(body.encode()).decode()}
        if i == spoiled and form == "har-gzip-body":
            content = {"mimeType": "application/json", "encoding": "base64", "text": base64.b64encode(gzip.compress(body.encode())).decode()}
        if i == spoiled and form == "har-missing-body":
            content = {"mimeType": "application/json", "size": len(body)}
        entries.append({"request": {"method": "POST", "url": "http://127.0.0.1/mcp", "headers": [],
                                    "postData": {"mimeType": "application/json", "text": json.dumps(request)}},
                        "response": {"status": 200, "headers": [], "content": content}})
    har = json.dumps({"log": {"version": "1.2", "creator": {"name": "zoo"}, "entries": entries}}, indent=1)
    if cut_after is not None:
        marker = json.dumps(entries[cut_after + 1], indent=1)[:40] if cut_after + 1 < len(entries) else None
        text = json.dumps({"log": {"version": "1.2", "creator": {"name": "zoo"}, "entries": entries[:cut_after + 1]}}, indent=1)
        text = text[: text.rindex("]")].rstrip() + ",\n" + (marker or '{"request": {"met')
        return text, truth, True
    return har, truth, unreadable


def truth_of_flows(t, flows):
    """The rules planted in `flows`, as each flow recorded them when it was generated."""
    return [rule for rule, flow in t.truth_by_flow if flow in flows]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mrtr")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("ZOO_SEED", time.time_ns() % 1_000_000)))
    parser.add_argument("--count", type=int, default=150)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    plans = [(form, plant) for form in FORMS for plant in PLANTS]  # every form with every plant
    plans += [(rng.choice(FORMS), None) for _ in range(options.count)]
    failures = []
    folder = tempfile.mkdtemp(prefix="mrtr-lint-zoo-")
    for n, (form, plant) in enumerate(plans):
        flows = [rng.choice(list(PLANTS)) for _ in range(rng.randint(1, 5))]
        if plant is not None:
            flows.insert(rng.randrange(len(flows) + 1), plant)
        t = Transcript(rng)
        t.truth_by_flow = []
        for index, p in enumerate(flows):
            before = len(t.truth)
            if p == "identical-twins":
                twins(t, index)
            else:
                flow(t, index, p)
            t.truth_by_flow += [(rule, index) for rule in t.truth[before:]]
        text, truth, unreadable = render(t, form)
        path = os.path.join(folder, f"{n}.txt")
        with open(path, "w", newline="") as out:
            out.write(text)
        run = subprocess.run([options.mrtr, "lint", "--json", path], capture_output=True, text=True, timeout=60)
        try:
            report = json.loads(run.stdout)
        except ValueError:
            failures.append((n, form, flows, [f"no JSON report (exit {run.returncode}): {run.stderr.strip()[:200]}"]))
            continue
        got = sorted(f["rule"] for f in report["findings"])
        want = sorted(truth)
        musts = any(PLANTS_BY_RULE[r] == "must" for r in truth)
        code = 1 if musts else (2 if unreadable else 0)
        problems = []
        if got != want:
            problems.append(f"rules: got {got}, planted {want}")
        if run.returncode != code:
            problems.append(f"exit {run.returncode}, expected {code}")
        if unreadable and not report["transcript"].get("unreadable"):
            problems.append("nothing said to be unreadable")
        if problems:
            failures.append((n, form, flows, problems + [f"file: {path}"]))
    for n, form, flows, problems in failures:
        print(f"\nFAILED transcript {n} (seed {options.seed}): {form}, flows {flows}")
        for p in problems:
            print(f"  {p}")
    print(f"lint zoo: seed {options.seed}: {len(plans) - len(failures)} of {len(plans)} transcripts "
          f"({len(FORMS)} capture forms x {len(PLANTS)} plants, and {options.count} mixed) report exactly what was planted")
    sys.exit(1 if failures else 0)


PLANTS_BY_RULE = {rule: grade for rule, grade in filter(None, PLANTS.values())}

if __name__ == "__main__":
    main()
