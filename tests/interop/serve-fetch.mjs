// Serves a web-standard fetch handler (`(Request) => Promise<Response>`, as the official
// TypeScript SDK v2's handlers are) with node:http on 127.0.0.1, and prints
// "listening on http://127.0.0.1:PORT/mcp" once it listens: the test fixtures' one bridge.
import { createServer } from "node:http";

export function serveFetch(fetchHandler, port = 0) {
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
      body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
    });
    const response = await fetchHandler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  http.listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${http.address().port}/mcp`));
  return http;
}
