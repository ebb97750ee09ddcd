// <mrtr-quiz>: the lab's quick check, five questions with an explanation after each answer
// and a link into the scenario that shows it. The lab places it in its "Quick check" panel
// and loads it with the other panels' parts when the panel comes near (elements.js), so its
// questions weigh nothing on a page's first visit.
//
// The questions are here; which answer is right, why, and where to see it are in
// quiz-key.json beside this file, fetched only when the quiz explains its answers. A graded
// session never fetches it, so the page does not hold the answers: `mrtr class serve` grades
// them (and refuses to serve the key while the class hides solutions).
//
// Attributes: lab-page (where a question's link points), hide-solutions (a graded session:
// each answer is recorded without saying whether it is right, and no score is shown).
// Events (bubbles, composed), once every question has an answer and on each change after:
// `mrtr-quiz:answered` with {score, max, answers}; in a graded session `mrtr-quiz:submitted` with
// {answers, max} instead (each answer the index of the option chosen, from 0), to be graded
// where the key is. `mrtr-lab:open` with {situation} when a question's link is followed,
// which the lab opens in place.

import { element } from "./dom.js";

/** The questions: what is asked and three answers (quiz-key.json: the right one, why, where to see it). */
export const QUESTIONS = [
  {
    ask: "Why must requestState be integrity-protected?",
    options: ["Because it is large","Because it comes back from the client, so it is attacker-controlled input","Because the spec requires all strings to be signed"],
  },
  {
    ask: "Which request can NOT return input_required?",
    options: ["tools/call","resources/read","tools/list"],
  },
  {
    ask: "alice replays a valid, unexpired ticket that was minted for bob. What stops her?",
    options: ["Nothing: the signature is valid","The ticket is bound to the principal, and alice's token says she is alice","The server remembers that the ticket belongs to bob"],
  },
  {
    ask: "bob sends his valid retry twice within the expiry. With only signature, principal, expiry and digest checks, what happens?",
    options: ["The second one fails the signature check","Both are accepted; preventing a second use needs server-side tracking","The second one fails the expiry check"],
  },
  {
    ask: "What may a client do with requestState?",
    options: ["Decode it to show the user what is pending","Echo it back exactly on the retry, nothing else","Merge it with the previous one"],
  },
];


/** quiz-key.json: for each question, {right, why, see: {situation, text}}. */
function fetchKey() {
  return fetch(new URL("quiz-key.json", import.meta.url)).then((answer) => {
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    return answer.json();
  });
}

class MrtrQuiz extends HTMLElement {
  connectedCallback() {
    if (this.answers) return;
    this.answers = QUESTIONS.map(() => undefined);
    this.key = this.#graded ? null : fetchKey().catch((e) => ({ error: e.message }));
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
    this.showScore(null);
  }

  get #graded() {
    return this.hasAttribute("hide-solutions");
  }

  async choose(q, o) {
    this.answers[q] = o;
    const said = this.explanations[q];
    said.hidden = false;
    const all = this.answers.every((a) => a !== undefined);
    if (this.#graded) {
      said.textContent = "Answer recorded.";
      this.showScore(null);
      const detail = { answers: [...this.answers], max: QUESTIONS.length };
      if (all) this.dispatchEvent(new CustomEvent("mrtr-quiz:submitted", { detail, bubbles: true, composed: true }));
      return;
    }
    const key = await this.key;
    if (this.answers[q] !== o) return; // changed again while the key came
    if (key.error) {
      said.textContent = `Answer kept; the answers could not be loaded to check it (${key.error}).`;
      return this.showScore(null);
    }
    const { right, why, see } = key[q];
    said.dataset.state = o === right ? "right" : "wrong";
    const page = this.getAttribute("lab-page") ?? "";
    const link = element("a", { href: `${page}#${see.situation}`, textContent: see.text });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.dispatchEvent(new CustomEvent("mrtr-lab:open", { detail: { situation: see.situation }, bubbles: true, composed: true }));
    });
    said.replaceChildren(element("strong", { textContent: o === right ? "Right. " : "Not quite. " }), why, " ", link);
    const score = this.answers.filter((a, i) => a === key[i].right).length;
    this.showScore(score);
    if (all) {
      const detail = { score, max: QUESTIONS.length, answers: [...this.answers] };
      this.dispatchEvent(new CustomEvent("mrtr-quiz:answered", { detail, bubbles: true, composed: true }));
    }
  }

  /** `score`: the right answers, or null where they are not known here. */
  showScore(score) {
    const answered = this.answers.filter((a) => a !== undefined).length;
    this.score.textContent = score === null
      ? `${answered} of ${QUESTIONS.length} answered`
      : `Score: ${score} of ${QUESTIONS.length} (${answered} answered)`;
  }
}

customElements.get("mrtr-quiz") ?? customElements.define("mrtr-quiz", MrtrQuiz);
