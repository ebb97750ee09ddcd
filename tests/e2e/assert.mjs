// Small assertions with messages that say what was seen.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function ok(value, message) {
  if (!value) throw new Error(message ?? `expected a truthy value, got ${value}`);
}
export function equal(actual, expected, message) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${message ?? "not equal"}\n       got:  ${a}\n       want: ${e}`);
}
export async function throwsWith(fn, text) {
  try {
    await fn();
  } catch (error) {
    if (!String(error?.message ?? error).includes(text)) throw new Error(`threw "${error?.message}", expected it to mention "${text}"`);
    return;
  }
  throw new Error(`expected an error mentioning "${text}"`);
}
/** Waits until Yew has rendered what the last event scheduled: two animation frames, or
 *  `frames` of them for what the page finishes over several (a scroll that waits for the
 *  panels above to take their real heights). */
export const settle = (page, frames = 2) =>
  page.evaluate(async (frames) => {
    for (let frame = 0; frame < frames; frame++) await new Promise(requestAnimationFrame);
  }, frames);

/** Keeps what the page says is wrong: errors and uncaught exceptions in `page.problems`,
 *  warnings in `page.warnings` (but Playwright's own note that it blocked the service
 *  worker). `noProblems` wants both empty; a test that expects a warning takes it first. */
export function watchConsole(page) {
  page.problems = [];
  page.warnings = [];
  page.on("console", (m) => {
    if (m.type() === "error") page.problems.push(`console: ${m.text()}`);
    if (m.type() === "warning" && !m.text().startsWith("Service Worker registration blocked by Playwright")) page.warnings.push(m.text());
  });
  page.on("pageerror", (e) => page.problems.push(`page error: ${e.message}`));
}
/** The page's warning that starts with `start`, taken off its list. */
export function takeWarning(page, start) {
  const at = page.warnings.findIndex((w) => w.startsWith(start));
  ok(at >= 0, `no warning starting "${start}"; the page warned: ${JSON.stringify(page.warnings)}`);
  return page.warnings.splice(at, 1)[0];
}
export function noProblems(page) {
  equal(page.problems, [], "the page logged errors");
  equal(page.warnings, [], "the page logged warnings");
}
/** What axe finds wrong on the page (shadow roots included), one line per rule. */
export async function axeViolations(page, root) {
  await page.addScriptTag({ content: readFileSync(join(root, "node_modules/axe-core/axe.min.js"), "utf8") });
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes[0]?.target}`);
  });
}
