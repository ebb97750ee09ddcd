"""Checks the Rust codec's canonical numbers and digests against the Python reference:

    cargo run -q -p mrtr-ticket --example doubles -- 100000 | python3 tests/test_doubles.py

Each line is a double's bits (hex), its canonical JSON and the digest of a request that
carries it, as the Rust codec wrote them.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ticket_reference as ref  # noqa: E402

passed = failed = 0
for line in sys.stdin:
    bits, canonical, digest = line.split()
    x = struct.unpack("<d", struct.pack("<Q", int(bits, 16)))[0]
    ours = (ref.canonical(x), ref.request_digest("tools/call", {"v": x}))
    if ours == (canonical, digest):
        passed += 1
    else:
        failed += 1
        if failed <= 5:
            print(f"{bits}: Rust wrote {canonical} {digest}, Python {ours[0]} {ours[1]}")
if passed + failed < 100_000:
    print(f"only {passed + failed} doubles: expected at least 100000")
    failed += 1
print(f"python doubles: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
