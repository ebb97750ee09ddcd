// <mrtr-lab>: the lab inside a lesson page. One include registers the element:
//
//   <script type="module" src="https://where-the-lab-is/mrtr-lab-element.js"></script>
//   <mrtr-lab scenario="misuse-ticket" moves="tamper,alice" clock="20" theme="auto" compact></mrtr-lab>
//
// Every element on the page (and <mrtr-ticket>) shares one WebAssembly module and one
// stylesheet, loaded once (mrtr-lab-module.js).
// Each lives in its own shadow root, so the page's styles and the lab's do not meet.
//
// Attributes (each also a property that reflects it): situation, scenario, moves, clock,
// record, signing, reply, step, theme, compact, picker, activity, and for a class hide
// ("hints", "solutions"), scenarios (those offered) and class-code (in every xAPI statement),
// which a lesson can set once for all its labs with <meta name="mrtr-lab" content="hide=…&
// scenarios=…&class=…">; the lesson's links to the whole lab then carry it. A lab whose
// scenario the class does not offer says so instead of showing another. Changing one (other
// than theme) opens the lab again in the situation the attributes now describe.
//
// Events (bubbles, composed; `detail` documented in README.md, "Embed the lab"):
//   mrtr-lab:ready, mrtr-lab:verdict, mrtr-lab:step, mrtr-lab:challenge, mrtr-lab:quiz
//
// Methods: play(move) plays a move ("tamper", "alice", "honest", …) and returns whether it
// was played (false for an unknown move, or in a scenario without moves); reset() forgets
// the learner's progress in this browser and opens every lab on the page again; `situation`
// is the share fragment of what the lab shows now.
import { labModule, labStyles } from "./mrtr-lab-module.js";
import { lessonSettings } from "./probe/dom.js";

const here = new URL(".", import.meta.url);
const SITUATION = ["situation", "scenario", "moves", "clock", "record", "signing", "reply", "step", "activity"];
// What an instructor sets, per element or for the whole lesson (a <meta name="mrtr-lab">):
// the attribute's name, and the option's.
const CLASS = [["hide", "hide"], ["scenarios", "scenarios"], ["class-code", "class"]];

// Attributes that are on or off: which panels the lab shows.
const FLAGS = ["compact", "picker"];

/** The module and the stylesheet, fetched once for every element on the page. */
const load = () => Promise.all([labModule(), labStyles()]);

/** The lesson's links to the whole lab (this directory, or its index.html) carry the lesson's
 *  class settings, as each lab's own links do: a graded lesson's link opens a graded lab. */
function carrySettings() {
  const lesson = lessonSettings();
  for (const link of document.querySelectorAll("a[href]")) {
    const to = new URL(link.href);
    if (to.origin !== here.origin || ![here.pathname, `${here.pathname}index.html`].includes(to.pathname)) continue;
    const before = to.href;
    for (const [, option] of CLASS) {
      if (lesson.has(option)) to.searchParams.set(option, lesson.get(option));
    }
    if (to.href !== before) link.href = to.href;
  }
}

class MrtrLab extends HTMLElement {
  static observedAttributes = [...SITUATION, ...FLAGS, ...CLASS.map(([attribute]) => attribute)];

  #mounted = null;
  #pending = false;

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
  }

  connectedCallback() {
    this.#schedule();
  }

  disconnectedCallback() {
    this.#mounted?.unmount();
    this.#mounted = null;
  }

  attributeChangedCallback(_name, before, now) {
    if (before !== now && this.isConnected) this.#schedule();
  }

  /** Plays a move by id or alias; false when the lab is not ready or knows no such move. */
  play(move) {
    return this.#mounted ? this.#mounted.play(String(move)) : false;
  }

  /** Forgets the learner's progress in this browser (challenges, Fix-It), and opens every lab
   *  on the page again: for a shared computer between two groups. */
  async reset() {
    const module = await labModule();
    module.resetProgress();
    for (const lab of document.querySelectorAll("mrtr-lab")) lab.#schedule();
  }

  /** The situation now, as the part after `#` of the lab's share link. */
  get situation() {
    return this.#mounted ? this.#mounted.situation() : (this.getAttribute("situation") ?? "");
  }
  set situation(value) {
    this.setAttribute("situation", value);
  }

  /** Several attribute changes in one task open the lab once. */
  #schedule() {
    if (this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#mount().catch((error) => this.#fail(error));
    });
  }

  async #mount() {
    const [module, sheet] = await load();
    if (!this.isConnected) return;
    this.shadowRoot.adoptedStyleSheets = [sheet];
    this.#mounted?.unmount();
    const root = document.createElement("div");
    root.className = "mrtr-root";
    this.shadowRoot.replaceChildren(root);
    const options = { labPage: here.href };
    for (const name of FLAGS) options[name] = this.hasAttribute(name);
    for (const name of SITUATION) {
      if (this.hasAttribute(name)) options[name] = this.getAttribute(name);
    }
    const lesson = lessonSettings();
    const settings = new URLSearchParams();
    for (const [attribute, option] of CLASS) {
      const value = this.getAttribute(attribute) ?? lesson.get(option);
      if (value !== null) options[option] = value, settings.set(option, value);
    }
    // The lab's links to the whole lab carry what the instructor set.
    if (settings.size) options.labPage += `?${settings}`;
    options.activity ??= location.href.split("#")[0] + (this.id ? `#${this.id}` : "");
    const mounted = module.mountLab(root, options, (type, detail) => this.#emit(type, detail));
    this.#mounted = mounted;
    // Ready once the lab is drawn, which is when it has a situation to say (a frame or two
    // after mounting), with the class code it carries, if any.
    let frames = 0;
    const ready = () => {
      if (this.#mounted !== mounted) return;
      const situation = mounted.situation();
      if (!situation && frames++ < 120) return setTimeout(ready, 16);
      this.#emit("mrtr-lab:ready", { type: "mrtr-lab:ready", situation, classCode: options.class ?? null });
    };
    ready();
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  #fail(error) {
    const note = document.createElement("p");
    note.setAttribute("role", "alert");
    note.textContent = `The lab could not start: ${error.message ?? error}`;
    this.shadowRoot.replaceChildren(note);
    console.error(error);
  }
}

for (const name of SITUATION.concat("theme")) {
  if (name === "situation") continue;
  Object.defineProperty(MrtrLab.prototype, name, {
    get() {
      return this.getAttribute(name);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    },
  });
}

for (const name of FLAGS) {
  Object.defineProperty(MrtrLab.prototype, name, {
    get() {
      return this.hasAttribute(name);
    },
    set(value) {
      this.toggleAttribute(name, Boolean(value));
    },
  });
}

if (!customElements.get("mrtr-lab")) {
  customElements.define("mrtr-lab", MrtrLab);
  carrySettings();
}
export { MrtrLab };
