// The timeline page: filters -> /api/timeline -> Plotly swimlanes; click -> /api/events/{id}.
// Zooming or panning refetches the window, so counts per bucket turn into points as you zoom in.
(function () {
  "use strict";
  const BASE = window.ONRECORD_BASE || "";
  const C = JSON.parse(document.getElementById("onrecord-config").textContent);
  const form = document.getElementById("filters");
  const chartEl = document.getElementById("chart");
  const statusEl = document.getElementById("status");
  const detailEl = document.getElementById("detail");
  let busy = 0, lastRange = null, drawn = false, lastData = null, hits = null;
  const searchForm = document.getElementById("search");
  const hitsEl = document.getElementById("hits");
  // The alerts the live rules raised or would have raised (the build's replay): a band from
  // when each fired to when it cleared, its evidence one click away in the list above.
  const alertsEl = document.getElementById("alerts-data");
  const ALERTS = alertsEl ? JSON.parse(alertsEl.textContent) : [];

  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  // "2025-02-13T14:06:58.000-05:00" -> "2025-02-13T14:06:58" (the form's local, zone-less value)
  const localInput = (iso) => iso ? iso.slice(0, 19) : "";

  function params() {
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) p.set(k, v);
    return p;
  }

  function fromUrl() {
    const p = new URLSearchParams(location.search);
    for (const el of form.elements) {
      if (!el.name || !p.has(el.name)) continue;
      if (el.type === "radio") el.checked = el.value === p.get(el.name);
      else el.value = p.get(el.name);
    }
  }

  async function load() {
    const p = params();
    keepInUrl();
    const mine = ++busy;
    statusEl.textContent = "Loading…";
    const t0 = performance.now();
    const first = window.ONRECORD_FIRST;
    window.ONRECORD_FIRST = null;  // the form was filled from the same URL: same request
    const res = await (first || fetch(BASE + "/api/timeline?" + p.toString()));
    const data = await res.json();
    if (mine !== busy) return;  // a newer request superseded this one
    if (!res.ok) { statusEl.textContent = data.detail || ("error " + res.status); return; }
    const t1 = performance.now();
    if (!form.elements.from.value && data.window.local_lo) form.elements.from.value = localInput(data.window.local_lo);
    if (!form.elements.to.value && data.window.local_hi) form.elements.to.value = localInput(data.window.local_hi);
    await draw(data);
    // One frame later the points are on screen, not just handed to WebGL.
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    chartEl.dataset.fetchMs = Math.round(t1 - t0);
    chartEl.dataset.drawMs = Math.round(performance.now() - t1);
    // Since navigation started (performance's origin): what the benchmark reports as page load.
    if (!chartEl.dataset.readyMs) chartEl.dataset.readyMs = Math.round(performance.now());
    const what = data.mode === "points" ? `${data.count.toLocaleString()} events`
      : `more than ${(data.count_at_least - 1).toLocaleString()} events, shown as counts per ${bucketText(data.bucket_s)} (zoom in to see each event)`;
    const clock = data.clock === "aligned" ? "aligned clocks" : "each source's own clock (case not built yet)";
    statusEl.textContent = `${what} · times in ${data.timezone} (${data.zone_abbr}), on ${clock} · ${Math.round(performance.now() - t0)} ms`;
    chartEl.dataset.count = data.count;
    chartEl.dataset.mode = data.mode;
  }

  function bucketText(s) { return s < 60 ? s + " s" : s < 3600 ? (s / 60) + " min" : s < 86400 ? (s / 3600) + " h" : (s / 86400) + " days"; }

  async function draw(data) {
    lastData = data;
    const bins = data.mode === "bins";
    const maxN = bins ? Math.max(1, ...data.traces.flatMap((t) => t.n)) : 1;
    // Lanes as numbers with tick labels: Plotly maps 20,000 category strings much more slowly.
    const laneIndex = new Map(data.lanes.map((name, i) => [name, i]));
    // t.name is the legend text, escaped by the server: Plotly reads legend names as markup.
    const traces = data.traces.map((t) => ({
      type: "scattergl", mode: "markers", name: t.name, x: t.x, y: t.y.map((y) => laneIndex.get(y)),
      customdata: t.id || null,
      text: t.hover, hovertemplate: (bins ? "" : "%{x|%Y-%m-%d %H:%M:%S.%L} " + data.zone_abbr + "<br>") + "%{text}<extra></extra>",
      marker: {color: t.colour, opacity: bins ? 0.75 : 0.85, line: {width: 0},
               size: bins ? t.n.map((n) => 5 + 17 * Math.sqrt(n / maxN)) : 9, symbol: bins ? "square" : "circle"},
    }));
    if (hits) traces.push(hitTrace(laneIndex));
    const height = Math.max(380, Math.min(2400, 60 + 26 * data.lanes.length));
    const layout = {
      height, margin: {l: 150, r: 16, t: 34, b: 56}, hovermode: "closest", dragmode: "zoom",
      legend: {orientation: "h", x: 0, y: 1, yanchor: "bottom", title: {text: "agency "}, itemsizing: "constant"},
      xaxis: {title: {text: `local time, ${data.timezone} (${data.zone_abbr})`}, type: "date",
              range: data.window_x || undefined},  // Plotly picks the tick format for the zoom level
      yaxis: {tickmode: "array", tickvals: data.lanes.map((_, i) => i), ticktext: data.lanes, automargin: true,
              range: [-0.7, Math.max(1, data.lanes.length) - 0.3], fixedrange: true, zeroline: false,
              showgrid: true, gridcolor: "#eef0f3", tickfont: {size: 12}},
    };
    layout.shapes = ALERTS.map((a) => ({
      type: a.cleared ? "rect" : "line", xref: "x", yref: "paper", x0: a.fired, x1: a.cleared || a.fired, y0: 0, y1: 1,
      fillcolor: "rgba(200, 30, 30, 0.08)", line: {color: "rgba(200, 30, 30, 0.7)", width: 1}, layer: "below"}));
    layout.annotations = ALERTS.map((a) => ({
      x: a.fired, xref: "x", y: 1, yref: "paper", yanchor: "bottom", showarrow: false, textangle: -30,
      text: "⚠ " + esc(a.subject), hovertext: esc(a.summary), font: {size: 10, color: "#a01818"}}));
    chartEl.dataset.alerts = ALERTS.length;
    await Plotly.react(chartEl, traces, layout, {displaylogo: false, responsive: true, scrollZoom: true,
                                                  modeBarButtonsToRemove: ["select2d", "lasso2d"]});
    if (!drawn) {
      chartEl.on("plotly_click", (ev) => { const pt = ev.points[0]; if (pt && pt.customdata != null) showEvent(pt.customdata); });
      chartEl.on("plotly_relayout", onZoom);
      drawn = true;
    }
  }

  // ---- search: /api/search's hits as rings on the chart, and a list below it
  // Words of a text as the index cuts them (store/search_query.py): letters and digits, no accents, any case.
  const norm = (w) => w.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

  function marked(text, matched) {
    // escaped piece by piece: the text is an imported file's, never markup
    const want = new Set(matched || []);
    return String(text == null ? "" : text).split(/([\p{L}\p{N}]+)/u)
      .map((piece, i) => i % 2 && want.has(norm(piece)) ? `<mark>${esc(piece)}</mark>` : esc(piece)).join("");
  }

  function hitTrace(laneIndex) {
    const shown = hits.events.filter((e) => e.chart.x != null && laneIndex.has(e.chart.lane));
    return {type: "scattergl", mode: "markers", name: "search hits", x: shown.map((e) => e.chart.x),
            y: shown.map((e) => laneIndex.get(e.chart.lane)), customdata: shown.map((e) => e.id),
            text: shown.map((e) => esc(e.text || e.kind)), hovertemplate: "search hit: %{text}<extra></extra>",
            marker: {symbol: "circle-open", size: 17, color: "#d08a00", line: {width: 3, color: "#d08a00"}}};
  }

  async function runSearch(q) {
    const status = document.getElementById("s-status");
    q = (q || "").trim();
    if (!q) { clearSearch(); return; }
    status.textContent = "Searching…";
    const lanes = new FormData(form).get("lanes") || "agency";
    const res = await fetch("/api/search?" + new URLSearchParams({q, lanes, limit: "500"}).toString());
    const data = await res.json();
    if (!res.ok) { status.textContent = data.detail || ("error " + res.status); return; }
    hits = data;
    const n = data.events.length + data.claims.length;
    status.textContent = n ? `${data.events.length} events, ${data.claims.length} claims${data.more ? " (the best; there are more)" : ""}`
      : "no match" + (data.terms.length ? "" : ": no word to search for");
    if (data.index_behind) status.textContent += " · the index is behind the latest change";
    const items = data.events.map((e) => `<li><a class="event-link" href="/events/${e.id}" data-event="${e.id}">${esc(e.local_text)}</a>
        <span class="agency-chip" style="background:${(C.colours || {})[e.agency] || "#444"}">${esc(e.agency || "—")}</span>
        ${esc(e.kind)}${e.unit ? " · " + esc(e.unit) : ""}: ${marked(e.text, e.matched)}
        <span class="muted mono">${esc(e.source.file)}:${e.record.line}</span></li>`)
      .concat(data.claims.map((c) => `<li>claim ${c.id}${c.speaker ? " · " + marked(c.speaker, c.matched) : ""}: “${marked(c.sentence, c.matched)}”
        <span class="muted mono">${esc(c.source.file)}</span>${c.event_id ? ` <a class="event-link" href="/events/${c.event_id}" data-event="${c.event_id}">event ${c.event_id}</a>` : ""}</li>`));
    document.getElementById("hits-head").textContent = `Search hits for “${q}”`;
    document.getElementById("hits-list").innerHTML = items.join("");
    hitsEl.hidden = !n;
    hitsEl.querySelectorAll("a[data-event]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); showEvent(a.dataset.event); }));
    chartEl.dataset.hits = data.events.length;
    if (lastData) await draw(lastData);
    keepInUrl();
  }

  function keepInUrl() {
    const url = params();
    if (hits) url.set("q", hits.query);
    history.replaceState(null, "", "?" + url.toString());
  }

  function clearSearch() {
    hits = null;
    document.getElementById("s-q").value = "";
    document.getElementById("s-status").textContent = "";
    hitsEl.hidden = true;
    chartEl.dataset.hits = 0;
    if (lastData) draw(lastData);
    keepInUrl();
  }

  // Saved searches are annotations of the case (target "search"), shown to everyone who reads it.
  async function loadSaved() {
    const res = await fetch("/api/annotations?target=search");
    if (!res.ok) return;
    const select = document.getElementById("s-saved");
    select.replaceChildren(new Option("—", ""));
    for (const a of (await res.json()).annotations) select.add(new Option(`${a.text} (${a.author})`, a.text));
  }

  async function saveSearch() {
    const q = document.getElementById("s-q").value.trim();
    const status = document.getElementById("s-status");
    if (!q) { status.textContent = "type a search to save"; return; }
    const res = await fetch("/api/annotations", {method: "POST", body: JSON.stringify({target: "search", kind: "saved_search", text: q}),
      headers: {"Content-Type": "application/json", "X-CSRF-Token": C.csrf || ""}});
    status.textContent = res.ok ? "saved" : ((await res.json()).detail || ("error " + res.status));
    if (res.ok) loadSaved();
  }

  let zoomTimer = null;
  function onZoom(ev) {
    // A drag names the two ends; a relayout call or the range buttons may give the pair.
    const pair = ev["xaxis.range"] || [];
    const lo = ev["xaxis.range[0]"] || pair[0], hi = ev["xaxis.range[1]"] || pair[1];
    if (!lo || !hi) return;
    const key = lo + "|" + hi;
    if (key === lastRange) return;
    lastRange = key;
    clearTimeout(zoomTimer);
    zoomTimer = setTimeout(() => {
      form.elements.from.value = String(lo).replace(" ", "T").slice(0, 19);
      form.elements.to.value = String(hi).replace(" ", "T").slice(0, 19);
      load();
    }, 250);
  }

  function reportHtml(r) {
    const colour = (C.colours || {})[r.agency] || "#444";
    const offset = r.clock_estimate ? esc(r.clock_estimate.applied) : "none applied — " + (r.clock === "aligned" ? "no estimate for this source" : "case not built yet");
    return `<article class="report" style="border-left-color:${colour}">
      <div class="report-head"><span class="agency-chip" style="background:${colour}">${esc(r.agency || "—")}</span>
        <strong>${esc(r.kind)}</strong>${r.unit ? " · unit " + esc(r.unit) : ""}
        <a class="event-link" href="${BASE}/events/${r.id}">event ${r.id}</a></div>
      <dl><dt>Source</dt><dd><span class="mono source-line">${esc(r.source.file)}:${r.record.line}</span> (${esc(r.source.kind)})</dd>
      <dt>Written</dt><dd class="mono">${esc(r.time_text || "(no time written)")}</dd>
      <dt>Source clock</dt><dd>${esc(r.source_clock.local_text)}</dd>
      <dt>Clock offset</dt><dd>${offset}</dd>
      ${r.aligned ? `<dt>Aligned</dt><dd>${esc(r.aligned.local_text)}</dd>` : ""}
      ${r.text ? `<dt>Text</dt><dd>${esc(r.text)}</dd>` : ""}
      <dt>Raw line</dt><dd>${r.record.raw == null ? '<span class="muted withheld">withheld: your role does not show raw lines</span>' : `<pre class="raw">${esc(r.record.raw)}</pre>`}</dd>
      <dt>SHA-256</dt><dd class="mono hash">${esc(r.record.sha256)}</dd></dl></article>`;
  }

  async function showEvent(id) {
    detailEl.innerHTML = "<p class='hint'>Loading event " + esc(id) + "…</p>";
    const res = await fetch(BASE + "/api/events/" + encodeURIComponent(id));
    const d = await res.json();
    if (!res.ok) { detailEl.innerHTML = "<p>" + esc(d.detail) + "</p>"; return; }
    let html = `<h2>${esc(d.kind)}</h2>` + reportHtml(d);
    if (d.fused) {
      html += `<h3>Fused event ${d.fused.id}: ${d.fused.report_count} reports from ${d.fused.source_count} sources, ${esc(d.fused.local_text)}</h3>`;
      html += d.fused.reports.filter((r) => r.id !== d.id).map(reportHtml).join("");
    } else {
      html += `<p class="muted">${d.clock === "aligned" ? "Not fused with reports from other sources." : "Reports from other sources are fused once the case is built."}</p>`;
    }
    html += notesHtml(d);
    detailEl.innerHTML = html;
    detailEl.dataset.eventId = d.id;
    const noteForm = document.getElementById("note-form");
    if (noteForm) noteForm.addEventListener("submit", (e) => { e.preventDefault(); addNote(d.id, noteForm); });
  }

  // Annotations: attributed notes beside the evidence, never in it (POST /api/annotations).
  function notesHtml(d) {
    const items = (d.annotations || []).map((a) => `<li class="note note-${esc(a.kind)}"><strong>${esc(a.kind)}</strong>`
      + `${a.text ? ": " + esc(a.text) : ""} <span class="muted">— ${esc(a.author)}, ${esc(a.at)}</span></li>`).join("");
    const form = C.annotate ? `<form id="note-form" class="note-form">
        <select name="kind" id="note-kind"><option value="comment">comment</option><option value="tag">tag</option>
          <option value="star">star</option><option value="disputed">disputed</option></select>
        <input name="text" id="note-text" maxlength="4000" placeholder="comment, tag, or why it is disputed">
        <button type="submit" id="note-add">Add</button><span class="note-error" id="note-error"></span></form>` : "";
    return `<section class="notes"><h3>Annotations</h3>${items ? "<ul>" + items + "</ul>" : "<p class='muted'>None yet.</p>"}${form}</section>`;
  }

  async function addNote(id, form) {
    const body = {target: "event", target_id: id, kind: form.elements.kind.value, text: form.elements.text.value || null};
    const res = await fetch(BASE + "/api/annotations", {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRF-Token": C.csrf || ""}});
    if (!res.ok) { document.getElementById("note-error").textContent = (await res.json()).detail || ("error " + res.status); return; }
    showEvent(id);
  }

  document.querySelectorAll("#alerts a[data-event]").forEach((a) => a.addEventListener("click", (e) => {
    e.preventDefault();
    showEvent(a.dataset.event);
  }));
  form.addEventListener("change", (e) => {
    if (e.target.name === "from" || e.target.name === "to") lastRange = null;
    if (e.target.name === "lanes" && hits) runSearch(hits.query);  // the hits' lanes follow the chart's
    load();
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); load(); });
  document.getElementById("f-reset").addEventListener("click", () => { form.elements.from.value = ""; form.elements.to.value = ""; load(); });
  searchForm.addEventListener("submit", (e) => { e.preventDefault(); runSearch(document.getElementById("s-q").value); });
  document.getElementById("s-clear").addEventListener("click", clearSearch);
  const saveButton = document.getElementById("s-save");
  if (saveButton) saveButton.addEventListener("click", saveSearch);
  document.getElementById("s-saved").addEventListener("change", (e) => {
    if (!e.target.value) return;
    document.getElementById("s-q").value = e.target.value;
    runSearch(e.target.value);
  });
  fromUrl();
  load();
  loadSaved();
  const startQ = new URLSearchParams(location.search).get("q");
  if (startQ) { document.getElementById("s-q").value = startQ; runSearch(startQ); }
})();
