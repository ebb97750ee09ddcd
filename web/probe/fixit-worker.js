// Fix-It's Web Worker: runs the lab's attacks against the lab's server with the learner's
// verifier, away from the page, so the page can stop it when the learner's code loops.
// Message in: {source}. Message out: {report} (dist/pkg's FixItReport) or {error}.
import init, { fixIt } from "../pkg/mrtr_js.js";
import * as m from "../pkg/mrtr_js.js";
import { compile } from "./verifier.js";

const ready = init();

self.onmessage = async ({ data }) => {
  try {
    await ready;
    const open = compile(String(data.source ?? ""), m);
    self.postMessage({ report: fixIt(open) });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
