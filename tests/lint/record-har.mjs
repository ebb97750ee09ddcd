// Records tests/lint/lab-probe.har: the lab page's "Test your server" panel run against
// `mrtr serve --http`, as the browser's devtools would save it ("Save all as HAR"). The
// transcript of a malicious client on purpose: `mrtr lint` must name what the probe did.
//
//   node tests/lint/record-har.mjs        (after scripts/build.sh and cargo build -p mrtr)
//
// The 1 MB ticket the probe sends is cut to its first kilobyte, so the fixture stays small.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/static-server.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const out = join(root, "tests/lint/lab-probe.har");
const server = spawn(join(root, "target/debug/mrtr"), ["serve", "--http", "127.0.0.1:0", "--quiet"], { stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise((resolve) => {
  let said = "";
  server.stderr.on("data", (chunk) => {
    said += chunk;
    const found = said.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/)?.[0];
    if (found) resolve(found);
  });
});
const lab = await serve(join(root, "dist"));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const context = await browser.newContext({ recordHar: { path: out, urlFilter: /\/mcp$/ } });
const page = await context.newPage();
await page.goto(`${lab.url}#probe-title`);
const panel = page.getByRole("region", { name: "Test your server" });
await panel.scrollIntoViewIfNeeded();
await panel.getByLabel("Server").fill(url);
await panel.getByRole("button", { name: "Test the server" }).click();
await page.waitForFunction(() => {
  const summary = document.querySelector(".probe-summary");
  return summary && !summary.hidden && !summary.textContent.startsWith("Testing");
}, null, { timeout: 120000 });
await context.close();
await browser.close();
lab.server.close();
server.kill();
const har = JSON.parse(readFileSync(out, "utf8"));
for (const entry of har.log.entries) {
  const body = entry.request.postData;
  if (body?.text?.length > 4096) body.text = body.text.replace(/"A{1000,}/, (run) => `"${"A".repeat(1000)}`);
}
writeFileSync(out, JSON.stringify(har, null, 1));
console.log(`${har.log.entries.length} entries written to ${out}`);
