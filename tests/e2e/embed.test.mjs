// The iframe page: embed.html posts its height and verdicts to the parent, and acts only on
// messages from the parent origin it was given.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../../scripts/static-server.mjs";
import { equal, noProblems, ok, watchConsole } from "./assert.mjs";

function host(embedUrl) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lesson</title><link rel="icon" href="data:,"></head><body>
    <p>Lesson text before the lab.</p>
    <iframe id="lab" title="mrtr-lab" src="${embedUrl}" style="width: 100%; border: 0"></iframe>
    <script>
      window.received = [];
      addEventListener("message", (e) => {
        if (e.source !== document.getElementById("lab").contentWindow) return;
        window.received.push(e.data);
        if (e.data.type === "mrtr-lab:height") document.getElementById("lab").style.height = e.data.height + "px";
      });
    </script></body></html>`;
}

/** Opens a lesson page from `origin` hosting the lab that trusts `parent`. A page from
 *  another origin is served by a real second server: Chromium blocks loopback frames in
 *  pages it cannot place on the local network. */
async function hostPage(ctx, origin, parent, servedFrom) {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  watchConsole(page);
  const embed = `${ctx.baseUrl}embed.html?scenario=deploy&theme=dark&parent=${encodeURIComponent(parent)}`;
  if (servedFrom) {
    writeFileSync(join(servedFrom, "host.html"), host(embed));
  } else {
    await page.route(`${origin}/host.html`, (route) => route.fulfill({ contentType: "text/html", body: host(embed) }));
  }
  await page.goto(`${origin}/host.html`);
  await page.waitForFunction(() => window.received.some((m) => m.type === "mrtr-lab:height" && m.height > 300));
  return page;
}

export const tests = {
  async "the iframe reports its height and acts on its parent's messages"(ctx) {
    const origin = ctx.baseUrl.replace(/\/$/, "");
    const page = await hostPage(ctx, origin, origin);
    // Ready once, with the situation it opened in, before any verdict.
    const ready = await page.evaluate(() => window.received.filter((m) => m.type === "mrtr-lab:ready"));
    equal(ready.length, 1, "one mrtr-lab:ready");
    ok(ready[0].situation.startsWith("s=deploy"), ready[0].situation);
    // A document of its own, with its level-one heading.
    equal(await page.frameLocator("#lab").getByRole("heading", { level: 1 }).textContent(), "mrtr-lab: Misuse the ticket");
    const height = await page.evaluate(() => window.received.filter((m) => m.type === "mrtr-lab:height").at(-1).height);
    ok(height > 300, `height ${height}`);
    const box = await page.locator("#lab").boundingBox();
    ok(Math.abs(box.height - height) < 2, `the parent sized the iframe to ${box.height}`);
    await page.evaluate(() => document.getElementById("lab").contentWindow.postMessage({ type: "mrtr-lab:play", move: "other-principal" }, "*"));
    await page.waitForFunction(() => window.received.some((m) => m.type === "mrtr-lab:verdict"));
    const verdict = await page.evaluate(() => window.received.find((m) => m.type === "mrtr-lab:verdict"));
    equal([verdict.by, verdict.check, verdict.accepted, verdict.code], ["other-principal", "principal", false, -32602]);
    equal(verdict.statement.object.id, `${origin}/scenarios/deploy/moves/other-principal`, "the activity defaults to the lab's address");
    const frame = page.frameLocator("#lab");
    ok((await frame.getByRole("status").textContent()).includes("refused by the principal check"));
    equal(await frame.locator("html").getAttribute("data-theme"), "dark");
    await ctx.screenshot(page, "embed-iframe");
    noProblems(page);
    await page.context().close();
  },

  async "a hostile postMessage from another origin is ignored"(ctx) {
    const trusted = ctx.baseUrl.replace(/\/$/, "");
    // Another port is another origin: a second, real server on loopback.
    const dir = join(ctx.root, "target", "e2e-hostile");
    mkdirSync(dir, { recursive: true });
    const { server, url } = await serve(dir);
    const page = await hostPage(ctx, url.replace(/\/$/, ""), trusted, dir);
    await page.evaluate(() => {
      const lab = document.getElementById("lab").contentWindow;
      lab.postMessage({ type: "mrtr-lab:play", move: "honest" }, "*");
      lab.postMessage({ type: "mrtr-lab:play", move: "send-twice" }, "*");
      lab.postMessage("mrtr-lab:play honest", "*");
    });
    // Then a message from the trusted origin itself (the frame posts to itself): messages
    // arrive in order, so its verdict comes after whatever the hostile ones caused.
    const frame = page.frames().find((f) => f.url().includes("embed.html"));
    await frame.evaluate((origin) => postMessage({ type: "mrtr-lab:play", move: "too-late" }, origin), trusted);
    await page.waitForFunction(() => window.received.some((m) => m.type === "mrtr-lab:verdict"));
    const verdicts = await page.evaluate(() => window.received.filter((m) => m.type === "mrtr-lab:verdict"));
    equal(verdicts.length, 1, "one verdict, the trusted move's");
    equal(verdicts[0].by, "too-late");
    noProblems(page);
    await page.context().close();
    server.close();
  },
};
