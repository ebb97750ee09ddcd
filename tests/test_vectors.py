"""Checks tests/vectors/tickets.json with the independent Python implementation.

    python3 tests/test_vectors.py
"""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ticket_reference as ref  # noqa: E402

with open(os.path.join(HERE, "vectors", "tickets.json"), encoding="utf-8") as f:
    VECTORS = json.load(f)
KEY = VECTORS["key"].encode()


class KnownAnswers(unittest.TestCase):
    def test_digests(self):
        for case in VECTORS["digests"]:
            with self.subTest(case["params"]):
                kept = {k: v for k, v in case["params"].items() if k not in ref.ROUND_ONLY_PARAMS}
                self.assertEqual(ref.canonical({"method": case["method"], "params": kept}), case["canonical"])
                self.assertEqual(ref.request_digest(case["method"], case["params"]), case["digest"])

    def test_mint(self):
        for case in VECTORS["mint"]:
            with self.subTest(case["name"]):
                self.assertEqual(ref.mint(KEY, case["claims"]), case["token"])

    def test_sequences(self):
        for seq in VECTORS["sequences"]:
            used = {} if seq["record"] else None
            for a in seq["attempts"]:
                with self.subTest(seq["name"] + ": " + a["label"]):
                    digest = ref.request_digest(a["request"]["method"], a["request"]["params"])
                    verdict, _ = ref.open_ticket(KEY, a["ticket"], a["principal"], a["now_ms"], digest, used)
                    self.assertEqual(verdict, a["expect"])

    def test_every_seed_row_is_present(self):
        names = {s["name"] for s in VECTORS["sequences"]}
        for row in ["untouched", "one character changed", "price edited, old signature kept", "by another user",
                    "on a different request", "after its lifetime", "signed with another key", "hello",
                    "used twice, no record", "used twice, with a record of used states"]:
            self.assertIn(row, names)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    print(f"python vectors: {result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
