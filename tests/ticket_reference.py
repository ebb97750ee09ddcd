"""An independent implementation of docs/TOKEN.md (signed mode), in plain Python.

It shares no code with the Rust codec: tests/test_vectors.py checks that both produce and
judge the known-answer vectors in tests/vectors/tickets.json the same way.
"""
import base64
import decimal
import hashlib
import hmac
import json

ROUND_ONLY_PARAMS = ("_meta", "inputResponses", "requestState")
MAX_LEN = 4096
CHECKS = ["size", "shape", "base64url", "signature", "payload",
          "principal", "expiry", "request", "single-use"]


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64d(text: str) -> bytes:
    """Strict base64url without padding: one accepted encoding per byte string."""
    if "=" in text or len(text) % 4 == 1:
        raise ValueError("not strict base64url")
    if any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in text):
        raise ValueError("not in the alphabet")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64e(data) != text:
        raise ValueError("non-canonical last symbol")
    return data


def _number(x) -> str:
    if isinstance(x, bool):
        raise TypeError
    if isinstance(x, int) and abs(x) <= 2 ** 53:
        return str(x)
    x = float(x)
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    d = decimal.Decimal(repr(abs(x))).normalize()
    _, digits, exp = d.as_tuple()
    digits = "".join(map(str, digits))
    k = len(digits)
    n = exp + k
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("-" if e < 0 else "+") + str(abs(e))
    return sign + out


def _string(s: str) -> str:
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c in "\b\f\n\r\t":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[c])
        elif ord(c) < 0x20:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def canonical(value) -> str:
    """RFC 8785 (JCS)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        names = sorted(value, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(_string(k) + ":" + canonical(value[k]) for k in names) + "}"
    raise TypeError(type(value))


def request_digest(method: str, params) -> str:
    if isinstance(params, dict):
        params = {k: v for k, v in params.items() if k not in ROUND_ONLY_PARAMS}
    text = canonical({"method": method, "params": params})
    return b64e(hashlib.sha256(text.encode()).digest())


def mint(key: bytes, claims: dict) -> str:
    signed = "v1." + b64e(canonical(claims).encode())
    return signed + "." + b64e(hmac.new(key, signed.encode(), hashlib.sha256).digest())


def open_ticket(key: bytes, ticket: str, principal: str, now_ms: int, digest: str, used=None):
    """Returns (verdict, claims): verdict is "accepted" or the id of the first failed check.

    `used` is a dict nonce -> first use (the replay record), or None for no record.
    """
    raw = ticket.encode()
    if len(raw) > MAX_LEN:
        return "size", None
    parts = ticket.split(".")
    if len(parts) != 3 or parts[0] != "v1":
        return "shape", None
    try:
        payload, tag = b64d(parts[1]), b64d(parts[2])
    except ValueError:
        return "base64url", None
    if len(tag) != 32:
        return "base64url", None
    want = hmac.new(key, (parts[0] + "." + parts[1]).encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(want, tag):
        return "signature", None
    try:
        claims = json.loads(payload)
        assert set(claims) == {"data", "dig", "exp", "iat", "nonce", "sub"}
    except (ValueError, AssertionError):
        return "payload", None
    if claims["sub"] != principal:
        return "principal", claims
    if now_ms >= claims["exp"]:
        return "expiry", claims
    if claims["dig"] != digest:
        return "request", claims
    if used is not None:
        if claims["nonce"] in used:
            return "single-use", claims
        used[claims["nonce"]] = now_ms
    return "accepted", claims
