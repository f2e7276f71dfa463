// Schedules (#/schedules): one row per schedule from /v1/schedules with how it recurs, its next
// fire times, its last fire (time, job and that job's state), its fires and misses, and a pause or
// resume button.
"use strict";

(function () {
  const A = window.Antrean;
  const el = A.el;

  function recurrence(d) {
    return d.cron ? "cron " + d.cron + " (" + (d.time_zone || "UTC") + ")" : "every " + d.interval;
  }

  function lastFire(s) {
    if (!s.last_fire_at) return "never";
    const state = (s.last_job_state || "").replace("JOB_STATE_", "").toLowerCase() || "gone";
    return [s.last_fire_at + " ", el("a", { href: "#/jobs/" + s.last_job_id }, "job " + s.last_job_id),
      " (" + state + ")"];
  }

  function pauseButton(s) {
    const name = s.definition.name;
    const verb = s.paused ? "resume" : "pause";
    return el("button", {
      class: verb, "data-schedule": name,
      onclick: () => A.act(verb + " schedule " + name, "POST",
        "/v1/schedules/" + encodeURIComponent(name) + ":" + verb, {}),
    }, s.paused ? "Resume" : "Pause");
  }

  function row(s) {
    const d = s.definition;
    const template = d.template || {};
    return el("tr", { "data-schedule": d.name },
      el("td", { class: "name" }, d.name),
      el("td", {}, recurrence(d)),
      el("td", {}, (template.queue || "default") + " / " + template.type),
      el("td", { class: "state" }, s.paused ? "paused since " + s.paused_at : "running"),
      el("td", { class: "upcoming" }, (s.upcoming || []).slice(0, 3).map((t) => el("div", {}, t))),
      el("td", { class: "last" }, lastFire(s)),
      el("td", { class: "fires" }, String(Number(s.fires || 0))),
      el("td", { class: "misses" }, String(Number(s.misses || 0))),
      el("td", {}, pauseButton(s)));
  }

  A.pages.push({
    name: "schedules",
    pattern: /^\/schedules$/,
    render: async () => {
      const answer = await A.api("GET", "/v1/schedules");
      const schedules = answer.schedules || [];
      if (!schedules.length) return [el("h1", {}, "Schedules"), el("p", { class: "empty" }, "No schedules.")];
      return [
        el("h1", {}, "Schedules"),
        el("table", { id: "schedules" },
          el("thead", {}, el("tr", {}, ["Schedule", "When", "Queue / type", "State", "Next fires",
            "Last fire", "Fires", "Misses", ""].map((h) => el("th", {}, h)))),
          el("tbody", {}, schedules.map(row))),
      ];
    },
  });
})();
