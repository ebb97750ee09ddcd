// What a browser fetches on a first visit to each of the lab's pages, every request counted
// once as it was served, gzip -9 each: the lab page, the iframe page, and the sample lesson
// page with every element, without and then with the service worker's own fetches. Sizes do
// not depend on the machine's noise, so this judges: it exits 1 when a page is over its limit.
//
//   node scripts/weight.mjs        (after scripts/build.sh)
//
// A first visit is what the page fetches until the network has been quiet for half a second
// after every lab drew its first situation, with nothing scrolled or clicked: a part that
// loads when first used (the probe panels' module, the JS package) is not in it.
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./static-server.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const KB = 1024;
const kb = (n) => `${(n / KB).toFixed(1)} KB`;

/** The pages, the limit of each first visit in bytes, and whether the service worker runs. */
const VISITS = [
  { name: "the lab page", path: "#deploy", limit: 240 * KB, worker: false },
  { name: "the iframe page", path: "embed.html?scenario=voucher", limit: 240 * KB, worker: false },
  { name: "the lesson page, every element", path: "lesson.html", limit: 300 * KB, worker: false },
  { name: "the lesson page with its service worker", path: "lesson.html", limit: 400 * KB, worker: true },
];

const requests = [];
const { server, url } = await serve(join(root, "dist"), {
  served: (path, body) => requests.push({ path, gzip: gzipSync(body, { level: 9 }).length }),
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

/** Waits until no request has been served for `quietMs`. */
async function quiet(quietMs = 500) {
  for (let seen = -1; seen !== requests.length; ) {
    seen = requests.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

let over = 0;
for (const visit of VISITS) {
  const context = await browser.newContext({ serviceWorkers: visit.worker ? "allow" : "block", viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  requests.length = 0;
  await page.goto(url + visit.path);
  // Every lab on the page drew its verdict (the whole lab's, or one inside each element).
  await page.waitForFunction(() => {
    const labs = [...document.querySelectorAll("mrtr-lab")];
    return labs.length ? labs.every((lab) => lab.shadowRoot?.querySelector("[role=status]")) : document.querySelector("[role=status]");
  }, null, { timeout: 30_000 });
  if (visit.worker) {
    await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === "activated", null, { timeout: 30_000 });
  }
  await quiet();
  const total = requests.reduce((sum, r) => sum + r.gzip, 0);
  const verdict = total <= visit.limit ? "ok" : "OVER";
  if (total > visit.limit) over += 1;
  console.log(`${verdict.padEnd(4)} ${visit.name}: ${kb(total)} (${total.toLocaleString("en")} bytes) in ${requests.length} requests, limit ${kb(visit.limit)}`);
  for (const r of [...requests].sort((a, b) => b.gzip - a.gzip)) console.log(`       ${r.path.padEnd(48)} ${kb(r.gzip).padStart(9)}`);
  await context.close();
}
await browser.close();
server.close();
server.closeAllConnections();
if (over) {
  console.log(`${over} page(s) over their limit`);
  process.exit(1);
}
