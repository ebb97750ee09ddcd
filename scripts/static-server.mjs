// A static file server on a free loopback port, for the browser tests and the budget.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".json": "application/json", ".png": "image/png", ".svg": "image/svg+xml", ".ts": "text/plain",
};

/** Serves `dir`; resolves to `{ server, url }` once listening. `isolated` adds the headers
 *  that make the page cross-origin isolated, so its clock (`performance.now()`) counts in
 *  5 µs steps instead of 100 µs: the budget reads sub-millisecond times with it.
 *  `served(path, body)` hears of every file sent: the budget counts what a visit fetched. */
export async function serve(dir, { isolated = false, served } = {}) {
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
      // A validator, as every static host sends: a browser that has the file asks again with
      // it and gets 304 without the body.
      const { size, mtimeMs } = await stat(file);
      const etag = `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
      // Any origin may load the lab's files, as a lesson page elsewhere does.
      const headers = { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "access-control-allow-origin": "*", etag, ...isolation };
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, headers);
      res.end(body);
      served?.(path, body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}
