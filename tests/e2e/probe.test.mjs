// "Test your server": the lab page sends the probe's battery with fetch to a real `mrtr serve
// --http` on this machine (CORS allows loopback pages), and reports what got through.
import { spawn } from "node:child_process";
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
      equal(await panel.locator(".probe-summary").textContent(), "Passed: no attack got through. 18 refused, 3 not tested or inconclusive.");
      equal(await page.evaluate(() => document.activeElement?.className), "probe-summary", "focus moves to the summary");
      equal(await panel.locator(".probe-summary").getAttribute("role"), "status", "and it is announced");
      ok((await panel.textContent()).includes("alice replays bob's ticket: stopped (the server answered: refused by the principal check: -32602 Invalid requestState: issued to a different principal"));
      // Its other targets come from its own lists: the prompt is the other method.
      const rows = await panel.locator("li").allTextContents();
      ok(rows.some((row) => row.startsWith("✓Spend on another method: stopped (the server answered: refused by the request check")), rows.join("\n"));
      panel = await test(page, careless.url);
      const summary = await panel.locator(".probe-summary").textContent();
      // By hand: unsigned tickets are believed whatever they say (integrity), and nothing
      // records a use (replay, race); their empty tag leaves no tag to attack.
      equal(summary, "5 got through (2 MUST). 10 refused, 6 not tested or inconclusive.");
      const failing = await panel.locator('li[data-state="fail"] strong').allTextContents();
      equal(failing, ["Tamper: edit the payload", "Re-sign with another key", "Re-encode the ticket", "Send the honest retry twice", "Race: many retries at once"]);
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
