// Fix-It: the lab's attacks against the lab's server with the learner's verifier. In Node
// (the codec package's fixIt with web/probe/verifier.js's compile, as the worker runs them)
// and in the lab's page, in Chromium, where the worker's time limit stops an endless loop.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { axeViolations, equal, noProblems, ok } from "./assert.mjs";
import { SOLUTION } from "./fixit-solution.mjs";

async function load(root) {
  const m = await import(join(root, "dist/pkg/mrtr_js.js"));
  m.initSync({ module: readFileSync(join(root, "dist/pkg/mrtr_js_bg.wasm")) });
  const { STARTER, compile } = await import(join(root, "dist/probe/verifier.js"));
  return { m, STARTER, run: (source) => m.fixIt(compile(source, m)) };
}

const through = (report) => report.results.filter((row) => !row.ok).map((row) => row.attack);

export const tests = {
  async "the raw server's verifier fails on exactly the checks it leaves out"({ root }) {
    const { run, STARTER } = await load(root);
    const report = run(STARTER);
    equal(report.passed, false);
    equal(report.results[0].result.verdict, "completed", "the honest flow completes");
    // It checks the signature only: no principal, no expiry, no request, no record. (Round 1's
    // ticket with round 2's answers is refused all the same: the ticket says which round it
    // answers, and the server asks that round again.)
    equal(through(report), ["other-principal", "too-late", "other-arguments", "other-tool", "other-method", "send-twice", "race"]);
    const late = report.results.find((row) => row.attack === "too-late");
    equal(late.result.grade, "should");
    ok(late.result.spec.includes("short expiry"), late.result.spec);
  },
  async "every attack of the battery has a hint"({ root }) {
    const { m } = await load(root);
    const { HINTS } = await import(join(root, "dist/probe/verifier.js"));
    for (const { id } of m.probeAttacks()) ok(HINTS[id], `a hint for ${id}`);
  },
  async "a verifier with every check passes, and one that refuses everything does not"({ root }) {
    const { run } = await load(root);
    const good = run(SOLUTION);
    equal(through(good), []);
    equal(good.passed, true);
    ok(good.results.find((r) => r.attack === "other-principal").result.answered.includes("issued to a different principal"));
    const refuseAll = run('function open() { return refuse("no"); }');
    equal(refuseAll.passed, false);
    equal(refuseAll.results[0].result.verdict, "inconclusive");
    ok(refuseAll.results[0].result.why.includes("Invalid requestState: no"), refuseAll.results[0].result.why);
    // With the honest retry refused, no attack is judged: none is a refusal, none a finding.
    for (const row of refuseAll.results.slice(1)) {
      equal(row.result.verdict, "inconclusive", row.attack);
      ok(row.result.why.startsWith("the honest flow did not complete"), row.result.why);
    }
    // A throw refuses, with its message.
    const throwing = run('function open(t) { throw new Error("nope"); }');
    ok(throwing.results[0].result.why.includes("your verifier threw: nope"), throwing.results[0].result.why);
  },
  async "code that does not parse or defines no open is said so"({ root }) {
    const { m } = await load(root);
    const { compile } = await import(join(root, "dist/probe/verifier.js"));
    let said = "";
    try { compile("function open( {", m); } catch (e) { said = e.message; }
    ok(said.startsWith("your code does not parse"), said);
    try { compile("const x = 1;", m); } catch (e) { said = e.message; }
    equal(said, "define function open(ticket, { principal, request, now, used })");
  },
  async "in the lab's page: the starter fails, an endless loop is stopped, the fix passes and is kept"(ctx) {
    const page = await ctx.openPage("#fixit-title");
    const panel = page.getByRole("region", { name: "Fix-It: write the verifier" });
    const status = panel.locator(".fixit-status");
    await panel.getByRole("button", { name: "Run the attacks" }).click();
    await page.waitForFunction(() => document.querySelector(".fixit-status")?.dataset.state);
    ok((await status.textContent()).startsWith("Not yet: 7 of 22 attacks got through."), await status.textContent());
    equal(await panel.locator('li[data-state="fail"] strong').count(), 7);
    const hints = await panel.locator('li[data-state="fail"] .hint').allTextContents();
    equal(hints.length, 7, "each attack that got through says what to check");
    ok(hints[0].includes("compare claims.sub with principal"), hints[0]);
    await ctx.screenshot(page, "fixit-starter");

    await panel.getByLabel("Your verifier (JavaScript)").fill("function open() { for (;;) {} }");
    await panel.getByRole("button", { name: "Run the attacks" }).click();
    await page.waitForFunction(() => document.querySelector(".fixit-status")?.textContent.includes("stopped"), null, { timeout: 20000 });
    ok((await status.textContent()).includes("stopped after 5 s: your verifier did not answer (an endless loop?)"));
    ok(await panel.getByRole("button", { name: "Run the attacks" }).isEnabled(), "the page still answers");

    await panel.getByLabel("Your verifier (JavaScript)").fill(SOLUTION);
    await panel.getByRole("button", { name: "Run the attacks" }).click();
    await page.waitForFunction(() => document.querySelector(".fixit-status")?.dataset.state === "pass");
    equal(await status.textContent(), "Passed: all 22 attacks refused, and the honest flow completed.");
    equal(await panel.locator(".muted").textContent(), "You have passed this exercise.");
    equal(await page.evaluate(() => localStorage.getItem("mrtr-lab-challenges").split(",").includes("fix-it")), true);
    await ctx.screenshot(page, "fixit-passed");
    equal(await axeViolations(page, ctx.root), [], "axe");
    await page.reload();
    // The panels' module loads when a panel comes near the window.
    await page.locator("mrtr-fixit").scrollIntoViewIfNeeded();
    await page.locator("mrtr-fixit textarea").waitFor();
    ok((await page.locator("mrtr-fixit textarea").inputValue()).includes("used.add"), "the learner's code is kept");
    noProblems(page);
    await page.context().close();
  },
  async "in the lab's page: a verifier that refuses everything, a syntax error, the keyboard"(ctx) {
    const page = await ctx.openPage("#fixit-title");
    const panel = page.getByRole("region", { name: "Fix-It: write the verifier" });
    const code = panel.getByLabel("Your verifier (JavaScript)");
    const status = panel.getByRole("status");
    const font = await code.evaluate((el) => getComputedStyle(el).fontFamily);
    ok(/mono|Menlo|Consolas/.test(font), `the code box is monospace: ${font}`);
    // An earlier pass is on record: this run's "Not yet" must not sit above "You have passed".
    await page.evaluate(() => localStorage.setItem("mrtr-lab-challenges", "fix-it"));
    await code.fill('function open() { return refuse("no"); }');
    const button = panel.getByRole("button", { name: "Run the attacks" });
    await button.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector(".fixit-status")?.dataset.state);
    equal(await status.textContent(), "Not yet: your verifier refused the honest retry, which must complete; until it does, no attack can be judged.");
    ok(await status.evaluate((el) => el.getRootNode().activeElement === el), "the focus is on the verdict, not the page's body");
    const rows = panel.locator(".probe-results li");
    const honest = rows.first();
    equal(await honest.getAttribute("data-state"), "fail", "the refused honest retry is a failure, not a grey ?");
    ok((await honest.textContent()).includes("did not complete"), await honest.textContent());
    equal(await panel.locator(".probe-results .hint").count(), 1, "one hint: on the honest retry, none on rows not judged");
    equal(await panel.locator('.probe-results li[data-state="pass"]').count(), 0, "no green tick under a refused honest retry");
    equal(await panel.locator(".muted").textContent(), "An earlier run of yours passed; that pass is kept.");
    equal(await axeViolations(page, ctx.root), [], "axe, after a failed run");
    // A syntax error names its line and column, and the code box marks it.
    await code.fill("function open(ticket) {\n  if (ticket === ) return accept();\n}");
    await button.click();
    await page.waitForFunction(() => document.querySelector(".fixit-status")?.textContent.startsWith("Your code does not parse"));
    const said = await status.textContent();
    ok(/^Your code does not parse: line 2, column \d+: SyntaxError/.test(said), said);
    equal(await code.getAttribute("aria-invalid"), "true");
    const caret = await code.evaluate((el) => el.value.slice(0, el.selectionStart).split("\n").length);
    equal(caret, 2, "the caret is on the broken line");
    await ctx.screenshot(page, "fixit-syntax-error");
    noProblems(page);
    await page.context().close();
  },
  async "in a lesson page's lab, a pass is the lab's challenge event with its xAPI statement"(ctx) {
    const page = await ctx.openPage("lesson.html");
    await page.evaluate(() => {
      window.heardEvents = [];
      document.addEventListener("mrtr-lab:challenge", (e) => window.heardEvents.push(e.detail));
    });
    const lab = page.locator("mrtr-lab#voucher");
    await lab.locator("mrtr-fixit").scrollIntoViewIfNeeded();
    await lab.locator("mrtr-fixit textarea").fill(SOLUTION);
    await lab.getByRole("button", { name: "Run the attacks" }).click();
    await page.waitForFunction(() => window.heardEvents.some((e) => e.id === "fix-it"));
    const passed = await page.evaluate(() => window.heardEvents.find((e) => e.id === "fix-it"));
    equal(passed.statement.verb.id, "http://adlnet.gov/expapi/verbs/passed");
    ok(passed.statement.object.id.endsWith("/challenges/fix-it"), passed.statement.object.id);
    noProblems(page);
    await page.context().close();
  },
};
