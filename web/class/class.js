// The class page's half of a class (`mrtr class serve`): it holds the seat, sends each
// challenge the lab says is met to the class server, which replays the situation before it
// records anything, sends the quick check's answers to be graded there, sends Fix-It's
// verifier to be run there again, keeps the lab's moves as xAPI statements there (the statements
// that grade are the server's own), and clears the lab when the instructor resets the room.
// The lab shows as done only what the server verified. Secrets travel in the Authorization
// header only, the event stream too.
const SEAT_KEY = "mrtr-class-seat";
const DONE_KEY = "mrtr-lab-challenges"; // crates/lab/src/progress.rs DONE_KEY
const FIXIT_KEY = "mrtr-lab-fixit-code"; // crates/lab/src/progress.rs FIXIT_CODE_KEY

/** The seat this browser holds, or null. */
export function seat() {
  try {
    const kept = JSON.parse(localStorage.getItem(SEAT_KEY));
    return kept && typeof kept.secret === "string" ? kept : null;
  } catch {
    return null;
  }
}

/** Keeps the seat the class server gave (`POST /api/join`'s answer). */
export function keep(body) {
  localStorage.setItem(SEAT_KEY, JSON.stringify({ seat: body.seat, secret: body.secret, name: body.name, class: body.class }));
}

async function api(path, options = {}) {
  const headers = { "content-type": "application/json", authorization: `Bearer ${seat()?.secret ?? ""}` };
  try {
    const answer = await fetch(path, { ...options, headers });
    let body = {};
    try { body = await answer.json(); } catch { /* an empty or non-JSON answer */ }
    return { ok: answer.ok, status: answer.status, body };
  } catch (e) {
    return { ok: false, status: 0, body: { error: `the class server did not answer (${e.message})` } };
  }
}

/** Follows the class server's event stream at `path` with `secret` in the Authorization header
 *  (an EventSource cannot send one, and an address's query ends up in access logs): `heard`
 *  gets each change; the stream is opened again after a pause when it ends, until `refused`
 *  (a 401 or 403) says the secret holds nothing any more, or the server says another page
 *  of the same seat took its place (`replaced`, which `heard` gets too: opening it again
 *  would end that page's). */
export async function listen(path, secret, heard, refused) {
  let replaced = false;
  while (!replaced) {
    try {
      const answer = await fetch(path, { headers: { authorization: `Bearer ${secret}`, accept: "text/event-stream" } });
      if (answer.status === 401 || answer.status === 403) return refused(answer.status);
      if (answer.ok && answer.body) {
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
          let end;
          while ((end = text.indexOf("\n\n")) >= 0) {
            const data = text.slice(0, end).split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim());
            text = text.slice(end + 2);
            if (!data.length) continue;
            const change = JSON.parse(data.join("\n"));
            replaced ||= change.type === "replaced";
            heard(change);
          }
        }
      }
    } catch { /* the server is away: try again */ }
    if (!replaced) await new Promise((again) => setTimeout(again, 2000));
  }
}

/** Runs the class page around the lab's element (`<div id="lab" data-attributes>`). */
export async function start(place) {
  const mine = seat();
  if (!mine) return location.replace("/");
  const me = await api("/api/me");
  if (me.status === 401) {
    localStorage.removeItem(SEAT_KEY);
    return location.replace("/");
  }
  const status = document.getElementById("status");
  const say = (text, state = "") => { status.textContent = text; status.dataset.state = state; };
  if (!me.ok) return say(me.body.error ?? "The class server did not answer: reload to try again.", "refused");
  const total = me.body.challenges.length;
  const done = new Set(me.body.done);
  const show = () => {
    document.getElementById("progress").textContent = `${done.size} of ${total} challenges verified`;
  };
  document.getElementById("who").textContent = me.body.name;
  show();
  // The lab shows as done what the server verified, and nothing else (no continue code, no
  // other learner's record in this browser).
  localStorage.setItem(DONE_KEY, [...done].join(","));
  const lab = document.createElement("mrtr-lab");
  lab.setAttribute("picker", "");
  for (const [name, value] of Object.entries(JSON.parse(place.dataset.attributes))) lab.setAttribute(name, value);
  place.replaceWith(lab);
  // Each move's xAPI statement is kept by the class server. What grades (a challenge met,
  // the quick check, a move that got through) is the server's own word, written from its
  // records: the page sends the move and its outcome, without `success`.
  lab.addEventListener("mrtr-lab:verdict", (event) => {
    const statement = event.detail?.statement;
    if (!statement) return;
    delete statement.result?.success;
    api("/api/statements", { method: "POST", body: JSON.stringify(statement) });
  });
  // The quick check: answered (the lab knows the key) or submitted (a class hiding solutions).
  for (const name of ["mrtr-quiz:answered", "mrtr-quiz:submitted"]) {
    lab.addEventListener(name, async (event) => {
      const answer = await api("/api/quiz", { method: "POST", body: JSON.stringify({ answers: event.detail.answers }) });
      if (!answer.ok) return say(answer.body.error ?? `Quick check not recorded (HTTP ${answer.status}).`, "refused");
      say(answer.body.score === null
        ? "✓ Quick check recorded by the class server."
        : `✓ Quick check recorded by the class server: ${answer.body.score} of ${answer.body.max}.`, "recorded");
    });
  }
  lab.addEventListener("mrtr-lab:challenge", async (event) => {
    const { id, goal } = event.detail;
    if (id === "fix-it") {
      // The class server runs the verifier again, in a sandbox, against the same attacks:
      // only a pass it sees counts.
      const code = localStorage.getItem(FIXIT_KEY) ?? "";
      say("The class server is running your verifier…");
      const answer = await api("/api/fixit", { method: "POST", body: JSON.stringify({ code }) });
      if (!answer.ok) return say(answer.body.error ?? `Fix-It not recorded (HTTP ${answer.status}).`, "refused");
      return answer.body.passed
        ? say("✓ Fix-It verified by the class server: every attack refused.", "recorded")
        : say(`The class server ran your verifier: not passed (${answer.body.letThrough}).`, "refused");
    }
    // The situation that met it, as the element's share link says it: the evidence.
    const situation = lab.situation;
    say(`Checking “${goal}”…`);
    const answer = await api("/api/claim", { method: "POST", body: JSON.stringify({ challenge: id, situation }) });
    if (answer.ok) {
      done.add(id);
      show();
      say(`✓ Verified by the class server: ${goal}`, "recorded");
    } else {
      say(answer.body.error ?? `Not recorded (HTTP ${answer.status}).`, "refused");
    }
  });
  // The room emptied (a reset) or this seat removed: everything this browser kept of the
  // lab goes, and the student joins again.
  const leave = (why) => {
    localStorage.setItem(DONE_KEY, "");
    localStorage.removeItem(FIXIT_KEY);
    localStorage.removeItem(SEAT_KEY);
    sessionStorage.setItem("mrtr-class-said", why);
    location.replace("/");
  };
  listen("/api/seat-live", mine.secret, (change) => {
    if (change.type === "reset") leave("The instructor reset the room: join again, and every challenge starts again.");
    else if (change.type === "removed") leave("The instructor removed your seat: join again.");
    else if (change.type === "settings" || change.type === "reload") location.reload();
    else if (change.type === "replaced") say("This class is open in a newer tab: reload here to follow it here.");
  }, () => leave("Your seat is no longer in the class: join again."));
}

/** What the class server said before the page moved here, once (the join page shows it). */
export function said() {
  const text = sessionStorage.getItem("mrtr-class-said");
  sessionStorage.removeItem("mrtr-class-said");
  return text;
}
