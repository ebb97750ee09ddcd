// Node 20 preload for the official conformance suite: its CLI imports `globSync` from `fs`,
// which Node 20 lacks, and the import fails before anything runs. This registers a resolver
// that hands the suite (and only the suite) an `fs` with a `globSync` that says it is not
// here. The MRTR scenarios never call it; only the suite's tier check does.
//
//   NODE_OPTIONS="--import ./tests/conformance/node20/register.mjs" npx conformance …
import { register } from "node:module";

register("./resolve-fs.mjs", import.meta.url);
