// <mrtr-transcript>: "Read your own traffic". Paste or drop a transcript (a HAR file from the
// browser's devtools, mrtr serve's log, mrtr call's output, an HTTP transcript, JSON-RPC
// lines) and see each operation's rounds, a sequence diagram of each, the tickets read as far
// as their shape allows, and what breaks the MRTR page, in its words. The reading is
// mrtr-lint's (`lintTranscript` in the JS package, which loads on the first reading); nothing
// leaves the page. `mrtr lint FILE` prints the same in a terminal.

import { element } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attributes = {}, text) => {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
};

/** The longest file read (64 MiB): mrtr-lint refuses more. */
const MAX_BYTES = 64 << 20;

/** How many of each the page draws; the rest are counted (`mrtr lint FILE` lists them all),
 *  so a big capture paints in one frame. */
const SHOWN = { operations: 20, tickets: 100, findings: 200 };

/** A line saying how many of `all` are not shown, or nothing. */
const more = (all, shown, what) => all > shown
  ? [element("p", { className: "muted", textContent: `… and ${all - shown} more ${what}: mrtr lint FILE lists them all.` })] : [];

/** A size in the words people read. */
const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** mrtr-lint in a Web Worker, started on the first reading and kept: `lint(text)` resolves
 *  with the view of its report the page draws. The worker starts from a blob that imports
 *  the module, so a lesson page on another origin can run it too. */
function linter() {
  const module = new URL("lint-worker.js", import.meta.url).href;
  const boot = URL.createObjectURL(new Blob([`import ${JSON.stringify(module)};`], { type: "text/javascript" }));
  const worker = new Worker(boot, { type: "module" });
  const waiting = new Map();
  let next = 0;
  worker.onmessage = ({ data }) => {
    const { resolve, reject } = waiting.get(data.id) ?? {};
    waiting.delete(data.id);
    if (data.error !== undefined) reject?.(new Error(data.error));
    else resolve?.(data.view);
  };
  worker.onerror = (event) => {
    for (const { reject } of waiting.values()) reject(new Error(event.message || "the reader failed"));
    waiting.clear();
  };
  return (text) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, text, shown: SHOWN });
  });
}

/** A short transcript with one mistake, for a first look. */
export const EXAMPLE = [
  'C->S {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"}}}',
  'S->C {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"Deploy to prod?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}}}}}},"requestState":"v1.eyJwIjp7ImVudiI6InByb2QifSwiZXhwIjoxNzk2MDQ4MDIzfQ.crKcNkiSPuUbKLw0Doo40QvdcdsMzDzQEgBvVUGRdl4"}}',
  'C->S {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"prod"},"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}},"requestState":"v1.eyJwIjp7ImVudiI6InByb2QifSwiZXhwIjoxNzk2MDQ4MDIzfQ.crKcNkiSPuUbKLw0Doo40QvdcdsMzDzQEgBvVUGRdl4"}}',
  'S->C {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"deployed to prod"}]}}',
].join("\n");

/** A sequence diagram of one operation: the client and the server, an arrow each way a round. */
export function sequence(op, words, title) {
  const rows = op.rounds.length * 2;
  const [width, top, step] = [620, 34, 30];
  const height = top + rows * step + 10;
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "lint-sequence" });
  drawing.append(svg("title", {}, title));
  const [client, server] = [70, width - 70];
  for (const [x, name] of [[client, "Client"], [server, "Server"]]) {
    drawing.append(svg("text", { x, y: 18, "text-anchor": "middle", class: "lifeline-name" }, name));
    drawing.append(svg("line", { x1: x, y1: 24, x2: x, y2: height - 4, class: "lifeline" }));
  }
  op.rounds.forEach((round, r) => {
    const [sent, ended] = words.rounds[r];
    const arrows = [[client, server, `${op.method} ${op.target ?? ""}: ${sent}`, "request"], [server, client, ended, round.end.kind]];
    arrows.forEach(([from, to, label, kind], k) => {
      const y = top + (r * 2 + k) * step + 12;
      const head = to > from ? -8 : 8;
      drawing.append(svg("line", { x1: from, y1: y, x2: to + head / 4, y2: y, class: `arrow ${kind}` }));
      drawing.append(svg("path", { d: `M${to} ${y} l${head} -4 v8 z`, class: `arrow-head ${kind}` }));
      drawing.append(svg("text", { x: (client + server) / 2, y: y - 5, "text-anchor": "middle", class: "arrow-label" }, label));
    });
  });
  return element("div", { className: "scroll-x", tabIndex: 0, role: "group", ariaLabel: `Sequence diagram: ${title}` }, drawing);
}

/** The report on the page, from the worker's view of it. */
function render(view) {
  const parts = [];
  for (const { o, op, words } of view.asked) {
    const title = words.heading.replace(/^./, (c) => c.toUpperCase());
    const rows = op.rounds.map((round, r) => element("tr", {},
      element("td", { textContent: String(r + 1) }),
      element("td", { textContent: String(round.line) }),
      ...words.rounds[r].map((said) => element("td", { textContent: said }))));
    parts.push(element("h3", { textContent: title }), sequence(op, words, title),
      element("div", { className: "scroll-x", tabIndex: 0, role: "group", ariaLabel: `Rounds of operation ${o + 1}` },
        element("table", {}, element("thead", {}, element("tr", {}, ...["Round", "Line", "Sent", "Answered"].map((h) => element("th", { scope: "col", textContent: h })))),
          element("tbody", {}, ...rows))));
  }
  parts.push(...more(view.askedCount, view.asked.length, "operations that asked"));
  if (view.tickets.length) {
    parts.push(element("h3", { textContent: "Tickets" }), element("ul", { className: "lint-tickets" }, ...view.tickets.map((t) => {
      const read = t.claims === null ? "cannot be read without the server's key"
        : `reads ${JSON.stringify(t.claims)}${t.expires_at_ms === null ? ", and says no expiry" : `, expires ${new Date(t.expires_at_ms).toISOString()}`}`;
      return element("li", {}, element("strong", { textContent: t.name }), `: ${t.shape}; ${read}`);
    })));
  }
  parts.push(...more(view.ticketCount, view.tickets.length, "tickets"));
  if (view.findings.length) {
    parts.push(element("h3", { textContent: "What breaks the MRTR page" }), element("ul", { className: "probe-results lint-findings" }, ...view.findings.map((f) => {
      const li = element("li", {}, element("span", { className: "mark", textContent: "✗" }),
        element("strong", { textContent: `${f.grade.toUpperCase()}, line ${f.line} (${f.side}, operation ${f.operation})` }), `: ${f.says}`,
        element("blockquote", { textContent: f.spec }));
      li.dataset.state = f.grade === "note" ? "skipped" : "fail";
      li.firstChild.setAttribute("aria-hidden", "true");
      return li;
    })));
  }
  parts.push(...more(view.findingCount, view.findings.length, "findings"));
  if (view.transcript.unreadable?.length) {
    parts.push(element("h3", { textContent: "Could not be read" }), element("ul", { className: "lint-unreadable" },
      ...view.transcript.unreadable.map((s) => element("li", { textContent: `line ${s.line}: ${s.why}` }))));
  }
  if (view.transcript.skipped_count) {
    parts.push(element("details", {}, element("summary", { textContent: `${view.transcript.skipped_count} lines were not messages` }),
      element("ul", {}, ...view.transcript.skipped.map((s) => element("li", { textContent: `line ${s.line}: ${s.why}` })))));
  }
  return parts;
}

class MrtrTranscript extends HTMLElement {
  connectedCallback() {
    if (this.text) return;
    const id = `transcript-${Math.random().toString(36).slice(2, 8)}`;
    this.text = element("textarea", { id, spellcheck: false, rows: 8, className: "lint-input",
      placeholder: "C->S {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",…}" });
    this.file = element("input", { type: "file", id: `${id}-file`, accept: ".har,.json,.jsonl,.txt,.log" });
    const read = element("button", { type: "button", textContent: "Read it" });
    const example = element("button", { type: "button", className: "secondary", textContent: "Try an example" });
    this.status = element("p", { className: "lint-status", tabIndex: -1, hidden: true });
    this.status.setAttribute("role", "status");
    this.output = element("div", { className: "lint-output" });
    this.append(
      element("p", {}, "A HAR file (devtools: Network, \"Save all as HAR\"), mrtr serve's log, mrtr call's output, an HTTP transcript or JSON-RPC lines. It is read here, in your browser: nothing is sent anywhere."),
      element("label", { htmlFor: id, textContent: "The transcript" }), this.text,
      element("div", { className: "controls" }, element("label", { htmlFor: `${id}-file`, textContent: "Or a file " }), this.file, read, example),
      this.status, this.output);
    read.addEventListener("click", () => this.read(this.text.value));
    example.addEventListener("click", () => { this.text.value = EXAMPLE; this.read(EXAMPLE); });
    this.file.addEventListener("change", () => this.readFile(this.file.files[0]));
    this.addEventListener("dragover", (event) => event.preventDefault());
    this.addEventListener("drop", (event) => {
      event.preventDefault();
      this.readFile(event.dataTransfer?.files?.[0]);
    });
  }

  async readFile(file) {
    if (!file) return;
    if (file.size > MAX_BYTES) return this.say(`Not read: ${file.name} is ${megabytes(file.size)}; the most read is ${megabytes(MAX_BYTES)}.`);
    const text = await file.text();
    // A long text in a text box costs the page a long layout: its start is shown, the whole read.
    this.text.value = text.length > 20_000 ? `${text.slice(0, 20_000)}\n… (${file.name}: shown cut; read whole)` : text;
    this.read(text);
  }

  say(text) {
    this.status.hidden = false;
    this.status.textContent = text;
    this.status.focus();
  }

  async read(text) {
    this.status.hidden = false;
    this.status.textContent = "Reading…";
    this.output.replaceChildren();
    try {
      this.lint ??= linter();
      const view = await this.lint(String(text));
      this.output.replaceChildren(...render(view));
      this.say(view.headline.replace(/^./, (c) => c.toUpperCase()) + ".");
      // The findings shown (the first SHOWN.findings), and how many there are.
      const detail = { headline: view.headline, findings: view.findings, findingCount: view.findingCount };
      this.dispatchEvent(new CustomEvent("mrtr-transcript:read", { detail, bubbles: true, composed: true }));
    } catch (error) {
      this.say(`Not read: ${error?.message ?? error}`);
    }
  }
}

customElements.get("mrtr-transcript") ?? customElements.define("mrtr-transcript", MrtrTranscript);
