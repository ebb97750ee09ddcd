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

    def test_rules_mint(self):
        for case in VECTORS["rules"]["mint"]:
            with self.subTest(case["label"]):
                token = ref.mint_request(case["key"].encode(), case["principal"], case["request"], case["data"],
                                         case["now_ms"], case["ttl_ms"], bytes.fromhex(case["nonces"]),
                                         case["mode"], case["max_len"])
                self.assertEqual(token, case.get("token"))
                self.assertEqual(token is None, case.get("refused", False))

    def test_rules_open(self):
        for case in VECTORS["rules"]["open"]:
            used = {} if case["record"] else None
            for a in case["attempts"]:
                with self.subTest(case["label"]):
                    digest = ref.request_digest(a["request"]["method"], a["request"].get("params"))
                    verdict, claims = ref.open_ticket(KEY, a["ticket"], a["principal"], a["now_ms"], digest, used,
                                                      case["mode"])
                    self.assertEqual(verdict, a["expect"])
                    if "first_used_at" in a:
                        self.assertEqual(claims["first_used_at"], a["first_used_at"])

    def test_rules_digest(self):
        for case in VECTORS["rules"]["digest"]:
            with self.subTest(case["label"]):
                if case.get("refused"):
                    with self.assertRaises(ValueError):
                        ref.request_digest(case["method"], case["params"])
                else:
                    self.assertEqual(ref.request_digest(case["method"], case["params"]), case["digest"])
                    if "canonical" in case:
                        self.assertEqual(ref.canonical({"method": case["method"], "params": case["params"]}),
                                         case["canonical"])

    def test_rules_keys(self):
        for case in VECTORS["rules"]["keys"]:
            with self.subTest(case["label"]):
                self.assertEqual(len(case["key"].encode("utf-8")) >= ref.MIN_KEY_LEN, case["ok"])

    def test_every_rule_has_a_vector(self):
        # Point 0 is the encoding rules and the shape, which every implementation met already.
        points = {c["point"] for kind in VECTORS["rules"].values() for c in kind}
        self.assertEqual(points, set(range(0, 17)))

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
