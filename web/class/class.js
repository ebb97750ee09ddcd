// The class page's half of a class (`mrtr class serve`): it holds the seat, sends each
// challenge the lab says is met to the class server, which replays the situation before it
// records anything, sends the quick check's answers to be graded there, reports Fix-It's
// pass with the verifier, keeps the lab's xAPI statements there, and clears the lab when the
// instructor resets the room. The lab shows as done only what the server verified.
const SEAT_KEY = "mrtr-class-seat";
const DONE_KEY = "mrtr-lab-challenges"; // crates/lab/src/progress.rs
const FIXIT_KEY = "mrtr-lab-fixit-code";

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
  // Every event of the lab carries its xAPI statement: kept by the class server. The quick
  // check's is the server's own, made when it grades the answers.
  for (const name of ["mrtr-lab:verdict", "mrtr-lab:challenge"]) {
    lab.addEventListener(name, (event) => {
      if (event.detail?.statement) api("/api/statements", { method: "POST", body: JSON.stringify(event.detail.statement) });
    });
  }
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
      // Fix-It's check runs the learner's code in this browser, which the server cannot run
      // again: it keeps the pass as reported, with the verifier for the instructor to read.
      const code = localStorage.getItem(FIXIT_KEY) ?? "";
      const answer = await api("/api/fixit", { method: "POST", body: JSON.stringify({ code }) });
      return answer.ok
        ? say("✓ Fix-It reported to the class server, with your verifier.", "recorded")
        : say(answer.body.error ?? `Fix-It not recorded (HTTP ${answer.status}).`, "refused");
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
  const live = new EventSource(`/api/seat-live?token=${encodeURIComponent(mine.secret)}`);
  live.addEventListener("message", (event) => {
    const change = JSON.parse(event.data);
    if (change.type === "reset") {
      // Everything this browser kept of the lab goes; the page opens again, empty.
      localStorage.setItem(DONE_KEY, "");
      localStorage.removeItem(FIXIT_KEY);
      sessionStorage.setItem("mrtr-class-said", "The instructor reset the room: every challenge starts again.");
      location.reload();
    } else if (change.type === "settings" || change.type === "reload") {
      location.reload();
    }
  });
  const said = sessionStorage.getItem("mrtr-class-said");
  if (said) {
    sessionStorage.removeItem("mrtr-class-said");
    say(said);
  }
}
