// Resolution hooks: `fs` imported from inside @modelcontextprotocol/conformance becomes
// node:fs plus a globSync (Node 22's) that throws a clear error on Node 20.
const FS_WITH_GLOB = "mrtr-node20:fs";

export async function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes("/@modelcontextprotocol/conformance/");
  if (fromSuite && (specifier === "fs" || specifier === "node:fs")) {
    return { url: FS_WITH_GLOB, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url !== FS_WITH_GLOB) return next(url, context);
  const source = `
    import fs from "node:fs";
    export * from "node:fs";
    export default fs;
    export const globSync = fs.globSync ?? (() => {
      throw new Error("fs.globSync needs Node 22; the MRTR scenarios do not use it");
    });`;
  return { format: "module", source, shortCircuit: true };
}
