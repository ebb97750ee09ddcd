"""An independent implementation of docs/TOKEN.md (all three modes), in plain Python.

It shares no code with the Rust codec: tests/test_vectors.py checks that both produce and
judge the known-answer vectors in tests/vectors/tickets.json the same way.
"""
import base64
import decimal
import hashlib
import hmac
import json
import struct

ROUND_ONLY_PARAMS = ("_meta", "inputResponses", "requestState")
MAX_LEN = 4096
MAX_TIME_MS = 2 ** 53 - 1
MAX_DEPTH = 127
MIN_KEY_LEN = 32
AEAD_LABEL = b"mrtr-lab/v1e/aead-key"
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
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
    """ECMAScript's Number#toString of the double nearest to x (ties to even)."""
    if isinstance(x, bool):
        raise TypeError
    x = float(x)
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
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


def request_digest(method, params) -> str:
    """Raises ValueError for a request that has no digest."""
    if not isinstance(method, str):
        raise ValueError("the method is not a string")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValueError("params are not an object")
    params = {k: v for k, v in params.items() if k not in ROUND_ONLY_PARAMS}
    text = canonical({"method": method, "params": params})
    return b64e(hashlib.sha256(text.encode("utf-8")).digest())


def _refuse_constant(name):
    raise ValueError(name + " is not JSON")


def _no_duplicates(pairs):
    names = [k for k, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError("a member twice")
    return dict(pairs)


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


def _well_formed(value) -> bool:
    """No lone surrogates (which JSON text can escape but UTF-8 cannot hold), no overflow."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return True
        except UnicodeEncodeError:
            return False
    if isinstance(value, float):
        return value not in (float("inf"), float("-inf"))
    if isinstance(value, list):
        return all(map(_well_formed, value))
    if isinstance(value, dict):
        return all(_well_formed(k) and _well_formed(v) for k, v in value.items())
    return True


def parse_json(text):
    """Strict JSON (RFC 8259): UTF-8, no NaN or Infinity, no duplicate members, numbers that
    fit a double, no lone surrogates, at most MAX_DEPTH levels. Raises ValueError."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_no_duplicates)
    if _depth(value) > MAX_DEPTH or not _well_formed(value):
        raise ValueError("too deep, or not well formed")
    return value


def aead_key(key: bytes) -> bytes:
    return hmac.new(key, AEAD_LABEL, hashlib.sha256).digest()


def wrap(key: bytes, payload: bytes, mode: str, aead_nonce: bytes = b"") -> str:
    if mode == "signed":
        signed = "v1." + b64e(payload)
        return signed + "." + b64e(hmac.new(key, signed.encode(), hashlib.sha256).digest())
    if mode == "unsigned":
        return "v1." + b64e(payload) + "."
    aad = "v1e." + b64e(aead_nonce)
    return aad + "." + b64e(xchacha20poly1305_seal(aead_key(key), aead_nonce, payload, aad.encode()))


def mint(key: bytes, claims: dict, mode: str = "signed", aead_nonce: bytes = b"") -> str:
    return wrap(key, canonical(claims).encode("utf-8"), mode, aead_nonce)


def mint_request(key: bytes, principal, request, data, now_ms, ttl_ms, nonces: bytes, mode="signed",
                 max_len=MAX_LEN):
    """Mints as a server does; None where TOKEN.md says no ticket is minted. `nonces` gives the
    nonce claim (its first 16 bytes) and, sealed, the AEAD nonce (its first 24)."""
    if len(key) < MIN_KEY_LEN or ttl_ms <= 0 or now_ms + ttl_ms > MAX_TIME_MS:
        return None
    try:
        dig = request_digest(request.get("method"), request.get("params"))
    except ValueError:
        return None
    claims = {"data": data, "dig": dig, "exp": now_ms + ttl_ms, "iat": now_ms, "nonce": b64e(nonces[:16]),
              "sub": principal}
    token = mint(key, claims, mode, nonces[:24])
    return token if len(token.encode()) <= max_len else None


def _claims_ok(claims) -> bool:
    if not isinstance(claims, dict) or set(claims) != {"data", "dig", "exp", "iat", "nonce", "sub"}:
        return False
    for name in ("exp", "iat"):
        v = claims[name]
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_TIME_MS:
            return False
    for name, length in (("dig", 43), ("nonce", 22)):
        v = claims[name]
        if not isinstance(v, str) or len(v) != length or any(c not in B64URL for c in v):
            return False
    return isinstance(claims["sub"], str)


def open_ticket(key: bytes, ticket: str, principal: str, now_ms: int, digest: str, used=None, mode="signed",
                max_len=MAX_LEN):
    """Returns (verdict, claims): verdict is "accepted" or the id of the first failed check.

    `used` is a dict nonce -> first use (the replay record), or None for no record.
    """
    raw = ticket.encode("utf-8", "surrogatepass")
    if len(raw) > max_len:
        return "size", None
    parts = ticket.split(".")
    if len(parts) != 3 or parts[0] != ("v1e" if mode == "sealed" else "v1"):
        return "shape", None
    try:
        middle = b64d(parts[1])
        last = b64d(parts[2]) if mode != "unsigned" else b""
    except ValueError:
        return "base64url", None
    if mode == "signed":
        if len(last) != 32:
            return "base64url", None
        want = hmac.new(key, (parts[0] + "." + parts[1]).encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(want, last):
            return "signature", None
        payload = middle
    elif mode == "sealed":
        if len(middle) != 24 or len(last) < 16:
            return "base64url", None
        payload = xchacha20poly1305_open(aead_key(key), middle, last, (parts[0] + "." + parts[1]).encode())
        if payload is None:
            return "signature", None
    else:
        payload = middle
    try:
        claims = parse_json(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return "payload", None
    if not _claims_ok(claims):
        return "payload", None
    if claims["sub"] != principal:
        return "principal", claims
    if now_ms >= claims["exp"]:
        return "expiry", claims
    if claims["dig"] != digest:
        return "request", claims
    if used is not None:
        if claims["nonce"] in used:
            return "single-use", dict(claims, first_used_at=used[claims["nonce"]])
        used[claims["nonce"]] = now_ms
    return "accepted", claims


# XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 over RFC 8439), for sealed mode.

def _rotl(v, c):
    return ((v << c) & 0xffffffff) | (v >> (32 - c))


def _quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & 0xffffffff; x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & 0xffffffff; x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & 0xffffffff; x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & 0xffffffff; x[b] = _rotl(x[b] ^ x[c], 7)


def _rounds(state):
    x = list(state)
    for _ in range(10):
        _quarter(x, 0, 4, 8, 12); _quarter(x, 1, 5, 9, 13); _quarter(x, 2, 6, 10, 14); _quarter(x, 3, 7, 11, 15)
        _quarter(x, 0, 5, 10, 15); _quarter(x, 1, 6, 11, 12); _quarter(x, 2, 7, 8, 13); _quarter(x, 3, 4, 9, 14)
    return x


_SIGMA = struct.unpack("<4I", b"expand 32-byte k")


def _hchacha20(key, nonce16):
    x = _rounds(list(_SIGMA) + list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", nonce16)))
    return struct.pack("<8I", *(x[0:4] + x[12:16]))


def _chacha20_block(key, counter, nonce12):
    state = list(_SIGMA) + list(struct.unpack("<8I", key)) + [counter] + list(struct.unpack("<3I", nonce12))
    return struct.pack("<16I", *[(a + b) & 0xffffffff for a, b in zip(_rounds(state), state)])


def _chacha20_xor(key, counter, nonce12, data):
    out = bytearray()
    for i in range(0, len(data), 64):
        block = _chacha20_block(key, counter + i // 64, nonce12)
        out += bytes(a ^ b for a, b in zip(data[i:i + 64], block))
    return bytes(out)


def _poly1305(key, msg):
    r = int.from_bytes(key[:16], "little") & 0x0ffffffc0ffffffc0ffffffc0fffffff
    s, p, acc = int.from_bytes(key[16:], "little"), (1 << 130) - 5, 0
    for i in range(0, len(msg), 16):
        acc = (acc + int.from_bytes(msg[i:i + 16] + b"\x01", "little")) * r % p
    return ((acc + s) & ((1 << 128) - 1)).to_bytes(16, "little")


def _pad16(b):
    return b"\x00" * (-len(b) % 16)


def _aead_tag(otk, aad, ciphertext):
    mac_data = aad + _pad16(aad) + ciphertext + _pad16(ciphertext) + struct.pack("<QQ", len(aad), len(ciphertext))
    return _poly1305(otk, mac_data)


def _xkeys(key, nonce24):
    subkey = _hchacha20(key, nonce24[:16])
    nonce12 = b"\x00" * 4 + nonce24[16:]
    return subkey, nonce12, _chacha20_block(subkey, 0, nonce12)[:32]


def xchacha20poly1305_seal(key, nonce24, plaintext, aad):
    subkey, nonce12, otk = _xkeys(key, nonce24)
    ciphertext = _chacha20_xor(subkey, 1, nonce12, plaintext)
    return ciphertext + _aead_tag(otk, aad, ciphertext)


def xchacha20poly1305_open(key, nonce24, sealed, aad):
    subkey, nonce12, otk = _xkeys(key, nonce24)
    ciphertext, tag = sealed[:-16], sealed[-16:]
    if not hmac.compare_digest(_aead_tag(otk, aad, ciphertext), tag):
        return None
    return _chacha20_xor(subkey, 1, nonce12, ciphertext)
