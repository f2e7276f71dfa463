// The overview (#/): a card per queue with its counts and the last hour's rates per minute from
// the coordinator (/v1/rates), so the chart is full the moment the page opens; then the newest dead
// letters. Each section shows its own error when its data cannot be loaded.
"use strict";

(function () {
  const A = window.Antrean;
  const el = A.el;
  const COUNTS = ["waiting", "pending", "scheduled", "running", "succeeded", "failed", "cancelled"];
  const SERIES = [["succeeded", "ok"], ["failed", "bad"], ["enqueued", "in"]];

  async function load(what, promise) {
    try {
      return { value: await promise };
    } catch (e) {
      return { error: A.errorBox(what, e) };
    }
  }

  function chart(queue, minutes) {
    const width = 360, height = 70, top = 14;
    const node = A.svg("svg", {
      class: "chart", viewBox: "0 0 " + width + " " + height, preserveAspectRatio: "none",
      role: "img", "aria-label": "jobs per minute in " + queue + ", last hour",
      "data-minutes": minutes.length,
    });
    const max = Math.max(1, ...minutes.flatMap((m) => SERIES.map(([k]) => Number(m[k] || 0))));
    const step = minutes.length > 1 ? width / (minutes.length - 1) : width;
    for (const [key, cls] of SERIES) {
      const coords = minutes.map((m, i) =>
        (i * step).toFixed(1) + "," + (height - 2 - (Number(m[key] || 0) / max) * (height - top - 4)).toFixed(1));
      if (coords.length > 1) node.appendChild(A.svg("polyline", { class: cls, points: coords.join(" ") }));
    }
    const label = A.svg("text", { x: 4, y: 11 });
    label.textContent = "per minute, last hour · max " + max;
    node.appendChild(label);
    return node;
  }

  function queueCard(q, info, minutes) {
    const paused = info && info.paused === true;
    const previous = minutes.length > 1 ? minutes[minutes.length - 2] : {};
    return el("section", { class: "card queue", "data-queue": q.queue },
      el("h3", {}, el("span", { class: "name" }, q.queue),
        paused ? el("span", { class: "state paused" }, "paused") : null,
        pauseButton(q.queue, info)),
      el("div", { class: "counts" }, COUNTS.map((name) =>
        el("a", { class: "count " + name, href: "#/jobs" + A.query({ queue: q.queue, state: name === "scheduled" ? "pending" : name }) },
          el("div", { class: "n", "data-count": name }, String(Number(q[name] || 0))),
          el("div", { class: "l" }, name)))),
      el("div", { class: "meta" },
        el("span", { class: "oldest" }, "oldest pending: " + A.age(A.seconds(q.oldest_pending_age))),
        el("span", { class: "rate", "data-rate": "succeeded" },
          "last minute: " + Number(previous.succeeded || 0) + " succeeded, " + Number(previous.failed || 0) + " failed"),
        el("span", { class: "legend" }, SERIES.map(([k, cls]) => el("span", { class: "key " + cls }, k)))),
      limitsLine(info),
      chart(q.queue, minutes));
  }

  // The queue's concurrency and rate limits as /v1/queues reports them (proto field names).
  function limitsLine(info) {
    const l = info && info.limits;
    if (!l) return null;
    const rate = (r) => "at most " + Number(r.starts) + " per " + r.interval;
    const parts = [];
    if (l.max_running) parts.push("at most " + Number(l.max_running) + " running");
    if (l.max_running_per_key) parts.push("at most " + Number(l.max_running_per_key) + " running per key");
    if (l.rate) parts.push(rate(l.rate) + " started");
    if (l.rate_per_key) parts.push(rate(l.rate_per_key) + " started per key");
    return el("div", { class: "limits" }, "limits: " + parts.join(", "));
  }

  // Pause and resume appear only when the coordinator reports pause state in /v1/queues.
  function pauseButton(queue, info) {
    if (!info || typeof info.paused !== "boolean") return null;
    const verb = info.paused ? "resume" : "pause";
    return el("button", {
      class: verb, "data-queue": queue,
      onclick: () => A.act(verb + " " + queue, "POST", "/v1/queues/" + encodeURIComponent(queue) + ":" + verb, {}),
    }, info.paused ? "Resume" : "Pause");
  }

  async function queuesSection() {
    const [stats, queues, rates] = await Promise.all([
      load("load the queue counts", A.api("GET", "/v1/stats")),
      load("load the pause states", A.api("GET", "/v1/queues")),
      load("load the rates", A.api("GET", "/v1/rates")),
    ]);
    if (stats.error) return [el("h1", {}, "Queues"), stats.error];
    const infos = {};
    for (const q of (queues.value && queues.value.queues) || []) if (q.name !== undefined) infos[q.name] = q;
    const minutes = {};
    for (const r of (rates.value && rates.value.queues) || []) minutes[r.queue] = r.minutes || [];
    const list = (stats.value.queues || []).slice();
    // A queue paused before it has jobs is only in /v1/queues; show it (with zeros) all the same.
    for (const [name, info] of Object.entries(infos)) {
      if (!list.some((q) => q.queue === name)) list.push(Object.assign({}, info.stats, { queue: name }));
    }
    list.sort((a, b) => a.queue.localeCompare(b.queue));
    return [
      el("h1", {}, "Queues"),
      queues.error, rates.error,
      list.length
        ? el("div", { class: "cards", id: "queues" }, list.map((q) => queueCard(q, infos[q.queue], minutes[q.queue] || [])))
        : el("p", { class: "empty" }, "No jobs yet."),
    ];
  }

  async function deadLetterSection() {
    const dead = await load("load the dead letters", A.api("GET", "/v1/dead-letters?page_size=20"));
    const title = el("h2", {}, "Newest dead letters ", el("a", { href: "#/dead-letters" }, "all, with filters →"));
    if (dead.error) return [title, dead.error];
    return [title, A.deadLetterTable(dead.value.jobs || [])];
  }

  A.pages.push({
    name: "queues",
    pattern: /^\/$/,
    render: async () => {
      const [queues, dead] = await Promise.all([queuesSection(), deadLetterSection()]);
      return [queues, dead];
    },
  });
})();
