"""The zoo's dimensions, a pairwise cover and a seeded sample of them, and the truth of every
probe verdict on a server with given dimensions, derived from what its code does
(tests/zoo/server.py), never from what the probe says.

A verdict is (kind, grade): ("passed", None), ("finding", "must" | "should" | "note"),
("not-tested", None). The exit code follows: 1 with a MUST finding, else 0.
"""

import itertools
import random

DIMENSIONS = {
    # How the ticket is written: JSON text (its tag a member, or after a `~`), base64 of JSON
    # (standard or url-safe, padded or not), prefix.payload[.tag] (split by `.` or `~`), a
    # JWT, base64url of a dotted ticket, or a random key into a server-side store (hex, or
    # decimal digits).
    "encoding": ["json", "json-tag", "b64json", "b64url", "b64url-pad", "b64std-nopad", "dotted", "tilde", "jwt",
                 "nested", "store", "digits"],
    # The tag: none, HMAC over the payload or over the whole, HMAC truncated to 10 bytes, or
    # a full HMAC of which only the first 8 characters are compared (wrong, but checked).
    "tag": ["none", "hmac-payload", "hmac-whole", "truncated", "prefix-checked"],
    # The expiry's field name and unit.
    "time": ["exp-s", "exp-ms", "expiresAt-iso", "deadline-ms", "validUntil-s"],
    "expiry": ["none", "short"],
    "bind_principal": [False, True],
    "bind_tool": [False, True],
    "bind_args": [False, True],
    "bind_method": [False, True],
    # Bound: the ticket says which round it answers. Unbound: the round is read from the answers.
    "bind_round": [False, True],
    # The used-ticket record: none, an atomic one in each replica's own memory, an atomic one
    # the replicas share, or a shared one that checks, waits, then sets.
    "record": ["none", "process", "shared", "racy"],
    # How many replicas the probe is given (taking turns); they share the key and the store.
    "replicas": [1, 2],
    # Auth: none (anyone), bearer tokens (the probe given one), bearer with a second principal.
    "auth": ["none", "bearer", "bearer2"],
    # What a null or empty requestState is: the same as none, or refused.
    "null": ["absent", "refuse"],
    "empty": ["absent", "refuse"],
    "rounds": [1, 2, 3],
    # Whether the first round's question carries a ticket, or the answers alone come back.
    "first": ["ticket", "none"],
    "answer": ["json", "sse-lf", "sse-crlf"],
    "transport": ["http", "stdio"],
}

OPAQUE = ("store", "digits")


def applies(name, value, case):
    """False where a dimension means nothing for the case: a store's key has no tag, time
    format or readable expiry field; stdio has no bearer tokens nor SSE."""
    if name in ("tag", "time") and case["encoding"] in OPAQUE:
        return False
    if name in ("auth", "answer", "replicas") and case["transport"] == "stdio":
        return False
    return True


def normalized(case):
    """The case with dimensions that do not apply set to their first value."""
    out = dict(case)
    for name, values in DIMENSIONS.items():
        if not applies(name, out[name], out):
            out[name] = values[0]
    return out


def pairs_of(case):
    """The (dimension, value) pairs a case covers, leaving out dimensions that do not apply."""
    items = [(n, case[n]) for n in DIMENSIONS if applies(n, case[n], case)]
    return {(a, b) for a, b in itertools.combinations(items, 2)}


def universe():
    """Every pair of dimension values some case can cover."""
    names = list(DIMENSIONS)
    pairs = set()
    for a, b in itertools.combinations(names, 2):
        for va in DIMENSIONS[a]:
            for vb in DIMENSIONS[b]:
                case = {n: DIMENSIONS[n][0] for n in names}
                case.update({a: va, b: vb})
                # A pair is possible when some filling of the other dimensions lets both apply.
                for filler in (case, dict(case, encoding="dotted", transport="http")):
                    filler = dict(filler, **{a: va, b: vb})
                    if applies(a, va, filler) and applies(b, vb, filler):
                        pairs.add(((a, va), (b, vb)))
                        break
    return pairs


def random_case(rng):
    return {n: rng.choice(v) for n, v in DIMENSIONS.items()}


def pairwise_cover(seed):
    """A greedy set of cases covering every possible pair at least once."""
    rng = random.Random(seed)
    left = universe()
    cases = []
    while left:
        best, gain = None, -1
        for _ in range(60):
            candidate = random_case(rng)
            # Seed the candidate with one uncovered pair so every round makes progress.
            (a, va), (b, vb) = rng.choice(sorted(left, key=repr))
            candidate.update({a: va, b: vb})
            covered = len(pairs_of(candidate) & left)
            if covered > gain:
                best, gain = candidate, covered
        cases.append(normalized(best))
        left -= pairs_of(best)
    return cases


def sample(seed, count):
    rng = random.Random(seed)
    return [normalized(random_case(rng)) for _ in range(count)]


P, N = ("passed", None), ("not-tested", None)


def F(grade):
    return ("finding", grade)


def truth(d):
    """Every attack's verdict on a server with dimensions `d`, and the run's exit code."""
    readable = d["encoding"] not in OPAQUE
    tagged = readable and d["tag"] != "none"
    # A JWT that signs nothing still has a place for its tag: an empty third segment.
    slot = tagged or (readable and d["encoding"] == "jwt")
    t1 = d["first"] == "ticket"
    http = d["transport"] == "http"
    # The first round that carries a ticket: an attack on the ticket answers the rounds before
    # it honestly. With no ticket in round 1 and one round, no ticket ever comes.
    ticket_round = 1 if t1 else 2
    ticketed = d["rounds"] >= ticket_round
    several = d["rounds"] > ticket_round
    recorded = d["record"] != "none"
    # A replay sent right after the retry it repeats goes to the other replica (they take
    # turns): a record in each replica's own memory does not see it.
    holds = recorded and not (d["record"] == "process" and d["replicas"] == 2)
    atomic = d["record"] == "shared" or (d["record"] == "process" and d["replicas"] == 1)

    v = {"honest": ("completed", None)}
    # Attacks that edit or forge the server's ticket.
    v["tamper-byte"] = F("must") if readable and not tagged else P
    v["tamper-tag"] = (F("must") if d["tag"] == "prefix-checked" else P) if tagged else N
    v["edit-payload"] = (P if tagged else F("must")) if readable else N
    v["drop-tag"] = P if tagged else N
    v["splice-tag"] = P if tagged else N
    v["resign"] = (P if tagged else F("must")) if slot else N
    v["unasked-ticket"] = F("must") if readable and not tagged else P
    # Values in place of a ticket: "none" where the server reads them so, judged as drop-ticket.
    v["hello"] = P
    v["huge"] = P
    v["not-a-string"] = F("note") if not t1 and d["null"] == "absent" else P
    v["empty"] = F("note") if not t1 and d["empty"] == "absent" else P
    # The same claims in other bytes: taken where the server re-reads JSON rather than
    # comparing the bytes its tag covers.
    if not readable:
        v["re-encode"] = N
    elif not tagged or d["encoding"] in ("json", "b64json", "b64url", "b64url-pad", "b64std-nopad"):
        v["re-encode"] = F("note")
    else:
        v["re-encode"] = P
    # Binding.
    if not http:
        v["other-principal"] = N
    elif d["auth"] == "none":
        v["other-principal"] = F("should")
    elif d["auth"] == "bearer":
        v["other-principal"] = N
    else:
        v["other-principal"] = P if d["bind_principal"] else F("should")
    v["too-late"] = P if readable and d["expiry"] == "short" else N
    v["other-arguments"] = P if d["bind_args"] else F("should")
    v["other-tool"] = P if d["bind_tool"] else F("should")
    # The prompt's arguments are filled as its list says ("probe"), not the tool's.
    v["other-method"] = P if d["bind_method"] or d["bind_tool"] or d["bind_args"] else F("should")
    # Single use.
    v["send-twice"] = P if t1 and holds else F("note")
    v["race"] = P if t1 and atomic else F("note")
    # The spent ticket with the next round's answers: refused by its record, or where the
    # ticket says which round it answers.
    v["first-ticket"] = (P if holds or d["bind_round"] else F("note")) if several else N
    v["skip-round"] = (P if d["bind_round"] else F("note")) if several else N
    v["drop-ticket"] = P if t1 else F("note")
    if not ticketed:
        for attack in ["tamper-byte", "tamper-tag", "edit-payload", "drop-tag", "splice-tag", "resign",
                       "unasked-ticket", "re-encode", "too-late", "other-arguments", "other-tool",
                       "other-method", "first-ticket", "skip-round"]:
            v[attack] = N
        if v["other-principal"] == P or (http and d["auth"] == "bearer2"):
            v["other-principal"] = N
    code = 1 if any(x == F("must") for x in v.values()) else 0
    return v, code
