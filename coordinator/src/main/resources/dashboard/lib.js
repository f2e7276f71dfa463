// Antrean dashboard, shared helpers: DOM building (text only: every piece of data reaches the page
// as a text node or an attribute value, never as HTML), the JSON API, dates and formats. Plain
// JavaScript over the coordinator's public JSON API (/v1/...), no build step, nothing from another
// origin. The pages register themselves in Antrean.pages; app.js routes and refreshes.
"use strict";

window.Antrean = (function () {
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "onclick") node.addEventListener("click", v);
      else if (k === "onsubmit") node.addEventListener("submit", v);
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

  async function api(method, path, body) {
    const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    // The coordinator accepts state changes only as JSON, so every one carries a JSON body.
    if (method !== "GET") {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body === undefined ? {} : body);
    }
    const response = await fetch(path, init);
    const text = await response.text();
    let json = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch (e) {
      throw new Error(response.status + ": the coordinator answered something that is not JSON");
    }
    if (!response.ok) {
      const error = json.error || {};
      const details = (error.details || []).map((d) => d.field + ": " + d.message);
      const failure = new Error((error.code || response.status) + ": "
        + (error.message || "request failed")
        + (details.length ? " (" + details.join("; ") + ")" : ""));
      failure.status = response.status;
      throw failure;
    }
    return json;
  }

  // An error shown where it happened: in the section whose data could not be loaded or changed.
  function errorBox(what, error) {
    return el("p", { class: "error-box", role: "alert" }, "Could not " + what + ": " + error.message);
  }

  function shortState(state) {
    return String(state || "").replace(/^JOB_STATE_/, "").replace(/^ATTEMPT_OUTCOME_/, "")
      .replace(/^WORKER_LIVENESS_/, "");
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

  // ISO 8601 in the browser's time zone, with its offset: 2026-12-01T15:04:05+01:00 (Z for UTC).
  function iso(value) {
    const d = value instanceof Date ? value : new Date(value);
    const pad = (n) => String(Math.abs(n)).padStart(2, "0");
    const offset = -d.getTimezoneOffset();
    const zone = offset === 0 ? "Z"
      : (offset > 0 ? "+" : "-") + pad(Math.trunc(offset / 60)) + ":" + pad(offset % 60);
    return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + "T"
      + pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds()) + zone;
  }

  function time(ts) {
    return ts ? el("time", { datetime: new Date(ts).toISOString() }, iso(ts)) : "—";
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

  // A table whose cells carry their column's name, so a narrow screen can show rows as blocks.
  function table(id, headers, rows) {
    return el("div", { class: "table-wrap" }, el("table", { id },
      el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))),
      el("tbody", {}, rows.map((row) => {
        const tr = el("tr", row.attrs || {});
        row.cells.forEach((cell, i) => {
          const td = cell instanceof Node && cell.tagName === "TD" ? cell : el("td", {}, cell);
          if (headers[i]) td.setAttribute("data-label", headers[i]);
          tr.appendChild(td);
        });
        return tr;
      }))));
  }

  // Query parameters of the hash route (#/jobs?queue=mail) as an object, and back.
  function params(query) {
    const out = {};
    for (const [k, v] of new URLSearchParams(query || "")) if (v !== "") out[k] = v;
    return out;
  }

  function query(values) {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null && v !== "") p.set(k, v);
    const s = p.toString();
    return s ? "?" + s : "";
  }

  // The form's named inputs, empty ones left out.
  function formValues(form) {
    const out = {};
    for (const [k, v] of new FormData(form)) if (String(v).trim() !== "") out[k] = String(v).trim();
    return out;
  }

  function input(name, label, value, placeholder) {
    return el("label", {}, el("span", {}, label),
      el("input", { name, value: value || "", placeholder: placeholder || "", autocomplete: "off" }));
  }

  function select(name, label, value, options) {
    return el("label", {}, el("span", {}, label),
      el("select", { name }, options.map(([v, text]) =>
        el("option", { value: v, selected: v === (value || "") ? "selected" : null }, text))));
  }

  return {
    el, svg, api, errorBox, shortState, seconds, age, iso, time, decode, table, params, query,
    formValues, input, select, pages: [],
  };
})();
