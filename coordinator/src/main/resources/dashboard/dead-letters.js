// Dead letters (#/dead-letters): filtered by queue, type, error text and time, paged through all
// of them with the API's page tokens; each row redriven or purged, or the whole filtered set at
// once after a confirmation that says how many jobs it holds.
"use strict";

(function () {
  const A = window.Antrean;
  const el = A.el;
  const FILTERS = ["queue", "type", "error", "failed_after", "failed_before"];
  const PAGE_SIZE = 50;
  const COUNT_PAGE_SIZE = 1000;

  A.redriveButton = function (id) {
    return el("button", {
      class: "redrive", "data-id": id,
      onclick: () => A.act("redrive job " + id, "POST", "/v1/dead-letters:redrive", { ids: [id] }),
    }, "Redrive");
  };

  A.purgeButton = function (id) {
    return el("button", {
      class: "purge danger", "data-id": id,
      onclick: () => {
        if (window.confirm("Delete dead-lettered job " + id + " and its history for good?")) {
          A.act("purge job " + id, "POST", "/v1/dead-letters:purge", { ids: [id] });
        }
      },
    }, "Purge");
  };

  A.deadLetterTable = function (jobs) {
    if (!jobs.length) return el("p", { class: "empty", id: "dead-letters" }, "No dead letters.");
    return A.table("dead-letters", ["Job", "Queue", "Type", "Attempts", "Last error", "Failed at", ""],
      jobs.map((job) => ({
        attrs: { "data-id": job.id },
        cells: [
          el("a", { href: "#/jobs/" + encodeURIComponent(job.id) }, "#" + job.id),
          job.queue, job.type, String(job.attempts),
          el("td", { class: "error" }, job.last_error || "—"),
          A.time(job.finished_at),
          [A.redriveButton(job.id), A.purgeButton(job.id)],
        ],
      })));
  };

  function filterOf(params) {
    const f = {};
    if (params.queue) f.queue = params.queue;
    if (params.type) f.type = params.type;
    if (params.error) f.error_contains = params.error;
    if (params.failed_after) f.failed_after = params.failed_after;
    if (params.failed_before) f.failed_before = params.failed_before;
    return f;
  }

  function listPath(params, pageSize, pageToken) {
    const q = {};
    for (const k of FILTERS) q[k] = params[k];
    q.page_size = pageSize;
    q.page_token = pageToken;
    return "/v1/dead-letters" + A.query(q);
  }

  // Every dead letter the filter matches, counted by paging through all of them.
  async function countMatching(params) {
    let count = 0, token = "";
    do {
      const page = await A.api("GET", listPath(params, COUNT_PAGE_SIZE, token));
      count += (page.jobs || []).length;
      token = page.next_page_token || "";
    } while (token);
    return count;
  }

  function describe(params) {
    const parts = FILTERS.filter((k) => params[k]).map((k) => k + " " + JSON.stringify(params[k]));
    return parts.length ? "matching " + parts.join(", ") : "(every dead letter: no filter is set)";
  }

  async function bulk(verb, params, box) {
    box.replaceChildren(el("span", {}, "Counting the dead letters " + describe(params) + "…"));
    let count;
    try {
      count = await countMatching(params);
    } catch (e) {
      box.replaceChildren(A.errorBox("count the dead letters", e));
      return;
    }
    box.replaceChildren();
    if (count === 0) {
      box.replaceChildren(el("span", {}, "No dead letter " + describe(params) + "."));
      return;
    }
    const question = (verb === "redrive" ? "Redrive " : "Delete for good ") + count
      + " dead letter" + (count === 1 ? "" : "s") + " " + describe(params) + "?";
    if (!window.confirm(question)) return;
    const filter = filterOf(params);
    const body = { filter, all: Object.keys(filter).length === 0 };
    if (verb === "redrive") body.limit = count;
    await A.act(verb + " " + count + " dead letters", "POST", "/v1/dead-letters:" + verb, body);
  }

  A.pages.push({
    name: "dead-letters",
    pattern: /^\/dead-letters$/,
    controls: (match, params) => {
      const box = el("div", { class: "bulk-status", id: "bulk-status" });
      return [
        el("h1", {}, "Dead letters"),
        el("form", {
          class: "filters", id: "dead-letter-filters",
          onsubmit: (e) => {
            e.preventDefault();
            A.go("#/dead-letters" + A.query(A.formValues(e.target)));
          },
        },
        A.input("queue", "Queue", params.queue),
        A.input("type", "Type", params.type),
        A.input("error", "Error contains", params.error),
        A.input("failed_after", "Failed after", params.failed_after, "2026-12-01T00:00:00Z"),
        A.input("failed_before", "Failed before", params.failed_before, "2026-12-02T00:00:00Z"),
        el("div", { class: "buttons" },
          el("button", { type: "submit", class: "primary" }, "Filter"),
          el("a", { href: "#/dead-letters", class: "clear" }, "Clear"))),
        el("div", { class: "actions" },
          el("button", { id: "redrive-all", onclick: () => bulk("redrive", params, box) }, "Redrive all matching…"),
          el("button", { id: "purge-all", class: "danger", onclick: () => bulk("purge", params, box) }, "Purge all matching…"),
          box),
      ];
    },
    render: async (match, params) => {
      const page = await A.api("GET", listPath(params, PAGE_SIZE, params.page_token));
      const jobs = page.jobs || [];
      const next = page.next_page_token;
      return [
        A.deadLetterTable(jobs),
        el("nav", { class: "pager" },
          params.page_token
            ? el("a", { href: "#/dead-letters" + A.query(Object.assign({}, params, { page_token: "" })), id: "first-page" }, "← first page")
            : null,
          el("span", {}, jobs.length + " on this page"),
          next
            ? el("a", { href: "#/dead-letters" + A.query(Object.assign({}, params, { page_token: next })), id: "next-page" }, "next page →")
            : null),
      ];
    },
  });
})();
