// The lab page in Chromium, as a student sees it.
import { noProblems, ok } from "./assert.mjs";

export const tests = {
  async "the page loads and shows each check of a fresh ticket"(ctx) {
    const page = await ctx.openPage();
    await page.getByText("Signature matches").first().waitFor();
    const text = await page.textContent("body");
    ok(text.includes("minted for bob, presented by bob"), text);
    await ctx.screenshot(page, "placeholder");
    noProblems(page);
    await page.context().close();
  },
};
