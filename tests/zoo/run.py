"""`mrtr probe` on a zoo of generated servers whose truth is known by construction: a pairwise
cover of the dimensions (tests/zoo/dimensions.py) and a seeded sample, every server probed over
its transport, every verdict and the exit code compared with the truth.

    python3 tests/zoo/run.py MRTR [--seed N] [--sample N] [--jobs N] [--only INDEX]

A failure prints the seed, the case's dimensions and each verdict that differs, with what the
probe said; `--seed N --only INDEX` runs that one case again.
"""

import argparse
import base64
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dimensions as D  # noqa: E402

CALL = 'tools/call deploy {"env":"staging"}'


def encoded(case):
    return base64.urlsafe_b64encode(json.dumps(case, sort_keys=True).encode()).rstrip(b"=").decode()


def start_http():
    process = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), "--http"],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "listening on" not in line:
        raise RuntimeError("the zoo's server did not start")
    return process, line.split("listening on", 1)[1].strip()


def probe(mrtr, base, case):
    args = [mrtr, "probe", "--call", CALL, "--token", "bob-token", "--wait-expiry", "--format", "json"]
    if case["transport"] == "http" and case["auth"] == "bearer2":
        args += ["--second-token", "alice-token"]
    if case["transport"] == "http":
        replicas = [f"{base}/z/{encoded(case)}/r{n}/mcp" for n in range(1, case["replicas"] + 1)]
        args[2:2] = replicas
    else:
        args += ["--", sys.executable, os.path.join(HERE, "server.py"), "--stdio", encoded(case)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=240)
    return out.returncode, out.stdout, out.stderr


def check(mrtr, base, index, case):
    expected, code = D.truth(case)
    got_code, stdout, stderr = probe(mrtr, base, case)
    try:
        report = json.loads(stdout)
    except ValueError:
        return [f"no JSON report (exit {got_code}): {stderr.strip()[:300]}"]
    failures = []
    rows = {row["attack"]: row["result"] for row in report["results"]}
    for attack, want in expected.items():
        result = rows.get(attack)
        if result is None:
            failures.append(f"{attack}: no row")
            continue
        got = (result["verdict"], result.get("grade"))
        if got != want:
            said = result.get("answered") or result.get("why") or ""
            failures.append(f"{attack}: got {got}, expected {want} ({said[:200]})")
    for attack in rows.keys() - expected.keys():
        failures.append(f"{attack}: a row the truth does not know")
    if got_code != code:
        failures.append(f"exit {got_code}, expected {code}")
    return failures


def legacy(mrtr, base):
    """A server of another revision is named as such, and the run is inconclusive."""
    run = subprocess.run([mrtr, "probe", f"{base}/legacy/mcp", "--call", CALL, "--format", "json"],
                         capture_output=True, text=True, timeout=60)
    try:
        why = json.loads(run.stdout)["results"][0]["result"].get("why", "")
    except (ValueError, KeyError, IndexError):
        why = run.stderr
    if run.returncode == 2 and "does not speak 2026-07-28" in why and "2025-11-25" in why:
        return []
    return [f"exit {run.returncode}: {why[:300]}"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mrtr")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("ZOO_SEED", time.time_ns() % 1_000_000)))
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--only", type=int)
    options = parser.parse_args()
    cover = D.pairwise_cover(options.seed)
    cases = cover + D.sample(options.seed, options.sample)
    covered = set().union(*(D.pairs_of(c) for c in cover))
    assert covered >= D.universe(), "the pairwise cover misses a pair"
    indexed = list(enumerate(cases))
    if options.only is not None:
        indexed = [indexed[options.only]]
    print(f"zoo: seed {options.seed}: {len(cover)} cases cover all {len(D.universe())} pairs, "
          f"{options.sample} sampled; {len(indexed)} servers to probe", flush=True)
    http, base = start_http()
    started = time.time()
    try:
        with ThreadPoolExecutor(options.jobs) as pool:
            results = list(pool.map(lambda item: (item, check(options.mrtr, base, *item)), indexed))
        results.append(((-1, {"legacy": "2025-11-25"}), legacy(options.mrtr, base)))
    finally:
        http.kill()
        http.wait()
    failed = [(item, failures) for item, failures in results if failures]
    for (index, case), failures in failed:
        print(f"\nFAILED case {index} (--seed {options.seed} --only {index}): {json.dumps(case, sort_keys=True)}")
        for failure in failures:
            print(f"  {failure}")
    verdicts = sum(len(D.truth(case)[0]) for _, case in indexed)
    print(f"zoo: {len(indexed) - len(failed)} of {len(indexed)} servers agree with their truth "
          f"({verdicts} verdicts and exit codes), {time.time() - started:.0f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
