// The agxc e-graph viewer: draws the e-graph the page's JSON describes (positions computed by
// the compiler), with pan and zoom, search by operation name and a detail panel per e-class.
// Hand-written, no libraries and no network access. Errors are caught into the page (#errors
// and body[data-errors]) so that a headless browser can check for them; opening the page with
// `#selftest` runs a self-check that writes its findings into #selftest as JSON.
"use strict";
(function () {
  const errors = [];
  function recordError(message) {
    errors.push(String(message));
    const box = document.getElementById("errors");
    box.textContent = errors.join("\n");
    box.hidden = false;
    document.body.dataset.errors = String(errors.length);
  }
  window.onerror = function (message, source, line, column) {
    recordError(message + " (line " + line + ", column " + column + ")");
  };
  window.addEventListener("unhandledrejection", (e) => recordError(e.reason));
  const consoleError = console.error;
  console.error = function (...args) {
    recordError(args.join(" "));
    consoleError.apply(console, args);
  };

  const started = performance.now();
  const DATA = JSON.parse(document.getElementById("egraph-data").textContent);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.getElementById("graph");
  const world = document.getElementById("world");
  const detail = document.getElementById("detail");
  const byId = new Map();
  DATA.classes.forEach((c) => byId.set(c.id, c));
  const groups = new Map();
  const nodeRects = [];

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // Edges first (under the boxes): one path for all, one for the extracted e-nodes' edges.
  const plain = [];
  const chosen = [];
  for (const c of DATA.classes) {
    c.nodes.forEach((n, i) => {
      const x1 = c.x + c.w / 2;
      const y1 = c.y + DATA.head + DATA.row * (i + 1);
      for (const k of n.k) {
        const t = byId.get(k);
        if (!t) continue;
        const x2 = t.x + t.w / 2;
        const y2 = t.y;
        const bend = Math.max(30, Math.abs(y2 - y1) / 3);
        const d = "M" + x1 + " " + y1 + "C" + x1 + " " + (y1 + bend) + " " + x2 + " " +
          (y2 - bend) + " " + x2 + " " + y2;
        (c.chosen === i ? chosen : plain).push(d);
      }
    });
  }
  el("path", { class: "edges", d: plain.join("") }, world);
  el("path", { class: "edges chosen", d: chosen.join("") }, world);

  for (const c of DATA.classes) {
    const g = el("g", { class: "eclass" + (c.root ? " root" : ""), "data-id": c.id }, world);
    el("rect", { class: "eclass-box", x: c.x, y: c.y, width: c.w, height: c.h, rx: 4 }, g);
    const head = el("text", { class: "eclass-head", x: c.x + 6, y: c.y + 14 }, g);
    head.textContent = "e" + c.id + ": " + c.ty;
    c.nodes.forEach((n, i) => {
      const y = c.y + DATA.head + DATA.row * i;
      const r = el("rect", {
        class: "enode" + (c.chosen === i ? " extracted" : ""),
        x: c.x + 4, y: y, width: c.w - 8, height: DATA.row - 2, rx: 2,
        "data-class": c.id, "data-node": i,
      }, g);
      nodeRects.push({ rect: r, label: n.l.toLowerCase(), cls: c.id });
      const t = el("text", { class: "enode-label", x: c.x + 8, y: y + DATA.row - 6 }, g);
      t.textContent = n.l;
    });
    g.addEventListener("click", (e) => {
      if (dragged) return;
      e.stopPropagation();
      select(c.id);
    });
    groups.set(c.id, g);
  }

  // Pan and zoom: world = translate(x, y) scale(k).
  const view = { x: 0, y: 0, k: 1 };
  function apply() {
    world.setAttribute("transform",
      "translate(" + view.x.toFixed(2) + "," + view.y.toFixed(2) + ") scale(" + view.k.toFixed(5) + ")");
  }
  function fit() {
    const w = svg.clientWidth || 800;
    const h = svg.clientHeight || 600;
    view.k = Math.min(w / (DATA.width + 40), h / (DATA.height + 40), 2);
    view.x = (w - DATA.width * view.k) / 2;
    view.y = 20 * view.k;
    apply();
  }
  function zoomAt(px, py, factor) {
    const k = Math.min(8, Math.max(0.005, view.k * factor));
    view.x = px - (px - view.x) * (k / view.k);
    view.y = py - (py - view.y) * (k / view.k);
    view.k = k;
    apply();
  }
  function centre(c) {
    const w = svg.clientWidth || 800;
    const h = svg.clientHeight || 600;
    view.k = Math.max(view.k, 0.6);
    view.x = w / 2 - (c.x + c.w / 2) * view.k;
    view.y = h / 2 - (c.y + c.h / 2) * view.k;
    apply();
  }
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    zoomAt(e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * 0.0015));
  }, { passive: false });
  let drag = null;
  let dragged = false;
  svg.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
    dragged = false;
  });
  window.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) {
      dragged = true;
      svg.classList.add("dragging");
    }
    view.x = drag.vx + dx;
    view.y = drag.vy + dy;
    apply();
  });
  window.addEventListener("pointerup", () => {
    drag = null;
    svg.classList.remove("dragging");
    setTimeout(() => { dragged = false; }, 0);
  });
  document.getElementById("fit").addEventListener("click", fit);

  // The detail panel of one e-class.
  let selected = null;
  function text(parent, tag, content, cls) {
    const e = document.createElement(tag);
    e.textContent = content;
    if (cls) e.className = cls;
    parent.appendChild(e);
    return e;
  }
  function link(parent, id) {
    const a = text(parent, "a", "e" + id);
    a.addEventListener("click", () => { select(id); centre(byId.get(id)); });
    return a;
  }
  function select(id) {
    const c = byId.get(id);
    if (!c) return;
    if (selected !== null) groups.get(selected).classList.remove("selected");
    selected = id;
    groups.get(id).classList.add("selected");
    detail.replaceChildren();
    detail.hidden = false;
    text(detail, "h2", "e-class e" + c.id + ": " + c.ty);
    const facts = [];
    if (c.root) facts.push("used by the program's control flow (a root)");
    if (c.konst !== undefined) facts.push("constant " + c.konst);
    facts.push(c.chosen === null ? "not extracted" : "extracted: " + c.nodes[c.chosen].l);
    text(detail, "p", facts.join("; "));
    const table = document.createElement("table");
    const head = table.insertRow();
    ["#", "e-node", "operands", "latency", "issue", "cost", "merged by"].forEach((h) => text(head, "th", h));
    c.nodes.forEach((n, i) => {
      const row = table.insertRow();
      row.className = "node-row" + (c.chosen === i ? " extracted" : "");
      text(row, "td", String(i) + (c.chosen === i ? " \u2713" : ""));
      text(row, "td", n.l);
      const ops = row.insertCell();
      n.k.forEach((k, j) => { if (j) ops.append(" "); link(ops, k); });
      text(row, "td", String(n.lat));
      text(row, "td", String(n.iss));
      text(row, "td", String(n.c));
      text(row, "td", n.r.length ? n.r.join(", ") : "\u2014");
    });
    detail.appendChild(table);
    text(detail, "h2", "Rules that merged this e-class");
    if (!DATA.explained) {
      text(detail, "p", "(explanations were not recorded)");
    } else if (c.rules.length === 0) {
      text(detail, "p", "none: its e-nodes all came from the input or by congruence");
    } else {
      const list = document.createElement("ul");
      list.className = "rules";
      c.rules.forEach(([name, count]) => text(list, "li", name + " \u00d7" + count));
      detail.appendChild(list);
    }
    const users = DATA.classes.filter((u) => u.nodes.some((n) => n.k.includes(id)));
    if (users.length) {
      const p = text(detail, "p", "used by: ");
      users.slice(0, 50).forEach((u, j) => { if (j) p.append(" "); link(p, u.id); });
      if (users.length > 50) p.append(" \u2026");
    }
  }

  // Search by operation name: matching e-nodes are highlighted; Enter visits them in turn.
  const search = document.getElementById("search");
  const count = document.getElementById("search-count");
  let matches = [];
  let next = 0;
  search.addEventListener("input", () => {
    const q = search.value.trim().toLowerCase();
    matches = [];
    next = 0;
    for (const n of nodeRects) {
      const hit = q !== "" && n.label.includes(q);
      n.rect.classList.toggle("match", hit);
      if (hit && (matches.length === 0 || matches[matches.length - 1] !== n.cls)) matches.push(n.cls);
    }
    const nodes = nodeRects.filter((n) => n.rect.classList.contains("match")).length;
    count.textContent = q === "" ? "" : nodes + " e-nodes in " + matches.length + " e-classes";
  });
  search.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || matches.length === 0) return;
    const id = matches[next % matches.length];
    next += 1;
    select(id);
    centre(byId.get(id));
  });

  fit();
  const renderMs = performance.now() - started;

  if (location.hash === "#selftest") {
    const r = { renderMs: Math.round(renderMs) };
    r.classes = document.querySelectorAll("g.eclass").length;
    r.enodes = document.querySelectorAll("rect.enode").length;
    r.extracted = document.querySelectorAll("rect.enode.extracted").length;
    r.expectedExtracted = DATA.classes.filter((c) => c.chosen !== null).length;
    const target = DATA.classes.find((c) => c.chosen !== null && c.nodes.length > 1) ||
      DATA.classes.find((c) => c.chosen !== null) || DATA.classes[0];
    r.clicked = target ? target.id : null;
    if (target) {
      groups.get(target.id).dispatchEvent(new MouseEvent("click", { bubbles: true }));
      r.detailShown = !detail.hidden;
      r.detailTitle = detail.querySelector("h2") ? detail.querySelector("h2").textContent : "";
      r.detailRows = detail.querySelectorAll("tr.node-row").length;
      r.detailExtractedRows = detail.querySelectorAll("tr.node-row.extracted").length;
      r.selectedMarked = groups.get(target.id).classList.contains("selected");
      const op = target.nodes[target.chosen === null ? 0 : target.chosen].l.split(/[:.(]/)[0];
      search.value = op;
      search.dispatchEvent(new Event("input"));
      r.searchFor = op;
      r.searchMatches = document.querySelectorAll("rect.enode.match").length;
    }
    const before = world.getAttribute("transform");
    svg.dispatchEvent(new WheelEvent("wheel", { deltaY: -200, clientX: 50, clientY: 50, bubbles: true, cancelable: true }));
    r.zoomChanged = world.getAttribute("transform") !== before;
    r.errors = errors.slice();
    const out = document.getElementById("selftest");
    out.textContent = JSON.stringify(r);
    out.hidden = false;
  }
})();
