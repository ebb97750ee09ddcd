// "Test your server": the lab page sends the probe's battery with fetch to a real `mrtr serve
// --http` on this machine (CORS allows loopback pages), and reports what got through.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { axeViolations, equal, noProblems, ok } from "./assert.mjs";

/** Starts `mrtr serve --http 127.0.0.1:0 ARGS…` and resolves with its URL and a stop(). */
function serve(root, args) {
  return new Promise((resolve, reject) => {
    const server = spawn(join(root, "target/debug/mrtr"), ["serve", "--http", "127.0.0.1:0", "--quiet", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let said = "";
    server.stderr.on("data", (chunk) => {
      said += chunk;
      const url = said.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/)?.[0];
      if (url) resolve({ url, stop: () => server.kill() });
    });
    server.once("error", reject);
    server.once("exit", (code) => reject(new Error(`mrtr serve exited with ${code}: ${said}`)));
  });
}

/** `mrtr probe URL --json` with the page's default call and tokens: its report. */
async function cli(root, url) {
  const args = ["probe", url, "--call", 'tools/call deploy {"env":"staging"}', "--token", "bob-token",
    "--second-token", "alice-token", "--format", "json"];
  const run = await promisify(execFile)(join(root, "target/debug/mrtr"), args, { maxBuffer: 64 << 20 }).catch((e) => e);
  return { code: run.code ?? 0, report: JSON.parse(run.stdout) };
}

/** The page's rows as the CLI's: `attack verdict grade`, one a line. */
async function pageVerdicts(panel) {
  return (await panel.locator("li[data-attack]").evaluateAll((items) =>
    items.map((li) => `${li.dataset.attack} ${li.dataset.verdict} ${li.dataset.grade}`))).join("\n");
}

function cliVerdicts(report) {
  return report.results.map((r) => `${r.attack} ${r.result.verdict} ${r.result.grade ?? ""}`).join("\n");
}

async function test(page, url) {
  const panel = page.getByRole("region", { name: "Test your server" });
  await panel.getByLabel("Server").fill(url);
  const button = panel.getByRole("button", { name: "Test the server" });
  await button.click();
  await page.waitForFunction(() => {
    const summary = document.querySelector(".probe-summary");
    return summary && !summary.textContent.startsWith("Testing") && !document.querySelector("mrtr-probe button[aria-disabled]");
  }, null, { timeout: 60000 });
  return panel;
}

export const tests = {
  async "the lab page tests a real server with the lab's attacks, and names what got through"(ctx) {
    const safe = await serve(ctx.root, []);
    const careless = await serve(ctx.root, ["--signing", "off", "--record", "off"]);
    try {
      const page = await ctx.openPage("#probe-title");
      let panel = await test(page, safe.url);
      // One engine: the page and `mrtr probe` reach the same verdict on every attack, and the
      // same conclusion.
      let cliRun = await cli(ctx.root, safe.url);
      equal(await pageVerdicts(panel), cliVerdicts(cliRun.report), "the page's verdicts are the CLI's");
      equal(cliRun.code, 0);
      equal(cliRun.report.summary.conclusion, "passed");
      const summaryText = await panel.locator(".probe-summary").textContent();
      ok(summaryText.startsWith("Passed: nothing at MUST got through."), summaryText);
      equal(await panel.locator(".probe-summary").getAttribute("data-conclusion"), "passed");
      equal(await page.evaluate(() => document.activeElement?.className), "probe-summary", "focus moves to the summary");
      equal(await panel.locator(".probe-summary").getAttribute("role"), "status", "and it is announced");
      ok((await panel.textContent()).includes("alice replays bob's ticket: stopped (the server answered: refused by the principal check: -32602 Invalid requestState: issued to a different principal"));
      // Its other targets come from its own lists: the prompt is the other method.
      const rows = await panel.locator("li").allTextContents();
      ok(rows.some((row) => row.startsWith("✓Spend on another method: stopped (the server answered: refused by the request check")), rows.join("\n"));
      panel = await test(page, careless.url);
      const summary = await panel.locator(".probe-summary").textContent();
      cliRun = await cli(ctx.root, careless.url);
      equal(await pageVerdicts(panel), cliVerdicts(cliRun.report), "the page's verdicts are the CLI's");
      equal(cliRun.code, 1);
      equal(await panel.locator(".probe-summary").getAttribute("data-conclusion"), cliRun.report.summary.conclusion);
      // By hand: unsigned tickets are believed whatever they say (integrity: a byte changed, the
      // payload edited, re-signed, re-encoded), and nothing records a use (replay, race).
      const c = cliRun.report.summary.counts;
      ok(summary.startsWith(`${c.must + c.should + c.note} got through (3 MUST).`), summary);
      const failing = await panel.locator('li[data-state="fail"] strong').allTextContents();
      equal(failing, ["Change one character", "Tamper: edit the payload", "Re-sign with another key", "Re-encode the ticket", "Send the honest retry twice", "Race: many retries at once"]);
      ok((await panel.locator('li[data-state="fail"]').first().textContent()).includes("What it sent: tools/call deploy id"), "built from what this run sent");
      ok((await panel.locator("blockquote").first().textContent()).includes("servers MUST protect its integrity"));
      ok((await panel.locator('li[data-state="fail"]').first().textContent()).includes("To fix: Verify the ticket's MAC"));
      await ctx.screenshot(page, "probe-page");
      await panel.screenshot({ path: join(ctx.root, "target/screenshots/probe-panel.png") });
      equal(await axeViolations(page, ctx.root), [], "axe");
      // A server nobody answers for: the reason, and focus on it.
      await panel.getByLabel("Server").fill("http://127.0.0.1:9/mcp");
      await panel.getByRole("button", { name: "Test the server" }).click();
      await panel.locator(".problem:not([hidden])").waitFor({ timeout: 30000 });
      equal(await panel.locator(".probe-summary").isVisible(), false, "no summary beside the problem");
      ok((await panel.locator(".problem").textContent()).startsWith("nothing answers at 127.0.0.1:9"), await panel.locator(".problem").textContent());
      equal(await page.evaluate(() => document.activeElement?.className), "problem");
      await page.context().close();
    } finally {
      safe.stop();
      careless.stop();
    }
  },
};
