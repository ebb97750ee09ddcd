// Small assertions with messages that say what was seen.
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
export function noProblems(page) {
  equal(page.problems, [], "the page logged errors");
}
