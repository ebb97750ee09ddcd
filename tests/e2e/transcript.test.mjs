// "Read your own traffic": transcripts recorded from real traffic (tests/lint/), pasted or
// picked as a file in the lab's page, read in the page by the JS package's lintTranscript:
// the rounds, a sequence diagram, the tickets, and the mistakes `mrtr lint` finds in them too
// (crates/cli/tests/lint.rs asserts the same findings in the terminal).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { axeViolations, equal, noProblems, ok } from "./assert.mjs";

async function panelOf(ctx) {
  const page = await ctx.openPage("#lint-title");
  const panel = page.getByRole("region", { name: "Read your own traffic" });
  await panel.scrollIntoViewIfNeeded();
  await panel.getByLabel("The transcript").waitFor();
  return { page, panel };
}

/** Reads `text` pasted into the panel; the status line once it is read. */
async function paste(panel, text) {
  await panel.getByLabel("The transcript").fill(text);
  await panel.getByRole("button", { name: "Read it" }).click();
  const status = panel.locator(".lint-status");
  await status.filter({ hasNotText: "Reading…" }).waitFor();
  return status.textContent();
}

export const tests = {
  async "pasted transcripts of each kind show their rounds and their mistakes"(ctx) {
    const { page, panel } = await panelOf(ctx);
    const fixture = (name) => readFileSync(join(ctx.root, "tests/lint", name), "utf8");
    // mrtr serve's text log of an honest three-round flow: nothing wrong.
    let said = await paste(panel, fixture("serve-log.txt"));
    ok(said.startsWith("A C->S / S->C transcript") && said.includes("nothing breaks the MRTR page"), said);
    equal(await panel.getByRole("heading", { level: 3 }).first().textContent(), "Operation 2: tools/call book_seat, by anonymous, 3 rounds");
    equal(await panel.locator(".lint-sequence").count(), 1, "one sequence diagram");
    equal(await panel.locator(".lint-sequence .arrow").count(), 6, "an arrow each way for each of the three rounds");
    ok((await panel.locator(".lint-tickets").textContent()).includes("T2: a readable ticket with a tag (v1.base64"));
    // mrtr call --json: the same.
    said = await paste(panel, fixture("call.jsonl"));
    ok(said.startsWith("Mrtr call --json") || said.startsWith("mrtr call --json"), said);
    // The official TypeScript SDK's transcript: its tampered retry is the client's MUST.
    said = await paste(panel, fixture("typescript-sdk-http.txt"));
    ok(said.includes("1 MUST"), said);
    const finding = panel.locator(".lint-findings li").first();
    ok((await finding.textContent()).includes("MUST, line 60 (client, operation 4): the retry's requestState is not T2 byte for byte"), await finding.textContent());
    ok((await finding.locator("blockquote").textContent()).includes("MUST echo back the exact value"));
    equal(await axeViolations(page, ctx.root), [], "axe, with findings");
    await panel.screenshot({ path: join(ctx.root, "target/screenshots/transcript-panel.png") });
    noProblems(page);
    await page.context().close();
  },

  async "a HAR file of the probe panel, picked as a file, shows each attack as the client's fault"(ctx) {
    const { page, panel } = await panelOf(ctx);
    await panel.getByLabel("Or a file").setInputFiles(join(ctx.root, "tests/lint/lab-probe.har"));
    const status = panel.locator(".lint-status");
    await status.filter({ hasNotText: "Reading…" }).waitFor();
    const said = await status.textContent();
    ok(said.startsWith("A HAR file: 140 messages") && said.includes("17 MUST"), said);
    const rules = await panel.locator(".lint-findings li strong").allTextContents();
    equal(rules.filter((r) => r.startsWith("MUST")).length, 17);
    equal(await status.evaluate((el) => el === document.activeElement), true, "the headline takes the focus");
    noProblems(page);
    await page.context().close();
  },

  async "the example, garbage and a huge paste are read without a hang"(ctx) {
    const { page, panel } = await panelOf(ctx);
    await panel.getByRole("button", { name: "Try an example" }).click();
    await panel.locator(".lint-findings").waitFor();
    ok((await panel.locator(".lint-findings").textContent()).includes("the retry reuses id 1"));
    let said = await paste(panel, "hello\n{not json\n" + "x".repeat(1 << 20));
    ok(said.includes("0 messages") && said.includes("nothing breaks the MRTR page"), said);
    ok((await panel.getByText("lines were not messages").textContent()).startsWith("3 lines"));
    said = await paste(panel, "");
    ok(said.includes("0 operations"), said);
    noProblems(page);
    await page.context().close();
  },
  async "on a lesson page, outside any lab, the findings are in the lab's colours"(ctx) {
    // The sample lesson says `color-scheme: light dark`: the parts follow the system's scheme.
    for (const [colorScheme, bad] of [["light", "rgb(168, 35, 27)"], ["dark", "rgb(255, 154, 144)"]]) {
      const page = await ctx.openPage("lesson.html", { colorScheme });
      const traffic = page.locator("#traffic");
      await traffic.scrollIntoViewIfNeeded();
      await traffic.getByRole("button", { name: "Try an example" }).click();
      const mark = traffic.locator('.lint-findings li[data-state="fail"] .mark').first();
      await mark.waitFor();
      equal(await mark.evaluate((el) => getComputedStyle(el).color), bad, `a MUST's mark (${colorScheme} system)`);
      noProblems(page);
      await page.context().close();
    }
  },
  async "a 5 MB capture is read in a worker, and the page keeps answering"(ctx) {
    const { page, panel } = await panelOf(ctx);
    // 5 MB of JSON-RPC lines: flows that ask once, each retry echoing its ticket.
    const lines = [];
    let bytes = 0;
    for (let n = 1; bytes < 5e6; n++) {
      const ticket = `opaque-${n}-${"x".repeat(40)}`;
      const call = { jsonrpc: "2.0", id: 2 * n, method: "tools/call", params: { name: "deploy", arguments: { env: `e${n}`, pad: "p".repeat(200) } } };
      const flow = [call, { jsonrpc: "2.0", id: 2 * n, result: { resultType: "input_required", inputRequests: { ok: { method: "elicitation/create", params: {} } }, requestState: ticket } },
        { ...call, id: 2 * n + 1, params: { ...call.params, inputResponses: { ok: { action: "accept" } }, requestState: ticket } },
        { jsonrpc: "2.0", id: 2 * n + 1, result: { resultType: "complete", content: [] } }];
      for (const message of flow) { const line = JSON.stringify(message); lines.push(line); bytes += line.length + 1; }
    }
    const text = lines.join("\n");
    await page.evaluate(() => {
      window.longest = 0;
      // Tasks that start after the panel's change event: the task that hands the test's 5 MB
      // file to the page (and fires the event) is the test driver's work, not the page's.
      document.querySelector('mrtr-transcript input[type="file"]').addEventListener("change", () => { window.from = performance.now(); });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (window.from !== undefined && e.startTime >= window.from) window.longest = Math.max(window.longest, e.duration);
      })
        .observe({ type: "longtask", buffered: false });
    });
    await panel.locator('input[type="file"]').setInputFiles({ name: "big.jsonl", mimeType: "text/plain", buffer: Buffer.from(text) });
    const status = panel.locator(".lint-status");
    await status.filter({ hasNotText: "Reading…" }).waitFor({ timeout: 60000 });
    const said = await status.textContent();
    ok(said.includes("nothing breaks the MRTR page") && said.includes("asked for input"), said);
    ok((await panel.textContent()).includes("more operations that asked: mrtr lint FILE lists them all"), "the rest counted");
    const longest = await page.evaluate(() => window.longest);
    console.log(`     transcript: ${(text.length / 1e6).toFixed(1)} MB read; the longest main-thread task ${longest.toFixed(0)} ms`);
    // The goal is no task over 100 ms (measured: 59 to 86 ms here); the figure is printed. Read
    // on the main thread, the same capture holds it for over a second: that is what fails.
    ok(longest <= 500, `a main-thread task of ${longest} ms`);
    noProblems(page);
    await page.context().close();
  },
};
