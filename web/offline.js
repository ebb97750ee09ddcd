// Keeps the lab and its lesson pages usable offline once opened (see sw.js).
//
// Registered once a lab has opened (its `mrtr-lab:opened` mark on the page's timeline) and
// the browser is idle, not at the page's load: installing the worker fetches and stores
// every file of the build, work that competed with the lab's start (on a 4 Mbps network
// the first move button came ~30 ms later with the registration at load).
if ("serviceWorker" in navigator) {
  const register = () =>
    navigator.serviceWorker.register(new URL("sw.js", import.meta.url)).catch((error) => console.warn("mrtr-lab works online only here:", error.message));
  new PerformanceObserver((marks, observer) => {
    if (marks.getEntriesByName("mrtr-lab:opened").length === 0) return;
    observer.disconnect();
    (self.requestIdleCallback ?? setTimeout)(register);
  }).observe({ type: "mark", buffered: true });
}
