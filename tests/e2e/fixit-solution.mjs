// A verifier for Fix-It that stops every attack, for the tests that need one passed.

/** Every check of docs/TOKEN.md, in JavaScript: what the exercise is looking for. */
export const SOLUTION = `function open(ticket, { principal, request, now, used }) {
  if (typeof ticket !== "string" || ticket.length > 4096) return refuse("not a ticket");
  const parts = ticket.split(".");
  if (parts.length !== 3 || parts[0] !== "v1") return refuse("malformed");
  const [version, payload, tag] = parts;
  if (!lab.equal(lab.sign(version + "." + payload), tag)) return refuse("bad signature");
  const claims = JSON.parse(lab.decode(payload));
  if (claims.sub !== principal) return refuse("issued to a different principal");
  if (!(now < claims.exp)) return refuse("expired");
  if (claims.dig !== lab.digest(request)) return refuse("belongs to a different request");
  if (used.has(claims.nonce)) return refuse("already used");
  used.add(claims.nonce);
  return accept();
}`;
