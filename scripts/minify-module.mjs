// Minifies a page's wasm-bindgen module in Trunk's staging directory: the names its wasm
// imports from it (`__wbg_body_5f971cbc6950ca4f` → `a`: 139 of them, with hashes gzip
// cannot shrink, in both files) and the names it calls the wasm's exports by
// (`wasm.wasm_bindgen__convert__closures_____invoke__h4a96dd2f26cd2bb9` → `wasm.a`), then the
// JavaScript (terser; Trunk 0.21's own minifier cannot parse wasm-bindgen's module and leaves
// it as it is). The pages name the two files without integrity hashes (Trunk.toml: no_sri),
// so they need no change. Run by scripts/trunk-post-build.sh on release builds:
//
//   node scripts/minify-module.mjs STAGING_DIR MODULE
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { minify } from "terser";

const [stage, module] = process.argv.slice(2);
const wasmFile = module.replace(/\.js$/, "_bg.wasm");

/** An unsigned LEB128 number at `at`: [value, where the next field starts]. */
function readLeb(bytes, at) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}
function leb(value) {
  const out = [];
  do {
    const byte = value % 128;
    value = Math.floor(value / 128);
    out.push(value > 0 ? byte | 0x80 : byte);
  } while (value > 0);
  return out;
}
const utf8 = new TextEncoder();
const name = (text) => [...leb(utf8.encode(text).length), ...utf8.encode(text)];

/** The wasm with section `id` replaced by `rewrite(its bytes)`; every other section is kept
 *  as it is. */
function rewriteSection(wasm, id, rewrite) {
  let [at, size, start] = [8, 0, 0];
  for (; at < wasm.length; at = start + size) {
    [size, start] = readLeb(wasm, at + 1);
    if (wasm[at] === id) break;
  }
  if (at >= wasm.length) throw new Error(`${wasmFile}: no section ${id}`);
  const section = rewrite(wasm.subarray(start, start + size));
  return Buffer.concat([wasm.subarray(0, at), Buffer.from([id, ...leb(section.length), ...section]), wasm.subarray(start + size)]);
}

/** A reader of a section's entries: their count, then names and numbers in turn. */
function entries(section) {
  const text = new TextDecoder();
  const reader = { at: 0 };
  reader.leb = () => {
    const [value, next] = readLeb(section, reader.at);
    reader.at = next;
    return value;
  };
  reader.name = () => {
    const length = reader.leb();
    return text.decode(section.subarray(reader.at, (reader.at += length)));
  };
  reader.count = reader.leb();
  return reader;
}

/** The import section (id 2) with each import renamed by `rename(module, field)` → [module,
 *  field]. */
function renamedImports(section, rename) {
  const read = entries(section);
  const out = leb(read.count);
  const skipLimits = () => {
    const flags = section[read.at++];
    read.leb();
    if (flags & 1) read.leb();
  };
  for (let count = read.count; count--; ) {
    const [module, field] = rename(read.name(), read.name());
    const descriptor = read.at;
    const kind = section[read.at++];
    if (kind === 0) read.leb(); // a function: its type
    else if (kind === 1) (read.at++, skipLimits()); // a table: its element type, limits
    else if (kind === 2) skipLimits(); // a memory
    else if (kind === 3) read.at += 2; // a global: its type, mutability
    else if (kind === 4) (read.at++, read.leb()); // a tag
    else throw new Error(`${wasmFile}: an import of kind ${kind}`);
    out.push(...name(module), ...name(field), ...section.subarray(descriptor, read.at));
  }
  return out;
}

/** The export section (id 7) with each export renamed by `rename(name)`. */
function renamedExports(section, rename) {
  const read = entries(section);
  const out = leb(read.count);
  for (let count = read.count; count--; ) {
    const exported = rename(read.name());
    const kind = section[read.at++];
    out.push(...name(exported), kind, ...leb(read.leb()));
  }
  return out;
}

/** Short names for the imports, in order: a … z, A … Z, aa, ab, … (valid JS names, all). */
function shortName(index) {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return index < letters.length ? letters[index] : shortName(Math.floor(index / letters.length) - 1) + letters[index % letters.length];
}

const source = await readFile(join(stage, module), "utf8");
const wasm = await readFile(join(stage, wasmFile));
// The module's import object names each import once, as a key (`name: function(…)`), under
// one key for the module (`"./x_bg.js": import0`). Anything else is refused, not guessed at.
let renamed = source;
let imports = 0;
const fields = new Map();
const modules = new Map();
const withImportsRenamed = rewriteSection(wasm, 2, (section) => renamedImports(section, (from, field) => {
  if (!modules.has(from)) {
    const key = JSON.stringify(from);
    if (renamed.split(`${key}:`).length !== 2) throw new Error(`${module}: the import module ${key} is not one key`);
    modules.set(from, `m${modules.size || ""}`);
    renamed = renamed.replace(`${key}:`, `${modules.get(from)}:`);
  }
  if (!fields.has(field)) {
    const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const key = new RegExp(`(?<![\\w$])${escaped}(?=\\s*:)`, "g");
    if ((renamed.match(key) ?? []).length !== 1) throw new Error(`${module}: the import ${field} is not one key`);
    fields.set(field, shortName(fields.size));
    renamed = renamed.replace(key, fields.get(field));
  }
  imports++;
  return [modules.get(from), fields.get(field)];
}));
// The module holds the wasm's exports in `wasm` and calls each as `wasm.name`. An export it
// never names that way (`main`, two globals) keeps its name.
if (!/\bwasm = instance\.exports;/.test(renamed)) throw new Error(`${module}: the exports are not held in \`wasm\``);
let exports = 0;
const minifiedWasm = rewriteSection(withImportsRenamed, 7, (section) => renamedExports(section, (exported) => {
  const escaped = exported.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const use = new RegExp(`(?<![\\w$.])wasm\\.${escaped}(?![\\w$])`, "g");
  if (!use.test(renamed)) return exported;
  const short = shortName(exports++);
  renamed = renamed.replace(use, `wasm.${short}`);
  return short;
}));
const { code } = await minify(renamed, { module: true, compress: true, mangle: true });
await writeFile(join(stage, module), code);
await writeFile(join(stage, wasmFile), minifiedWasm);
console.error(`post-build: ${module} minified, ${source.length} → ${code.length} bytes; ${imports} imports and ${exports} exports renamed, ${wasmFile} ${wasm.length} → ${minifiedWasm.length} bytes`);
