// The lab's one WebAssembly module and its stylesheet, loaded once for every element on the
// page: <mrtr-lab> mounts labs with it, <mrtr-ticket> opens tickets with its codec
// (`ticketMint`, `ticketOpen`). A module script runs once per page, so every importer shares
// these two promises: one fetch of each, whichever element asks first.
import { glue, styles, wasm } from "./mrtr-lab-build.js";

const here = new URL(".", import.meta.url);
let module;
let sheet;

/** The lab's module, instantiated. */
export function labModule() {
  module ??= import(new URL(glue, here).href).then(async (m) => {
    await m.default({ module_or_path: new URL(wasm, here) });
    return m;
  });
  return module;
}

/** The lab's styles as one constructed stylesheet, for a shadow root. */
export function labStyles() {
  sheet ??= fetch(new URL(styles, here)).then(async (response) => {
    if (!response.ok) throw new Error(`mrtr-lab: ${styles} answered ${response.status}`);
    const constructed = new CSSStyleSheet();
    constructed.replaceSync(await response.text());
    return constructed;
  });
  return sheet;
}
