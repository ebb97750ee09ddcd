"""Writes tickets.json: known-answer vectors for docs/TOKEN.md, from the Python reference.

    python3 tests/vectors/generate.py > tests/vectors/tickets.json

The tokens are computed here by tests/ticket_reference.py; every expected verdict is
written by hand below, row by row from the course pages (seeds 01 and 03). The Rust codec
must produce the same tokens and verdicts (crates/ticket/tests/vectors.rs).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import ticket_reference as ref  # noqa: E402

KEY = b"mrtr-lab known-answer key: 32+ bytes, not a secret"
OTHER_KEY = b"another server's key, also 32+ bytes long"
TTL = 120_000


def call(name, arguments):
    return {"method": "tools/call", "params": {"name": name, "arguments": arguments}}


def claims(request, data, sub, nonce, iat=0):
    return {"data": data, "dig": ref.request_digest(request["method"], request["params"]),
            "exp": iat + TTL, "iat": iat, "nonce": ref.b64e(bytes(nonce)), "sub": sub}


def swap_char(ticket, at, new):
    assert ticket[at] != new
    return ticket[:at] + new + ticket[at + 1:]


def with_payload(ticket, payload):
    parts = ticket.split(".")
    parts[1] = ref.b64e(ref.canonical(payload).encode())
    return ".".join(parts)


def attempt(label, ticket, principal, t_s, request, expect):
    return {"label": label, "ticket": ticket, "principal": principal, "now_ms": int(t_s * 1000),
            "request": request, "expect": expect}


buy = call("buy_ticket", {"quantity": 2})
buy20 = call("buy_ticket", {"quantity": 20})
buy_claims = claims(buy, {"price": 190.0, "quantity": 2}, "bob", range(16))
buy_ticket = ref.mint(KEY, buy_claims)

staging = call("deploy", {"env": "staging"})
prod = call("deploy", {"env": "prod"})
deploy_claims = claims(staging, {"env": "staging"}, "bob", range(100, 116))
deploy_ticket = ref.mint(KEY, deploy_claims)

seed_rows = [
    {"name": "untouched", "record": False, "attempts": [
        attempt("untouched", buy_ticket, "bob", 10, buy, "accepted")]},
    {"name": "one character changed", "record": False, "attempts": [
        attempt("one character of the payload changed", swap_char(buy_ticket, 20, "Z" if buy_ticket[20] != "Z" else "Y"),
                "bob", 10, buy, "signature")]},
    {"name": "price edited, old signature kept", "record": False, "attempts": [
        attempt("price 1.0 written into the payload", with_payload(buy_ticket, {**buy_claims, "data": {"price": 1.0, "quantity": 2}}),
                "bob", 10, buy, "signature")]},
    {"name": "by another user", "record": False, "attempts": [
        attempt("alice presents bob's ticket", buy_ticket, "alice", 10, buy, "principal")]},
    {"name": "on a different request", "record": False, "attempts": [
        attempt("quantity 2 became 20", buy_ticket, "bob", 10, buy20, "request")]},
    {"name": "after its lifetime", "record": False, "attempts": [
        attempt("presented at 300 s", buy_ticket, "bob", 300, buy, "expiry"),
        attempt("presented at exactly 120 s", buy_ticket, "bob", 120, buy, "expiry")]},
    {"name": "signed with another key", "record": False, "attempts": [
        attempt("re-signed by another server's key", ref.mint(OTHER_KEY, buy_claims), "bob", 10, buy, "signature")]},
    {"name": "hello", "record": False, "attempts": [
        attempt("the word hello", "hello", "bob", 10, buy, "shape")]},
    {"name": "used twice, no record", "record": False, "attempts": [
        attempt("first use", buy_ticket, "bob", 10, buy, "accepted"),
        attempt("second use", buy_ticket, "bob", 11, buy, "accepted")]},
    {"name": "used twice, with a record of used states", "record": True, "attempts": [
        attempt("first use", buy_ticket, "bob", 10, buy, "accepted"),
        attempt("second use", buy_ticket, "bob", 11, buy, "single-use")]},
]

lesson_timeline = {"name": "lesson 03: one ticket against the clock", "record": False, "attempts": [
    attempt("honest retry", deploy_ticket, "bob", 8, staging, "accepted"),
    attempt("staging edited to prod", with_payload(deploy_ticket, {**deploy_claims, "data": {"env": "prod"}}),
            "bob", 12, staging, "signature"),
    attempt("alice replays bob's ticket", deploy_ticket, "alice", 20, staging, "principal"),
    attempt("the same retry 5 minutes later", deploy_ticket, "bob", 300, staging, "expiry"),
    attempt("deploy to prod with the staging ticket", deploy_ticket, "bob", 30, prod, "request"),
    attempt("the honest retry, sent a second time", deploy_ticket, "bob", 40, staging, "accepted"),
]}

digest_inputs = [
    ("tools/call", {"name": "deploy", "arguments": {"env": "staging"}}),
    ("tools/call", {"name": "deploy", "arguments": {"env": "staging"}, "_meta": {"x": 1},
                    "inputResponses": {"confirm": {"action": "accept"}}, "requestState": "v1.x.y"}),
    ("tools/call", {"name": "buy_ticket", "arguments": {"quantity": 2, "price": 1.5, "big": 1e21, "tiny": 1e-7}}),
    ("prompts/get", {"name": "review", "arguments": {"zé": "ü\n\"", "B": [True, None, -0.5]}}),
    ("resources/read", {"uri": "lab://report/\u0001", "\U0001F600": 1, "\uff5e": 2}),
]

vectors = {
    "description": "Known-answer vectors for the mrtr-lab requestState ticket (docs/TOKEN.md). "
                   "Keys are given as UTF-8 text; times are milliseconds; max_len is 4096.",
    "key": KEY.decode(),
    "other_key": OTHER_KEY.decode(),
    "max_len": ref.MAX_LEN,
    "digests": [{"method": m, "params": p, "canonical": ref.canonical({"method": m, "params":
                 {k: v for k, v in p.items() if k not in ref.ROUND_ONLY_PARAMS}}),
                 "digest": ref.request_digest(m, p)} for m, p in digest_inputs],
    "mint": [{"name": "buy_ticket quantity 2, price quoted 190", "claims": buy_claims, "token": buy_ticket},
             {"name": "deploy to staging", "claims": deploy_claims, "token": deploy_ticket}],
    "sequences": seed_rows + [lesson_timeline],
}
json.dump(vectors, sys.stdout, indent=2, ensure_ascii=False)
sys.stdout.write("\n")
