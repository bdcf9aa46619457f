// Live progress of a running run: while the run's section says it is running, fetch the server-rendered
// section again every second and put it in place; stop once the run has ended (or the page is hidden).
"use strict";
(function () {
  const INTERVAL_MS = 1000;

  async function refresh() {
    const current = document.getElementById("live");
    if (!current || current.dataset.status !== "running") return;
    if (!document.hidden) {
      try {
        const response = await fetch(current.dataset.liveUrl, { cache: "no-store", credentials: "same-origin" });
        if (response.ok) {
          const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("live");
          if (fresh) current.replaceWith(fresh);
        }
      } catch (error) {
        // The server may be restarting: try again at the next tick.
      }
    }
    setTimeout(refresh, INTERVAL_MS);
  }

  document.addEventListener("DOMContentLoaded", () => setTimeout(refresh, INTERVAL_MS));
})();
