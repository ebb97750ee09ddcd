// Minifies a page's wasm-bindgen module in Trunk's staging directory. wasm-opt
// (`--minify-imports-and-exports`) renames the names the wasm imports from the module
// (`__wbg_body_5f971cbc6950ca4f` → `a`: over a hundred, with hashes gzip cannot shrink, in both
// files) and the names the module calls the wasm's exports by
// (`wasm.wasm_bindgen__convert__closures_____invoke__h4a96dd2f26cd2bb9` → `wasm.b`), and prints
// what it renamed; this script renames the same in the module, then minifies the JavaScript
// (terser; Trunk 0.21's own minifier cannot parse wasm-bindgen's module and leaves it as it
// is). The pages name the two files without integrity hashes (Trunk.toml: no_sri), so they
// need no change. Run by scripts/trunk-post-build.sh on release builds:
//
//   node scripts/minify-module.mjs STAGING_DIR MODULE
import { execFileSync } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { minify } from "terser";

const [stage, module] = process.argv.slice(2);
const wasmFile = join(stage, module.replace(/\.js$/, "_bg.wasm"));
const before = (await stat(wasmFile)).size;

// wasm-opt writes the wasm in place and prints {"imports": [[module, name, new]], "exports":
// [[name, new]]}; every import module becomes "a". Only renaming: no other pass runs. Every
// feature the wasm may use is allowed, but the compact import section, which browsers do not
// read yet.
const printed = execFileSync(
  "wasm-opt",
  [wasmFile, "--all-features", "--disable-compact-imports", "--minify-imports-and-exports-and-modules", "-o", wasmFile],
  { encoding: "utf8", maxBuffer: 16 << 20 },
);
const mapping = JSON.parse(printed.slice(printed.indexOf("{")));

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
let renamed = await readFile(join(stage, module), "utf8");
// The module's import object names each import once, as a key (`name: function(…)`), under
// one key for the one module (`"./x_bg.js": import0`). Anything else is refused, not guessed at.
const modules = new Set(mapping.imports.map(([from]) => from));
if (modules.size !== 1) throw new Error(`${module}: imports from ${modules.size} modules, not one`);
for (const from of modules) {
  const key = `${JSON.stringify(from)}:`;
  if (renamed.split(key).length !== 2) throw new Error(`${module}: the import module ${from} is not one key`);
  renamed = renamed.replace(key, "a:");
}
for (const [, field, short] of mapping.imports) {
  const key = new RegExp(`(?<![\\w$])${escape(field)}(?=\\s*:)`, "g");
  if ((renamed.match(key) ?? []).length !== 1) throw new Error(`${module}: the import ${field} is not one key`);
  renamed = renamed.replace(key, short);
}
// The module holds the wasm's exports in `wasm` and calls each as `wasm.name`; an export
// reached any other way (`wasm[name]`, `instance.exports.name`) would be lost, so that is
// refused too.
if (!/\bwasm = instance\.exports;/.test(renamed) || /\bwasm\s*\[|\bexports\.\w/.test(renamed.replace("wasm = instance.exports;", ""))) {
  throw new Error(`${module}: the exports are not all called as \`wasm.name\``);
}
for (const [exported, short] of mapping.exports) {
  renamed = renamed.replace(new RegExp(`(?<![\\w$.])wasm\\.${escape(exported)}(?![\\w$])`, "g"), `wasm.${short}`);
}
const { code } = await minify(renamed, { module: true, compress: true, mangle: true });
await writeFile(join(stage, module), code);
const after = (await stat(wasmFile)).size;
console.error(`post-build: ${module} minified to ${code.length} bytes; ${mapping.imports.length} imports and ${mapping.exports.length} exports renamed, the wasm ${before} → ${after} bytes`);
