// A static file server on a free loopback port, for the browser tests and the budget.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".json": "application/json", ".png": "image/png", ".svg": "image/svg+xml", ".ts": "text/plain",
};

/** Serves `dir`; resolves to `{ server, url }` once listening. `isolated` adds the headers
 *  that make the page cross-origin isolated, so its clock (`performance.now()`) counts in
 *  5 µs steps instead of 100 µs: the budget reads sub-millisecond times with it. */
export async function serve(dir, { isolated = false } = {}) {
  const isolation = isolated ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" } : {};
  const server = createServer(async (req, res) => {
    // A path that does not decode (`%zz`) is refused; one that climbs (`/../`) stays in `dir`.
    let path;
    try {
      path = normalize(decodeURIComponent(req.url.split("?")[0])).replace(/^(\.\.[/\\])+/, "");
    } catch {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end("bad path");
      return;
    }
    const file = join(dir, path.endsWith("/") ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      // Any origin may load the lab's files, as a lesson page elsewhere does.
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "access-control-allow-origin": "*", ...isolation });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}
