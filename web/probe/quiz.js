// <mrtr-quiz>: the lab's quick check, five questions with an explanation after each answer
// and a link into the scenario that shows it. The lab places it in its "Quick check" panel
// and loads it with the other panels' parts when the panel comes near (elements.js), so its
// questions weigh nothing on a page's first visit.
//
// Attributes: lab-page (where a question's link points), hide-solutions (a graded session:
// each answer is recorded without saying whether it is right, and the score is not shown).
// Events (bubbles, composed): `mrtr-quiz:answered` with {score, max} once every question has
// an answer, and on each change after; `mrtr-lab:open` with {situation} when a question's link
// is followed, which the lab opens in place.

import { element } from "./dom.js";

/** The questions: what is asked, three answers, the right one, why, and where to see it. */
export const QUESTIONS = [
  {
    ask: "Why must requestState be integrity-protected?",
    options: ["Because it is large", "Because it comes back from the client, so it is attacker-controlled input", "Because the spec requires all strings to be signed"],
    right: 1,
    why: "The server trusts requestState to rebuild its work. Unsigned, a client could rewrite it (staging to prod, 190.00 to 1.00) and the server would act on the edit.",
    see: ["s=careless", "Watch a careless server charge 1.00"],
  },
  {
    ask: "Which request can NOT return input_required?",
    options: ["tools/call", "resources/read", "tools/list"],
    right: 2,
    why: "Only tools/call, prompts/get and resources/read may return it.",
    see: ["s=prompt-and-resource", "See tools/list refuse a ticket"],
  },
  {
    ask: "alice replays a valid, unexpired ticket that was minted for bob. What stops her?",
    options: ["Nothing: the signature is valid", "The ticket is bound to the principal, and alice's token says she is alice", "The server remembers that the ticket belongs to bob"],
    right: 1,
    why: "The server remembers nothing. The binding to bob is inside the signed ticket, and the identity on the retry comes from alice's bearer token, so the principal check fails.",
    see: ["s=deploy&m=other-principal", "Replay bob's ticket as alice"],
  },
  {
    ask: "bob sends his valid retry twice within the expiry. With only signature, principal, expiry and digest checks, what happens?",
    options: ["The second one fails the signature check", "Both are accepted; preventing a second use needs server-side tracking", "The second one fails the expiry check"],
    right: 1,
    why: "Nothing in a signed ticket changes when it is used. Where one-time redemption matters, the server MUST enforce it itself, for example by recording used ticket nonces until they expire.",
    see: ["s=voucher&m=honest,send-twice&r=off", "Redeem a voucher twice without the record"],
  },
  {
    ask: "What may a client do with requestState?",
    options: ["Decode it to show the user what is pending", "Echo it back exactly on the retry, nothing else", "Merge it with the previous one"],
    right: 1,
    why: "Clients MUST echo it exactly and MUST NOT inspect, parse or modify it. It is the server's private context, even when it happens to be readable. In a flow of several rounds, each round brings a new one: echo the latest.",
    see: ["s=book-seat", "Send round 1's ticket in round 2"],
  },
];


class MrtrQuiz extends HTMLElement {
  connectedCallback() {
    if (this.answers) return;
    this.answers = QUESTIONS.map(() => undefined);
    const group = Math.random().toString(36).slice(2, 8);
    this.explanations = QUESTIONS.map(() => element("p", { className: "explain", hidden: true }));
    this.score = element("p", { className: "score" });
    this.score.setAttribute("aria-live", "polite");
    const list = element("ol", { className: "questions" }, ...QUESTIONS.map((question, q) => {
      const options = question.options.map((option, o) => {
        const input = element("input", { type: "radio", name: `q${q}-${group}` });
        input.addEventListener("change", () => this.choose(q, o));
        return element("label", {}, input, option);
      });
      return element("li", { className: "question" },
        element("fieldset", {}, element("legend", { textContent: question.ask }), ...options), this.explanations[q]);
    }));
    this.append(list, this.score);
    this.showScore();
  }

  get #graded() {
    return this.hasAttribute("hide-solutions");
  }

  choose(q, o) {
    this.answers[q] = o;
    const question = QUESTIONS[q];
    const said = this.explanations[q];
    said.hidden = false;
    if (this.#graded) {
      said.textContent = "Answer recorded.";
    } else {
      const right = o === question.right;
      said.dataset.state = right ? "right" : "wrong";
      const [situation, text] = question.see;
      const page = this.getAttribute("lab-page") ?? "";
      const link = element("a", { href: `${page}#${situation}`, textContent: text });
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.dispatchEvent(new CustomEvent("mrtr-lab:open", { detail: { situation }, bubbles: true, composed: true }));
      });
      said.replaceChildren(element("strong", { textContent: right ? "Right. " : "Not quite. " }), question.why, " ", link);
    }
    this.showScore();
    if (this.answers.every((a) => a !== undefined)) {
      const detail = { score: this.#right(), max: QUESTIONS.length };
      this.dispatchEvent(new CustomEvent("mrtr-quiz:answered", { detail, bubbles: true, composed: true }));
    }
  }

  #right() {
    return this.answers.filter((a, q) => a === QUESTIONS[q].right).length;
  }

  showScore() {
    const answered = this.answers.filter((a) => a !== undefined).length;
    this.score.textContent = this.#graded
      ? `${answered} of ${QUESTIONS.length} answered`
      : `Score: ${this.#right()} of ${QUESTIONS.length} (${answered} answered)`;
  }
}

customElements.get("mrtr-quiz") ?? customElements.define("mrtr-quiz", MrtrQuiz);
