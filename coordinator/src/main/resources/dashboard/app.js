// Antrean dashboard: plain JavaScript over the coordinator's public JSON API (/v1/...), no build
// step and nothing from another origin. Every piece of data reaches the page as a text node or an
// attribute value, never as HTML.
"use strict";

(function () {
  const REFRESH_MILLIS = 2000;
  const HISTORY_MILLIS = 10 * 60 * 1000;
  const COUNTS = ["pending", "scheduled", "running", "succeeded", "failed", "cancelled"];

  // Successive /v1/stats samples, oldest first: {t: epoch millis, succeeded: {queue: count}}.
  const samples = [];
  let flash = null;
  let timer = null;
  let generation = 0;

  // ---- DOM helpers: text only -------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "onclick") node.addEventListener("click", v);
      else node.setAttribute(k, String(v));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      if (Array.isArray(c)) append(node, c);
      else node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }

  function svg(tag, attrs) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    return node;
  }

  // ---- API ---------------------------------------------------------------------------------

  async function api(method, path, body) {
    const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    // The coordinator accepts state changes only as JSON, so every one carries a JSON body.
    if (method !== "GET") {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body === undefined ? {} : body);
    }
    const response = await fetch(path, init);
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const error = json.error || {};
      const failure = new Error((error.code || response.status) + ": " + (error.message || "request failed"));
      failure.status = response.status;
      throw failure;
    }
    return json;
  }

  function shortState(state) {
    return String(state || "").replace(/^JOB_STATE_/, "").replace(/^ATTEMPT_OUTCOME_/, "");
  }

  function seconds(duration) {
    return duration ? parseFloat(String(duration).replace(/s$/, "")) || 0 : 0;
  }

  function age(secs) {
    if (secs < 1) return secs === 0 ? "none waiting" : secs.toFixed(1) + " s";
    if (secs < 120) return Math.round(secs) + " s";
    if (secs < 7200) return Math.round(secs / 60) + " min";
    return (secs / 3600).toFixed(1) + " h";
  }

  function time(ts) {
    return ts ? new Date(ts).toLocaleString() : "—";
  }

  // Base64 bytes as text: pretty JSON when they parse, plain UTF-8 text, or a note for binary.
  function decode(b64) {
    if (!b64) return "(empty)";
    const raw = atob(b64);
    const bytes = Uint8Array.from(raw, (ch) => ch.charCodeAt(0));
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (e) {
      return "(" + bytes.length + " bytes of binary data; base64: " + b64 + ")";
    }
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (e) {
      return text;
    }
  }

  // ---- throughput samples --------------------------------------------------------------------

  function record(stats) {
    const now = Date.now();
    const succeeded = {};
    for (const q of stats.queues || []) succeeded[q.queue] = Number(q.succeeded);
    samples.push({ t: now, succeeded });
    while (samples.length > 0 && samples[0].t < now - HISTORY_MILLIS) samples.shift();
  }

  // Jobs per second between successive samples; retention can lower the count, never below 0.
  function throughput(queue) {
    const points = [];
    for (let i = 1; i < samples.length; i++) {
      const a = samples[i - 1], b = samples[i];
      if (!(queue in a.succeeded) || !(queue in b.succeeded)) continue;
      const dt = (b.t - a.t) / 1000;
      if (dt <= 0) continue;
      points.push({ t: b.t, rate: Math.max(0, b.succeeded[queue] - a.succeeded[queue]) / dt });
    }
    return points;
  }

  function chart(queue) {
    const width = 360, height = 70, top = 14;
    const points = throughput(queue);
    const node = svg("svg", {
      class: "chart", viewBox: "0 0 " + width + " " + height, preserveAspectRatio: "none",
      role: "img", "aria-label": "succeeded jobs per second, last 10 minutes",
    });
    const max = Math.max(1, ...points.map((p) => p.rate));
    const now = Date.now();
    const x = (t) => width - ((now - t) / HISTORY_MILLIS) * width;
    const y = (r) => height - 2 - (r / max) * (height - top - 4);
    if (points.length > 1) {
      const coords = points.map((p) => x(p.t).toFixed(1) + "," + y(p.rate).toFixed(1));
      const first = x(points[0].t).toFixed(1), last = x(points[points.length - 1].t).toFixed(1);
      node.appendChild(svg("polygon", {
        points: first + "," + height + " " + coords.join(" ") + " " + last + "," + height,
      }));
      node.appendChild(svg("polyline", { points: coords.join(" ") }));
    }
    const label = svg("text", { x: 4, y: 11 });
    label.textContent = "max " + max.toFixed(1) + "/s · 10 min";
    node.appendChild(label);
    return node;
  }

  // ---- views ---------------------------------------------------------------------------------

  function queueCard(q, info) {
    const rate = throughput(q.queue);
    const current = rate.length ? rate[rate.length - 1].rate : 0;
    const paused = info && info.paused === true;
    return el("section", { class: "card queue", "data-queue": q.queue },
      el("h3", {}, q.queue, paused ? el("span", { class: "state paused" }, "paused") : null,
        pauseButton(q.queue, info)),
      el("div", { class: "counts" }, COUNTS.map((name) =>
        el("div", { class: "count " + name },
          el("div", { class: "n", "data-count": name }, String(Number(q[name] || 0))),
          el("div", { class: "l" }, name)))),
      el("div", { class: "meta" },
        el("span", { class: "oldest" }, "oldest pending: " + age(seconds(q.oldest_pending_age))),
        el("span", { class: "rate" }, "throughput: " + current.toFixed(2) + " jobs/s")),
      chart(q.queue));
  }

  // Pause and resume appear only when the coordinator reports pause state in /v1/queues, which it
  // does exactly when it serves POST /v1/queues/{q}:pause and :resume.
  function pauseButton(queue, info) {
    if (!info || typeof info.paused !== "boolean") return null;
    const verb = info.paused ? "resume" : "pause";
    return el("button", {
      class: verb, "data-queue": queue,
      onclick: () => act(verb + " " + queue, "POST",
        "/v1/queues/" + encodeURIComponent(queue) + ":" + verb, {}),
    }, info.paused ? "Resume" : "Pause");
  }

  async function overview(mine, stats) {
    const [queues, dead] = await Promise.all([
      api("GET", "/v1/queues").catch(() => ({ queues: [] })),
      api("GET", "/v1/dead-letters?page_size=50"),
    ]);
    if (mine !== generation) return;
    const infos = {};
    for (const q of queues.queues || []) if (q.name !== undefined) infos[q.name] = q;
    const list = (stats.queues || []).slice();
    // A queue paused before it has jobs is only in /v1/queues; show it (with zeros) all the same.
    for (const [name, info] of Object.entries(infos)) {
      if (!list.some((q) => q.queue === name)) list.push(Object.assign({}, info.stats, { queue: name }));
    }
    list.sort((a, b) => a.queue.localeCompare(b.queue));
    show(
      el("h1", {}, "Queues"),
      list.length
        ? el("div", { class: "cards", id: "queues" }, list.map((q) => queueCard(q, infos[q.queue])))
        : el("p", { class: "empty" }, "No jobs yet."),
      deadLetters(dead));
  }

  async function deadLetterPage(mine) {
    const dead = await api("GET", "/v1/dead-letters?page_size=200");
    if (mine !== generation) return;
    show(deadLetters(dead));
  }

  function deadLetters(dead) {
    const jobs = dead.jobs || [];
    const title = el("h2", {}, "Dead letters (" + jobs.length + (dead.next_page_token ? "+" : "") + ")");
    if (!jobs.length) return [title, el("p", { class: "empty", id: "dead-letters" }, "No dead letters.")];
    return [title, el("table", { id: "dead-letters" },
      el("thead", {}, el("tr", {}, ["Job", "Queue", "Type", "Attempts", "Last error", "Failed at", ""]
        .map((h) => el("th", {}, h)))),
      el("tbody", {}, jobs.map((job) =>
        el("tr", { "data-id": job.id },
          el("td", {}, el("a", { href: "#/jobs/" + encodeURIComponent(job.id) }, "#" + job.id)),
          el("td", {}, job.queue),
          el("td", {}, job.type),
          el("td", {}, String(job.attempts)),
          el("td", { class: "error" }, job.last_error || "—"),
          el("td", {}, time(job.finished_at)),
          el("td", {}, redriveButton(job.id), purgeButton(job.id))))))];
  }

  function redriveButton(id) {
    return el("button", {
      class: "redrive", "data-id": id,
      onclick: () => act("redrive job " + id, "POST", "/v1/dead-letters:redrive", { ids: [id] }),
    }, "Redrive");
  }

  function purgeButton(id) {
    return el("button", {
      class: "purge danger", "data-id": id,
      onclick: () => {
        if (window.confirm("Delete dead-lettered job " + id + " and its history for good?")) {
          act("purge job " + id, "POST", "/v1/dead-letters:purge", { ids: [id] });
        }
      },
    }, "Purge");
  }

  async function jobPage(mine, id) {
    const { job } = await api("GET", "/v1/jobs/" + encodeURIComponent(id));
    if (mine !== generation) return;
    const state = shortState(job.state);
    const actions = [];
    if (state === "PENDING" || state === "RUNNING") {
      actions.push(el("button", {
        class: "cancel danger",
        onclick: () => act("cancel job " + id, "POST", "/v1/jobs/" + encodeURIComponent(id) + ":cancel"),
      }, "Cancel"));
    }
    if (state === "FAILED") actions.push(redriveButton(job.id), purgeButton(job.id));
    const retry = job.retry_policy || {};
    show(
      el("h1", {}, "Job #" + job.id + " ", el("span", { class: "state " + state, id: "job-state" }, state)),
      el("div", { class: "actions" }, actions),
      el("dl", { class: "fields" },
        field("Queue", job.queue), field("Type", job.type),
        field("Attempts", job.attempts + " of " + (retry.max_attempts || "default")),
        field("Priority", job.priority), field("Run at", time(job.run_at)),
        field("Created", time(job.created_at)), field("Finished", time(job.finished_at)),
        field("Idempotency key", job.idempotency_key || "—"),
        field("Progress", job.progress || "—"),
        field("Last error", job.last_error || "—"),
        job.lease && job.lease.worker_id
          ? field("Lease", job.lease.worker_id + " until " + time(job.lease.expires_at)) : null),
      el("h2", {}, "Payload" + (job.content_type ? " (" + job.content_type + ")" : "")),
      el("pre", { id: "payload" }, decode(job.payload)),
      el("h2", {}, "Result" + (job.result_content_type ? " (" + job.result_content_type + ")" : "")),
      el("pre", { id: "result" }, decode(job.result)),
      el("h2", {}, "Attempts"),
      history(job.history || []));
  }

  function field(name, value) {
    return [el("dt", {}, name), el("dd", {}, String(value))];
  }

  function history(attempts) {
    if (!attempts.length) return el("p", { class: "empty", id: "history" }, "Not attempted yet.");
    return el("table", { id: "history" },
      el("thead", {}, el("tr", {}, ["#", "Worker", "Leased", "Ended", "Outcome", "Error"]
        .map((h) => el("th", {}, h)))),
      el("tbody", {}, attempts.map((a) =>
        el("tr", {},
          el("td", {}, String(a.attempt)), el("td", {}, a.worker_id || "—"),
          el("td", {}, time(a.leased_at)), el("td", {}, time(a.ended_at)),
          el("td", { class: "outcome" }, shortState(a.outcome)),
          el("td", { class: "error" },
            [a.error_type, a.error_message].filter(Boolean).join(": ") || "—")))));
  }

  // ---- plumbing ------------------------------------------------------------------------------

  function show(...nodes) {
    const view = document.getElementById("view");
    if (flash && flash.until < Date.now()) flash = null;
    const notice = flash && el("p", { class: "flash" + (flash.error ? " error" : "") }, flash.text);
    view.replaceChildren(...[notice, ...nodes.flat(2)].filter(Boolean));
  }

  async function act(what, method, path, body) {
    try {
      await api(method, path, body);
      flash = { text: "Done: " + what + ".", error: false, until: Date.now() + 6000 };
    } catch (e) {
      flash = { text: "Could not " + what + ": " + e.message, error: true, until: Date.now() + 10000 };
    }
    refresh();
  }

  // With authentication on, the dashboard signs in with a token once; the coordinator answers with
  // an HttpOnly session cookie, so the token is never kept by the page.
  function signIn() {
    const input = el("input", { type: "password", id: "token", autocomplete: "off", placeholder: "antrean_…" });
    const form = el("form", { id: "sign-in" },
      el("h2", {}, "Sign in"),
      el("label", { for: "token" }, "Token "), input,
      el("button", { type: "submit" }, "Sign in"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("POST", "/v1/session", { token: input.value });
        flash = null;
      } catch (e) {
        flash = { text: "Could not sign in: " + e.message, error: true, until: Date.now() + 10000 };
      }
      refresh();
    });
    show(form);
  }

  async function refresh() {
    clearTimeout(timer);
    const mine = ++generation;
    const status = document.getElementById("status");
    const route = location.hash.replace(/^#/, "") || "/";
    try {
      // Sampled on every page, so the throughput chart has no gap after a visit to a job.
      const stats = await api("GET", "/v1/stats");
      record(stats);
      const job = route.match(/^\/jobs\/(\d+)$/);
      if (job) await jobPage(mine, job[1]);
      else if (route === "/dead-letters") await deadLetterPage(mine);
      else await overview(mine, stats);
      status.textContent = "updated " + new Date().toLocaleTimeString();
      status.className = "status";
    } catch (e) {
      status.textContent = "refresh failed: " + e.message;
      status.className = "status error";
      if (e.status === 401) {
        status.textContent = "sign in to see this coordinator";
        signIn();
        return;
      }
    }
    if (mine === generation) timer = setTimeout(refresh, REFRESH_MILLIS);
  }

  window.addEventListener("hashchange", () => {
    flash = null;
    refresh();
  });
  refresh();
})();
