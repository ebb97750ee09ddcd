// The lab in Chromium, used as a student uses it: by visible labels and roles.
import { axeViolations, equal, noProblems, ok, settle, takeWarning } from "./assert.mjs";

const status = async (page) => {
  await settle(page);
  return page.getByRole("status").textContent();
};
const failedCheck = async (page) => {
  await settle(page);
  const failed = page.locator('.check[data-state="fail"]');
  return (await failed.count()) ? failed.getAttribute("data-check") : null;
};
/** Changes one character of the raw ticket's payload, as a student's hand edit would. */
async function editOneCharacter(page) {
  const raw = page.getByLabel("Raw ticket (your attempt)");
  const ticket = await raw.inputValue();
  const at = ticket.indexOf(".") + 10;
  await raw.fill(ticket.slice(0, at) + (ticket[at] === "A" ? "B" : "A") + ticket.slice(at + 1));
}
/** An edit of one character; the editor repeats the verdict's clause on a phone only. */
async function editShowingTheClause(page, onPhone) {
  await editOneCharacter(page);
  await settle(page);
  const clause = page.locator(".editor-verdict");
  equal(await clause.isVisible(), onPhone, `the editor's verdict clause shows on ${onPhone ? "a phone" : "a wide screen"}`);
  ok((await clause.textContent()).startsWith("The server: refused by the signature check"), await clause.textContent());
}
/** Whether the element is wholly inside the window. */
async function inView(locator) {
  return locator.evaluate((el) => {
    const place = el.getBoundingClientRect();
    return place.top >= 0 && place.bottom <= window.innerHeight;
  });
}
async function play(page, title) {
  await page.getByRole("button", { name: title, exact: true }).click();
  await settle(page);
}
/** Holds the lab's module back until the returned function is called: the page is parsed
 *  and its own scripts run, the lab does not start. */
async function holdTheLab(page) {
  await page.unrouteAll();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/mrtr-lab-[0-9a-f]+\.js$/, async (route) => { await held; await route.continue(); });
  return release;
}
async function openMoves(page) {
  await page.getByText("More moves").click();
}

// Each lesson move, the check that stops it, and what the server answers.
const MOVES = [
  ["Honest retry", null, "accepted: deployed to staging"],
  ["Tamper: edit the payload", "signature", "Invalid requestState: bad signature"],
  ["alice replays bob's ticket", "principal", "Invalid requestState: issued to a different principal"],
  ["Too late (5 minutes)", "expiry", "Invalid requestState: expired"],
  ["Spend on another request", "request", "Invalid requestState: belongs to a different request"],
  ["Send the honest retry twice", null, "accepted: deployed to staging"],
  ["Forged answer, no ticket", null, "the server asked again instead of acting"],
  ["Send \"hello\"", "shape", "Invalid requestState: malformed"],
  ["Change one character", "signature", "Invalid requestState: bad signature"],
  ["Re-sign with another key", "signature", "Invalid requestState: bad signature"],
  ["Re-encode the ticket", "signature", "Invalid requestState: bad signature"],
  ["Spend on another tool", "request", "belongs to a different request"],
  ["Spend on another method", "request", "belongs to a different request"],
  ["Drop the ticket", null, "the server asked again"],
  ["Ticket nobody asked for", "signature", "bad signature"],
];

export const tests = {
  async "every misuse move shows the check that stops it and the server's answer"(ctx) {
    const page = await ctx.openPage("#deploy");
    await openMoves(page);
    for (const [title, check, says] of MOVES) {
      await play(page, title);
      const line = await status(page);
      ok(line.includes(says), `${title}: status says "${line}"`);
      equal(await failedCheck(page), check, `${title}: failed check`);
      if (check) {
        // The wire panel follows the verdict a task later.
        const answer = await page.locator(".wire pre").last().filter({ hasText: `"check": "${check}"` }).textContent();
        ok(answer.includes('"code": -32602') && answer.includes(`"check": "${check}"`), `${title}: answer ${answer}`);
      }
    }
    ok((await page.getByText("You found it").count()) === 1, "the lab notices the clean move");
    ok((await page.getByText("sending the honest retry twice also passed").count()) === 1, "and points out the replay");
    noProblems(page);
    await page.context().close();
  },

  async "sending the honest retry twice, played first, sends it twice: the record refuses the second"(ctx) {
    const page = await ctx.openPage("#voucher");
    await play(page, "Send the honest retry twice");
    ok((await status(page)).includes("refused by the single-use check"), await status(page));
    equal(await failedCheck(page), "single-use");
    const steps = await page.locator(".seq-text li").allTextContents();
    equal(steps.filter((s) => s.includes("id 1 · ticket T1 · tools/call redeem_voucher")).length, 2, steps.join("\n"));
    await page.locator(".ledger").getByText("Ledger: 1 side effect").waitFor();
    noProblems(page);
    await page.context().close();
  },

  async "in two rounds, round 1's ticket goes back to the first question, and the record refuses it"(ctx) {
    const page = await ctx.openPage("#book-seat");
    const stale = page.getByRole("button", { name: "Echo round 1's ticket", exact: true });
    // isVisible does not wait: the lab draws its moves after the page's load event.
    await stale.waitFor({ state: "attached" });
    ok(await stale.isVisible(), "a flow of two rounds lists the move first, not under More moves");
    const titles = await page.locator(".moves .move-title").allTextContents();
    equal(titles.slice(0, 2), ["Honest retry", "Echo round 1's ticket"], "right after the honest retry");
    await play(page, "Honest retry");
    ok((await status(page)).includes("accepted: Seat 14C on LX318 is booked"), await status(page));
    await play(page, "Echo round 1's ticket");
    ok((await status(page)).includes("the server asked again"), await status(page));
    // Round 1's ticket passes the ticket checks (it is genuine, only old); the answer check
    // fails: the server is back at the seat question, and the payment answer does not fit it.
    equal(await failedCheck(page), "answer");
    const row = await page.locator('[data-check="answer"]').textContent();
    ok(row.includes("no answer for seat that fits its question"), row);
    await page.locator(".wire pre").last().filter({ hasText: "Which seat on LX318?" }).waitFor();
    // The sequence names the tickets: round 2 answered with T2, the stale retry carries T1.
    const steps = await page.locator(".seq-text li").allTextContents();
    ok(steps.some((s) => s.includes("input_required: asks pay + requestState T2")), steps.join("\n"));
    ok(steps.at(-3).includes("id 3 · ticket T1 · tools/call book_seat"), steps.join("\n"));
    await page.locator("table.attempts tr").filter({ hasText: "Echo round 1's ticket" }).filter({ hasText: "T1" }).waitFor();
    // Round 1's ticket in the editor: its payload carries no seat; sent as your attempt, the
    // server asks for the seat again.
    await page.getByRole("button", { name: "Use round 1's ticket" }).click();
    await settle(page);
    equal(await page.getByLabel("data", { exact: true }).inputValue(), "{}", "round 1's ticket carries no seat");
    const yours = await status(page);
    ok(yours.includes("Your attempt") && yours.includes("the server asked again"), yours);
    await page.getByRole("button", { name: "Back to the server's ticket" }).click();
    await settle(page);
    ok((await page.getByLabel("data", { exact: true }).inputValue()).includes('"seat":"14C"'), "round 2's carries it");
    await page.getByRole("radio", { name: "shared by A and B" }).check();
    equal(await failedCheck(page), "single-use", "the honest round 2 spent round 1's ticket");
    noProblems(page);
    await page.context().close();
  },

  async "editing one character of the raw ticket turns the signature check to ✗"(ctx) {
    const page = await ctx.openPage("#deploy");
    await editOneCharacter(page);
    equal(await failedCheck(page), "signature");
    const row = await page.locator('[data-check="signature"]').textContent();
    ok(row.includes("✗") && row.includes("failed"), row);
    ok((await status(page)).includes("Your attempt"), await status(page));
    await page.getByRole("button", { name: "Back to the server's ticket" }).click();
    ok((await status(page)).includes("accepted"), await status(page));
    // A position past the end changes the last character, and the field says so.
    await settle(page);
    const raw = page.getByLabel("Raw ticket (your attempt)");
    const minted = await raw.inputValue();
    const position = page.getByRole("spinbutton", { name: "Position" });
    await position.fill("99999");
    await page.getByRole("button", { name: "Change the character there" }).click();
    equal(await position.inputValue(), String(minted.length - 1));
    // The editor follows a task later: wait for the new ticket.
    await page.waitForFunction((minted) => document.getElementById("raw-ticket").value !== minted, minted, { timeout: 5000 });
    const changed = await raw.inputValue();
    equal([changed.length, changed.slice(0, -1), changed.at(-1) !== minted.at(-1)], [minted.length, minted.slice(0, -1), true]);
    noProblems(page);
    await page.context().close();
  },

  async "a 1 MB paste and garbage get a clear refusal, no hang"(ctx) {
    const page = await ctx.openPage("#deploy");
    const raw = page.getByLabel("Raw ticket (your attempt)");
    // The editor is drawn a task after the lab opens: set the field once it is there.
    await raw.waitFor();
    // Set through the page (Playwright would print a failed megabyte fill in full).
    await page.evaluate(() => {
      const area = document.getElementById("raw-ticket");
      area.value = "A".repeat(1 << 20);
      area.dispatchEvent(new InputEvent("input", { bubbles: true }));
    });
    equal(await failedCheck(page), "size");
    ok((await page.locator('[data-check="size"]').textContent()).includes("1048576 bytes is over the 4096-byte limit"));
    // The address bar is written once the edits pause: the attempt marked (o=1), the megabyte left out.
    await page.waitForFunction(() => location.hash.includes("o=1"));
    ok(page.url().length < 10000, `the link stays short (${page.url().length} characters)`);
    // A run of dots is the format's three parts and one extra, not a part drawn per dot.
    await raw.fill(".".repeat(65535));
    await page.locator('.editor .part[data-part="extra"]').waitFor({ timeout: 5000 });
    equal(await page.locator(".editor .part").count(), 4);
    ok((await page.locator(".problems").textContent()).includes("found 65536"));
    // A payload of thousands of members: a few fields, and the rest said in a line.
    const members = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => ["m" + i, i]));
    await raw.fill(`v1.${Buffer.from(JSON.stringify(members)).toString("base64url")}.AAAA`);
    const fields = page.locator(".payload-fields");
    await fields.getByText("and 2976 more members: edit them in the raw ticket").waitFor();
    equal(await fields.locator("input").count(), 24);
    await raw.fill("v1.\u0000<script>.%%%");
    equal(await failedCheck(page), "base64url");
    ok((await page.locator(".problems").filter({ hasText: "base64url" }).textContent()).includes("not in the base64url alphabet"));
    noProblems(page);
    await page.context().close();
  },

  async "a link asking for thousands of moves opens at once with the first 64, and says so"(ctx) {
    // A page that froze on the 3,000 moves would fail waitFor's 30 s; the test times nothing else.
    const page = await ctx.openPage(`#s=deploy&m=${Array(3000).fill("honest").join(",")}`);
    const moves = page.getByRole("region", { name: "Play a move" });
    await moves.getByText("64 moves is as many as one situation plays").waitFor();
    ok(await moves.getByRole("button", { name: "Honest retry", exact: true }).isDisabled(), "no 65th move");
    await moves.getByRole("button", { name: "Start again" }).click();
    // The moves panel follows an action a task later: wait for it, do not sample it.
    await moves.getByRole("button", { name: "Honest retry", exact: true, disabled: false }).waitFor({ timeout: 5000 });
    takeWarning(page, "mrtr-lab ignored: 3000 moves: a situation plays the first 64");
    noProblems(page);
    await page.context().close();
  },

  async "a link of thousands of typos opens at once and says so in a few lines"(ctx) {
    // 100,000 unknown moves: one sentence each used to mean 100,000 console warnings (a link
    // of 400,000 did not open in 30 s); now a dozen, then a count.
    const page = await ctx.openPage(`#s=deploy&m=${"fly,".repeat(100000)}`);
    await page.getByRole("button", { name: "Honest retry", exact: true }).waitFor();
    for (let i = 0; i < 12; i++) takeWarning(page, 'mrtr-lab ignored: move "fly" is unknown (known: honest, ');
    takeWarning(page, "mrtr-lab ignored: 99988 more like these, not listed");
    // The page says it too, above the scenario, until the learner's first action.
    const leftOut = page.getByRole("list", { name: "What the lab left out" }).getByRole("listitem");
    equal(await leftOut.count(), 13);
    ok((await leftOut.first().textContent()).startsWith('Left out: move "fly" is unknown (known: honest, '));
    equal(await leftOut.last().textContent(), "Left out: 99988 more like these, not listed");
    equal(await axeViolations(page, ctx.root), [], "axe violations with the list of what was left out");
    await page.getByRole("button", { name: "Honest retry", exact: true }).click();
    await leftOut.first().waitFor({ state: "detached" });
    noProblems(page);
    await page.context().close();
  },

  async "moving the clock past 120 s fails not expired"(ctx) {
    const page = await ctx.openPage("#deploy");
    const clock = page.getByLabel(/Clock: sent/);
    await clock.fill("119");
    ok((await status(page)).includes("accepted"), await status(page));
    await clock.fill("121");
    equal(await failedCheck(page), "expiry");
    const row = await page.locator('[data-check="expiry"]').textContent();
    ok(row.includes("expired at 120 s, now 121 s"), row);
    noProblems(page);
    await page.context().close();
  },

  async "the replica choice shows A minting and B finishing"(ctx) {
    const page = await ctx.openPage("#deploy");
    await page.getByRole("radio", { name: "replica B" }).check();
    const line = await status(page);
    ok(line.includes("accepted"), line);
    ok((await page.getByRole("heading", { name: /on replica B/ }).count()) === 1, "checked on replica B");
    const transcript = await page.locator(".raw-lines").filter({ hasText: "replica B" }).textContent();
    ok(/<-- \[0 s replica A\] .*input_required/.test(transcript), "A minted the ticket");
    ok(/<-- \[8 s replica B\] .*deployed to staging/.test(transcript), "B finished");
    noProblems(page);
    await page.context().close();
  },

  async "the greedy server's figures read in words, each with its name in mrtr-sim --json"(ctx) {
    const page = await ctx.openPage("#greedy");
    const figures = page.getByRole("region", { name: "Measured" });
    // The panel is drawn a task after the verdict: wait for its last figure.
    await figures.getByText("clientRoundLimit").waitFor();
    const rows = await figures.locator("dt").evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent]));
    const shown = Object.fromEntries(rows);
    equal(shown["The client's limit on roundsclientRoundLimit"], "3");
    equal(shown["Rounds the server wantedwantedRounds"], "50");
    equal(shown["Requests the client sentrequests"], "4");
    equal(shown["How the call endedoutcome"], "abandoned");
    noProblems(page);
    await page.context().close();
  },

  async "a keyboard alone can walk through a scenario"(ctx) {
    const page = await ctx.openPage("#deploy");
    await page.getByRole("button", { name: "Honest retry", exact: true }).waitFor();
    let reached = "";
    for (let i = 0; i < 60 && !reached.startsWith("BUTTON Honest retry"); i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent ?? ""}`);
    }
    ok(reached.startsWith("BUTTON Honest retry"), `Tab never reached the honest retry (last: ${reached.slice(0, 80)})`);
    const focus = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { tag: el.tagName, visible: el.matches(":focus-visible"), outline: `${style.outlineStyle} ${style.outlineWidth}` };
    });
    ok(focus.tag === "BUTTON" && focus.visible && !focus.outline.startsWith("none"), `no visible focus ring: ${JSON.stringify(focus)}`);
    await page.keyboard.press("Enter");
    ok((await status(page)).includes("accepted"), await status(page));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    ok((await status(page)).includes("refused by the signature check"), await status(page));
    noProblems(page);
    await page.context().close();
  },

  async "every scenario has no axe violations, and a screenshot"(ctx) {
    const ids = await (async () => {
      const page = await ctx.openPage();
      const buttons = page.getByRole("navigation", { name: "Scenarios" }).getByRole("button");
      await buttons.first().waitFor(); // allTextContents does not wait for the lab to draw
      const names = await buttons.allTextContents();
      await page.context().close();
      return names;
    })();
    ok(ids.length >= 13, `${ids.length} scenarios`);
    for (const [i, name] of ids.entries()) {
      for (const colorScheme of i === 0 ? ["light", "dark"] : ["light"]) {
        const page = await ctx.openPage("", { colorScheme });
        await page.getByRole("button", { name, exact: true }).click();
        if (name === "Misuse the ticket") {
          await play(page, "Honest retry");
          await play(page, "alice replays bob's ticket");
        }
        equal(await axeViolations(page, ctx.root), [], `${name} (${colorScheme}): axe violations`);
        const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
        await ctx.screenshot(page, `${String(i + 1).padStart(2, "0")}-${slug}${colorScheme === "dark" ? "-dark" : ""}`);
        const cut = await page.$$eval("svg.sequence, svg.timeline", (svgs) => svgs.flatMap((svg) =>
          [...svg.querySelectorAll("text")].filter((t) => t.getBBox().x + t.getBBox().width > svg.viewBox.baseVal.width).map((t) => t.textContent)));
        equal(cut, [], `${name}: labels past the diagram's right edge`);
        noProblems(page);
        await page.context().close();
      }
    }
  },

  async "a shared link restores the same situation and verdicts"(ctx) {
    const page = await ctx.openPage("#deploy");
    await play(page, "Honest retry");
    await play(page, "alice replays bob's ticket");
    await page.getByRole("radio", { name: "shared by A and B" }).check();
    await page.getByLabel(/Clock: sent/).fill("130");
    await page.locator(".attempts tbody").getByText("Your attempt").waitFor();
    const verdicts = await page.locator(".attempts tbody").textContent();
    const checks = await page.locator(".check-list").textContent();
    await page.waitForFunction(() => location.hash.includes("c=130000"));
    const link = page.url();
    ok(link.includes("m=honest,other-principal") && link.includes("r=shared") && link.includes("c=130000"), link);
    await page.context().close();
    const again = await ctx.openPage(link.slice(ctx.baseUrl.length));
    equal(await again.locator(".attempts tbody").textContent(), verdicts, "the same attempts and verdicts");
    equal(await again.locator(".check-list").textContent(), checks, "the same checks");
    noProblems(again);
    await again.context().close();
  },

  async "a request written by hand goes out as written, the server answers it, and a link keeps it"(ctx) {
    const page = await ctx.openPage("#deploy");
    const box = page.getByLabel(/^Your request/);
    const retry = await box.inputValue();
    ok(retry.includes('"requestState"') && retry.includes('\n  "id"'), "it starts from the retry, laid out");
    await box.fill(retry.replace('"tools/call"', '"tools/list"'));
    ok((await status(page)).includes("refused with error -32602"), await status(page));
    await page.locator(".answer pre").first().filter({ hasText: '"method": "tools/list"' }).waitFor();
    // A broken request is answered too, with the parse error.
    await box.fill('{"jsonrpc": "2.0", "id": ');
    ok((await status(page)).includes("-32700"), await status(page));
    // A first call to a tool with a megabyte of name: the server's answer echoes it, the
    // page's sentences quote a line of it.
    const call = JSON.parse(retry);
    delete call.params.requestState;
    delete call.params.inputResponses;
    call.params.name = "n".repeat(1 << 20);
    await page.evaluate((line) => {
      const area = document.getElementById("request-line");
      area.value = line;
      area.dispatchEvent(new InputEvent("input", { bubbles: true }));
    }, JSON.stringify(call));
    await page.waitForFunction(() => document.querySelector("[role=status]").textContent.includes("Unknown tool: nnn"));
    const echoed = await status(page);
    ok(echoed.length < 400 && echoed.endsWith("n…"), `${echoed.length} characters: ${echoed.slice(0, 80)}…`);
    // The sequence's text and the editor follow a task later.
    await page.locator(".seq-text li").filter({ hasText: "Unknown tool: nnn" }).first().waitFor({ state: "attached", timeout: 5000 });
    await page.locator(".editor-verdict").filter({ hasText: "Unknown tool: nnn" }).waitFor({ state: "attached", timeout: 5000 });
    const longest = await page.evaluate(() => Math.max(...[...document.querySelectorAll(".seq-text li, .editor-verdict")].map((e) => e.textContent.length)));
    ok(longest < 400, `the sequence's text and the editor's verdict: ${longest} characters`);
    await box.fill(retry.replace('"tools/call"', '"tools/list"'));
    await page.waitForFunction(() => location.hash.includes("l=") && decodeURIComponent(location.hash).includes("tools/list"));
    const link = page.url();
    const said = await status(page);
    await page.context().close();
    const again = await ctx.openPage(link.slice(ctx.baseUrl.length));
    equal(await status(again), said, "the link restores the written request's verdict");
    equal(await again.getByLabel(/^Your request/).inputValue(), retry.replace('"tools/call"', '"tools/list"'), "and the request as written");
    await again.getByRole("button", { name: "Back to the honest retry" }).click();
    ok((await status(again)).includes("accepted"), await status(again));
    noProblems(again);
    await again.context().close();
  },

  async "the theme a learner picks is the page's from the first paint of the next visit"(ctx) {
    const page = await ctx.openPage("#deploy");
    equal(await page.locator("html").getAttribute("data-theme"), "system", "a first visit follows the system");
    await page.getByLabel("Theme").selectOption("dark");
    equal(await page.locator("html").getAttribute("data-theme"), "dark");
    // The next visit, with the lab's module held back: the page's own script has applied
    // the theme before the lab runs, so nothing is drawn in the other one first.
    let release = await holdTheLab(page);
    await page.reload({ waitUntil: "commit" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    equal(await page.locator(".move-title").count(), 0, "the lab has not started yet");
    release();
    await page.locator(".move-title").first().waitFor();
    equal(await page.getByLabel("Theme").inputValue(), "dark", "the switch says so too");
    equal(await page.locator("html").getAttribute("data-theme"), "dark");
    // The iframe page is a copy of this one, but there the lesson's URL decides, not the
    // choice made on the lab's own page.
    release = await holdTheLab(page);
    await page.goto(`${ctx.baseUrl}embed.html?scenario=deploy&theme=light`, { waitUntil: "commit" });
    await page.waitForFunction(() => document.readyState !== "loading");
    equal(await page.locator("html").getAttribute("data-theme"), "system", "embed.html before the lab runs");
    release();
    await page.locator(".move-title").first().waitFor();
    equal(await page.locator("html").getAttribute("data-theme"), "light", "embed.html once it runs");
    noProblems(page);
    await page.context().close();
  },

  async "on a phone the verdict follows a move and an edit, and the checks lead back to the moves; on a wide screen the page stays put"(ctx) {
    // Two columns: the verdict is beside the moves, on screen; the page stays where it is.
    const wide = await ctx.openPage("#deploy");
    ok(await inView(wide.getByRole("status")), "on a wide screen the verdict starts on screen");
    await play(wide, "Honest retry");
    equal(await wide.evaluate(() => window.scrollY), 0, "a move on a wide screen scrolls nothing");
    await editShowingTheClause(wide, false);
    ok(!(await wide.getByRole("button", { name: "Back to the moves ↑" }).isVisible()), "no way back up on two columns");
    await wide.context().close();
    // One column: the verdict sits below the moves, the controls and the editor.
    const phone = await ctx.openPage("#deploy", { viewport: { width: 390, height: 844 } });
    ok(!(await inView(phone.getByRole("status"))), "on a phone the verdict starts below the first screen");
    await play(phone, "Tamper: edit the payload");
    ok(await inView(phone.getByRole("status")), "a move brings its verdict into view");
    ok((await status(phone)).includes("signature"), "the verdict in view is the move's");
    // Typing in the editor: the verdict is out of sight below, so its clause shows under the
    // raw ticket (on a wide screen it does not: the verdict is beside the editor).
    await editShowingTheClause(phone, true);
    // And one tap back up to the moves.
    const back = phone.getByRole("button", { name: "Back to the moves ↑" });
    ok(!(await inView(phone.getByRole("button", { name: "Honest retry", exact: true }))), "the moves are out of sight");
    await back.click();
    await settle(phone);
    ok(await inView(phone.getByRole("button", { name: "Honest retry", exact: true })), "back at the moves");
    noProblems(phone);
    await phone.context().close();
  },

  async "the first screen of a laptop shows more than one move"(ctx) {
    const page = await ctx.openPage("#deploy", { viewport: { width: 1280, height: 800 } });
    await page.locator(".move-title").first().waitFor();
    await settle(page);
    const seen = await page.evaluate(() => [...document.querySelectorAll(".move-title")]
      .filter((b) => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })
      .map((b) => b.textContent));
    ok(seen.length >= 2, `moves on the first screen: ${seen.join(", ")}`);
    await page.context().close();
  },

  async "a phone's first screen shows what the scenario teaches and its first moves; the rule follows them"(ctx) {
    const page = await ctx.openPage("#deploy", { viewport: { width: 390, height: 844 } });
    await page.locator(".move-title").first().waitFor();
    await settle(page);
    ok(await inView(page.getByRole("heading", { name: "Misuse the ticket" })), "the scenario's name");
    const seen = await page.evaluate(() => [...document.querySelectorAll(".move-title")]
      .filter((b) => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })
      .map((b) => b.textContent));
    ok(seen.length >= 2, `moves on a phone's first screen: ${seen.join(", ")}`);
    // Every scenario is still a tap away: the picker's rows scroll sideways.
    const picker = page.getByRole("navigation", { name: "Scenarios" });
    const last = picker.getByRole("button").last();
    await last.scrollIntoViewIfNeeded();
    ok(await inView(last), "the last scenario scrolls into view");
    // The rule comes after the moves (and the screen reader reads it in the scenario's region).
    const [rule, moves] = await Promise.all([page.locator(".rule"), page.locator(".moves")].map((l) => l.evaluate((e) => e.getBoundingClientRect().top)));
    ok(rule > moves, `the rule (${rule}) below the moves (${moves})`);
    equal(await page.getByRole("region", { name: "Misuse the ticket" }).locator(".rule").count(), 1);
    await ctx.screenshot(page, "phone-first-screen");
    equal(await axeViolations(page, ctx.root), [], "axe, phone");
    noProblems(page);
    await page.context().close();
  },

  async "the sticky verdict never covers the checks: they slide over it, and it returns below them"(ctx) {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      const page = await ctx.openPage("#deploy", { viewport });
      await play(page, "Tamper: edit the payload");
      const [top, height] = await page.locator(".checks").evaluate((e) => [e.getBoundingClientRect().top + scrollY, e.offsetHeight]);
      // What is at the top of the window, in the results column, scrolled to a place.
      const topmost = async (y) => {
        await page.evaluate((y) => scrollTo(0, y), y);
        await settle(page);
        return page.evaluate(() => {
          const column = document.querySelector(".results-column").getBoundingClientRect();
          return document.elementFromPoint(column.left + column.width / 2, 8)?.closest(".status, section")?.className;
        });
      };
      for (const into of [10, height / 2, height - 30]) equal(await topmost(top + into), "checks", `${viewport.width}px, ${into}px into the checks`);
      equal(await topmost(top + height + 50), "status", `${viewport.width}px, past the checks the verdict is back`);
      await page.context().close();
    }
  },

  async "skip links reach each panel in a few key presses"(ctx) {
    const page = await ctx.openPage("#deploy");
    await page.locator(".move-title").first().waitFor();
    // From the top of the page: Tab to the skip link, follow it, then Tab into the panel.
    let presses = 0;
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
    do {
      await page.keyboard.press("Tab");
      presses += 1;
    } while (!(await focused()).includes("test your server") && presses < 20);
    ok(await page.getByRole("link", { name: "Skip to: test your server" }).isVisible(), "a focused skip link is seen");
    await page.keyboard.press("Enter");
    equal(await focused(), "Test your server", "the focus is on the panel's heading");
    // The panel's form arrives with its module, which loads as the panel comes near.
    await page.locator("mrtr-probe input").first().waitFor();
    do {
      await page.keyboard.press("Tab");
      presses += 1;
    } while ((await focused()) !== "Test the server" && presses < 40);
    equal(await focused(), "Test the server");
    ok(presses <= 16, `${presses} key presses to "Test the server"`);
    const names = await page.getByRole("navigation", { name: "Skip to a panel" }).getByRole("link").allTextContents();
    equal(names.length, 7);
    for (const href of await page.locator(".skip-links a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))) {
      await page.locator(href).waitFor({ state: "attached" });
    }
    noProblems(page);
    await page.context().close();
  },

  async "the lab fits a phone"(ctx) {
    const page = await ctx.openPage("#deploy", { viewport: { width: 390, height: 844 } });
    await play(page, "Honest retry");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    ok(overflow <= 1, `the page is ${overflow}px wider than the phone`);
    // The diagrams and the attempts table scroll sideways inside their panels: by keyboard too,
    // and a line above each that is wider than the phone says so; the Verdict column is there
    // to scroll to.
    await page.locator(".timeline-panel table.attempts").waitFor();
    for (const name of ["Sequence diagram", "Attempts on the ticket"]) {
      const box = page.getByRole("group", { name, exact: true });
      const [scrollWidth, clientWidth] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      ok(scrollWidth > clientWidth, `${name}: wider than the phone (${scrollWidth} > ${clientWidth}), so it scrolls`);
      const cue = await box.evaluate((el) => getComputedStyle(el, "::before").display);
      equal(cue, "block", `${name}: the line saying it scrolls sideways shows`);
      equal(await box.getAttribute("tabindex"), "0", `${name}: the keyboard can scroll it`);
    }
    const attempts = page.getByRole("group", { name: "Attempts on the ticket" });
    const verdictColumn = attempts.getByRole("columnheader", { name: "Verdict" });
    await attempts.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
    const [region, column] = [await attempts.boundingBox(), await verdictColumn.boundingBox()];
    ok(column.x >= region.x && column.x + column.width <= region.x + region.width + 1, "scrolled, the Verdict column is in its box");
    equal(await axeViolations(page, ctx.root), [], "axe violations on a phone");
    await ctx.screenshot(page, "phone-misuse");
    noProblems(page);
    await page.context().close();
  },
};
