// The job browser (#/jobs): jobs per queue and state, filtered by type, creation time, error text
// and idempotency key, newest or oldest first, paged by the API's page tokens; a job id goes
// straight to its page. The job page (#/jobs/ID): fields, live lease and progress, the jobs it
// depends on (linked, with their states and results), payload, result, and every attempt with its worker (and host, while the worker is known) and its full
// error with the stack trace.
"use strict";

(function () {
  const A = window.Antrean;
  const el = A.el;
  const FILTERS = ["queue", "state", "type", "error", "created_after", "created_before", "key", "order"];
  const PAGE_SIZE = 50;
  const STATES = [["", "any state"], ["waiting", "waiting"], ["pending", "pending"], ["running", "running"],
    ["succeeded", "succeeded"], ["failed", "failed"], ["cancelled", "cancelled"]];

  function listPath(params) {
    const q = {};
    for (const k of FILTERS) q[k] = params[k];
    q.page_size = PAGE_SIZE;
    q.page_token = params.page_token;
    return "/v1/jobs" + A.query(q);
  }

  function browserControls(match, params) {
    return [
      el("h1", {}, "Jobs"),
      el("form", {
        class: "find", id: "find-job",
        onsubmit: (e) => {
          e.preventDefault();
          const id = String(new FormData(e.target).get("id") || "").trim().replace(/^#/, "");
          if (/^\d+$/.test(id)) A.go("#/jobs/" + id);
          else e.target.querySelector(".hint").textContent = "A job id is a number, such as 42.";
        },
      }, A.input("id", "Job id", "", "42"),
      el("button", { type: "submit" }, "Open"), el("span", { class: "hint", role: "alert" })),
      el("form", {
        class: "filters", id: "job-filters",
        onsubmit: (e) => {
          e.preventDefault();
          A.go("#/jobs" + A.query(A.formValues(e.target)));
        },
      },
      A.input("queue", "Queue", params.queue),
      A.select("state", "State", params.state, STATES),
      A.input("type", "Type", params.type),
      A.input("error", "Error contains", params.error),
      A.input("key", "Idempotency key", params.key),
      A.input("created_after", "Created after", params.created_after, "2026-12-01T00:00:00Z"),
      A.input("created_before", "Created before", params.created_before, "2026-12-02T00:00:00Z"),
      A.select("order", "Sort", params.order, [["", "newest first"], ["oldest", "oldest first"]]),
      el("div", { class: "buttons" },
        el("button", { type: "submit", class: "primary" }, "Filter"),
        el("a", { href: "#/jobs", class: "clear" }, "Clear"))),
    ];
  }

  async function browserResults(match, params) {
    const page = await A.api("GET", listPath(params));
    const jobs = page.jobs || [];
    const next = page.next_page_token;
    const rows = jobs.map((job) => ({
      attrs: { "data-id": job.id },
      cells: [
        el("a", { href: "#/jobs/" + encodeURIComponent(job.id) }, "#" + job.id),
        job.queue, job.type,
        el("span", { class: "state " + A.shortState(job.state) }, A.shortState(job.state)),
        String(job.attempts || 0),
        A.time(job.created_at),
        el("td", { class: "error" }, job.last_error || "—"),
      ],
    }));
    return [
      jobs.length
        ? A.table("jobs", ["Job", "Queue", "Type", "State", "Attempts", "Created", "Last error"], rows)
        : el("p", { class: "empty", id: "jobs" }, "No job matches."),
      el("nav", { class: "pager" },
        params.page_token
          ? el("a", { id: "first-page", href: "#/jobs" + A.query(Object.assign({}, params, { page_token: "" })) }, "← first page")
          : null,
        el("span", {}, jobs.length + " on this page"),
        next
          ? el("a", { id: "next-page", href: "#/jobs" + A.query(Object.assign({}, params, { page_token: next })) }, "next page →")
          : null),
    ];
  }

  function field(name, value, id) {
    return [el("dt", {}, name), el("dd", id ? { id } : {}, value === undefined || value === null ? "—" : value)];
  }

  function workerName(workerId, hosts) {
    if (!workerId) return "—";
    const host = hosts[workerId];
    return host ? workerId + " on " + host : workerId;
  }

  function history(attempts, hosts) {
    if (!attempts.length) return el("p", { class: "empty", id: "history" }, "Not attempted yet.");
    return el("ol", { id: "history", class: "attempts" }, attempts.map((a) =>
      el("li", { class: "attempt", "data-attempt": a.attempt },
        el("div", { class: "line" },
          el("strong", {}, "#" + (a.attempt || "?")),
          el("span", { class: "outcome" }, A.shortState(a.outcome)),
          el("span", { class: "worker" }, workerName(a.worker_id, hosts)),
          el("span", {}, "leased ", A.time(a.leased_at)),
          el("span", {}, "ended ", A.time(a.ended_at))),
        a.error_type || a.error_message
          ? el("div", { class: "error" }, [a.error_type, a.error_message].filter(Boolean).join(": "))
          : null,
        a.stack_trace ? el("details", { class: "stack" }, el("summary", {}, "stack trace"),
          el("pre", {}, a.stack_trace)) : null)));
  }

  // The jobs this job depends on (depends_on), each linked to its page, with its state and result
  // or error: what a fan-in job waits for and reads.
  function dependencies(job, listed) {
    if (!(job.depends_on || []).length) return null;
    const policy = job.on_dependency_failure === "DEPENDENCY_FAILURE_DEAD_LETTER" ? "dead-letter" : "cancel";
    const rows = (listed.dependencies || []).map((d) => {
      const state = A.shortState(d.state);
      return el("tr", { "data-id": d.id },
        el("td", {}, el("a", { href: "#/jobs/" + d.id }, "#" + d.id)),
        el("td", {}, d.queue), el("td", {}, d.type),
        el("td", {}, el("span", { class: "state " + state }, state)),
        el("td", { class: "result" }, d.result ? A.decode(d.result) : (d.last_error || "—")));
    });
    return [
      el("h2", {}, "Depends on (" + job.depends_on.length + ", on failure: " + policy + ")"),
      el("table", { id: "dependencies" },
        el("thead", {}, el("tr", {}, ["Job", "Queue", "Type", "State", "Result or error"].map((h) => el("th", {}, h)))),
        el("tbody", {}, rows)),
    ];
  }

  async function jobResults(match) {
    const id = match[1];
    const [{ job }, workers] = await Promise.all([
      A.api("GET", "/v1/jobs/" + encodeURIComponent(id)),
      A.api("GET", "/v1/workers").catch(() => ({ workers: [] })),
    ]);
    const listed = (job.depends_on || []).length
      ? await A.api("GET", "/v1/jobs/" + encodeURIComponent(id) + "/dependencies")
      : {};
    const hosts = {};
    for (const w of workers.workers || []) if (w.info && w.info.host) hosts[w.worker_id] = w.info.host;
    const state = A.shortState(job.state);
    const actions = [];
    if (state === "PENDING" || state === "RUNNING" || state === "WAITING") {
      actions.push(el("button", {
        class: "cancel danger",
        onclick: () => A.act("cancel job " + id, "POST", "/v1/jobs/" + encodeURIComponent(id) + ":cancel"),
      }, "Cancel"));
    }
    if (state === "FAILED") actions.push(A.redriveButton(job.id), A.purgeButton(job.id));
    const retry = job.retry_policy || {};
    const lease = job.lease && job.lease.worker_id
      ? el("span", {}, workerName(job.lease.worker_id, hosts) + ", token " + job.lease.fencing_token + ", until ", A.time(job.lease.expires_at))
      : "—";
    return [
      el("h1", {}, "Job #" + job.id + " ", el("span", { class: "state " + state, id: "job-state" }, state)),
      el("div", { class: "actions" }, actions),
      el("dl", { class: "fields" },
        field("Queue", el("a", { href: "#/jobs" + A.query({ queue: job.queue }) }, job.queue)),
        field("Type", job.type),
        field("Attempts", (job.attempts || 0) + " of " + (retry.max_attempts || "default")),
        field("Priority", String(job.priority || 0)), field("Run at", A.time(job.run_at)),
        field("Created", A.time(job.created_at)), field("Finished", A.time(job.finished_at)),
        field("Idempotency key", job.idempotency_key || "—"),
        field("Lease", lease, "lease"),
        field("Progress", job.progress || "—", "progress"),
        field("Last error", job.last_error || "—")),
      dependencies(job, listed),
      el("h2", {}, "Payload" + (job.content_type ? " (" + job.content_type + ")" : "")),
      el("pre", { id: "payload" }, A.decode(job.payload)),
      el("h2", {}, "Result" + (job.result_content_type ? " (" + job.result_content_type + ")" : "")),
      el("pre", { id: "result" }, A.decode(job.result)),
      el("h2", {}, "Attempts"),
      job.history_omitted
        ? el("p", { id: "history-omitted" }, job.history_omitted + " older attempts not shown (the answer keeps the newest within 2 MiB)")
        : null,
      history(job.history || [], hosts),
    ];
  }

  A.pages.push({ name: "jobs", pattern: /^\/jobs$/, controls: browserControls, render: browserResults });
  A.pages.push({ name: "jobs", pattern: /^\/jobs\/(\d+)$/, render: jobResults });
})();
