"""How long `mrtr lint` (release) takes on big transcripts: a 50 MB capture of many flows, and
one round that asks 200,000 keys answered by a retry with all of them. Prints figures (the
goal: each under 5 s); a figure is reported, never asserted.

    python3 scripts/bench-lint.py target/release/mrtr
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

MRTR = sys.argv[1]


def flows(target_bytes):
    lines, size, n = [], 0, 0
    while size < target_bytes:
        n += 1
        ticket = f"opaque-{n}-" + "x" * 40
        call = {"jsonrpc": "2.0", "id": 2 * n, "method": "tools/call",
                "params": {"name": "deploy", "arguments": {"env": f"e{n}", "pad": "p" * 200}}}
        retry = dict(call, id=2 * n + 1, params=dict(call["params"], inputResponses={"ok": {"action": "accept"}}, requestState=ticket))
        for message in (call, {"jsonrpc": "2.0", "id": 2 * n, "result": {"resultType": "input_required",
                        "inputRequests": {"ok": {"method": "elicitation/create", "params": {}}}, "requestState": ticket}},
                        retry, {"jsonrpc": "2.0", "id": 2 * n + 1, "result": {"resultType": "complete", "content": []}}):
            line = json.dumps(message)
            lines.append(line)
            size += len(line) + 1
    return "\n".join(lines), n


def many_keys(count):
    keys = {f"k{i}": {"method": "elicitation/create", "params": {}} for i in range(count)}
    answers = {f"k{i}": {"action": "accept"} for i in range(count)}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "deploy", "arguments": {}}}
    messages = [call, {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "inputRequests": keys, "requestState": "t"}},
                dict(call, id=2, params=dict(call["params"], inputResponses=answers, requestState="t")),
                {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "content": []}}]
    return "\n".join(json.dumps(m) for m in messages)


def measure(name, text):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as out:
        out.write(text)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.time()
    run = subprocess.run([MRTR, "lint", out.name], capture_output=True, text=True)
    wall = time.time() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    os.unlink(out.name)
    headline = run.stdout.splitlines()[0] if run.stdout else run.stderr.strip()
    print(f"figure: mrtr lint, {name} ({len(text) / 1e6:.1f} MB): {cpu:.2f} s CPU, {wall:.2f} s wall "
          f"(the goal: under 5 s); exit {run.returncode}: {headline[:100]}")


text, count = flows(50e6)
measure(f"{count} flows", text)
measure("one round of 200,000 asked keys", many_keys(200_000))
