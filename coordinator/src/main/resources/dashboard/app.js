// Antrean dashboard: routes the hash (#/, #/jobs, #/jobs/ID, #/workers, #/dead-letters) to the
// page that claims it, mounts the page's controls once per visit, and refreshes its results every
// two seconds. A page is {pattern, controls(match, params), render(match, params)} in
// Antrean.pages (lib.js and the page scripts, loaded before this one).
"use strict";

(function () {
  const A = window.Antrean;
  const REFRESH_MILLIS = 2000;
  let flash = null;
  let timer = null;
  let generation = 0;
  let mounted = null;

  // Runs an action; its outcome is shown above the results it changed.
  A.act = async function (what, method, path, body) {
    try {
      const answer = await A.api(method, path, body);
      flash = { text: "Done: " + what + ".", error: false, until: Date.now() + 6000 };
      return answer;
    } catch (e) {
      flash = { text: "Could not " + what + ": " + e.message, error: true, until: Date.now() + 10000 };
      return null;
    } finally {
      refresh();
    }
  };

  A.go = function (hash) {
    if (location.hash === hash) refresh();
    else location.hash = hash;
  };

  function route() {
    const hash = location.hash.replace(/^#/, "") || "/";
    const q = hash.indexOf("?");
    const path = q < 0 ? hash : hash.slice(0, q);
    const params = A.params(q < 0 ? "" : hash.slice(q + 1));
    for (const page of A.pages) {
      const match = path.match(page.pattern);
      if (match) return { page, match, params, key: hash };
    }
    return { page: null, match: null, params, key: hash };
  }

  function mount(current) {
    const view = document.getElementById("view");
    const results = A.el("div", { id: "results" });
    const controls = current.page && current.page.controls
      ? current.page.controls(current.match, current.params) : [];
    view.replaceChildren(...[controls, results].flat(2).filter(Boolean));
    for (const a of document.querySelectorAll("header nav a")) {
      a.classList.toggle("current", current.page !== null && a.getAttribute("data-page") === current.page.name);
    }
    mounted = { key: current.key, results };
  }

  // With authentication on, the dashboard signs in with a token once; the coordinator answers with
  // an HttpOnly session cookie, so the page never keeps the token.
  function signInForm() {
    const input = A.el("input", { type: "password", id: "token", autocomplete: "off" });
    const form = A.el("form", { id: "sign-in" },
      A.el("h2", {}, "Sign in"),
      A.el("label", { for: "token" }, "Token "), input,
      A.el("button", { type: "submit" }, "Sign in"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await A.api("POST", "/v1/session", { token: input.value });
        flash = null;
      } catch (e) {
        flash = { text: "Could not sign in: " + e.message, error: true, until: Date.now() + 10000 };
      }
      refresh();
    });
    return form;
  }

  async function refresh() {
    clearTimeout(timer);
    const mine = ++generation;
    const status = document.getElementById("status");
    const current = route();
    if (!mounted || mounted.key !== current.key) mount(current);
    const results = mounted.results;
    let nodes;
    let failed = null;
    try {
      nodes = current.page
        ? await current.page.render(current.match, current.params)
        : [A.el("p", { class: "empty" }, "No such page: " + current.key)];
    } catch (e) {
      failed = e;
      nodes = [e.status === 401 ? signInForm() : A.errorBox("load this page", e)];
    }
    if (mine !== generation) return;
    if (flash && flash.until < Date.now()) flash = null;
    const notice = flash && A.el("p", { class: "flash" + (flash.error ? " error" : ""), role: "status" }, flash.text);
    results.replaceChildren(...[notice, nodes].flat(3).filter(Boolean));
    if (failed) {
      status.textContent = "refresh failed: " + failed.message;
      status.className = "status error";
    } else {
      status.textContent = "updated " + A.iso(new Date());
      status.className = "status";
    }
    timer = setTimeout(refresh, REFRESH_MILLIS);
  }

  window.addEventListener("hashchange", () => {
    flash = null;
    refresh();
  });
  refresh();
})();
