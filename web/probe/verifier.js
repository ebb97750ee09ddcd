// Fix-It's verifier: the learner's source turned into the `open` function the lab's server
// calls (dist/pkg's fixIt), with the helpers it may use. Shared by the Fix-It worker (fixit-worker.js) and
// the tests (tests/e2e/fixit.test.mjs), so both run the learner's code the same way.

/** The course's raw server, as a verifier: it checks the signature and nothing else. It
 *  signs an expiry but never checks it, binds no principal, never looks at the request and
 *  keeps no record of used tickets. */
export const STARTER = `// The course's raw server: it checks the signature, and nothing else.
// Make every attack fail while the honest retry still completes.
function open(ticket, { principal, request, now, used }) {
  const [version, payload, tag] = ticket.split(".");
  if (lab.sign(version + "." + payload) !== tag) {
    return refuse("bad signature");
  }
  return accept();
}
`;

/** What the learner's code can call besides plain JavaScript. `m` is the codec package. */
export function helpers(m) {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  return {
    /** The tag the server's key gives `signed` (a ticket's text before its last dot). */
    sign: (signed) => m.labSign(String(signed)),
    /** base64url text (no padding) to the UTF-8 text it encodes; throws on anything else. */
    decode(part) {
      if (typeof part !== "string" || !/^[A-Za-z0-9_-]*$/.test(part)) throw new Error("not base64url");
      const binary = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
      return decoder.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    },
    /** The digest a ticket's `dig` claim holds for `request` ({method, params}). */
    digest: (request) => m.requestDigest(request.method, request.params ?? {}),
    /** Compares two strings in time that does not depend on where they differ. */
    equal(a, b) {
      if (typeof a !== "string" || typeof b !== "string" || a.length !== b.length) return false;
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
      return diff === 0;
    },
  };
}

/** The learner's `open`, compiled with `lab`, `accept` and `refuse` in scope. Throws an Error
 *  that says what is wrong when the source does not parse or defines no `open`. */
export function compile(source, m) {
  let make;
  try {
    // eslint-disable-next-line no-new-func -- running the learner's own code is the exercise
    make = new Function("lab", "accept", "refuse",
      `"use strict";\n${source}\n;return typeof open === "function" ? open : undefined;`);
  } catch (error) {
    throw new Error(`your code does not parse: ${error.message}`);
  }
  const accept = () => ({ ok: true });
  const refuse = (reason) => ({ ok: false, reason: String(reason ?? "refused") });
  const open = make(helpers(m), accept, refuse);
  if (!open) throw new Error("define function open(ticket, { principal, request, now, used })");
  return open;
}

/** What to check for each attack that got through Fix-It's verifier: the check of
 *  docs/TOKEN.md that stops it, said in the helpers' terms. */
const SIGNATURE = 'check the tag: three parts, "v1" first, and lab.equal(lab.sign(version + "." + payload), tag).';
const SHAPE = "refuse what is not a string of at most 4096 characters in three parts.";
const NONCE = "remember each claims.nonce in used, and refuse one already there.";
const REQUEST = "compare claims.dig with lab.digest(request).";
export const HINTS = {
  honest: "a ticket that passes every check must be accepted: the honest retry has to complete.",
  "tamper-byte": SIGNATURE, "tamper-tag": SIGNATURE, "edit-payload": SIGNATURE, "drop-tag": SIGNATURE,
  "splice-tag": SIGNATURE, resign: SIGNATURE, "unasked-ticket": SIGNATURE, "re-encode": SIGNATURE,
  hello: SHAPE, "not-a-string": SHAPE, huge: SHAPE, empty: SHAPE,
  "other-principal": "read the claims (JSON.parse(lab.decode(payload))) and compare claims.sub with principal.",
  "too-late": "refuse when now is at or past claims.exp.",
  "other-arguments": REQUEST, "other-tool": REQUEST, "other-method": REQUEST,
  "send-twice": NONCE, "first-ticket": NONCE, race: NONCE,
  // The server reads the round from the ticket's data, which the tag covers.
  "skip-round": SIGNATURE,
  // Answers that come without a ticket never reach open: the server ignores them and asks.
  "drop-ticket": "answers without a ticket are the server's to ignore; open never sees them.",
};
