// The instructor's live view of a class: students × challenges (kept current by the class
// server's event stream), the quick check as the server graded it, Fix-It as the server found
// each verifier when it ran it (with the code), what stopped the class most, the settings,
// CSV, removing a seat, the reset.
// The token is the address's fragment (`/instructor#token=…`, printed at start), sent in the
// Authorization header only, the event stream's too.
import { listen } from "/class.js";

const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
const said = document.getElementById("said");

async function api(path, options = {}) {
  const answer = await fetch(path, { ...options, headers: { "content-type": "application/json", authorization: `Bearer ${token}` } });
  let body = {};
  try { body = await answer.json(); } catch { /* not JSON */ }
  if (!answer.ok) said.textContent = body.error ?? `HTTP ${answer.status}`;
  return { ok: answer.ok, body };
}

function cell(row, text, done) {
  const td = row.insertCell();
  td.textContent = text;
  if (done) td.dataset.done = "";
  return td;
}

function draw(view) {
  said.textContent = "";
  const head = document.querySelector("#students thead");
  head.replaceChildren();
  const top = head.insertRow();
  for (const title of ["Student", ...view.challenges, "Met", "Quick check", "Fix-It", "Seat"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    top.append(th);
  }
  const body = document.querySelector("#students tbody");
  body.replaceChildren();
  for (const student of view.students) {
    const row = body.insertRow();
    row.dataset.seat = student.seat;
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = student.name;
    row.append(name);
    for (const id of view.challenges) {
      const at = student.done[id];
      cell(row, at ? `✓ ${new Date(at).toLocaleTimeString()}` : "", Boolean(at)).dataset.challenge = id;
    }
    cell(row, String(Object.keys(student.done).length));
    // In the colour of done only when every answer is right: 4 of 5 is an answer, not a pass.
    const full = Boolean(student.quiz) && student.quiz.score === student.quiz.max;
    cell(row, student.quiz ? `${student.quiz.score} of ${student.quiz.max}` : "", full).dataset.quiz = "";
    const fixit = cell(row, "", Boolean(student.fixit?.passed));
    fixit.dataset.fixit = "";
    if (student.fixit) {
      // As the class server found the verifier when it ran it; the code they wrote, to read.
      const code = document.createElement("details");
      const summary = document.createElement("summary");
      const at = new Date(student.fixit.atMs).toLocaleTimeString();
      summary.textContent = student.fixit.passed ? `✓ verified ${at}` : `✗ lets through: ${student.fixit.letThrough}`;
      const pre = document.createElement("pre");
      pre.textContent = student.fixit.code;
      code.append(summary, pre);
      fixit.append(code);
    }
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove ${student.name}'s seat`);
    remove.addEventListener("click", async () => {
      if ((await api("/api/remove", { method: "POST", body: JSON.stringify({ seat: student.seat }) })).ok) refresh();
    });
    row.insertCell().append(remove);
  }
  const parked = view.parked ?? [];
  document.getElementById("parked-section").hidden = parked.length === 0;
  document.getElementById("parked").replaceChildren(...parked.map((p) => {
    const li = document.createElement("li");
    const who = view.students.find((s) => s.seat === p.seat)?.name ?? p.seat;
    li.textContent = `${who}: ${p.why} (statement ${p.id})`;
    return li;
  }));
  const mistakes = document.getElementById("mistakes");
  mistakes.replaceChildren(...view.mistakes.map((m) => {
    const li = document.createElement("li");
    li.textContent = `${m.challenge}: ${m.reason} (${m.count})`;
    return li;
  }));
  if (!view.mistakes.length) mistakes.innerHTML = "<li>Nothing refused yet.</li>";
  const settings = new URLSearchParams(view.settings);
  const form = document.getElementById("settings");
  const hidden = (settings.get("hide") ?? "").split(",");
  form.hints.checked = hidden.includes("hints");
  form.solutions.checked = hidden.includes("solutions");
  form.scenarios.value = settings.get("scenarios") ?? "";
  document.getElementById("live").textContent = `(${view.students.length} joined)`;
}

async function refresh() {
  const view = await api("/api/class");
  if (view.ok) draw(view.body);
}

document.getElementById("csv").addEventListener("click", async (event) => {
  event.preventDefault();
  const answer = await fetch("/api/class.csv", { headers: { authorization: `Bearer ${token}` } });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await answer.blob());
  link.download = (answer.headers.get("content-disposition") ?? "").split('filename="')[1]?.replace('"', "") ?? "progress.csv";
  link.click();
});
document.getElementById("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const hide = [form.hints.checked && "hints", form.solutions.checked && "solutions"].filter(Boolean).join(",");
  const parts = [hide && `hide=${hide}`, form.scenarios.value.trim() && `scenarios=${form.scenarios.value.trim()}`].filter(Boolean);
  if ((await api("/api/settings", { method: "POST", body: JSON.stringify({ settings: parts.join("&") }) })).ok) refresh();
});
document.getElementById("send-parked").addEventListener("click", async () => {
  if ((await api("/api/parked", { method: "POST", body: "{}" })).ok) refresh();
});
document.getElementById("reset").addEventListener("submit", async (event) => {
  event.preventDefault();
  if ((await api("/api/reset", { method: "POST", body: JSON.stringify({ confirm: event.target.confirm.value }) })).ok) {
    event.target.reset();
    refresh();
  }
});

await refresh();
// Each change redraws from the server's records: what the table shows is what is recorded.
let pending = null;
listen("/api/live", token, (change) => {
  if (change.type === "replaced") {
    said.textContent = "This view is open in newer tabs: reload here to follow the class here.";
    return;
  }
  clearTimeout(pending);
  pending = setTimeout(refresh, 100);
}, () => { said.textContent = "This token does not sign in to the class (a new one was made?): open the address printed with it."; });
