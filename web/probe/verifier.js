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
