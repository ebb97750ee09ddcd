// What the lab's parts and its element share in the page: building an element, and the
// lesson's own settings for a class (`<meta name="mrtr-lab" content="hide=hints,solutions&…">`,
// docs/EMBEDDING.md).

/** `tag` with `props` assigned and `children` appended. */
export function element(tag, props = {}, ...children) {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
}

/** The lesson's settings, read as a query string. */
export function lessonSettings() {
  return new URLSearchParams(document.querySelector('meta[name="mrtr-lab"]')?.getAttribute("content") ?? "");
}
