// <mrtr-ticket>: a live requestState ticket for a slide or a lesson, opened in the reader's
// browser by the codec in the lab's own module (mrtr-lab-module.js): a page with labs and
// tickets loads one WebAssembly module.
//
//   <script type="module" src="https://where-the-lab-is/mrtr-ticket-element.js"></script>
//   <mrtr-ticket principal="bob" env="staging"></mrtr-ticket>
//
// It mints a ticket for `principal`'s deploy to `env` (signed, or sealed with
// `mode="sealed"`) and shows its three parts, the decoded payload and every check with its
// sentence. The reader can edit the ticket, change
// one character, present it as someone else, send it later, or spend it on another request.
// After each opening it dispatches `mrtr-ticket:opened` (bubbles, composed) with the
// verdict as `detail`: {ok, failedCheck, message, steps: [{status, sentence}]}.
import { labModule, labStyles } from "./mrtr-lab-module.js";

// A lab key, printed here on purpose: nothing on a lesson page is secret.
const KEY = "mrtr-lab demo key, not a secret!";

let codec;
let widgetSheet;
/** The codec and the widget's own sheet, beside the lab's (shared with <mrtr-lab>). */
function load() {
  widgetSheet ??= Object.assign(new CSSStyleSheet(), {}).replace(WIDGET_CSS);
  return Promise.all([labModule(), labStyles(), widgetSheet]).then(([module, sheet, widget]) => {
    codec = module;
    return [sheet, widget];
  });
}

const WIDGET_CSS = `
.ticket-widget { padding: 1rem; margin: 0; }
.ticket-widget .parts { word-break: break-all; line-height: 1.6; }
.ticket-widget .row { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: center; margin: 0.6rem 0; }
.ticket-widget textarea { width: 100%; min-height: 4.5rem; }
.ticket-widget ol { list-style: none; padding: 0; margin: 0.4rem 0 0; }
.ticket-widget li { padding: 0.15rem 0; }
.ticket-widget li.failed { color: var(--bad); font-weight: 600; }
.ticket-widget li.passed { color: var(--ok); }
.ticket-widget li.not-reached, .ticket-widget li.skipped { color: var(--muted); }
.ticket-widget .role-prefix { color: var(--prefix); }
.ticket-widget :is(.role-payload, .role-nonce) { color: var(--payload); }
.ticket-widget :is(.role-tag, .role-sealed-box) { color: var(--tag); }
.ticket-widget .role-extra { color: var(--bad); }
`;

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

class MrtrTicket extends HTMLElement {
  static observedAttributes = ["principal", "env", "mode"];
  #ui = null;
  #ticket = "";

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
  }

  async connectedCallback() {
    try {
      this.shadowRoot.adoptedStyleSheets = await load();
      if (!this.#ui) this.#build();
      this.#mint();
    } catch (error) {
      this.shadowRoot.replaceChildren(element("p", { role: "alert", textContent: `The ticket could not load: ${error.message}` }));
    }
  }

  attributeChangedCallback() {
    if (this.#ui) this.#mint();
  }

  get ticket() {
    return this.#ticket;
  }

  #build() {
    const ids = (name) => `${name}-${Math.random().toString(36).slice(2, 8)}`;
    const text = element("textarea", { spellcheck: false, className: "mono", id: ids("ticket") });
    text.setAttribute("aria-label", "The ticket, as the client holds it");
    const who = element("select", {}, element("option", { value: "bob", textContent: "bob" }), element("option", { value: "alice", textContent: "alice" }));
    const env = element("select", {}, element("option", { value: "staging", textContent: "deploy to staging" }), element("option", { value: "prod", textContent: "deploy to prod" }));
    const at = element("input", { type: "range", min: 0, max: 300, step: 1, value: 8 });
    const atLabel = element("span", { textContent: "8 s" });
    const flip = element("button", { type: "button", className: "secondary", textContent: "Change one character" });
    const again = element("button", { type: "button", className: "secondary", textContent: "Mint a new ticket" });
    const parts = element("p", { className: "parts mono" });
    const payload = element("pre", { className: "payload" });
    const payloadSummary = element("summary");
    const title = element("h2");
    const checks = element("ol", { className: "checks" });
    const verdict = element("p", { className: "verdict", role: "status" });
    const label = (caption, control) => element("label", {}, `${caption} `, control);
    this.shadowRoot.replaceChildren(
      element("section", { className: "ticket-widget" },
        title,
        parts,
        element("details", {}, element("summary", { textContent: "Edit the ticket" }), text),
        element("div", { className: "row" }, flip, again),
        element("div", { className: "row" }, label("Presented by", who), label("for", env), label("sent at", at), atLabel),
        verdict,
        checks,
        element("details", {}, payloadSummary, payload),
      ),
    );
    this.#ui = { text, who, env, at, atLabel, parts, payload, payloadSummary, title, checks, verdict };
    text.addEventListener("input", () => this.#open(text.value));
    for (const control of [who, env, at]) control.addEventListener("input", () => this.#open(this.#ticket));
    flip.addEventListener("click", () => {
      const dot = this.#ticket.indexOf(".") + 6;
      const c = this.#ticket[dot];
      this.#open(this.#ticket.slice(0, dot) + (c === "A" ? "B" : "A") + this.#ticket.slice(dot + 1));
    });
    again.addEventListener("click", () => this.#mint());
  }

  /** `signed` (the default) or `sealed`: how the server protects its tickets. */
  get #mode() {
    return this.getAttribute("mode") === "sealed" ? "sealed" : "signed";
  }

  #mint() {
    const principal = this.getAttribute("principal") || "bob";
    const env = this.getAttribute("env") === "prod" ? "prod" : "staging";
    const mode = this.#mode;
    this.#ui.who.value = principal === "alice" ? "alice" : "bob";
    this.#ui.env.value = env;
    this.#ui.title.textContent = mode === "sealed" ? "A live sealed ticket" : "A live ticket";
    this.#ui.payloadSummary.textContent = mode === "sealed"
      ? "The payload: sealed, only the server can read it"
      : "The payload anyone can read (signed, not secret)";
    // The codec mints one for the deploy (living 120 s), then opens it.
    this.#open("", true);
  }

  /** Opens `ticket` (a new one, with `mint`) as the controls say, and shows what the checks say. */
  #open(ticket, mint = false) {
    const { text, who, env, at, atLabel, parts, payload, checks, verdict } = this.#ui;
    atLabel.textContent = `${at.value} s`;
    const seen = JSON.parse(codec.ticketOpen(KEY, this.#mode === "sealed", mint, ticket, who.value, env.value, Number(at.value) * 1000));
    this.#ticket = seen.ticket;
    if (text.value !== seen.ticket) text.value = seen.ticket;
    parts.replaceChildren(...seen.parts.map((part, i) =>
      element("span", { className: `role-${part.role}`, title: part.role, textContent: (i ? "." : "") + part.text })));
    payload.textContent = seen.payload ? JSON.stringify(seen.payload, null, 2)
      : seen.sealed ? "Encrypted (XChaCha20-Poly1305): without the server's key there is nothing to read."
      : seen.problems.join("\n");
    checks.replaceChildren(...seen.steps.map((step) => element("li", { className: step.status, textContent: step.sentence })));
    verdict.textContent = seen.ok
      ? "Every check passed: the server would finish the deploy."
      : `Refused by the ${seen.failedCheck} check: ${seen.message ?? ""}`;
    const { ok, failedCheck, message, steps } = seen;
    this.dispatchEvent(new CustomEvent("mrtr-ticket:opened", { detail: { ok, failedCheck, message, steps }, bubbles: true, composed: true }));
  }
}

if (!customElements.get("mrtr-ticket")) customElements.define("mrtr-ticket", MrtrTicket);
export { MrtrTicket };
