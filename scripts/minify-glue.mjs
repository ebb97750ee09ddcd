// Minifies the lab's wasm-bindgen module in Trunk's staging directory, and gives the pages
// that load it the module's new Subresource Integrity hash. Trunk 0.21's own minifier leaves
// this module as it is (45 KB of readable JavaScript); terser takes it to a third.
// Run by scripts/trunk-post-build.sh on release builds:
//
//   node scripts/minify-glue.mjs STAGING_DIR MODULE PAGE...
import { readFile, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { minify } from "terser";

const [stage, module, ...pages] = process.argv.slice(2);
const integrity = (text) => `sha384-${createHash("sha384").update(text).digest("base64")}`;
const path = join(stage, module);
const source = await readFile(path, "utf8");
// Exports and the import object's names (the wasm asks for those) are kept: terser renames
// only local names, and no property.
const { code } = await minify(source, { module: true, compress: true, mangle: true });
for (const page of pages) {
  const file = join(stage, page);
  const html = await readFile(file, "utf8");
  if (!html.includes(integrity(source))) throw new Error(`${page} does not name ${module} by its integrity hash`);
  await writeFile(file, html.replaceAll(integrity(source), integrity(code)));
}
await writeFile(path, code);
console.error(`post-build: ${module} minified, ${source.length} → ${code.length} bytes`);
