// The embed kit's custom elements, as a lesson author uses them: the README's snippets pasted
// into a plain page on another origin, two labs side by side, attributes, events, the
// sample lesson page, and offline use through the service worker.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../../scripts/static-server.mjs";
import { axeViolations, equal, noProblems, ok, settle, takeWarning, watchConsole } from "./assert.mjs";

/** Brings `locator`'s element to the middle of the window and waits until the page above it
 *  has held still for three frames. A panel off screen keeps a placeholder's height until it
 *  comes near the window (`content-visibility: auto`), then takes its own: on the long lesson
 *  page that moved a button from under the pointer between Playwright's scroll and its click
 *  (seen in CI under load, and here with both cores kept busy). */
async function centredAndStill(locator) {
  await locator.evaluate((element) => new Promise((done) => {
    let last = NaN, still = 0;
    const look = () => {
      element.scrollIntoView({ block: "center" });
      still = scrollY === last ? still + 1 : 0;
      last = scrollY;
      if (still >= 3) done(); else requestAnimationFrame(look);
    };
    look();
  }));
}

/** The html code block after `<!-- snippet: name -->` in README.md, pointed at `labUrl`. */
function snippet(root, name, labUrl) {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const at = readme.indexOf(`<!-- snippet: ${name} -->`);
  ok(at >= 0, `README has no snippet "${name}"`);
  const block = readme.slice(at).match(/```html\n([\s\S]*?)```/)[1];
  return block.replaceAll("http://127.0.0.1:8080/", labUrl);
}

/** A plain lesson page with `body`, served from its own origin (another port). */
async function lessonPage(ctx, name, body) {
  const dir = join(ctx.root, "target", "e2e-lesson");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${name}</title></head><body>
    <h1>A lesson</h1><p>Some prose before the lab.</p>
    ${body}
    <script>
      window.events = [];
      for (const type of ["mrtr-lab:ready", "mrtr-lab:verdict", "mrtr-lab:step", "mrtr-lab:challenge", "mrtr-lab:quiz", "mrtr-ticket:opened"]) {
        document.addEventListener(type, (e) => window.events.push({ type, target: e.target.id, bubbles: e.bubbles, composed: e.composed, detail: e.detail }));
      }
    </script></body></html>`);
  const { server, url } = await serve(dir);
  const context = await ctx.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  watchConsole(page);
  await page.goto(`${url}${name}.html`);
  page.done = async () => { await context.close(); server.close(); };
  return page;
}

const events = (page, type, target) => page.evaluate(([type, target]) =>
  window.events.filter((e) => e.type === type && (!target || e.target === target)), [type, target]);
const status = (page, id) => page.locator(`#${id} [role=status]`).first().textContent();

export const tests = {
  async "the README's element snippet works on another origin: two labs, one module, independent"(ctx) {
    const page = await lessonPage(ctx, "two-labs", snippet(ctx.root, "element", ctx.baseUrl));
    await page.waitForFunction(() => window.events.filter((e) => e.type === "mrtr-lab:ready").length === 2);
    ok((await status(page, "misuse")).includes("principal"), "misuse: alice's replay is refused by the principal check");
    ok((await status(page, "voucher")).includes("accepted"), "voucher without the record: the second use goes through");
    const wasmLoads = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.includes("mrtr-lab-") && r.name.endsWith("_bg.wasm")).length);
    equal(wasmLoads, 1, "one wasm module for both elements");

    // A move in one lab: its verdict event, from that element only; the other lab is untouched.
    const before = await status(page, "voucher");
    await page.locator("#misuse").getByRole("button", { name: "Honest retry", exact: true }).click();
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:verdict"));
    const [verdict] = await events(page, "mrtr-lab:verdict");
    equal([verdict.target, verdict.bubbles, verdict.composed], ["misuse", true, true]);
    const d = verdict.detail;
    equal([d.type, d.scenario, d.by, d.accepted, d.check, d.outcome], ["mrtr-lab:verdict", "deploy", "honest", true, null, "accepted"]);
    equal(d.statement.verb.id, "http://adlnet.gov/expapi/verbs/attempted");
    equal(d.statement.object.id, `${page.url().split("#")[0]}#misuse/scenarios/deploy/moves/honest`);
    equal([d.statement.result.success, d.statement.result.response], [true, "accepted"]);
    equal(await status(page, "voucher"), before, "the other lab did not move");
    // The page's own console listener from the snippet saw it too (no error logged).

    // A step in the sequence diagram.
    await page.locator("#misuse").getByRole("button", { name: "◀ Back" }).click();
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:step"));
    const [step] = await events(page, "mrtr-lab:step");
    ok(step.detail.shown === step.detail.total - 1 && step.detail.summary.length > 0, JSON.stringify(step.detail));

    // Methods, and a refused move named by its check.
    equal(await page.evaluate(() => document.getElementById("voucher").play("nope")), false);
    equal(await page.evaluate(() => document.getElementById("misuse").play("late")), true);
    await page.waitForFunction(() => window.events.filter((e) => e.type === "mrtr-lab:verdict").length === 2);
    const late = (await events(page, "mrtr-lab:verdict"))[1].detail;
    equal([late.by, late.check, late.code, late.statement.result.success], ["too-late", "expiry", -32602, false]);
    ok((await page.evaluate(() => document.getElementById("misuse").situation)).includes("m=edit-payload,other-principal,honest,too-late"));
    await ctx.screenshot(page, "element-two-labs");
    noProblems(page);
    await page.done();
  },

  async "a move made the moment the buttons appear still reports its verdict"(ctx) {
    // A learner who clicks before the lab has finished starting: the page clicks "Honest
    // retry" from a mutation observer as soon as the button is in the lab's shadow root,
    // which can be while Yew has yielded to the browser in the middle of its first render
    // (its effects, which report news to the page, have not run yet).
    const page = await lessonPage(ctx, "early-click", `
      <script>
        const attach = Element.prototype.attachShadow;
        Element.prototype.attachShadow = function (init) {
          const root = attach.call(this, init);
          new MutationObserver((_, observer) => {
            const button = [...root.querySelectorAll("button")].find((b) => b.textContent.trim() === "Honest retry");
            if (button) { observer.disconnect(); button.click(); window.clicked = performance.now(); }
          }).observe(root, { childList: true, subtree: true });
          return root;
        };
      </script>
      <script type="module" src="${ctx.baseUrl}mrtr-lab-element.js"></script>
      <mrtr-lab id="early" scenario="deploy"></mrtr-lab>`);
    await page.waitForFunction(() => window.clicked);
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:verdict"), null, { timeout: 5000 });
    const [verdict] = await events(page, "mrtr-lab:verdict", "early");
    equal([verdict.detail.by, verdict.detail.accepted], ["honest", true]);
    ok((await status(page, "early")).includes("accepted"), "and the lab shows it");
    noProblems(page);
    await page.done();
  },

  async "attributes set the situation, and reflect as properties"(ctx) {
    const labUrl = ctx.baseUrl;
    const page = await lessonPage(ctx, "attributes", `
      <script type="module" src="${labUrl}mrtr-lab-element.js"></script>
      <mrtr-lab id="lab" scenario="misuse-ticket" clock="121" compact></mrtr-lab>`);
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:ready"));
    ok((await status(page, "lab")).includes("expiry"), "your attempt at 121 s is too late");
    equal(await page.evaluate(() => [document.getElementById("lab").scenario, document.getElementById("lab").compact]), ["misuse-ticket", true]);
    // Properties set attributes; several changes in one task open the lab once, in the new situation.
    await page.evaluate(() => {
      const lab = document.getElementById("lab");
      lab.scenario = "voucher";
      lab.moves = "honest,twice";
      lab.record = "shared";
      lab.removeAttribute("clock");
    });
    await page.waitForFunction(() => window.events.filter((e) => e.type === "mrtr-lab:ready").length === 2);
    equal(await page.evaluate(() => document.getElementById("lab").getAttribute("moves")), "honest,twice");
    ok((await status(page, "lab")).includes("single-use"), "with the record, the second use is refused");
    // A step attribute shows the diagram part way; theme is CSS only.
    await page.evaluate(() => { document.getElementById("lab").step = "2"; document.getElementById("lab").theme = "dark"; });
    await page.waitForFunction(() => window.events.filter((e) => e.type === "mrtr-lab:ready").length === 3);
    ok((await page.locator("#lab .step-count").textContent()).startsWith("step 2 of"));
    const background = await page.evaluate(() => getComputedStyle(document.getElementById("lab")).backgroundColor);
    equal(background, "rgb(21, 23, 27)", "the dark palette");
    // Nonsense attributes open the default lab, without an error; the console tells the author.
    equal(page.warnings, [], "nothing ignored so far");
    await page.evaluate(() => { document.getElementById("lab").situation = "%%%"; document.getElementById("lab").scenario = "nope"; });
    await page.waitForFunction(() => window.events.filter((e) => e.type === "mrtr-lab:ready").length === 4);
    ok((await page.locator("#lab h2").first().textContent()).includes("Misuse the ticket"));
    takeWarning(page, 'mrtr-lab ignored: key "%%%" is unknown (known: s, m, r,');
    takeWarning(page, 'mrtr-lab ignored: scenario "nope" is unknown (known: deploy,');
    // And the lab says it above its scenario, for the author who looks at the page.
    const leftOut = page.locator("#lab").getByRole("list", { name: "What the lab left out" }).getByRole("listitem");
    equal(await leftOut.allTextContents().then((items) => items.map((t) => t.split(" (")[0])), ['Left out: key "%%%" is unknown', 'Left out: scenario "nope" is unknown']);
    noProblems(page);
    await page.done();
  },

  async "a full lab reports a challenge met and the quiz's score"(ctx) {
    const page = await lessonPage(ctx, "full", `
      <script type="module" src="${ctx.baseUrl}mrtr-lab-element.js"></script>
      <mrtr-lab id="lab" scenario="voucher" activity="https://course.example/mrtr/lab-1"></mrtr-lab>`);
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:ready"));
    const lab = page.locator("#lab");
    equal(await lab.getByRole("button", { name: "Greedy server" }).count(), 0, "no scenario picker unless asked");
    await lab.getByRole("radio", { name: "off" }).first().check();
    await lab.getByRole("button", { name: "Honest retry", exact: true }).click();
    await lab.getByRole("button", { name: "Send the honest retry twice" }).click();
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:challenge"));
    const [challenge] = await events(page, "mrtr-lab:challenge");
    equal([challenge.detail.id, challenge.detail.statement.verb.id, challenge.detail.statement.object.id],
      ["redeem-twice", "http://adlnet.gov/expapi/verbs/passed", "https://course.example/mrtr/lab-1/challenges/redeem-twice"]);
    // The quick check: four right, one wrong. First the panels above it finish drawing the
    // challenge met, so that no click lands where a radio was a moment before.
    await settle(page);
    // The questions load with the other parts below the lab, as they come near.
    await lab.locator("mrtr-quiz").scrollIntoViewIfNeeded();
    const questions = lab.locator(".question");
    const picks = [1, 2, 1, 1, 0];
    for (let q = 0; q < 5; q++) await questions.nth(q).getByRole("radio").nth(picks[q]).check();
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-lab:quiz"));
    const quiz = (await events(page, "mrtr-lab:quiz")).at(-1).detail;
    equal([quiz.score, quiz.max], [4, 5]);
    const { success, completion, score } = quiz.statement.result;
    equal([success, completion, score.raw, score.min, score.max, score.scaled], [false, true, 4, 0, 5, 0.8]);
    equal(quiz.statement.object.id, "https://course.example/mrtr/lab-1/quiz");
    // A question's link opens its scenario inside this lab, and leaves the page's address alone.
    const address = page.url();
    await lab.getByRole("link", { name: "Watch a careless server charge 1.00" }).click();
    await page.waitForFunction(() => document.getElementById("lab").situation.startsWith("s=careless"));
    equal(page.url(), address);
    // Asked for, the picker offers every scenario.
    await page.evaluate(() => { document.getElementById("lab").picker = true; });
    await lab.getByRole("button", { name: "A greedy server" }).click();
    await page.waitForFunction(() => document.getElementById("lab").situation.startsWith("s=greedy"));
    noProblems(page);
    await page.done();
  },

  async "the ticket snippet: a live ticket that names the check that stops it"(ctx) {
    const page = await lessonPage(ctx, "ticket", snippet(ctx.root, "ticket", ctx.baseUrl));
    await page.waitForFunction(() => window.events.some((e) => e.type === "mrtr-ticket:opened"));
    const widget = page.locator("mrtr-ticket");
    ok((await widget.getByRole("status").textContent()).includes("Every check passed"));
    await widget.getByLabel("Presented by").selectOption("alice");
    ok((await widget.getByRole("status").textContent()).includes("Refused by the principal check"));
    await widget.getByLabel("Presented by").selectOption("bob");
    await widget.getByRole("button", { name: "Change one character" }).click();
    ok((await widget.getByRole("status").textContent()).includes("Refused by the signature check"));
    const last = (await events(page, "mrtr-ticket:opened")).at(-1).detail;
    equal([last.ok, last.failedCheck], [false, "signature"]);
    // A pasted megabyte: refused at the size check, at once.
    await widget.getByText("Edit the ticket").click();
    await widget.getByLabel("The ticket, as the client holds it").fill("x".repeat(1 << 20));
    ok((await widget.getByRole("status").textContent()).includes("Refused by the size check"));
    // Sealed: the same checks, and nothing to read in the payload.
    await page.evaluate(() => document.querySelector("mrtr-ticket").setAttribute("mode", "sealed"));
    ok((await widget.getByRole("status").textContent()).includes("Every check passed"));
    ok((await widget.getByLabel("The ticket, as the client holds it").inputValue()).startsWith("v1e."));
    await widget.getByText("The payload: sealed").click();
    ok((await widget.locator("pre.payload").textContent()).startsWith("Encrypted"));
    await widget.getByRole("button", { name: "Change one character" }).click();
    ok((await widget.getByRole("status").textContent()).includes("Refused by the signature check"));
    ok((await widget.locator("li.failed").textContent()).includes("the box does not open"));
    noProblems(page);
    await page.done();
  },

  async "the sample lesson page: three labs and two tickets in prose, readable in both themes"(ctx) {
    for (const colorScheme of ["light", "dark"]) {
      const page = await ctx.openPage("lesson.html", { colorScheme });
      // Every lab drawn to the end (the diagrams come a task after the verdict): a lab above
      // that grows later moves the buttons below it, and a click on the move would miss.
      await page.waitForFunction(() => [...document.querySelectorAll("mrtr-lab")].every((e) => e.shadowRoot.querySelector(".sequence-panel")));
      equal(await page.locator("mrtr-lab").count(), 3);
      await page.locator("#ticket").getByRole("status").waitFor();
      await page.locator("#sealed").getByRole("status").filter({ hasText: "Every check passed" }).waitFor();
      ok((await page.locator("#sealed").getByLabel("The ticket, as the client holds it").inputValue()).startsWith("v1e."));
      ok((await status(page, "rounds")).includes("asked again"), "round 1's ticket takes the server back to the first question");
      const retry = page.locator("#voucher").getByRole("button", { name: "Honest retry", exact: true });
      await centredAndStill(retry);
      await retry.click();
      await page.waitForFunction(() => document.getElementById("lms").textContent.includes("attempted"), null, { timeout: 10_000 })
        .catch(async (error) => {
          // Should the click miss again, say what the page showed.
          const lms = await page.locator("#lms").textContent();
          const voucher = await page.locator("#voucher [role=status]").first().textContent();
          throw new Error(`no verdict in the page's log after the click: log "${lms}", the lab says "${voucher}" (${error.message})`);
        });
      equal(await axeViolations(page, ctx.root), [], `lesson page (${colorScheme}): axe violations, inside the labs too`);
      await ctx.screenshot(page, `lesson-${colorScheme}`);
      noProblems(page);
      await page.context().close();
    }
  },

  async "offline: once opened, the lab and the lesson work without a network"(ctx) {
    const { server, url } = await serve(join(ctx.root, "dist"));
    const context = await ctx.browser.newContext({ serviceWorkers: "allow" });
    const page = await context.newPage();
    await page.goto(`${url}lesson.html`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // Every lab drawn: no fetch is still on its way when the network goes.
    await page.waitForFunction(() => [...document.querySelectorAll("mrtr-lab")].every((e) => e.shadowRoot?.querySelector("[role=status]")));
    // Connections are cut before waiting for the close: `close` alone waits for each
    // connection to end, and one Chromium keeps open would hold this test until CI's limit.
    const closed = new Promise((done) => server.close(done));
    server.closeAllConnections();
    await closed;
    for (const path of ["lesson.html", "", "embed.html?scenario=voucher"]) {
      await page.goto(`${url}${path}`);
      // The lab's verdict (the page's other statuses, as the transcript reader's, show later).
      await page.locator(".status[role=status]").first().waitFor({ timeout: 10_000 });
    }
    await page.goto(`${url}lesson.html`);
    await page.locator("#misuse").getByRole("button", { name: "Honest retry", exact: true }).click();
    ok((await status(page, "misuse")).includes("accepted"), "a move still plays offline");
    await context.close();
  },
};
