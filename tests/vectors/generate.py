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


# Each of docs/TOKEN.md's rules ("point" names its number there), with the verdict the text
# gives. `nonces` is hex: the nonce claim is its first 16 bytes and, sealed, the AEAD nonce
# its first 24 (what a source of fixed bytes hands out each time it is asked).
NONCES = bytes(range(200, 224))
NOW, T = 1_000_000, 120_000


def refuse_digest(method, params):
    try:
        ref.request_digest(method, params)
    except ValueError:
        return True
    return False


def signed_payload(payload_text):
    """A correctly signed ticket over payload bytes written by hand."""
    return ref.wrap(KEY, payload_text.encode("utf-8", "surrogatepass"), "signed")


def claims_text(**members):
    base = dict(deploy_claims)
    base.update(members)
    return ref.canonical(base)


def open_case(point, label, ticket, expect, mode="signed", principal="bob", now_ms=8_000, request=staging,
              record=False, attempts=None):
    first = {"ticket": ticket, "principal": principal, "now_ms": now_ms, "request": request, "expect": expect}
    return {"point": point, "label": label, "mode": mode, "record": record, "attempts": attempts or [first]}


def check_open(case, key=KEY):
    used = {} if case["record"] else None
    for a in case["attempts"]:
        digest = ref.request_digest(a["request"]["method"], a["request"].get("params"))
        verdict, claims = ref.open_ticket(key, a["ticket"], a["principal"], a["now_ms"], digest, used, case["mode"])
        assert verdict == a["expect"], (case["label"], verdict)
        if "first_used_at" in a:
            assert claims["first_used_at"] == a["first_used_at"], case["label"]
    return case


def mint_case(point, label, mode="signed", now_ms=NOW, ttl_ms=T, principal="bob", request=staging, data=None,
              max_len=ref.MAX_LEN, key=KEY):
    data = {"env": "staging"} if data is None else data
    token = ref.mint_request(key, principal, request, data, now_ms, ttl_ms, NONCES, mode, max_len)
    case = {"point": point, "label": label, "mode": mode, "key": key.decode("utf-8"), "max_len": max_len,
            "principal": principal, "request": request, "data": data, "now_ms": now_ms, "ttl_ms": ttl_ms,
            "nonces": NONCES.hex()}
    if token is None:
        case["refused"] = True
    else:
        case["token"] = token
    return case


sealed_staging = ref.mint_request(KEY, "bob", staging, {"env": "staging"}, 0, TTL, NONCES, "sealed")
big_data = {"note": "x" * 2900}
deep = "null"
for _ in range(126):
    deep = "[" + deep + "]"
too_deep = "[" + deep + "]"
key_16_letters = "é" * 16  # 16 characters, 32 UTF-8 bytes
unsigned_staging = ref.mint(KEY, deploy_claims, "unsigned")
other_nonce_same = dict(deploy_claims, data={"env": "staging", "again": True})

rules = {
    "mint": [
        mint_case(1, "iat is the minting time and exp = iat + lifetime", now_ms=5_000, ttl_ms=120_000),
        mint_case(2, "an expiry of 2^53 - 1 is minted", now_ms=ref.MAX_TIME_MS - 1, ttl_ms=1),
        mint_case(2, "an expiry past 2^53 - 1 is not", now_ms=ref.MAX_TIME_MS, ttl_ms=1),
        mint_case(5, "a ticket over the size limit is not minted", data=big_data, max_len=2048),
        mint_case(7, "params that are an array: no ticket",
                  request={"method": "tools/call", "params": ["deploy", {"env": "staging"}]}),
        mint_case(10, "a text key is its UTF-8 bytes: 16 letters é are 32 bytes", key=key_16_letters.encode()),
        mint_case(11, "sealed: XChaCha20-Poly1305 over the canonical claims", mode="sealed"),
        mint_case(12, "sealed tickets have the same size limit", mode="sealed", data=big_data, max_len=2048),
        mint_case(16, "a lifetime of 0 is not minted", ttl_ms=0),
    ],
    "open": [
        check_open(open_case(2, "exp = 2^53 - 1 opens", signed_payload(claims_text(exp=ref.MAX_TIME_MS)), "accepted")),
        check_open(open_case(2, "exp = 2^53 fails the payload check",
                             signed_payload(claims_text(exp=ref.MAX_TIME_MS + 1)), "payload")),
        check_open(open_case(2, "a negative iat fails the payload check", signed_payload(claims_text(iat=-1)),
                             "payload")),
        check_open(open_case(2, "exp written 120000.0 fails the payload check",
                             signed_payload(claims_text().replace('"exp":120000', '"exp":120000.0')), "payload")),
        check_open(open_case(3, "a dig of 42 characters fails the payload check",
                             signed_payload(claims_text(dig=deploy_claims["dig"][:42])), "payload")),
        check_open(open_case(3, "a nonce of 23 characters fails the payload check",
                             signed_payload(claims_text(nonce=deploy_claims["nonce"] + "A")), "payload")),
        check_open(open_case(3, "a nonce with a character outside base64url fails the payload check",
                             signed_payload(claims_text(nonce=deploy_claims["nonce"][:21] + "+")), "payload")),
        check_open(open_case(4, "a member twice fails the payload check",
                             signed_payload(claims_text()[:-1] + ',"sub":"bob"}'), "payload")),
        check_open(open_case(4, "white space and another member order are read",
                             signed_payload(" {\n " + ", ".join('"%s": %s' % (k, ref.canonical(deploy_claims[k]))
                                                               for k in reversed(sorted(deploy_claims))) + " } "),
                             "accepted")),
        check_open(open_case(4, "an unknown member fails the payload check",
                             signed_payload(claims_text()[:-1] + ',"role":"admin"}'), "payload")),
        check_open(open_case(4, "a payload that is an array fails the payload check",
                             signed_payload(ref.canonical([deploy_claims[k] for k in sorted(deploy_claims)])),
                             "payload")),
        check_open(open_case(4, "127 levels of nesting are read", signed_payload(claims_text(data=None).replace(
            '"data":null', '"data":' + deep)), "accepted")),
        check_open(open_case(4, "128 levels of nesting fail the payload check", signed_payload(
            claims_text(data=None).replace('"data":null', '"data":' + too_deep)), "payload")),
        check_open(open_case(5, "4096 bytes pass the size check (and fail at base64url: no tag)",
                             "v1." + "A" * 4092 + ".", "base64url")),
        check_open(open_case(5, "4097 bytes fail the size check before anything else",
                             "v1." + "A" * 4093 + ".", "size")),
        check_open(open_case(5, "bytes, not characters: 2049 é are 4098 bytes", "é" * 2049, "size")),
        check_open(open_case(0, "base64url: padding fails the base64url check", deploy_ticket + "=", "base64url")),
        check_open(open_case(0, "base64url: a character of standard base64 fails the base64url check",
                             deploy_ticket.replace(".", ".+", 1)[:-1], "base64url")),
        check_open(open_case(0, "base64url: a last character with loose bits fails the base64url check",
                             deploy_ticket[:-1] + chr(ord(deploy_ticket[-1]) + 1), "base64url")),
        check_open(open_case(0, "base64url: a tag of 31 bytes fails the base64url check",
                             deploy_ticket.rsplit(".", 1)[0] + "." + ref.b64e(bytes(31)), "base64url")),
        check_open(open_case(0, "shape: four parts fail the shape check", deploy_ticket + ".x", "shape")),
        check_open(open_case(6, "the unsigned mode ignores a signed ticket's tag", deploy_ticket, "accepted",
                             mode="unsigned")),
        check_open(open_case(6, "the unsigned mode takes an edited payload under the old tag",
                             with_payload(deploy_ticket, {**deploy_claims, "data": {"env": "prod"}}), "accepted",
                             mode="unsigned")),
        check_open(open_case(6, "a signing server refuses an unsigned ticket at base64url (a 0-byte tag)",
                             unsigned_staging, "base64url")),
        check_open(open_case(7, "params null digest as {}", ref.mint(KEY, claims(
            {"method": "tools/list", "params": {}}, {}, "bob", range(16))), "accepted",
            request={"method": "tools/list", "params": None})),
        check_open(open_case(9, "a lone surrogate in the payload fails the payload check",
                             signed_payload(claims_text(data=None).replace('"data":null', '"data":"\\ud800"')),
                             "payload")),
        check_open(open_case(9, "a number too large for a double fails the payload check",
                             signed_payload(claims_text(data=None).replace('"data":null', '"data":1e400')),
                             "payload")),
        check_open(open_case(11, "a sealed ticket opens sealed", sealed_staging, "accepted", mode="sealed")),
        check_open(open_case(11, "a sealed ticket with one byte of its box changed fails the signature check",
                             swap_char(sealed_staging, 60, "A" if sealed_staging[60] != "A" else "B"), "signature",
                             mode="sealed")),
        check_open(open_case(11, "a signing server refuses a sealed ticket at shape", sealed_staging, "shape")),
        check_open(open_case(12, "sealed tickets have the same size limit", "v1e." + "A" * 4093, "size",
                             mode="sealed")),
        check_open(open_case(13, "the record is keyed by the nonce claim", "", "", record=True, attempts=[
            {"ticket": deploy_ticket, "principal": "bob", "now_ms": 8_000, "request": staging, "expect": "accepted"},
            {"ticket": ref.mint(KEY, other_nonce_same), "principal": "bob", "now_ms": 9_500, "request": staging,
             "expect": "single-use", "first_used_at": 8_000}])),
        check_open(open_case(14, "principals compare exactly: Bob is not bob", deploy_ticket, "principal",
                             principal="Bob")),
        check_open(open_case(14, "no normalisation: e + combining acute is not é",
                             ref.mint(KEY, dict(deploy_claims, sub="\u00e9")), "principal", principal="e\u0301")),
        check_open(open_case(15, "an iat in the future is not checked",
                             ref.mint(KEY, dict(deploy_claims, iat=100_000)), "accepted", now_ms=8_000)),
        check_open(open_case(15, "nor an iat after exp", ref.mint(KEY, dict(deploy_claims, iat=200_000)), "accepted")),
    ],
    "digest": [
        {"point": 7, "label": "params that are an array have no digest", "method": "tools/call",
         "params": ["deploy"], "refused": refuse_digest("tools/call", ["deploy"])},
        {"point": 7, "label": "params null are {}", "method": "tools/list", "params": None,
         "digest": ref.request_digest("tools/list", {})},
        {"point": 8, "label": "a method that is not a string has no digest", "method": 3, "params": {},
         "refused": refuse_digest(3, {})},
        {"point": 8, "label": "nor a missing method", "method": None, "params": {},
         "refused": refuse_digest(None, {})},
        {"point": 9, "label": "integers past 2^53 are the nearest double (ties to even)", "method": "tools/call",
         "params": {"n": [9007199254740993, 9007199254740995, 18446744073709551615], "x": -0.0, "y": 1e21},
         "canonical": ref.canonical({"method": "tools/call", "params": {
             "n": [9007199254740993, 9007199254740995, 18446744073709551615], "x": -0.0, "y": 1e21}}),
         "digest": ref.request_digest("tools/call", {
             "n": [9007199254740993, 9007199254740995, 18446744073709551615], "x": -0.0, "y": 1e21})},
    ],
    "keys": [
        {"point": 10, "label": "31 bytes are too short", "key": "k" * 31, "ok": False},
        {"point": 10, "label": "32 bytes will do", "key": "k" * 32, "ok": True},
        {"point": 10, "label": "16 letters é are 32 bytes", "key": key_16_letters, "ok": True},
    ],
}
assert all(c["refused"] for c in rules["digest"] if "refused" in c)
assert [c["label"] for c in rules["mint"] if c.get("refused")] == [
    "an expiry past 2^53 - 1 is not", "a ticket over the size limit is not minted",
    "params that are an array: no ticket", "sealed tickets have the same size limit", "a lifetime of 0 is not minted"]

vectors = {
    "description": "Known-answer vectors for the mrtr-lab requestState ticket (docs/TOKEN.md). "
                   "Keys are given as UTF-8 text; times are milliseconds; max_len is 4096 unless a case "
                   "says otherwise. rules: one case or more for each numbered rule of TOKEN.md; in a "
                   "mint case, nonces (hex) gives the nonce claim (its first 16 bytes) and, sealed, "
                   "the AEAD nonce (its first 24).",
    "key": KEY.decode(),
    "other_key": OTHER_KEY.decode(),
    "max_len": ref.MAX_LEN,
    "digests": [{"method": m, "params": p, "canonical": ref.canonical({"method": m, "params":
                 {k: v for k, v in p.items() if k not in ref.ROUND_ONLY_PARAMS}}),
                 "digest": ref.request_digest(m, p)} for m, p in digest_inputs],
    "mint": [{"name": "buy_ticket quantity 2, price quoted 190", "claims": buy_claims, "token": buy_ticket},
             {"name": "deploy to staging", "claims": deploy_claims, "token": deploy_ticket}],
    "sequences": seed_rows + [lesson_timeline],
    "rules": rules,
}
json.dump(vectors, sys.stdout, indent=2, ensure_ascii=False)
sys.stdout.write("\n")
