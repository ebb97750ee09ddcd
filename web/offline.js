// Keeps the lab and its lesson pages usable offline once opened (see sw.js).
if ("serviceWorker" in navigator) {
  addEventListener("load", () => {
    navigator.serviceWorker.register(new URL("sw.js", import.meta.url)).catch((error) => console.warn("mrtr-lab works online only here:", error.message));
  });
}
