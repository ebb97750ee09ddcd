// Where the lab is served from: the README's serve command (`scripts/serve.sh` builds the lab
// and serves it on the port it is asked for; here into a folder of its own, so the other
// tests' dist/ stays as it is), dist/ in a folder of a course's site, and the page opened as
// a file.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { serve } from "../../scripts/static-server.mjs";
import { equal, noProblems, ok, watchConsole } from "./assert.mjs";

/** A loopback port no one listens on now. */
const freePort = () =>
  new Promise((done, fail) => {
    const probe = createServer().once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/** Polls `url` until it answers 200, the server exits, or `ms` pass. */
async function answered(url, server, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`scripts/serve.sh exited with ${server.exitCode}:\n${server.said()}`);
    const status = await fetch(url).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no answer from ${url} after ${ms / 1000} s:\n${server.said()}`);
}

export const tests = {
  async "scripts/serve.sh serves the lab on the port given as a flag"({ root, browser }) {
    const port = await freePort();
    const dist = join(root, "target/serve-check");
    const server = spawn("bash", ["scripts/serve.sh", "--port", String(port), "--dist", dist], {
      cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [server.stdout, server.stderr]) stream.on("data", (chunk) => (output += chunk));
    server.said = () => output.split("\n").slice(-15).join("\n");
    const base = `http://127.0.0.1:${port}/`;
    try {
      await answered(base, server, 150_000);
      ok(output.includes(`[serve] the lab will be at ${base}`), `the address it prints:\n${server.said()}`);
      equal((await fetch(base + "lesson.html")).status, 200, "the sample lesson is served");
      // What a lesson page on another origin loads: a module script needs the CORS header.
      for (const path of ["embed.html", "mrtr-lab-element.js", "mrtr-lab-element.css", "mrtr-ticket-element.js", "pkg/mrtr_js.js"]) {
        const response = await fetch(base + path);
        equal([response.status, response.headers.get("access-control-allow-origin")], [200, "*"], `${path}: status, CORS`);
      }
      const context = await browser.newContext({ serviceWorkers: "block" });
      const page = await context.newPage();
      watchConsole(page);
      await page.goto(`${base}#voucher`);
      await page.locator("button.move-title").first().waitFor();
      equal(await page.locator(".intro h2").textContent(), "One-time voucher and the replay record");
      await page.getByRole("button", { name: "Honest retry", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "accepted" }).waitFor();
      noProblems(page);
      await context.close();
      // A second one on the same port says so before building, instead of trunk's bare error.
      const again = spawnSync("bash", ["scripts/serve.sh", "--port", String(port)], { cwd: root, encoding: "utf8", timeout: 60_000 });
      equal(again.status, 1, `a second serve.sh on port ${port}: ${again.stderr}`);
      ok(again.stderr.includes(`[serve] port ${port} is taken on 127.0.0.1 (is the lab already running?)`), again.stderr);
    } finally {
      // trunk is the script's own process (exec), in a group of its own.
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {}
    }
  },

  async "dist/ works from a folder of a site, not only from its root"({ root, browser }) {
    // A static host with the build at /course/mrtr/lab/: every page finds its files beside it.
    const site = join(root, "target/e2e-site");
    rmSync(site, { recursive: true, force: true });
    mkdirSync(join(site, "course/mrtr"), { recursive: true });
    symlinkSync(join(root, "dist"), join(site, "course/mrtr/lab"));
    const { server, url } = await serve(site);
    try {
      for (const [path, labs] of [["course/mrtr/lab/#voucher", 1], ["course/mrtr/lab/embed.html?scenario=voucher", 1], ["course/mrtr/lab/lesson.html", 3]]) {
        const context = await browser.newContext({ serviceWorkers: "block" });
        const page = await context.newPage();
        watchConsole(page);
        const missing = [];
        page.on("response", (r) => r.status() >= 400 && missing.push(`${r.status()} ${r.url()}`));
        await page.goto(url + path);
        // The lab's page and the iframe draw in the document, the lesson's labs in shadow roots.
        await page.waitForFunction((labs) => {
          const roots = [document, ...[...document.querySelectorAll("mrtr-lab")].map((lab) => lab.shadowRoot).filter(Boolean)];
          return roots.filter((r) => r.querySelector("button.move-title")).length >= labs;
        }, labs, { timeout: 15_000 });
        equal(missing, [], `${path}: nothing missing`);
        noProblems(page);
        await context.close();
      }
    } finally {
      server.close();
    }
  },

  async "opened as a file, the page says how to serve it instead of staying blank"({ root, browser }) {
    const page = await browser.newPage();
    await page.goto(`file://${join(root, "dist/index.html")}`);
    await page.getByText("The lab loads over HTTP only: run scripts/serve.sh, or serve this folder.").waitFor({ timeout: 5000 });
    await page.close();
  },
};
