// The live board: the state from the server, redrawn on each server-sent event. Every
// value from a record is set as text (textContent), never as markup.
"use strict";

const STATUS = {dispatched: "dispatched", enroute: "en route", staging: "staging",
  on_scene: "on scene, outside", entered: "entered", available: "available"};
let state = null;
let you = null; // who the board is shown to (from /board/state): name, role, may_acknowledge, csrf
let skew = 0; // server clock - this machine's clock (ms)

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function clear(id) {
  const e = document.getElementById(id);
  while (e.firstChild) e.removeChild(e.firstChild);
  return e;
}

function clockTime(ms) {
  if (ms === null || ms === undefined) return "time unknown";
  return new Date(ms).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});
}

function since(ms) {
  if (ms === null || ms === undefined) return "";
  const s = Math.max(0, Math.round((Date.now() + skew - ms) / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function showEvidence(alert) {
  const box = document.getElementById("evidence");
  const rows = clear("evidence-rows");
  for (const ev of alert.evidence) {
    const tr = el("tr");
    tr.append(el("td", ev.id), el("td", ev.kind || ""), el("td", clockTime(ev.t)),
      el("td", ev.clock === "unknown" ? "clock not yet known" : (ev.clock || ""),
        ev.clock === "unknown" ? "unknown-clock" : ""),
      el("td", ev.unit || ""), el("td", ev.text || ""));
    rows.append(tr);
  }
  box.hidden = false;
  box.dataset.alert = alert.alert;
}

function draw() {
  if (!state) return;
  const alerts = clear("alerts");
  for (const a of state.alerts) {
    const li = el("li", null, "alert");
    li.dataset.alert = a.alert;
    li.append(el("strong", a.title), el("span", ` — ${a.subject}, held ${since(a.held_since)}`));
    const b = el("button", "evidence");
    b.type = "button";
    b.addEventListener("click", () => showEvidence(a));
    li.append(b);
    if (a.acknowledged) {
      li.append(el("span", ` acknowledged by ${a.acknowledged.by} at ${clockTime(a.acknowledged.at)}`, "acked"));
    } else if (you && you.may_acknowledge) {
      const ack = el("button", "acknowledge", "ack");
      ack.type = "button";
      ack.addEventListener("click", () => acknowledge(a.alert));
      li.append(ack);
    }
    li.append(el("div", a.sentence));
    alerts.append(li);
  }
  const cleared = clear("cleared");
  for (const c of state.cleared) cleared.append(el("li", `${c.title} — ${c.subject}: cleared (${c.reason})`));
  const units = clear("units");
  for (const [agency, list] of Object.entries(state.agencies)) {
    const box = el("div", null, "agency");
    box.append(el("h3", agency));
    for (const u of list) {
      const row = el("div", null, "unit");
      row.dataset.unit = u.unit;
      row.append(el("span", u.unit + (u.armed ? "" : " (unarmed)")),
        el("span", `${STATUS[u.status] || u.status || "?"} ${since(u.since)}`, `status-${u.status}`));
      box.append(row);
    }
    units.append(box);
  }
  const shots = clear("shots");
  for (const s of state.shots) shots.append(el("li", `${clockTime(s.t)} ${s.text || s.kind}`));
  const calls = clear("calls");
  for (const c of state.calls) calls.append(el("li", `${clockTime(c.t)} ${c.what} ${c.text || ""}`));
  const feeds = clear("feeds");
  for (const f of state.feeds) {
    const tr = el("tr");
    tr.append(el("td", f.feed), el("td", f.frames), el("td", f.rejected),
      el("td", f.lag_s === null ? "—" : `${f.lag_s} s`),
      el("td", f.clock === "unknown" ? "clock not yet known" : `${f.clock} (±${f.uncertainty_s} s)`,
        f.clock === "unknown" ? "unknown-clock" : ""));
    feeds.append(tr);
  }
  const rejects = clear("rejects");
  for (const r of state.rejects) rejects.append(el("li", `${r.feed} #${r.raw_record}: ${r.reason}`));
  document.getElementById("clock").textContent = clockTime(Date.now() + skew);
  document.body.dataset.version = state.version;
}

function toSignIn() {
  window.location.href = "/login?next=" + encodeURIComponent("/board");
}

// The board's state once, for who is looking (the stream carries the picture alone); a 401
// (signed out, the session ended) sends the page to sign in.
async function whoAmI() {
  const r = await fetch("/board/state", {credentials: "same-origin"});
  if (r.status === 401) { toSignIn(); return false; }
  if (!r.ok) return true;
  const s = await r.json();
  you = s.you;
  const box = clear("you");
  if (you.signed_in) {
    const form = el("form");
    form.method = "post";
    form.action = "/logout";
    const csrf = el("input");
    csrf.type = "hidden";
    csrf.name = "csrf";
    csrf.value = you.csrf;
    const out = el("button", "Sign out");
    out.type = "submit";
    out.id = "sign-out";
    form.append(csrf, out);
    const name = el("span", you.name);
    name.id = "signed-in-as";
    box.append(el("span", "Signed in as "), name, el("span", ` (${you.role}) `), form);
  }
  return true;
}

async function acknowledge(alert) {
  const headers = you && you.csrf ? {"X-CSRF-Token": you.csrf} : {};
  const r = await fetch(`/board/alerts/${encodeURIComponent(alert)}/acknowledge`,
    {method: "POST", headers, credentials: "same-origin"});
  if (r.status === 401) toSignIn();
}

function connect() {
  const conn = document.getElementById("connection");
  const source = new EventSource("/board/events");
  source.addEventListener("state", (e) => {
    state = JSON.parse(e.data);
    skew = state.now - Date.now();
    conn.textContent = "live";
    conn.className = "on";
    draw();
  });
  source.addEventListener("signed_out", () => { source.close(); toSignIn(); });
  source.onerror = async () => {
    conn.textContent = "reconnecting…";
    conn.className = "off";
    if (!(await whoAmI())) source.close();
  };
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("evidence-close").addEventListener("click", () => {
    document.getElementById("evidence").hidden = true;
  });
  whoAmI().then((ok) => { if (ok) connect(); });
  setInterval(draw, 1000); // times in status move on between changes
});
