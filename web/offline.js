// Keeps the lab's pages usable offline (sw.js): registered once a lab has opened and the page is idle.
if ("serviceWorker" in navigator)
  new PerformanceObserver((marks, observer) => {
    if (!marks.getEntriesByName("mrtr-lab:opened").length) return;
    observer.disconnect();
    (self.requestIdleCallback ?? setTimeout)(() =>
      navigator.serviceWorker.register(new URL("sw.js", import.meta.url)).catch((e) => console.warn("mrtr-lab works online only here:", e.message)));
  }).observe({ type: "mark", buffered: true });
