// The lab's panels that load when first near (probe, Fix-It, the continue code), as custom
// elements in the page's own DOM (its styles apply):
//
//   <mrtr-probe>   "Test your server": the lab's attacks (the codec package's ProbeBattery, built
//                  from the lab's moves) sent with fetch to a server the learner names.
//   <mrtr-fixit>   Fix-It: the learner writes the verifier; the lab's attacks run against the
//                  lab's server using it, in a Web Worker stopped after TIME_LIMIT_MS.
//   <mrtr-progress> the continue code that carries a learner's progress to another browser.
//   <mrtr-quiz>    the quick check (quiz.js).
//   <mrtr-transcript> "Read your own traffic" (transcript.js): a pasted transcript's rounds
//                  and mistakes, read by the codec package's lintTranscript.
//
// The lab adds this module when one of these panels comes near the window, and the codec
// package (pkg/) loads on the first run: neither is part of a page's first visit. A lesson page can use both:
//   <script type="module" src="https://where-the-lab-is/probe/elements.js"></script>
//   <mrtr-fixit></mrtr-fixit>
import { element, lessonSettings } from "./dom.js";
import { HINTS, STARTER } from "./verifier.js";
import "./quiz.js";
import "./transcript.js";

// The parts' styles, in the page (inside a <mrtr-lab>'s shadow root the lab's sheet has them).
if (!document.querySelector("link[data-mrtr-parts]")) {
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("parts.css", import.meta.url).href });
  link.dataset.mrtrParts = "";
  document.head.append(link);
}

/** How long a Fix-It run may take before its worker is stopped: the battery takes milliseconds. */
export const TIME_LIMIT_MS = 5000;
const here = new URL(".", import.meta.url);
let pkg;
/** The codec package, loaded once, on first use. */
export function codec() {
  pkg ??= import(new URL("../pkg/mrtr_js.js", here).href).then(async (m) => {
    await m.default({ module_or_path: new URL("../pkg/mrtr_js_bg.wasm", here) });
    return m;
  });
  return pkg;
}


/** One verdict in the lab's words: a mark, a state, a sentence, and the spec's words when an
 *  attack got through. The same for a real server and for the learner's verifier. */
export function resultRow(title, result, attack, itSent) {
  const grade = { must: "MUST", should: "SHOULD", note: "note" }[result.grade];
  // The server's answer is quoted after the verdict, so "asked for input" reads as stopped
  // in one row and as got through in another without contradicting itself.
  const [mark, state, said] = {
    completed: ["✓", "pass", "completed: the flow works"],
    passed: ["✓", "pass", `stopped (the server answered: ${result.answered})`],
    finding: ["✗", "fail", `got through (${grade}); the server answered: ${result.answered}`],
    "not-tested": ["·", "skipped", `not tested: ${result.why}`],
    inconclusive: ["?", "skipped", `inconclusive: ${result.why}`],
  }[result.verdict];
  // The honest flow must complete: anything else is the one failure that hides every other.
  const honestFailed = attack?.id === "honest" && result.verdict !== "completed";
  const li = element("li", {}, element("span", { className: "mark", textContent: honestFailed ? "✗" : mark }),
    element("strong", { textContent: title }),
    honestFailed ? `: did not complete, so no attack can be judged. ${String(result.why ?? result.answered ?? "")
      .replace(/^the honest (retry|flow) did not complete:? */, "The server answered: ")}` : `: ${said}`);
  li.dataset.state = honestFailed ? "fail" : state;
  // What the row says, for a machine: the attack, its verdict and grade (as `mrtr probe --json`).
  if (attack?.id) Object.assign(li.dataset, { attack: attack.id, verdict: result.verdict, grade: result.grade ?? "" });
  li.firstChild.setAttribute("aria-hidden", "true");
  if (result.verdict === "finding") {
    const sent = itSent ?? attack?.what;
    if (sent) li.append(element("p", { textContent: `What it sent: ${sent}` }));
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
    // The response among what the stream carries, read by the one event-stream reader
    // `mrtr probe` and `mrtr call` use (mrtr-wire).
    const m = await codec();
    const found = m.eventStreamResponse(text, send.message.id);
    return { status, body: found.response ?? `HTTP ${status}: ${found.why}` };
  }
  try {
    return { status, body: JSON.parse(text) };
  } catch {
    return { status, body: `HTTP ${status} with a body that is not JSON` };
  }
}

/** Drives the battery's current attack from `step` through `post` until it ends. */
async function play(battery, step, url) {
  for (;;) {
    if (step.send) {
      await sleep(step.send.waitMs);
      step = battery.next(await post(url, step.send));
    } else if (step.race) {
      step = battery.nextRace(await Promise.all(step.race.map((send) => post(url, send))));
    } else {
      return;
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
    // Shown when a run starts, before its verdict (a live region that appears with its text
    // is not always read out), and focused when the run ends, so the keyboard carries on from
    // the answer.
    this.summary = element("p", { className: "probe-summary", tabIndex: -1, hidden: true });
    this.summary.setAttribute("role", "status");
    this.append(this.form, this.problem, this.summary, this.results);
    this.button.addEventListener("click", () => this.run());
  }

  value(name) {
    const input = this.form.querySelector(`input[name=${name}]`);
    return input.type === "checkbox" ? input.checked : input.value.trim();
  }

  async run() {
    // aria-disabled, not disabled: a disabled button loses the focus to the page's body.
    if (this.button.getAttribute("aria-disabled") === "true") return;
    this.button.setAttribute("aria-disabled", "true");
    this.button.textContent = "Testing…";
    this.problem.hidden = true;
    this.summary.hidden = false;
    this.summary.textContent = "Testing the server…";
    this.results.replaceChildren();
    const url = this.value("url");
    const setup = { call: this.value("call"), token: this.value("token") || undefined,
      secondToken: this.value("second") || undefined, waitExpiry: this.value("wait") };
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
      // The battery `mrtr probe` runs: the same verdicts, the same conclusion.
      const battery = new m.ProbeBattery({ ...setup, lists });
      const attacks = new Map(m.probeAttacks().map((a) => [a.id, a]));
      let report;
      try {
        for (let next; (next = battery.nextAttack(Date.now())); ) await play(battery, next.step, url);
        report = battery.report();
      } finally {
        battery.free();
      }
      const rows = report.rows.map((row) => resultRow(row.title, row.result, attacks.get(row.attack), row.itSent));
      const c = report.counts;
      const counts = `${c.passed} refused, ${c.notTested + c.inconclusive} not tested or inconclusive.`;
      this.summary.textContent = {
        passed: `Passed: nothing at MUST got through. ${c.should + c.note ? `${c.should} SHOULD, ${c.note} NOTE findings; ` : ""}${counts}`,
        failed: `${c.must + c.should + c.note} got through (${c.must} MUST). ${counts}`,
        inconclusive: `Inconclusive: ${c.reason ?? "nothing could be concluded"}.`,
      }[report.conclusion];
      this.summary.dataset.conclusion = report.conclusion;
      this.results.replaceChildren(...rows);
      this.summary.focus();
    } catch (error) {
      this.summary.hidden = true;
      this.problem.textContent = String(error?.message ?? error);
      this.problem.hidden = false;
      this.problem.focus();
    } finally {
      this.button.removeAttribute("aria-disabled");
      this.button.textContent = "Test the server";
    }
  }
}

/** Where the learner's progress is kept (crates/lab/src/progress.rs: the same keys). */
const PROGRESS_KEY = "mrtr-lab-challenges"; // crates/lab/src/progress.rs DONE_KEY
const CODE_KEY = "mrtr-lab-fixit-code"; // crates/lab/src/progress.rs FIXIT_CODE_KEY
const FIX_IT = "fix-it"; // crates/lab/src/xapi.rs FIX_IT
const stored = (key) => { try { return localStorage.getItem(key); } catch { return null; } };
const store = (key, value) => { try { localStorage.setItem(key, value); } catch { /* storage off */ } };
const done = () => (stored(PROGRESS_KEY) ?? "").split(",").filter(Boolean);
const forget = (key) => { try { localStorage.removeItem(key); } catch { /* storage off */ } };
/** Dispatched (bubbles, composed) when the record changes outside the lab: the lab's
 *  challenges read it again (crates/lab/src/progress.rs), and these elements too. */
const PROGRESS_EVENT = "mrtr-lab:progress"; // crates/lab/src/progress.rs CHANGED_EVENT

/** Where `source` (the body of Fix-It's code box) stops parsing: {message, line, column}
 *  (from 1), or null when it parses. A classic worker reports a syntax error in its script
 *  with the line and column, which `new Function` does not; the code is wrapped in a function
 *  that is never called, so nothing of it runs here. */
export function syntaxError(source) {
  const header = "function open$check(lab, accept, refuse) {\n";
  const boot = URL.createObjectURL(new Blob([`${header}${source}\n}\npostMessage(null);`], { type: "text/javascript" }));
  return new Promise((resolve) => {
    const worker = new Worker(boot);
    const end = (found) => { worker.terminate(); URL.revokeObjectURL(boot); resolve(found); };
    worker.onmessage = () => end(null);
    worker.onerror = (event) => {
      event.preventDefault();
      const message = String(event.message ?? "").replace(/^Uncaught /, "");
      end({ message, line: Math.max(1, (event.lineno || 2) - 1), column: Math.max(1, event.colno || 1) });
    };
  });
}

/** The offset in `text` of `line` and `column` (both from 1). */
function offsetOf(text, line, column) {
  const lines = text.split("\n");
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
  return Math.min(text.length, offset + column - 1);
}

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
    this.code.addEventListener("input", () => this.code.removeAttribute("aria-invalid"));
    this.button = element("button", { type: "button", textContent: "Run the attacks" });
    const reset = element("button", { type: "button", textContent: "Start again from the raw server" });
    // A status shown when a run starts, before its verdict (so the verdict is read out),
    // focused when the run ends.
    this.status = element("p", { className: "fixit-status", id: `${id}-status`, tabIndex: -1, hidden: true });
    this.status.setAttribute("role", "status");
    this.code.setAttribute("aria-describedby", this.status.id);
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
    // The record changed elsewhere (a reset, a continue code): what this shows follows it.
    this.getRootNode().addEventListener(PROGRESS_EVENT, () => this.#reread());
  }

  /** After a reset the previous learner's verifier, verdict and results leave the screen. */
  #reread() {
    if (stored(CODE_KEY) === null) {
      this.code.value = STARTER;
      this.status.hidden = true;
      this.status.textContent = "";
      delete this.status.dataset.state;
      this.results.replaceChildren();
    }
    this.showProgress();
  }

  /** The exercise's record, said so that it never contradicts this run's verdict above it. */
  showProgress(passedNow) {
    const before = done().includes(FIX_IT);
    this.progress.textContent = passedNow === false && before
      ? "An earlier run of yours passed; that pass is kept."
      : before ? "You have passed this exercise." : "Not passed yet.";
  }

  /** Ends a run: the verdict in the status, which takes the focus (the button keeps it while running). */
  #say(text, state) {
    this.status.textContent = text;
    if (state) this.status.dataset.state = state;
    this.button.removeAttribute("aria-disabled");
    this.status.focus();
  }

  async run() {
    // aria-disabled, not disabled: a disabled button loses the focus to the page's body.
    if (this.button.getAttribute("aria-disabled") === "true") return;
    const source = this.code.value;
    store(CODE_KEY, source);
    this.button.setAttribute("aria-disabled", "true");
    this.status.hidden = false;
    this.status.textContent = "Running the attacks…";
    delete this.status.dataset.state;
    this.results.replaceChildren();
    const broken = await syntaxError(source);
    if (broken) {
      this.code.setAttribute("aria-invalid", "true");
      const at = offsetOf(source, broken.line, broken.column);
      this.code.setSelectionRange(at, at + 1);
      this.#say(`Your code does not parse: line ${broken.line}, column ${broken.column}: ${broken.message}.`, "fail");
      this.showProgress(false);
      return;
    }
    const { report, error } = await runInWorker(source);
    if (error) {
      this.#say(`Your verifier: ${error}.`, "fail");
      this.showProgress(false);
      return;
    }
    // Hints hidden for a graded session: by the lab (hide-hints) or the lesson's settings.
    const hints = !this.hasAttribute("hide-hints") && !(lessonSettings().get("hide") ?? "").split(/[\s,]+/).includes("hints");
    this.results.replaceChildren(...report.results.map((row) => {
      const li = resultRow(row.title, row.result, { id: row.attack });
      // A hint where the verifier is wrong: an attack that got through, or the honest retry refused.
      const wrong = row.result.verdict === "finding" || (row.attack === "honest" && !row.ok);
      if (hints && wrong && HINTS[row.attack]) li.append(element("p", { className: "hint", textContent: `Hint: ${HINTS[row.attack]}` }));
      return li;
    }));
    const attacks = report.results.length - 1;
    const through = report.results.filter((row) => row.result.verdict === "finding").length;
    this.#say(report.passed
      ? `Passed: all ${attacks} attacks refused, and the honest flow completed.`
      : report.results[0].ok
        ? `Not yet: ${through} of ${attacks} attacks got through.`
        : `Not yet: your verifier refused the honest retry, which must complete; until it does, no attack can be judged.`,
    report.passed ? "pass" : "fail");
    if (report.passed) {
      if (!done().includes(FIX_IT)) store(PROGRESS_KEY, [...done(), FIX_IT].join(","));
      this.passed();
    }
    this.showProgress(report.passed);
  }

  /** Says the exercise was passed: `mrtr-fixit:passed` (bubbles, composed). The lab turns
   *  it into its challenge event with the xAPI `passed` statement (docs/EMBEDDING.md). */
  passed() {
    this.dispatchEvent(new CustomEvent("mrtr-fixit:passed", { detail: { id: FIX_IT }, bubbles: true, composed: true }));
  }
}

/** Base 32 without the letters read as digits (I, L, O, U). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const checkLetter = (bits) => ALPHABET[(bits * 7 + 11) % 32];
const digitsFor = (ids) => Math.max(1, Math.ceil(ids.length / 5));

/** The continue code of `done` among `ids` (in their order): "MRTR-", which are done as bits in
 *  base 32, and a check letter that catches a mistyped code. */
export function continueCode(ids, done) {
  const bits = ids.reduce((sum, id, i) => sum + (done.includes(id) ? 2 ** i : 0), 0);
  let value = "";
  for (let i = 0, rest = bits; i < digitsFor(ids); i++, rest = Math.floor(rest / 32)) value = ALPHABET[rest % 32] + value;
  return `MRTR-${value}${checkLetter(bits)}`;
}

/** The ids a continue code says are done, or `{error}` saying why it is not one. */
export function readContinueCode(ids, code) {
  const letters = String(code).trim().toUpperCase().replace(/^MRTR-/, "");
  if (letters.length !== digitsFor(ids) + 1) return { error: `a continue code is MRTR- and ${digitsFor(ids) + 1} letters` };
  let bits = 0;
  for (const letter of letters.slice(0, -1)) {
    const digit = ALPHABET.indexOf(letter);
    if (digit < 0) return { error: `"${letter}" is in no continue code` };
    bits = bits * 32 + digit;
  }
  if (bits >= 2 ** ids.length || checkLetter(bits) !== letters.at(-1)) return { error: "that code has a typo: check its letters" };
  return { done: ids.filter((_, i) => Math.floor(bits / 2 ** i) % 2 === 1) };
}

/** "Reset progress" and "Continue in another browser": forgets this browser's progress (the
 *  challenges met, Fix-It's pass and verifier), shows its continue code, and takes another
 *  browser's. The lab places it in the challenges panel with `ids`, the ids a code carries;
 *  after a reset or a code it dispatches `mrtr-lab:progress`. */
class MrtrProgress extends HTMLElement {
  connectedCallback() {
    if (this.code) return;
    const id = `continue-${Math.random().toString(36).slice(2, 8)}`;
    this.code = element("code", { className: "continue-code" });
    this.input = element("input", { id, autocomplete: "off", spellcheck: false });
    // Out of the way (no empty status on the page) until it has something to say.
    this.status = element("p", { role: "status", hidden: true });
    const form = element("form", { className: "continue-form" },
      element("label", { htmlFor: id, textContent: "A code from another browser " }), this.input,
      element("button", { type: "submit", className: "secondary", textContent: "Continue" }));
    const details = element("details", { className: "continue" },
      element("summary", { textContent: "Continue in another browser" }),
      element("p", {}, "Your continue code: ", this.code), form);
    details.addEventListener("toggle", () => this.show());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.take(this.input.value);
    });
    const reset = element("button", { type: "button", className: "secondary", textContent: "Reset progress" });
    reset.addEventListener("click", () => this.reset());
    this.append(element("p", { className: "progress-actions" }, reset), details, this.status);
    this.show();
    for (const name of [PROGRESS_EVENT, "mrtr-fixit:passed"]) this.getRootNode().addEventListener(name, () => this.show());
  }

  /** Everything this browser kept of the learner's progress goes, and every part shows it. */
  reset() {
    forget(PROGRESS_KEY);
    forget(CODE_KEY);
    this.#say("Progress reset: every challenge and Fix-It start again in this browser.");
    this.#changed();
  }

  #say(text) {
    this.status.hidden = false;
    this.status.textContent = text;
  }

  #changed() {
    this.show();
    this.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { bubbles: true, composed: true }));
  }

  get ids() {
    return (this.getAttribute("ids") ?? "").split(",").filter(Boolean);
  }

  show() {
    this.code.textContent = continueCode(this.ids, done());
  }

  take(code) {
    const read = readContinueCode(this.ids, code);
    if (read.error) {
      this.#say(`Not continued: ${read.error}.`);
      return;
    }
    const merged = [...new Set([...done(), ...read.done])];
    store(PROGRESS_KEY, merged.join(","));
    this.input.value = "";
    const challenges = merged.filter((id) => id !== FIX_IT && this.ids.includes(id)).length;
    const fixit = merged.includes(FIX_IT) ? " and Fix-It" : "";
    this.#say(`Continued: ${challenges} challenge${challenges === 1 ? "" : "s"}${fixit} done in this browser now.`);
    this.#changed();
  }
}

customElements.get("mrtr-probe") ?? customElements.define("mrtr-probe", MrtrProbe);
customElements.get("mrtr-progress") ?? customElements.define("mrtr-progress", MrtrProgress);
customElements.get("mrtr-fixit") ?? customElements.define("mrtr-fixit", MrtrFixIt);
