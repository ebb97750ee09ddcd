// The lab's two probe panels as custom elements, in the page's own DOM (its styles apply):
//
//   <mrtr-probe>   "Test your server": the lab's attacks (the codec package's ProbeRun, built
//                  from the lab's moves) sent with fetch to a server the learner names.
//   <mrtr-fixit>   Fix-It: the learner writes the verifier; the lab's attacks run against the
//                  lab's server using it, in a Web Worker stopped after TIME_LIMIT_MS.
//
// The lab's page adds this module after its first render, and the codec package (pkg/) loads
// on the first run: neither is part of the page's first load. A lesson page can use both:
//   <script type="module" src="https://where-the-lab-is/probe/elements.js"></script>
//   <mrtr-fixit></mrtr-fixit>
import { HINTS, STARTER } from "./verifier.js";

/** How long a Fix-It run may take before its worker is stopped: the battery takes milliseconds. */
export const TIME_LIMIT_MS = 5000;
const here = new URL(".", import.meta.url);
let pkg;
/** The codec package, loaded once, on first use. */
function codec() {
  pkg ??= import(new URL("../pkg/mrtr_js.js", here).href).then(async (m) => {
    await m.default({ module_or_path: new URL("../pkg/mrtr_js_bg.wasm", here) });
    return m;
  });
  return pkg;
}

const element = (tag, props = {}, ...children) => {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
};

/** One verdict in the lab's words: a mark, a state, a sentence, and the spec's words when an
 *  attack got through. The same for a real server and for the learner's verifier. */
export function resultRow(title, result, attack) {
  const grade = { must: "MUST", should: "SHOULD", note: "note" }[result.grade];
  const [mark, state, said] = {
    completed: ["✓", "pass", "completed: the flow works"],
    passed: ["✓", "pass", result.answered],
    finding: ["✗", "fail", `got through (${grade}): ${result.answered}`],
    "not-tested": ["·", "skipped", `not tested: ${result.why}`],
    inconclusive: ["?", "skipped", `inconclusive: ${result.why}`],
  }[result.verdict];
  const li = element("li", {}, element("span", { className: "mark", textContent: mark }),
    element("strong", { textContent: title }), `: ${said}`);
  li.dataset.state = state;
  li.firstChild.setAttribute("aria-hidden", "true");
  if (result.verdict === "finding") {
    if (attack?.what) li.append(element("p", { textContent: `What it sent: ${attack.what}` }));
    if (attack?.fix) li.append(element("p", { textContent: `To fix: ${attack.fix}` }));
    li.append(element("blockquote", { textContent: result.spec }));
  }
  return li;
}

/** A labelled input. */
function field(label, name, value, type = "text") {
  const input = element("input", { name, type, value });
  if (type === "checkbox") {
    input.checked = value;
    return element("label", {}, input, ` ${label}`);
  }
  return element("label", {}, `${label} `, input);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The JSON-RPC response to request `id` in an event stream: notifications and the server's
 *  own requests are passed over. */
export function fromEventStream(text, id) {
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event.split(/\r?\n/).filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, "")).join("\n");
    if (!data) continue;
    try {
      const message = JSON.parse(data);
      if (message && !("method" in message) && ("result" in message || "error" in message) && (message.id === id || message.id == null)) return message;
    } catch { /* not JSON: passed over */ }
  }
  return undefined;
}

const loopback = (host) => /^(localhost|127\.|\[::1\])/.test(host);
const privateHost = (host) => loopback(host) || /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host);

/** Why the browser could not reach `url` from this page, and what to do about it. */
export async function whyUnreachable(url) {
  let target;
  try { target = new URL(url); } catch { return `"${url}" is not a URL`; }
  const page = globalThis.location ?? { protocol: "http:", hostname: "localhost", origin: "null" };
  if (page.protocol === "https:" && target.protocol === "http:" && !loopback(target.host)) {
    return `mixed content: this page is https and the server is plain http, which the browser blocks. Serve the server over https, or open the lab over http.`;
  }
  if (!globalThis.isSecureContext && target.protocol === "https:") {
    return `this page is not a secure context (http, not localhost): open the lab over https or on localhost.`;
  }
  if (!privateHost(page.hostname) && privateHost(target.hostname)) {
    return `private network access: a public page may not call ${target.host} unless its CORS preflight answers Access-Control-Allow-Private-Network: true. Open the lab on localhost instead.`;
  }
  try {
    await fetch(url, { method: "POST", mode: "no-cors", body: "{}" });
  } catch {
    return `nothing answers at ${target.host}: is the server running, and on this address?`;
  }
  return `the server answers but refuses this page (CORS): its preflight (OPTIONS) must allow the origin ${page.origin}, POST, and the headers authorization, content-type, mcp-protocol-version, mcp-method and mcp-name.`;
}

/** POSTs one line as a 2026-07-28 client does: `{status, body}` (the response's JSON, read from
 *  an event stream too), or a string saying why nothing came. */
async function post(url, send) {
  let response;
  try {
    response = await fetch(url, { method: "POST", headers: send.headers, body: JSON.stringify(send.message) });
  } catch {
    return await whyUnreachable(url);
  }
  const text = await response.text();
  const status = response.status;
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    return { status, body: fromEventStream(text, send.message.id) ?? `HTTP ${status}: the event stream ended without the response` };
  }
  try {
    return { status, body: JSON.parse(text) };
  } catch {
    return { status, body: `HTTP ${status} with a body that is not JSON` };
  }
}

/** Plays one attack through `post`: its verdict. */
async function play(run, url) {
  let step = run.first();
  for (;;) {
    if (step.send) {
      await sleep(step.send.waitMs);
      step = run.next(await post(url, step.send));
    } else if (step.race) {
      step = run.nextRace(await Promise.all(step.race.map((send) => post(url, send))));
    } else {
      return step.done;
    }
  }
}

class MrtrProbe extends HTMLElement {
  connectedCallback() {
    if (this.form) return;
    this.form = element("div", { className: "probe-form" },
      field("Server", "url", this.getAttribute("url") ?? "http://127.0.0.1:3077/mcp", "url"),
      field("Call that asks", "call", this.getAttribute("call") ?? 'tools/call deploy {"env":"staging"}'),
      field("Bearer token", "token", "bob-token"),
      field("Another principal's token", "second", "alice-token"),
      field("Wait out a ticket's lifetime", "wait", false, "checkbox"),
      this.button = element("button", { type: "button", textContent: "Test the server" }));
    this.problem = element("p", { className: "problem", role: "alert", hidden: true, tabIndex: -1 });
    this.results = element("ul", { className: "probe-results" });
    this.results.setAttribute("aria-live", "polite");
    this.summary = element("p", { className: "probe-summary", hidden: true, tabIndex: -1 });
    this.summary.setAttribute("role", "status");
    this.append(this.form, this.problem, this.summary, this.results);
    this.button.addEventListener("click", () => this.run());
  }

  value(name) {
    const input = this.form.querySelector(`input[name=${name}]`);
    return input.type === "checkbox" ? input.checked : input.value.trim();
  }

  async run() {
    this.button.disabled = true;
    this.button.textContent = "Testing…";
    this.problem.hidden = this.summary.hidden = true;
    this.results.replaceChildren();
    const url = this.value("url");
    const setup = { call: this.value("call"), token: this.value("token") || undefined,
      secondToken: this.value("second") || undefined, waitExpiry: this.value("wait") };
    const counts = { passed: 0, finding: 0, must: 0, other: 0 };
    const rows = [];
    try {
      const m = await codec();
      // The server's own lists choose the other targets (another tool, method, arguments).
      const lists = {};
      for (const { method, send } of m.probeListRequests()) {
        if (setup.token) send.headers.authorization = `Bearer ${setup.token}`;
        const reply = await post(url, send);
        if (typeof reply === "string") throw new Error(reply);
        lists[method.split("/")[0]] = typeof reply.body === "string" ? undefined : reply.body;
      }
      let honest;
      for (const attack of m.probeAttacks()) {
        let result;
        if (honest && honest.verdict !== "completed") {
          result = { verdict: "inconclusive", why: `the honest flow did not complete (${honest.why ?? honest.verdict})` };
        } else {
          const run = new m.ProbeRun(attack.id, { ...setup, lists, nowMs: Date.now() });
          result = await play(run, url);
          run.free();
        }
        honest ??= result;
        if (result.verdict === "passed") counts.passed += 1;
        else if (result.verdict === "finding") { counts.finding += 1; counts.must += result.grade === "must"; }
        else if (result.verdict !== "completed") counts.other += 1;
        rows.push(resultRow(attack.title, result, attack));
      }
      this.summary.textContent = honest?.verdict !== "completed"
        ? `Inconclusive: the honest flow did not complete (${honest?.why ?? "no answer"}), so no attack can say anything.`
        : counts.finding === 0
          ? `Passed: no attack got through. ${counts.passed} refused, ${counts.other} not tested or inconclusive.`
          : `${counts.finding} got through (${counts.must} MUST). ${counts.passed} refused, ${counts.other} not tested or inconclusive.`;
      this.summary.hidden = false;
      this.results.replaceChildren(...rows);
      this.summary.focus();
    } catch (error) {
      this.problem.textContent = String(error?.message ?? error);
      this.problem.hidden = false;
      this.problem.focus();
    } finally {
      this.button.disabled = false;
      this.button.textContent = "Test the server";
    }
  }
}

/** Where the challenges' progress is kept (crates/lab/src/components/challenges.rs). */
const PROGRESS_KEY = "mrtr-lab-challenges";
const CODE_KEY = "mrtr-lab-fixit-code";
const FIX_IT = "fix-it";
const stored = (key) => { try { return localStorage.getItem(key); } catch { return null; } };
const store = (key, value) => { try { localStorage.setItem(key, value); } catch { /* storage off */ } };
const done = () => (stored(PROGRESS_KEY) ?? "").split(",").filter(Boolean);

/** Runs `source` in a fresh worker: {report} or {error}; {error, stopped} after the limit.
 *  The worker starts from a blob that imports the module, so a lesson page on another
 *  origin can run it too. */
function runInWorker(source) {
  const module = new URL("fixit-worker.js", here).href;
  const boot = URL.createObjectURL(new Blob([`import ${JSON.stringify(module)};`], { type: "text/javascript" }));
  return new Promise((resolve) => {
    const worker = new Worker(boot, { type: "module" });
    const end = (data) => { clearTimeout(timer); worker.terminate(); URL.revokeObjectURL(boot); resolve(data); };
    const timer = setTimeout(() => end({
      error: `stopped after ${TIME_LIMIT_MS / 1000} s: your verifier did not answer (an endless loop?)`, stopped: true }),
    TIME_LIMIT_MS);
    worker.onmessage = ({ data }) => end(data);
    worker.onerror = (event) => end({ error: event.message || "the worker failed" });
    worker.postMessage({ source });
  });
}

class MrtrFixIt extends HTMLElement {
  connectedCallback() {
    if (this.code) return;
    const id = `fixit-code-${Math.random().toString(36).slice(2, 8)}`;
    this.code = element("textarea", { id, spellcheck: false, value: stored(CODE_KEY) ?? STARTER, rows: 14 });
    this.code.setAttribute("autocapitalize", "off");
    this.button = element("button", { type: "button", textContent: "Run the attacks" });
    const reset = element("button", { type: "button", textContent: "Start again from the raw server" });
    this.status = element("p", { className: "fixit-status" });
    this.status.setAttribute("aria-live", "polite");
    this.progress = element("p", { className: "muted" });
    this.results = element("ul", { className: "probe-results" });
    this.append(
      element("p", {}, "The lab's server mints its tickets with the codec (signed, bound to bob, to the call and to a 120 s expiry) but opens them with your ",
        element("code", { textContent: "open(ticket, {principal, request, now, used})" }),
        ". The lab's attacks run against it, each on a fresh two-round flow of book_seat. You pass when every attack is refused and the honest retry still completes."),
      element("p", {}, "Answer ", element("code", { textContent: "accept()" }), " or ", element("code", { textContent: 'refuse("why")' }),
        " (a throw refuses). ", element("code", { textContent: "request" }), " is {method, params}; ",
        element("code", { textContent: "now" }), " the server's clock in ms; ", element("code", { textContent: "used" }),
        " a Set that lives as long as the server. Helpers: ", element("code", { textContent: "lab.sign(text)" }),
        " (the tag the server's key gives \"v1.\" + payload), ", element("code", { textContent: "lab.decode(part)" }),
        " (base64url to text), ", element("code", { textContent: "lab.digest(request)" }), " (what the dig claim holds), ",
        element("code", { textContent: "lab.equal(a, b)" }), " (constant-time). Claims: data, dig, exp, iat, nonce, sub."),
      element("label", { htmlFor: id, textContent: "Your verifier (JavaScript)" }), this.code,
      element("div", { className: "controls" }, this.button, reset), this.status, this.progress, this.results);
    this.button.addEventListener("click", () => this.run());
    reset.addEventListener("click", () => { this.code.value = STARTER; store(CODE_KEY, STARTER); });
    this.showProgress();
  }

  showProgress() {
    this.progress.textContent = done().includes(FIX_IT) ? "You have passed this exercise." : "Not passed yet.";
  }

  async run() {
    const source = this.code.value;
    store(CODE_KEY, source);
    this.button.disabled = true;
    this.status.textContent = "Running the attacks…";
    delete this.status.dataset.state;
    this.results.replaceChildren();
    const { report, error } = await runInWorker(source);
    this.button.disabled = false;
    if (error) {
      this.status.textContent = `Your verifier: ${error}.`;
      this.status.dataset.state = "fail";
      return;
    }
    this.results.replaceChildren(...report.results.map((row) => {
      const li = resultRow(row.title, row.result);
      if (!row.ok && HINTS[row.attack]) li.append(element("p", { className: "hint", textContent: `Hint: ${HINTS[row.attack]}` }));
      return li;
    }));
    const attacks = report.results.length - 1;
    const through = report.results.filter((row) => !row.ok).length;
    this.status.dataset.state = report.passed ? "pass" : "fail";
    this.status.textContent = report.passed
      ? `Passed: all ${attacks} attacks refused, and the honest flow completed.`
      : report.results[0].ok
        ? `Not yet: ${through} of ${attacks} attacks got through.`
        : "Not yet: the honest retry did not complete, and a verifier must let it through.";
    if (report.passed) {
      if (!done().includes(FIX_IT)) store(PROGRESS_KEY, [...done(), FIX_IT].join(","));
      this.passed();
    }
    this.showProgress();
  }

  /** Says the exercise was passed: `mrtr-fixit:passed` (bubbles, composed). The lab turns
   *  it into its challenge event with the xAPI `passed` statement (docs/EMBEDDING.md). */
  passed() {
    this.dispatchEvent(new CustomEvent("mrtr-fixit:passed", { detail: { id: FIX_IT }, bubbles: true, composed: true }));
  }
}

customElements.get("mrtr-probe") ?? customElements.define("mrtr-probe", MrtrProbe);
customElements.get("mrtr-fixit") ?? customElements.define("mrtr-fixit", MrtrFixIt);
