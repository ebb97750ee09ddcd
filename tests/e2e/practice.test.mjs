// Checking yourself and attacking at scale: the quick check and the campaign.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { equal, noProblems, ok, settle } from "./assert.mjs";

export const tests = {
  async "the quick check scores, explains and links into the lab"(ctx) {
    // A lesson links to the quick check by its heading's id: the lab opens there, the page
    // scrolled to it once drawn, and does not read the id as a mistyped scenario.
    const page = await ctx.openPage("#quiz-title");
    const quiz = page.getByRole("region", { name: "Quick check" });
    await page.waitForFunction(() => Math.abs(document.getElementById("quiz-title")?.getBoundingClientRect().top ?? 1e9) < innerHeight / 2, null, { timeout: 5000 });
    equal(await page.getByRole("list", { name: "What the lab left out" }).count(), 0, "nothing left out");
    await quiz.getByRole("radio", { name: "tools/list" }).check();
    await quiz.getByRole("radio", { name: "Because it is large" }).check();
    ok((await quiz.textContent()).includes("Only tools/call, prompts/get and resources/read may return it."));
    ok((await quiz.getByText("Not quite.").count()) === 1, "a wrong answer is marked");
    equal(await quiz.locator(".score").textContent(), "Score: 1 of 5 (2 answered)");
    await quiz.getByRole("radio", { name: "The ticket is bound to the principal, and alice's token says she is alice" }).check();
    equal(await quiz.locator(".score").textContent(), "Score: 2 of 5 (3 answered)");
    await quiz.getByRole("link", { name: "Replay bob's ticket as alice" }).click();
    await page.waitForFunction(() => document.querySelector("[role=status]")?.textContent.includes("principal"));
    noProblems(page);
    await page.context().close();
  },

  async "a link to a panel's heading opens the lab with that heading at the window's top, on a phone too"(ctx) {
    // On a phone the panels above the campaign are taller or shorter once drawn than the
    // page guessed: the heading still ends at the window's top, once the address bar says
    // the scrolling is over (it shows the situation then).
    const phone = await ctx.openPage("#campaign-title", { viewport: { width: 400, height: 800 } });
    await phone.waitForFunction(() => location.hash.startsWith("#s="), null, { timeout: 5000 });
    await settle(phone, 6);
    const top = await phone.evaluate(() => document.getElementById("campaign-title").getBoundingClientRect().top);
    ok(top >= 0 && top < 100, `the campaign's heading at the window's top, not ${top}`);
    noProblems(phone);
    await phone.context().close();
  },

  async "the campaign finishes, its histogram sums to N, and it says how fast"(ctx) {
    const page = await ctx.openPage("#deploy");
    const panel = page.getByRole("region", { name: "Attack at scale" });
    await panel.getByRole("spinbutton", { name: "Moves" }).fill("10000");
    await panel.getByRole("spinbutton", { name: "Seed" }).fill("7");
    await panel.getByRole("button", { name: "Run the campaign" }).click();
    await panel.getByRole("button", { name: "Run the campaign" }).waitFor({ timeout: 60000 });
    const counts = await panel.locator(".histogram tbody td:nth-child(2)").allTextContents();
    equal(counts.map((n) => Number(n.replaceAll(",", ""))).reduce((a, b) => a + b, 0), 10000, "the histogram sums to N");
    const rate = await panel.locator(".campaign-rate").textContent();
    ok(/^10,000 moves in [\d,]+ ms: [\d,]+ moves per second$/.test(rate), rate);
    console.log(`     campaign: ${rate}`);
    ok((await panel.textContent()).includes("Got through: Send the honest retry twice × "), "without the record, replays get through");
    await page.getByRole("radio", { name: "shared by A and B" }).check();
    await panel.getByRole("button", { name: "Run the campaign" }).click();
    await panel.getByRole("button", { name: "Run the campaign" }).waitFor({ timeout: 60000 });
    ok((await panel.textContent()).includes("No malicious move got through."), "with the record nothing does");
    // Values it cannot use give way, in the fields, to the ones it used.
    const [moves, seed] = [panel.getByRole("spinbutton", { name: "Moves" }), panel.getByRole("spinbutton", { name: "Seed" })];
    await moves.fill("0");
    await seed.fill("-5");
    await panel.getByRole("button", { name: "Run the campaign" }).click();
    await panel.getByRole("button", { name: "Run the campaign" }).waitFor({ timeout: 60000 });
    equal([await moves.inputValue(), await seed.inputValue()], ["1", "42"]);
    const one = await panel.locator(".histogram tbody td:nth-child(2)").allTextContents();
    equal(one.map(Number).reduce((a, b) => a + b, 0), 1, "it played the one move the field shows");
    noProblems(page);
    await page.context().close();
  },

  async "a long campaign leaves the page responsive, its progress bar moving"(ctx) {
    const page = await ctx.openPage("#deploy");
    const panel = page.getByRole("region", { name: "Attack at scale" });
    await panel.getByRole("spinbutton", { name: "Moves" }).fill("300000");
    await panel.getByRole("button", { name: "Run the campaign" }).click();
    // The page answers between slices: each of these reads is a task of its own, run while
    // the campaign is still going, and it sees the bar part-way.
    const seen = [];
    for (let i = 0; i < 200 && !seen.some((v) => v > 0 && v < 300000); i++) {
      seen.push(await page.evaluate(() => Number(document.querySelector(".campaign progress").value)));
    }
    ok(seen.some((v) => v > 0 && v < 300000), `the progress bar part-way while running: ${seen.slice(0, 8).join(", ")}…`);
    await panel.getByRole("button", { name: "Run the campaign" }).waitFor({ timeout: 60000 });
    equal(await panel.locator("progress").getAttribute("value"), "300000", "and full at the end");
    noProblems(page);
    await page.context().close();
  },

  async "a challenge detects success, gives hints, and explains the impossible one"(ctx) {
    const page = await ctx.openPage("#deploy");
    const panel = page.getByRole("region", { name: /Challenges/ });
    // Reset progress sits with the continue code, which loads as the panel comes near.
    await panel.scrollIntoViewIfNeeded();
    await panel.getByRole("button", { name: "Reset progress" }).click();
    await panel.getByText("Progress reset: every challenge and Fix-It start again in this browser.").waitFor();
    ok((await panel.getByRole("heading").textContent()).includes("0 of 4 done"));
    const cheaper = panel.locator('[data-challenge="charge-less"]');
    await cheaper.getByRole("button", { name: "Show a hint" }).click();
    ok((await cheaper.textContent()).includes("The quoted price travels inside the ticket"));
    await cheaper.getByRole("link", { name: "Start here" }).click();
    await page.getByRole("radio", { name: "signing off" }).check();
    await page.getByRole("button", { name: "Tamper: edit the payload", exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-challenge="charge-less"]')?.dataset.state === "achieved");
    ok((await panel.getByRole("heading").textContent()).includes("1 of 4 done"));
    const prod = panel.locator('[data-challenge="staging-to-prod"]');
    await prod.getByRole("button", { name: "Give up" }).click();
    ok((await prod.textContent()).includes("A staging confirmation can only ever be spent on staging"));
    await page.reload();
    ok((await page.getByRole("region", { name: /Challenges/ }).getByRole("heading").textContent()).includes("1 of 4 done"), "progress survives a reload");
    // Fix-It's pass shares the record, and is not one of the four.
    await page.evaluate(() => localStorage.setItem("mrtr-lab-challenges", localStorage.getItem("mrtr-lab-challenges") + ",fix-it"));
    await page.reload();
    const heading = await page.getByRole("region", { name: /Challenges/ }).getByRole("heading").textContent();
    ok(heading.includes("1 of 4 done"), `Fix-It's pass is not counted among the challenges: ${heading}`);
    noProblems(page);
    await page.context().close();
  },

  async "an exported session imports into a fresh page with the same verdicts"(ctx) {
    const page = await ctx.openPage("#deploy");
    await page.getByRole("button", { name: "alice replays bob's ticket", exact: true }).click();
    await page.getByRole("button", { name: "Honest retry", exact: true }).click();
    await page.getByRole("radio", { name: "replica A" }).check();
    await page.locator(".attempts tbody").getByText("Your attempt").waitFor();
    const verdicts = await page.locator(".attempts tbody").textContent();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export session (JSON)" }).click()]);
    const file = join(ctx.root, "target", "exported-session.json");
    await download.saveAs(file);
    ok(readFileSync(file, "utf8").includes('"mrtrLab": 1'), "the export is a session file");
    await page.context().close();
    const fresh = await ctx.openPage("#expense");
    await fresh.getByLabel("Import session").setInputFiles(file);
    await fresh.waitForFunction(() => document.querySelector(".attempts tbody") !== null);
    equal(await fresh.locator(".attempts tbody").textContent(), verdicts, "the same attempts after import");
    await fresh.getByLabel("Import session").setInputFiles({ name: "junk.json", mimeType: "application/json", buffer: Buffer.from("{oops") });
    ok((await fresh.getByRole("alert").textContent()).includes("Not imported: this file is not JSON"));
    // A file picked by mistake is refused by its size, before it is read.
    await fresh.getByLabel("Import session").setInputFiles({ name: "big.json", mimeType: "application/json", buffer: Buffer.alloc(2 << 20, 32) });
    ok((await fresh.getByRole("alert").textContent()).includes("Not imported: this file is 2097152 bytes"));
    noProblems(fresh);
    await fresh.context().close();
  },
};
