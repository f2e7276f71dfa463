// Workers (#/workers): every worker the coordinator has heard from, live or lost, with its host,
// version, queues, types, concurrency, the jobs it holds and when it was last seen.
"use strict";

(function () {
  const A = window.Antrean;
  const el = A.el;

  A.pages.push({
    name: "workers",
    pattern: /^\/workers$/,
    render: async () => {
      const { workers } = await A.api("GET", "/v1/workers");
      const list = workers || [];
      const live = list.filter((w) => A.shortState(w.liveness) === "LIVE").length;
      return [
        el("h1", {}, "Workers"),
        el("p", { class: "summary", id: "worker-summary" },
          live + " live, " + (list.length - live) + " lost. A worker silent for three heartbeat"
          + " intervals is lost, and forgotten after twenty; this coordinator knows only the"
          + " workers that call it."),
        list.length
          ? A.table("workers", ["Worker", "State", "Host", "Version", "Queues", "Types", "Concurrency", "Held", "Waiting", "Last seen", "First seen"],
            list.map((w) => {
              const info = w.info || {};
              const state = A.shortState(w.liveness);
              return {
                attrs: { "data-worker": w.worker_id, class: state.toLowerCase() },
                cells: [
                  w.worker_id,
                  el("span", { class: "state " + state }, state.toLowerCase()),
                  info.host || "—", info.version || "—",
                  (info.queues || []).join(", ") || "—",
                  (info.types || []).join(", ") || "—",
                  info.concurrency ? String(info.concurrency) : "—",
                  el("td", { class: "held" }, String(w.jobs_held || 0)),
                  String(w.waiting_lease_calls || 0),
                  A.time(w.last_seen), A.time(w.first_seen),
                ],
              };
            }))
          : el("p", { class: "empty", id: "workers" }, "No worker has called this coordinator yet."),
      ];
    },
  });
})();
