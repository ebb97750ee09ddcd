// What an instructor sets for a class (docs/EMBEDDING.md, "For a class"): hints and solutions
// hidden, the scenarios offered, a class code in every xAPI statement, as element attributes,
// one lesson-level <meta>, and the iframe's query; progress reset, and carried to another
// browser by a continue code.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../../scripts/static-server.mjs";
import { axeViolations, equal, noProblems, ok, watchConsole } from "./assert.mjs";

/** A lesson page (its own origin) with `head` and `body`, recording every lab event. */
async function lesson(ctx, name, head, body, context) {
  const dir = join(ctx.root, "target", "e2e-class");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${name}</title>${head}</head><body>
    <main><h1>A graded lesson</h1>
    <script type="module" src="${ctx.baseUrl}mrtr-lab-element.js"></script>
    ${body}</main>
    <script>
      window.events = [];
      for (const type of ["mrtr-lab:ready", "mrtr-lab:verdict", "mrtr-lab:challenge", "mrtr-lab:quiz", "mrtr-quiz:submitted"]) {
        document.addEventListener(type, (e) => window.events.push({ type, detail: e.detail }));
      }
    </script></body></html>`);
  const { server, url } = await serve(dir);
  context ??= await ctx.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  watchConsole(page);
  page.fetched = [];
  page.on("request", (request) => page.fetched.push(request.url()));
  await page.goto(`${url}${name}.html`);
  await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:ready"));
  page.done = async () => { await context.close(); server.close(); };
  return page;
}

const VOUCHER = "One-time voucher and the replay record";

const lastEvent = (page, type) => page.evaluate((type) => window.events.filter((e) => e.type === type).at(-1)?.detail, type);

/** Answers the quick check inside `lab`: four right, one wrong. */
async function answerQuiz(lab) {
  await lab.locator("mrtr-quiz").scrollIntoViewIfNeeded();
  const questions = lab.locator(".question");
  const picks = [1, 2, 1, 1, 0];
  for (let q = 0; q < 5; q++) await questions.nth(q).getByRole("radio").nth(picks[q]).check();
}

export const tests = {
  async "a graded lab: no hints, no solutions, only the scenarios offered, the class code in every statement"(ctx) {
    const page = await lesson(ctx, "graded", "", `
      <mrtr-lab id="lab" picker hide="hints solutions" scenarios="voucher, deploy"
        class-code="CS-101" activity="https://course.example/mrtr"></mrtr-lab>`);
    const lab = page.locator("#lab");
    // Ready once drawn: with the situation it opened on and the class code.
    const ready = await page.evaluate(() => window.events.find((e) => e.type === "mrtr-lab:ready").detail);
    ok(ready.situation.startsWith("s=voucher"), ready.situation);
    equal(ready.classCode, "CS-101");
    // No scenario named: the lab opens on the first scenario offered.
    const picker = lab.getByRole("navigation", { name: "Scenarios" });
    equal(await picker.locator('button[aria-pressed="true"]').textContent(), VOUCHER, "opened on the voucher");
    const offered = await picker.getByRole("button").allTextContents();
    equal(offered.length, 2, `the picker offers two scenarios: ${offered.join(", ")}`);
    // The challenges of those two scenarios, without hints or giving up.
    const challenges = lab.getByRole("region", { name: /Challenges/ }).or(lab.locator("section.challenges"));
    equal(await lab.locator("[data-challenge]").evaluateAll((items) => items.map((i) => i.dataset.challenge)), ["redeem-twice", "staging-to-prod"]);
    ok((await challenges.locator("h2").textContent()).includes("0 of 2 done"), await challenges.locator("h2").textContent());
    equal(await lab.getByRole("button", { name: "Show a hint" }).count(), 0, "no hints");
    equal(await lab.getByRole("button", { name: "Give up" }).count(), 0, "no solutions");
    // A verdict carries the class code, in the detail and the statement's context.
    equal(await page.evaluate(() => document.getElementById("lab").play("honest")), true);
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:verdict"));
    const verdict = await lastEvent(page, "mrtr-lab:verdict");
    equal(verdict.classCode, "CS-101");
    equal(verdict.statement.context.extensions["urn:mrtr-lab:class-code"], "CS-101");
    // The quick check records answers and says nothing of right or wrong: the page never
    // loads the key, and the answers leave in an event, to be graded where the key is.
    await answerQuiz(lab);
    equal(await lab.locator(".explain").allTextContents(), Array(5).fill("Answer recorded."));
    equal(await lab.locator(".score").textContent(), "5 of 5 answered");
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-quiz:submitted"));
    equal(await lastEvent(page, "mrtr-quiz:submitted"), { answers: [1, 2, 1, 1, 0], max: 5 });
    equal(await lastEvent(page, "mrtr-lab:quiz"), undefined, "no score: the page cannot know it");
    equal(page.fetched.filter((url) => url.includes("quiz-key")), [], "the key never fetched");
    // Fix-It: an attack that gets through has no hint under it.
    await lab.locator("mrtr-fixit").scrollIntoViewIfNeeded();
    await lab.getByRole("button", { name: "Run the attacks" }).click();
    await page.waitForFunction(() => document.querySelector("#lab").shadowRoot.querySelector(".fixit-status")?.dataset.state);
    ok((await lab.locator('.probe-results li[data-state="fail"]').count()) > 0, "the starter lets attacks through");
    equal(await lab.locator(".probe-results .hint").count(), 0, "and no hint says how to stop them");
    await ctx.screenshot(page, "class-graded");
    equal(await axeViolations(page, ctx.root), [], "axe, graded");
    noProblems(page);
    await page.done();
  },

  async "every link to the whole lab carries the class's settings; a lab the class does not offer says so"(ctx) {
    const settings = "hide=hints,solutions&scenarios=voucher,deploy&class=CS-101";
    const page = await lesson(ctx, "links", `<meta name="mrtr-lab" content="${settings}">`, `
      <p><a id="whole" href="${ctx.baseUrl}">Open the whole lab</a> · <a id="elsewhere" href="https://example.org/">elsewhere</a></p>
      <mrtr-lab id="rounds" scenario="book-seat" moves="first-ticket" compact></mrtr-lab>
      <mrtr-lab id="deploy" scenario="deploy" compact></mrtr-lab>`);
    await page.waitForFunction(() => window.events.filter((e) => e.type === "mrtr-lab:ready").length === 2);
    // The lesson's "two rounds" lab is not swapped for an offered one: it says it is not offered.
    const rounds = page.locator("#rounds");
    equal(await rounds.getByRole("status").textContent(), "This class does not offer this lab's scenario.");
    equal(await rounds.getByRole("button").count(), 0, "no moves");
    equal(await page.evaluate(() => document.getElementById("rounds").play("honest")), false, "nothing to play");
    // Links to the whole lab (the lesson's own, and a lab's) carry the settings; others do not change.
    const expected = new URLSearchParams(settings);
    const carried = (href) => {
      const query = new URL(href).searchParams;
      return ["hide", "scenarios", "class"].every((name) => query.get(name) === expected.get(name));
    };
    const whole = await page.locator("#whole").getAttribute("href");
    ok(carried(whole) && whole.startsWith(ctx.baseUrl), whole);
    equal(await page.locator("#elsewhere").getAttribute("href"), "https://example.org/");
    const open = await page.locator("#deploy").getByRole("link", { name: /Open this situation in the whole lab/ }).getAttribute("href");
    ok(carried(open) && new URL(open).hash.startsWith("#s=deploy"), open);
    await page.done();

    // The whole lab from the lab's link: the scenario it showed, only the offered ones, no
    // hints, no solutions; the address bar keeps the settings as the situation changes.
    const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const whole1 = await context.newPage();
    watchConsole(whole1);
    await whole1.goto(open);
    const picker = whole1.getByRole("navigation", { name: "Scenarios" });
    equal(await picker.getByRole("button").allTextContents(), ["Misuse the ticket", VOUCHER]);
    equal(await picker.locator('button[aria-pressed="true"]').textContent(), "Misuse the ticket");
    await whole1.getByRole("button", { name: "Honest retry", exact: true }).click();
    const challenges = whole1.getByRole("region", { name: /Challenges/ });
    await challenges.scrollIntoViewIfNeeded();
    await challenges.locator("[data-challenge]").first().waitFor();
    equal(await challenges.locator("[data-challenge]").evaluateAll((items) => items.map((i) => i.dataset.challenge)), ["redeem-twice", "staging-to-prod"]);
    equal(await whole1.getByRole("button", { name: "Show a hint" }).count(), 0, "no hints");
    equal(await whole1.getByRole("button", { name: "Give up" }).count(), 0, "no solutions");
    equal(await whole1.locator("mrtr-quiz").getAttribute("hide-solutions"), "", "the quick check keeps its answers");
    await whole1.waitForFunction(() => location.hash.includes("m=honest"));
    ok(carried(whole1.url()), whole1.url());
    // The lesson's link names no situation: the first scenario offered.
    await whole1.goto(whole);
    equal(await picker.locator('button[aria-pressed="true"]').textContent(), VOUCHER);
    // A situation the class does not offer: said, with the offered ones to choose from.
    await whole1.goto(`${ctx.baseUrl}?scenarios=voucher#s=expense`);
    equal(await whole1.getByRole("status").textContent(), "This class does not offer this lab's scenario.");
    equal(await picker.getByRole("button").allTextContents(), [VOUCHER]);
    await picker.getByRole("button", { name: VOUCHER }).click();
    await whole1.locator(".move-title").first().waitFor();
    equal(await whole1.locator(".not-offered").count(), 0);
    await ctx.screenshot(whole1, "class-whole-lab");
    noProblems(whole1);

    // The iframe: its links carry its query; a scenario not offered is said; ready names the class.
    const frame = await context.newPage();
    watchConsole(frame);
    await frame.addInitScript(() => {
      window.posted = [];
      window.postMessage = (message) => window.posted.push(message);
    });
    await frame.goto(`${ctx.baseUrl}embed.html?scenario=book-seat&scenarios=voucher,deploy&class=CS-7`);
    await frame.getByRole("status").waitFor();
    equal(await frame.getByRole("status").textContent(), "This class does not offer this lab's scenario.");
    await frame.waitForFunction(() => window.posted.some((m) => m.type === "mrtr-lab:ready"));
    equal((await frame.evaluate(() => window.posted.find((m) => m.type === "mrtr-lab:ready"))).classCode, "CS-7");
    await frame.goto(`${ctx.baseUrl}embed.html?scenario=deploy&hide=hints&scenarios=voucher,deploy&class=CS-7`);
    const framed = await frame.getByRole("link", { name: /Open this situation in the whole lab/ }).getAttribute("href");
    const query = new URL(framed).searchParams;
    ok(framed.startsWith(`${ctx.baseUrl}?`) && query.get("hide") === "hints" && query.get("class") === "CS-7", framed);
    noProblems(frame);
    await context.close();
  },

  async "one lesson-level setting for every lab, which an element's attribute overrides"(ctx) {
    const page = await lesson(ctx, "meta", `<meta name="mrtr-lab" content="hide=hints&class=GROUP-B">`, `
      <mrtr-lab id="one" scenario="deploy"></mrtr-lab>
      <mrtr-lab id="two" scenario="voucher" class-code="GROUP-C"></mrtr-lab>`);
    for (const id of ["one", "two"]) {
      const lab = page.locator(`#${id}`);
      await lab.locator("[data-challenge]").first().waitFor();
      equal(await lab.getByRole("button", { name: "Show a hint" }).count(), 0, `${id}: no hints`);
      ok((await lab.getByRole("button", { name: "Give up" }).count()) > 0, `${id}: solutions are not hidden`);
      // Played by the element's method: a click can land where the button was a moment before,
      // while the panels below it take their heights (seen under load).
      equal(await page.evaluate((id) => document.getElementById(id).play("honest"), id), true);
    }
    await page.waitForFunction(() => window.events.filter((e) => e.type === "mrtr-lab:verdict").length >= 2);
    const codes = await page.evaluate(() => window.events.filter((e) => e.type === "mrtr-lab:verdict").map((e) => e.detail.classCode));
    equal(codes, ["GROUP-B", "GROUP-C"]);
    noProblems(page);
    await page.done();
  },

  async "progress resets for the next group, and a continue code carries it to another browser"(ctx) {
    // The voucher's challenge met as the lab opens: redeemed twice with the record off.
    const page = await lesson(ctx, "progress", "", `<mrtr-lab id="lab" scenario="voucher" record="off" moves="honest,send-twice"></mrtr-lab>`);
    const lab = page.locator("#lab");
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:challenge"));
    const heading = () => lab.locator("section.challenges h2").textContent();
    ok((await heading()).includes("1 of 4 done"), await heading());
    // The continue code, read in this browser.
    await lab.locator("mrtr-progress").scrollIntoViewIfNeeded();
    await lab.getByText("Continue in another browser").click();
    const code = await lab.locator(".continue-code").textContent();
    ok(/^MRTR-[0-9A-Z]{2}$/.test(code), code);
    // el.reset(): the next group starts from nothing (on a lab that does not meet the
    // challenge again as it opens).
    await page.evaluate(() => {
      const lab = document.getElementById("lab");
      lab.removeAttribute("moves");
      return lab.reset();
    });
    await page.waitForFunction(() => /0 of 4 done/.test(document.getElementById("lab").shadowRoot?.querySelector("section.challenges h2")?.textContent ?? ""));
    equal(await page.evaluate(() => localStorage.getItem("mrtr-lab-challenges")), null, "nothing kept");
    // Another browser (a fresh context): a typo is caught, then the code carries the progress.
    const other = await lesson(ctx, "progress-2", "", `<mrtr-lab id="lab" scenario="voucher"></mrtr-lab>`,
      await ctx.browser.newContext({ viewport: { width: 1100, height: 900 } }));
    const there = other.locator("#lab");
    await there.locator("mrtr-progress").scrollIntoViewIfNeeded();
    await there.getByText("Continue in another browser").click();
    const field = there.getByLabel("A code from another browser");
    const typo = code.slice(0, -1) + (code.endsWith("A") ? "B" : "A");
    await field.fill(typo);
    await there.getByRole("button", { name: "Continue" }).click();
    ok((await there.locator("mrtr-progress [role=status]").textContent()).startsWith("Not continued: that code has a typo"));
    await field.fill(code.toLowerCase());
    await there.getByRole("button", { name: "Continue" }).click();
    await other.waitForFunction(() => /1 of 4 done/.test(document.getElementById("lab").shadowRoot.querySelector("section.challenges h2").textContent));
    equal(await there.locator('[data-challenge="redeem-twice"]').getAttribute("data-state"), "achieved");
    // A code that says every id it can is done marks no impossible challenge: they are not
    // among the ids a code carries.
    const ids = await there.locator("mrtr-progress").getAttribute("ids");
    ok(!ids.includes("staging-to-prod") && !ids.includes("loop-forever"), ids);
    const everything = await other.evaluate(async ([base, ids]) => {
      const { continueCode } = await import(`${base}probe/elements.js`);
      return continueCode(ids.split(","), ids.split(","));
    }, [ctx.baseUrl, ids]);
    await field.fill(everything);
    await there.getByRole("button", { name: "Continue" }).click();
    await other.waitForFunction(() => /2 of 4 done/.test(document.getElementById("lab").shadowRoot.querySelector("section.challenges h2").textContent));
    for (const impossible of ["staging-to-prod", "loop-forever"]) {
      equal(await there.locator(`[data-challenge="${impossible}"]`).getAttribute("data-state"), null, impossible);
    }
    equal(await axeViolations(other, ctx.root), [], "axe, continue code open");
    noProblems(page);
    noProblems(other);
    await other.done();
    await page.done();
  },

  async "the iframe takes the class settings on its query, and its parent's reset"(ctx) {
    const context = await ctx.browser.newContext();
    const page = await context.newPage();
    watchConsole(page);
    await page.goto(`${ctx.baseUrl}embed.html?scenario=deploy&hide=hints,solutions&class=CS-7`);
    await page.locator(".move-title").first().waitFor();
    // Opened on its own, the page is its own parent: what it posts to its parent is recorded.
    await page.evaluate(() => {
      window.posted = [];
      window.send = window.postMessage.bind(window);
      window.postMessage = (message) => window.posted.push(message);
    });
    await page.getByRole("button", { name: "Honest retry", exact: true }).click();
    await page.waitForFunction(() => window.posted.some((m) => m.type === "mrtr-lab:verdict"));
    equal(await page.evaluate(() => window.posted.find((m) => m.type === "mrtr-lab:verdict").classCode), "CS-7");
    // From its parent (here, itself: the default parent is its own origin), a reset.
    await page.evaluate(() => localStorage.setItem("mrtr-lab-challenges", "redeem-twice"));
    await Promise.all([page.waitForEvent("load"), page.evaluate(() => window.send({ type: "mrtr-lab:reset" }, "*"))]);
    equal(await page.evaluate(() => localStorage.getItem("mrtr-lab-challenges")), null, "progress forgotten, page reloaded");
    noProblems(page);
    await context.close();
  },
};
