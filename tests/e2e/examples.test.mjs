// The embed kit's JavaScript examples: they type-check against the package's own types,
// and they run.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { equal, ok } from "./assert.mjs";

const tsc = (root, ...args) => spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), ...args], { encoding: "utf8" });

export const tests = {
  async "the TypeScript example type-checks (tsc --noEmit) and runs"({ root }) {
    const checked = tsc(root, "-p", join(root, "web/examples"));
    equal(checked.status, 0, `tsc: ${checked.stdout}${checked.stderr}`);
    const source = readFileSync(join(root, "web/examples/codec.ts"), "utf8");
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
    mkdirSync(join(root, "dist/examples"), { recursive: true });
    const out = join(root, "dist/examples/codec.mjs");
    writeFileSync(out, js);
    const { demo } = await import(pathToFileURL(out).href);
    const lines = await demo(readFileSync(join(root, "dist/pkg/mrtr_js_bg.wasm")));
    equal(lines[0], "failed check: principal");
    ok(lines.includes("✗ Principal = the caller: minted for bob, presented by alice"), lines.join("\n"));
    equal(lines.at(-1), "verdicts: accepted, single-use");
  },

  async "the types catch a wrong call"({ root }) {
    const dir = join(root, "target/ts-bad");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "bad.ts"), `import { mint } from "../../dist/pkg/mrtr_js.js";\nmint({ key: 42, principal: "bob", nowMs: 0, ttlMs: 1 });\n`);
    const checked = tsc(root, "--noEmit", "--strict", "--target", "ES2022", "--module", "ES2022", "--moduleResolution", "bundler", "--lib", "ESNext,DOM", join(dir, "bad.ts"));
    ok(checked.status !== 0 && checked.stdout.includes("Type 'number' is not assignable to type 'string'"), checked.stdout);
  },

  async "the Node example talks to the simulated server"({ root }) {
    const run = spawnSync(process.execPath, [join(root, "web/examples/server-node.mjs")], { encoding: "utf8" });
    equal(run.status, 0, run.stderr);
    ok(run.stdout.includes("bob: deployed to staging; alice: Invalid requestState: issued to a different principal."), run.stdout);
    ok(run.stdout.split("\n").filter((l) => l.startsWith("-->")).length === 3, run.stdout);
  },
};
