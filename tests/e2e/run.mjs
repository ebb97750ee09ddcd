// Browser end-to-end tests and JS-package tests, against the built lab in dist/.
//
//   node tests/e2e/run.mjs          (after scripts/build.sh)
//
// Serves dist/ on a free loopback port, starts Debian's Chromium through playwright-core,
// runs every *.test.mjs in this folder, saves screenshots to target/screenshots/, and ends
// with the plain line "N passed, M failed".
import { readdir, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "../../scripts/static-server.mjs";
import { settle, watchConsole } from "./assert.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { server, url: baseUrl } = await serve(join(root, "dist"));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const shots = join(root, "target", "screenshots");
await mkdir(shots, { recursive: true });

/** A fresh page whose console errors, warnings and uncaught exceptions `noProblems` checks. */
async function openPage(path = "", options = {}) {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? "light", reducedMotion: options.reducedMotion ?? "no-preference",
    // The service worker has its own test (element.test.mjs, offline); elsewhere it stays out of the way.
    serviceWorkers: options.serviceWorkers ?? "block" });
  const page = await context.newPage();
  watchConsole(page);
  await page.goto(baseUrl + path);
  return page;
}

/** The whole page as a picture. The window is made as tall as the page first: a panel off
 *  screen is not drawn (`content-visibility: auto`), so a capture beyond the window would
 *  show it empty. */
async function screenshot(page, name) {
  const viewport = page.viewportSize();
  // Twice: panels drawn for the first time take their real height, not their placeholder's.
  for (let i = 0; i < 2; i++) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height: Math.min(height, 16000) });
    await settle(page);
  }
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  await page.setViewportSize(viewport);
}

/** A test that has not ended after this long fails, and the run goes on: a hang names itself
 *  instead of holding CI until its limit. */
const TEST_LIMIT_MS = 180_000;
function withinLimit(promise) {
  let timer;
  const limit = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`still running after ${TEST_LIMIT_MS / 1000} s`)), TEST_LIMIT_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const ctx = { baseUrl, browser, openPage, root, shots, screenshot };
const files = (await readdir(fileURLToPath(new URL(".", import.meta.url)))).filter((f) => f.endsWith(".test.mjs")).sort();
const only = process.argv[2];
let passed = 0;
let failed = 0;
for (const file of files) {
  const { tests } = await import(`./${file}`);
  for (const [name, fn] of Object.entries(tests)) {
    if (only && !`${file} ${name}`.includes(only)) continue;
    const started = Date.now();
    try {
      await withinLimit(fn(ctx));
      passed += 1;
      console.log(`ok   ${file} › ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL ${file} › ${name}\n     ${String(error?.stack ?? error).split("\n").slice(0, 6).join("\n     ")}`);
      // A failed or stopped test may leave its pages open: close them, so the next starts clean.
      const leftOpen = Promise.all(browser.contexts().map((context) => context.close().catch(() => {})));
      await Promise.race([leftOpen, new Promise((done) => setTimeout(done, 10_000))]);
    }
  }
}
await browser.close();
server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
