// The ticket codec from TypeScript, type-checked against the package's own .d.ts.
//
//   npx tsc -p web/examples        (checks it; scripts and tests compile and run it)
import init, { explain, inspect, mint, open, requestDigest, Verifier } from "../../dist/pkg/mrtr_js.js";

export async function demo(wasm?: BufferSource): Promise<string[]> {
  await init(wasm ? { module_or_path: wasm } : undefined);
  const key = "mrtr-lab demo key, not a secret!";
  const request = { method: "tools/call", params: { name: "deploy", arguments: { env: "staging" } } };
  const ticket: string = mint({ key, principal: "bob", request, data: { env: "staging" }, nowMs: 0, ttlMs: 120000 });
  const report = open(ticket, { key, principal: "alice", request, nowMs: 20000 });
  const lines: string[] = explain(ticket, { key, principal: "alice", request, nowMs: 20000 });
  const parts = inspect(ticket);
  const verifier = new Verifier({ key, replayRecord: true });
  const digest: string = requestDigest(request.method, request.params);
  const verdicts = [verifier.verdict(ticket, "bob", digest, 1000), verifier.verdict(ticket, "bob", digest, 2000)];
  return [`failed check: ${report.failedCheck}`, ...lines, `parts: ${parts.parts.length}`, `verdicts: ${verdicts.join(", ")}`];
}
