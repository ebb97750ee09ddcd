// The lab's service worker: a student who opened the lab (or a lesson page served beside
// it) once can use it again offline, on a train. scripts/trunk-post-build.sh writes the
// build's file list and version into the copy in dist/.
//
// Files whose names carry a content hash never change: served from the cache first.
// Everything else (the pages, the element scripts) comes from the network when it answers,
// so a rebuild shows at once, and from the cache when it does not. The JS package, which the
// probe panels load on their first run, is kept when first fetched, not at install.
const VERSION = "__VERSION__";
const CACHE = `mrtr-lab-${VERSION}`;
const FILES = [
__PRECACHE__
];
const HASHED = /-[0-9a-f]{12,}(_bg)?\.(js|wasm|css)$/;
const OFFLINE_AFTER_MS = 4000;

// A file whose name carries its hash is taken from the browser's HTTP cache when the page
// already fetched it (force-cache): installing must not fetch the lab's module a second time.
const precache = (file) => new Request(file, { cache: HASHED.test(file) ? "force-cache" : "no-cache" });

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(["./", ...FILES].map(precache)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("mrtr-lab-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(request)) ?? (await cache.match(request, { ignoreSearch: true }));
}

async function fromNetwork(request) {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("offline")), OFFLINE_AFTER_MS));
  const response = await Promise.race([fetch(request), timeout]);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (HASHED.test(new URL(request.url).pathname)) {
    event.respondWith(fromCache(request).then((hit) => hit ?? fromNetwork(request)));
    return;
  }
  event.respondWith(
    fromNetwork(request).catch(async (error) => {
      const hit = await fromCache(request);
      if (hit) return hit;
      throw error;
    }),
  );
});
