// Checking yourself and attacking at scale: the quick check and the campaign.
import { equal, noProblems, ok } from "./assert.mjs";

export const tests = {
  async "the quick check scores, explains and links into the lab"(ctx) {
    const page = await ctx.openPage("#deploy");
    const quiz = page.getByRole("region", { name: "Quick check" });
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

  async "the campaign finishes, its histogram sums to N, and it says how fast"(ctx) {
    const page = await ctx.openPage("#deploy");
    const panel = page.getByRole("region", { name: "Attack at scale" });
    await panel.getByRole("spinbutton", { name: "Moves" }).fill("10000");
    await panel.getByRole("spinbutton", { name: "Seed" }).fill("7");
    await panel.getByRole("button", { name: "Run the campaign" }).click();
    await panel.getByRole("button", { name: "Run the campaign" }).waitFor({ timeout: 60000 });
    const counts = await panel.locator(".histogram tbody td:nth-child(2)").allTextContents();
    equal(counts.map(Number).reduce((a, b) => a + b, 0), 10000, "the histogram sums to N");
    const rate = await panel.locator(".campaign-rate").textContent();
    ok(/10000 moves in \d+ ms: \d+ moves per second/.test(rate), rate);
    console.log(`     campaign: ${rate}`);
    ok((await panel.textContent()).includes("Got through: send-twice"), "without the record, replays get through");
    await page.getByRole("radio", { name: "shared by A and B" }).check();
    await panel.getByRole("button", { name: "Run the campaign" }).click();
    await panel.getByRole("button", { name: "Run the campaign" }).waitFor({ timeout: 60000 });
    ok((await panel.textContent()).includes("No malicious move got through."), "with the record nothing does");
    noProblems(page);
    await page.context().close();
  },
};
