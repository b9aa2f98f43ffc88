// The Stratos runs page app: a runs list and a run page, both fed by
// Server-Sent Events (the page never polls the server). Plain JS, no build.
"use strict";

const token = document.querySelector('meta[name="stratos-token"]').content;
const writable = document.querySelector('meta[name="stratos-writable"]').content === "true";
const view = document.getElementById("view");
let current = null; // { close() } of the view on screen

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const num = (v) => (typeof v === "number" && isFinite(v) ? v : undefined);

function duration(ms) {
  if (ms == null || !isFinite(ms)) return "—";
  const s = ms / 1000;
  if (s < 60) return s.toFixed(1) + "s";
  const m = Math.floor(s / 60);
  if (m < 60) return m + "m " + String(Math.floor(s % 60)).padStart(2, "0") + "s";
  return Math.floor(m / 60) + "h " + String(m % 60).padStart(2, "0") + "m";
}
const when = (t) => (t ? new Date(t).toLocaleString() : "—");
const money = (v) => (num(v) === undefined ? "—" : "$" + (v < 0.01 && v > 0 ? v.toFixed(4) : v.toFixed(2)));
const tokens = (v) => (num(v) === undefined ? "—" : v >= 10000 ? (v / 1000).toFixed(1) + "k" : String(v));
const badge = (s) => `<span class="status s-${esc(s)}">${esc(s || "unknown")}</span>`;

// Usage is read in its one spelling each: a usage roll-up of `runs show`
// ({turns, tokens: {input, output, …}, cost: {usd, …}}) and a usage event's
// details (the event vocabulary of events.d.ts: token counts by kind and
// costUsd, spelled alike in every version). An agent shows its input and
// output tokens; a figure not known shows "—".
const rollupCost = (u) => num(u?.cost?.usd);
const rollupTokens = (u) => (num(u?.tokens?.input) ?? 0) + (num(u?.tokens?.output) ?? 0) || undefined;
const turnTokens = (d) => (num(d.inputTokens) ?? 0) + (num(d.outputTokens) ?? 0);

function route() {
  if (current) current.close();
  const m = location.hash.match(/^#\/run\/(.+)$/);
  current = m ? runPage(decodeURIComponent(m[1])) : listPage();
}
window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// ---- runs list ----------------------------------------------------------

function listPage() {
  const q = new URLSearchParams(location.hash.split("?")[1] || "");
  view.innerHTML = `
    <form class="filters" id="filters">
      <label>Status <select name="status"><option value="">any</option>${document.getElementById("statuses").innerHTML}</select></label>
      <label>Workflow <input name="workflow" placeholder="any" autocomplete="off"></label>
      <span class="note" id="count"></span>
    </form>
    <div class="panel"><table>
      <thead><tr><th class="c-status">Status</th><th>Workflow</th><th class="c-id">Run</th><th class="c-started">Started</th><th class="c-dur">Duration</th><th class="c-cost">Cost</th></tr></thead>
      <tbody id="runs"><tr><td colspan="6" class="empty">Loading…</td></tr></tbody>
    </table></div>`;
  const form = document.getElementById("filters");
  form.status.value = q.get("status") || "";
  form.workflow.value = q.get("workflow") || "";
  let es = null, runs = [], shownAt = Date.now();
  const connect = () => {
    if (es) es.close();
    const p = new URLSearchParams();
    if (form.status.value) p.set("status", form.status.value);
    if (form.workflow.value.trim()) p.set("workflow", form.workflow.value.trim());
    history.replaceState(null, "", "#/" + (p.toString() ? "?" + p : ""));
    es = new EventSource("/api/runs/stream?" + p);
    es.addEventListener("runs", (e) => { runs = JSON.parse(e.data).runs; shownAt = Date.now(); draw(); });
    es.addEventListener("failure", (e) => { es.close(); fail(JSON.parse(e.data)); });
  };
  const fail = (env) => { document.getElementById("runs").innerHTML = `<tr><td colspan="6" class="empty">${esc(env.error?.message)}</td></tr>`; };
  const draw = () => {
    const body = document.getElementById("runs");
    document.getElementById("count").textContent = runs.length + (runs.length === 1 ? " run" : " runs");
    if (!runs.length) { body.innerHTML = `<tr><td colspan="6" class="empty">No runs match.</td></tr>`; return; }
    const late = Date.now() - shownAt;
    body.innerHTML = runs.map((r) => `
      <tr data-id="${esc(r.executionId)}">
        <td class="c-status">${badge(r.status)}</td>
        <td><a href="#/run/${encodeURIComponent(r.executionId)}">${esc(r.workflow)}</a></td>
        <td class="c-id">${esc(r.executionId)}</td>
        <td class="c-started"><time>${esc(when(r.startedAt))}</time></td>
        <td class="c-dur dur">${duration(r.durationMs + (r.status === "running" ? late : 0))}</td>
        <td class="c-cost num">${money(rollupCost(r.usage?.run))}</td>
      </tr>`).join("");
  };
  document.getElementById("runs").addEventListener("click", (e) => {
    const tr = e.target.closest("tr[data-id]");
    if (tr) location.hash = "#/run/" + encodeURIComponent(tr.dataset.id);
  });
  form.addEventListener("change", connect);
  form.addEventListener("submit", (e) => { e.preventDefault(); connect(); });
  connect();
  const tick = setInterval(() => { if (runs.some((r) => r.status === "running")) draw(); }, 1000);
  return { close() { es && es.close(); clearInterval(tick); } };
}

// ---- run page -----------------------------------------------------------

function runPage(id) {
  view.innerHTML = `
    <div class="runhead">
      <h1 id="title">${esc(id)}</h1><span id="status">${badge("…")}</span>
      <div class="meta"><span>Run <code id="rid">${esc(id)}</code></span><span>Started <time id="started">—</time></span><span>Duration <span class="dur" id="duration">—</span></span><span>Cost <span class="num" id="cost">—</span></span></div>
      <div class="actions"><span class="note" id="stopnote"></span>${writable ? `<button class="stop" id="stop" hidden>Stop</button>` : ""}</div>
      <div class="meta chain" id="chain" hidden></div>
    </div>
    <div class="gauge panel" id="budget" hidden></div>
    <section class="panel" id="timelinepanel"><h2>Timeline <span class="note" id="tlsummary"></span></h2>
      <div class="legend"><span class="k k-running">running</span><span class="k k-completed">completed</span><span class="k k-failed">failed</span><span class="k k-cancelled">cancelled</span><span class="k k-queued">waiting for admission</span><span class="k k-x">failed here</span></div>
      <div class="timeline" id="timeline"><p class="empty">No events yet.</p></div></section>
    <section class="panel" id="detail" hidden></section>
    <div class="grid">
      <section class="panel"><h2>Invocations and agents</h2><div class="tree" id="tree"><p class="empty">No agents yet.</p></div></section>
      <section class="panel"><h2>Phases and log</h2><div class="log" id="log"><p class="empty">No phases or log lines.</p></div></section>
    </div>
    <section class="panel" id="result"><h2>Result</h2><div id="resultbody"><p class="empty">The run has not finished.</p></div></section>
    <section class="panel" id="eventspanel"><h2>Events <span class="note" id="eventcount"></span></h2><div class="log events" id="events"></div></section>`;
  // Events arrive one message each (a finished run's log replays in one
  // burst); they are folded into st at once and drawn once per frame, so
  // the page lays out once per frame however many events came in it.
  const st = { run: null, execs: new Map(), agents: new Map(), logs: [], events: 0, unshown: [], shownAt: Date.now(), spent: { tokens: 0, usd: 0 },
    timeline: null, timelineAt: 0, timelineDrawn: null, timelineDrawnAt: 0, firstAt: undefined, selected: null };
  let dirty = false, es = null;
  const follow = followEnds(document.getElementById("log"), document.getElementById("events"));
  const schedule = () => { if (!dirty) { dirty = true; requestAnimationFrame(() => { dirty = false; drawFrame(st, follow); }); } };

  es = new EventSource("/api/runs/" + encodeURIComponent(id) + "/events");
  es.addEventListener("run", (e) => { st.run = JSON.parse(e.data); st.shownAt = Date.now(); drawRun(st); schedule(); });
  es.onmessage = (e) => { let ev; try { ev = JSON.parse(e.data); } catch { return; } apply(st, ev); st.unshown.push(ev); schedule(); };
  es.addEventListener("timeline", (e) => { st.timeline = JSON.parse(e.data); st.timelineAt = Date.now(); schedule(); });
  es.addEventListener("end", () => es.close());
  // A row of the timeline or of the tree opens its details (a failure's
  // error and the last events) in one click.
  const onClick = (e) => {
    if (e.target.closest("#detailclose")) { st.selected = null; st.detailKey = null; document.getElementById("detail").hidden = true; return; }
    const row = e.target.closest("[data-detail]");
    if (!row) return;
    st.selected = row.dataset.detail;
    drawDetail(st);
    document.getElementById("detail").scrollIntoView({ block: "nearest" });
  };
  view.addEventListener("click", onClick);
  es.addEventListener("failure", (e) => { es.close(); document.getElementById("resultbody").innerHTML = errorHTML(JSON.parse(e.data).error); });

  const stop = document.getElementById("stop");
  if (stop) stop.addEventListener("click", async () => {
    stop.disabled = true;
    const note = document.getElementById("stopnote");
    note.textContent = "Stopping…";
    try {
      const r = await fetch("/api/runs/" + encodeURIComponent(id) + "/stop", { method: "POST", headers: { "X-Stratos-Token": token } });
      const body = await r.json();
      note.textContent = r.ok ? "Stopped: " + body.run.status : body.error?.message || "Stop failed";
    } catch (err) { note.textContent = "Stop failed: " + err; }
  });
  const tick = setInterval(() => { if (st.run?.status === "running") { drawDuration(st); schedule(); } }, 1000);
  return { close() { es && es.close(); clearInterval(tick); view.removeEventListener("click", onClick); } };
}

function drawRun(st) {
  const r = st.run;
  document.getElementById("title").textContent = r.workflow;
  document.getElementById("status").innerHTML = badge(r.status);
  document.getElementById("started").textContent = when(r.startedAt);
  document.getElementById("rid").textContent = r.executionId;
  document.getElementById("cost").textContent = money(rollupCost(r.usage?.run));
  drawDuration(st);
  const stop = document.getElementById("stop");
  if (stop) stop.hidden = r.status !== "running";
  document.getElementById("resultbody").innerHTML = resultHTML(r);
  drawChain(r);
  const root = ensureExec(st, r.executionId);
  root.workflow = r.workflow; root.status = r.status;
  if (r.tree) mergeTree(st, r.tree, null);
  for (const [id, u] of Object.entries(r.usage?.byAgent || {})) {
    const a = st.agents.get(id);
    if (a) { a.tokens = rollupTokens(u); a.cost = rollupCost(u); }
  }
}

// drawChain links the run to the run it resumes, with what replaying that
// run's journal came to, and to the runs that resume it (runs show's
// resumedFrom, resume and resumedBy).
function drawChain(r) {
  const box = document.getElementById("chain");
  const link = (id) => `<a href="#/run/${encodeURIComponent(id)}"><code>${esc(id)}</code></a>`;
  const parts = [];
  if (r.resumedFrom) {
    const replayed = r.resume ? `: ${esc(r.resume.replayedCalls)} call(s) replayed` : "";
    parts.push(`<span id="resumedfrom">Resumed from ${link(r.resumedFrom)}${replayed}</span>`);
    if (r.resume?.changedWorkflows?.length) parts.push(`<span class="changed">Code changed since: ${esc(r.resume.changedWorkflows.join(", "))}</span>`);
    for (const d of r.resume?.divergences || []) parts.push(`<span class="diverged">Diverged in ${esc(d.path)} at ${esc(d.call)}: ${esc(d.reason)}</span>`);
  }
  if (r.resumedBy?.length) parts.push(`<span id="resumedby">Resumed by ${r.resumedBy.map(link).join(", ")}</span>`);
  box.innerHTML = parts.join("");
  box.hidden = !parts.length;
}

function drawDuration(st) {
  const r = st.run;
  if (!r) return;
  document.getElementById("duration").textContent = duration(r.durationMs + (r.status === "running" ? Date.now() - st.shownAt : 0));
}

// drawBudget shows one gauge per limit of the run's budget (the record
// keeps {limits: {usd, tokens}, spent}; either limit may be absent). A
// finished run shows what its record says was spent; a running one what its
// usage events so far add up to, counted as the budget counts: every token,
// cache included, and the dollars of the turns whose cost is known.
function drawBudget(st) {
  const r = st.run, box = document.getElementById("budget");
  const limits = r?.budget?.limits || r?.invocation?.budget || {};
  const rows = [];
  const spent = r?.status !== "running" && r?.budget?.spent ? r.budget.spent : st.spent;
  if (num(limits.usd) > 0) rows.push(["USD", spent.usd ?? 0, limits.usd, money]);
  if (num(limits.tokens) > 0) rows.push(["tokens", spent.tokens ?? 0, limits.tokens, tokens]);
  if (!rows.length) { box.hidden = true; return; }
  const units = rows.map((row) => row[0]).join(",");
  if (box.dataset.units !== units) {
    box.innerHTML = rows.map(([unit]) => `<strong>Budget (${unit})</strong><div class="bar"><div class="fill" data-fill="${unit}"></div></div><span class="num" data-budget="${unit}"></span>`).join("");
    box.dataset.units = units;
  }
  for (const [unit, used, limit, fmt] of rows) {
    const pct = (used / limit) * 100;
    // Through the CSSOM: the page's Content-Security-Policy drops inline style attributes.
    const fill = box.querySelector(`[data-fill="${unit}"]`);
    fill.style.width = Math.min(100, pct) + "%";
    fill.className = "fill" + (pct >= 100 ? " over" : pct >= 80 ? " warn" : "");
    box.querySelector(`[data-budget="${unit}"]`).textContent = `${fmt(used)} of ${fmt(limit)} (${pct.toFixed(0)}%)`;
  }
  box.hidden = false;
}

function resultHTML(r) {
  if (r.status === "running") return `<p class="empty">The run has not finished.</p>`;
  let h = "";
  if (r.reconciled) h += `<div class="error"><h3>Crashed</h3><p>${esc(r.reconciled.reason)} (noticed ${esc(when(r.reconciled.at))})</p></div>`;
  if (r.output !== undefined) h += `<pre class="json" id="output">${esc(JSON.stringify(r.output, null, 2))}</pre>`;
  if (r.error !== undefined) h += errorHTML(r.error);
  return h || `<p class="empty">The record holds no output or error.</p>`;
}

// errorHTML shows an error with its cause chain (outermost first), from
// either shape a record may hold: {cause:[…]} or {details:{cause:[…]}}.
function errorHTML(e, id = "error") {
  if (!e) return "";
  const body = e.error && !e.message ? e.error : e;
  const chain = body.cause || body.details?.cause || [];
  const links = Array.isArray(chain) ? chain : [chain];
  return `<div class="error" id="${esc(id)}"><h3>${esc(body.name || body.code || "Error")}${body.code && body.name ? ` <code>${esc(body.code)}</code>` : ""}</h3>
    <p>${esc(body.message)}</p>
    ${links.length ? `<ol class="cause">${links.map((l) => `<li>caused by <strong>${esc(l.name || l.code || "")}</strong>: ${esc(l.message ?? JSON.stringify(l))}</li>`).join("")}</ol>` : ""}</div>`;
}

// ---- the tree, from tree.json and the events -----------------------------

function ensureExec(st, id) {
  let x = st.execs.get(id);
  if (!x) { x = { id, workflow: "", status: "", parent: undefined, phase: "", agents: [], children: [], error: undefined, recent: [] }; st.execs.set(id, x); }
  return x;
}

function mergeTree(st, node, parent) {
  const x = ensureExec(st, node.executionId);
  x.workflow = node.workflow || x.workflow;
  x.status = node.status || x.status;
  if (parent !== null) x.parent = parent;
  for (const c of node.children || []) mergeTree(st, c, node.executionId);
}

// apply folds one event (of any vocabulary version: the fields read here
// are spelled alike in all) into the state. Unknown event kinds still count
// and show in the events list; fields are read only when present.
function apply(st, ev) {
  st.events++;
  const d = ev.details || {};
  const type = String(ev.type || "");
  const t = Date.parse(ev.timestamp);
  if (isFinite(t) && !(st.firstAt <= t)) st.firstAt = t;
  if (ev.executionId) remember(ensureExec(st, ev.executionId), ev);
  if (type === "usage") addSpent(st.spent, d);
  if (type === "workflow.child.started" || type === "workflow.child.completed") placeChild(st, ev, type);
  if (type === "workflow.phase") st.logs.push({ phase: true, t: ev.timestamp, text: ev.phase || d.phase || "" });
  else if (type === "workflow.log") st.logs.push({ t: ev.timestamp, text: d.message ?? "" });
  if (ev.agentId) applyAgent(st, ev, type, d);
}

// applyAgent folds an agent's event into its row: its name when an execute
// starts, the model its turns ran on, whether it is busy, and the tokens and
// cost of its usage events (the one event that counts a turn).
function applyAgent(st, ev, type, d) {
  const exec = ensureExec(st, ev.executionId || st.run?.executionId);
  if (ev.workflow && !exec.workflow) exec.workflow = ev.workflow;
  let a = st.agents.get(ev.agentId);
  if (!a) {
    a = { id: ev.agentId, name: "", label: "", prompt: "", harness: "", model: "", phases: [], state: "starting", startedAt: undefined, busySince: null, busyMs: 0,
      tokens: undefined, cost: undefined, error: undefined, recent: [] };
    st.agents.set(ev.agentId, a);
    exec.agents.push(a);
  }
  remember(a, ev);
  if (ev.label) a.label = ev.label;
  const t = Date.parse(ev.timestamp);
  const idle = () => { if (a.busySince) a.busyMs += t - a.busySince; a.busySince = null; };
  switch (type) {
    case "agent.invocation.started": {
      a.name = d.name || a.name; a.state = "running"; a.busySince = t;
      if (!a.prompt && !a.startedAt) a.prompt = d.promptPreview || "";
      if (a.startedAt === undefined && isFinite(t)) a.startedAt = t;
      const phase = joinPhase(exec.phase, ev.phase);
      if (!a.phases.includes(phase)) a.phases.push(phase);
      break;
    }
    case "agent.invocation.completed":
      idle(); a.state = d.status || "completed";
      if (d.status === "failed") a.error = d.error || { message: "failed" };
      break;
    case "agent.initialization.completed":
      a.harness = d.harness || a.harness;
      break;
    case "agent.closed":
      idle(); a.state = a.state === "running" ? "closed" : a.state;
      break;
    case "model.started": case "model.completed":
      a.model = d.model || a.model;
      break;
    case "usage": {
      a.model = d.model || a.model;
      const n = turnTokens(d);
      if (n) a.tokens = (a.tokens ?? 0) + n;
      if (num(d.costUsd) !== undefined) a.cost = (a.cost ?? 0) + d.costUsd;
      break;
    }
  }
}

// placeChild puts a child invocation under its parent as soon as it starts,
// and gives it its status once it has ended (workflow.child.completed),
// while the run goes on. Its phases nest under the phase its parent
// started it in, as `stratos runs show` nests them.
function placeChild(st, ev, type) {
  const x = ensureExec(st, ev.executionId);
  x.workflow = ev.workflow || x.workflow;
  if (ev.details?.parentExecutionId) x.parent = ev.details.parentExecutionId;
  if (type === "workflow.child.started") x.phase = joinPhase(st.execs.get(x.parent)?.phase, ev.phase);
  if (ev.details?.status) x.status = ev.details.status;
  if (ev.details?.error) x.error = ev.details.error;
}

// remember keeps the last events of an agent or an invocation, which its
// details show.
const recentEvents = 12;
function remember(x, ev) {
  x.recent.push(ev);
  if (x.recent.length > recentEvents) x.recent.shift();
}

// agentTitle is what names an agent: its label, else the first line of its
// first prompt, else its configuration name; configName is the latter
// ("reviewer#a" names configuration reviewer with label a).
const configName = (name) => String(name || "").split("#")[0];
const agentTitle = (label, prompt, name) => label || prompt || configName(name);

// offset is a time from the run's first event, as "+1.2s".
const offset = (ms) => (ms == null || !isFinite(ms) ? "—" : "+" + duration(Math.max(0, ms)));

// joinPhase nests phase name in path ("review" and "fix": "review/fix").
function joinPhase(path, name) {
  return [path, name].filter((p) => typeof p === "string" && p !== "").join("/");
}

// phaseGroups groups a node's agents by the phase of their first execute,
// in the order of its first agent; an agent not started yet is of no phase.
function phaseGroups(agents) {
  const groups = new Map();
  for (const a of agents) {
    const p = a.phases[0] ?? "";
    if (!groups.has(p)) groups.set(p, []);
    groups.get(p).push(a);
  }
  return groups;
}

// addSpent adds one usage event's details to what the budget counts.
function addSpent(spent, d) {
  for (const k of ["inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens"]) spent.tokens += num(d[k]) ?? 0;
  spent.usd += num(d.costUsd) ?? 0;
}

function drawTree(st) {
  const root = st.run ? st.execs.get(st.run.executionId) : null;
  if (!root) return;
  const live = st.run.status === "running";
  const kids = new Map();
  for (const x of st.execs.values()) {
    if (x === root) continue;
    const p = x.parent && st.execs.has(x.parent) ? x.parent : root.id; // a child seen only in events hangs under the run
    if (!kids.has(p)) kids.set(p, []);
    kids.get(p).push(x);
  }
  const agent = (a) => {
    const ms = a.busyMs + (a.busySince && live ? Date.now() - a.busySince : 0);
    const state = a.busySince && !live ? st.run.status : a.state;
    const phases = a.phases.filter((p) => p !== "").join(", ");
    const config = configName(a.name) || a.id.split("/").pop();
    const title = agentTitle(a.label, a.prompt, config);
    const hm = [a.harness, a.model].filter(Boolean).join("/");
    return `<div class="agent${state === "failed" ? " failed" : ""}" data-agent="${esc(a.id)}" data-detail="agent:${esc(a.id)}" title="${esc(a.id)}">
      <span class="name"><span class="what" title="${esc(title)}">${esc(title)}</span>${title !== config ? ` <span class="config">${esc(config)}</span>` : ""}</span>
      <span class="phase" title="${esc(phases)}">${esc(phases || "—")}</span>
      <span class="model" title="${esc(hm)}">${esc(hm || "—")}</span>
      <span class="num start">${offset(a.startedAt - st.firstAt)}</span>
      ${badge(state)}
      <span class="num">${duration(ms)}</span>
      <span class="num tok">${tokens(a.tokens)}</span>
      <span class="num cost">${money(a.cost)}</span></div>`;
  };
  // A node's agents, a group per phase once any of them ran in one.
  const agentsHTML = (agents) => {
    const groups = phaseGroups(agents);
    if (groups.size === 1 && groups.has("")) return agents.map(agent).join("");
    return [...groups].map(([p, as]) => `<div class="phasegroup" data-phase="${esc(p)}"><div class="phasehead">${p ? esc(p) : "no phase"}</div>${as.map(agent).join("")}</div>`).join("");
  };
  const node = (x) => `<li class="node" data-exec="${esc(x.id)}"><div class="inv" data-detail="exec:${esc(x.id)}">${esc(x.workflow || "child workflow")} ${x.status ? badge(x.status) : ""} <code class="muted">${esc(x.id)}</code></div>
    ${agentsHTML(x.agents)}${(kids.get(x.id) || []).length ? `<ul>${kids.get(x.id).map(node).join("")}</ul>` : ""}</li>`;
  const tree = document.getElementById("tree");
  if (!tree) return;
  tree.innerHTML = `<ul>${node(root)}</ul>`;
}

// drawFrame draws what changed since the last frame. It only writes to the
// page until its very end, where the scrolling boxes that follow their last
// line are scrolled to it: the page is thus laid out once per frame (a
// layout read between two writes would lay it out again).
function drawFrame(st, follow) {
  drawTree(st);
  drawBudget(st);
  drawTimeline(st);
  if (st.selected) drawDetail(st);
  const grown = [drawLog(st) && document.getElementById("log"), drawEvents(st) && document.getElementById("events")];
  for (const box of grown) if (box && follow.has(box)) box.scrollTop = box.scrollHeight;
}

// followEnds keeps the set of boxes scrolled to their end, which new lines
// keep there; it learns it from scroll events, not by reading the layout
// while drawing.
function followEnds(...boxes) {
  const atEnd = new Set(boxes);
  for (const box of boxes) {
    box.addEventListener("scroll", () => {
      if (box.scrollTop + box.clientHeight >= box.scrollHeight - 4) atEnd.add(box);
      else atEnd.delete(box);
    }, { passive: true });
  }
  return atEnd;
}

// drawLog redraws the phases and log lines when there are new ones and
// says whether it did.
function drawLog(st) {
  const box = document.getElementById("log");
  if (!box || !st.logs.length || box.childElementCount === st.logs.length) return false;
  box.innerHTML = st.logs.map((l) => `<div class="${l.phase ? "phase" : ""}">${l.phase ? "▸ " : ""}${esc(l.text)}</div>`).join("");
  return true;
}

// drawEvents adds the events that came since the last frame to the events
// panel, in one insertion, keeping the last 500 lines; it says whether it
// added any.
const eventLines = 500;
function drawEvents(st) {
  const box = document.getElementById("events");
  if (!box || !st.unshown.length) return false;
  box.insertAdjacentHTML("beforeend", st.unshown.slice(-eventLines).map(eventLine).join(""));
  st.unshown = [];
  for (let extra = box.childElementCount - eventLines; extra > 0; extra--) box.firstChild.remove();
  document.getElementById("eventcount").textContent = "(" + st.events + ")";
  return true;
}

function eventLine(ev) {
  const t = ev.timestamp ? new Date(ev.timestamp).toISOString().slice(11, 23) : "";
  const who = ev.agentId ? ev.agentId.split("/").slice(-1)[0] : ev.workflow || "";
  const what = summary(String(ev.type || ""), ev.details || {}) ?? "";
  const text = `${ev.type} ${who} ${typeof what === "string" ? what.slice(0, 200) : JSON.stringify(what)}`;
  return `<div title="${esc(text)}"><span class="t">${esc(t)}</span> ${esc(text)}</div>`;
}

// summary is the field of an event's details the events list shows, by
// kind: what a delta says, a log line's or a progress report's message, a
// phase, a tool's name, else the status.
function summary(type, d) {
  switch (type) {
    case "message.delta": return d.text;
    case "workflow.log": case "mcp.progress": case "model.retry": return d.message;
    case "workflow.phase": return d.phase;
    case "tool.started": case "tool.completed": return d.toolName;
    case "agent.invocation.completed": case "workflow.child.completed":
      return d.error?.message ? `${d.status}: ${d.error.message}` : d.status;
  }
  return d.status;
}

// ---- the timeline ---------------------------------------------------------

// drawTimeline draws the rows the server sends (runs.Timeline: the rows
// `stratos runs show --timeline` draws, so the page and the terminal
// agree), a row per invocation and agent in order of start with its facts
// and its bar on one time axis: coloured by the row's state where it ran,
// hatched where it waited for an admission slot, a red tick where an
// execute failed. Bars are SVG, whose geometry the page's
// Content-Security-Policy allows (it drops inline style attributes).
function drawTimeline(st) {
  // A running run's bars grow by the clock: drawn again each second
  // (the page's tick), else only when a new timeline came.
  const live = st.run?.status === "running";
  if (!st.timeline || (st.timelineDrawn === st.timeline && !(live && Date.now() - st.timelineDrawnAt >= 1000))) return;
  st.timelineDrawn = st.timeline;
  st.timelineDrawnAt = Date.now();
  const box = document.getElementById("timeline");
  if (!box) return;
  const tl = live ? grown(st.timeline, Date.now() - st.timelineAt) : st.timeline;
  const total = Math.max(tl.durationMs, 1);
  const x = (ms) => Math.max(0, Math.min(1000, (ms / total) * 1000));
  const rect = (cls, from, to, min = 3) => {
    const a = x(from), w = Math.max(x(to) - a, min);
    return `<rect class="${cls}" x="${Math.min(a, 1000 - w).toFixed(1)}" y="0" width="${w.toFixed(1)}" height="10"></rect>`;
  };
  const bar = (r) => {
    const state = esc(r.status);
    return `<svg class="tl-bar" viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true">
      ${(r.busy || []).map((b) => rect(`b b-${state}`, b.startMs, b.endMs)).join("")}
      ${(r.queued || []).map((q) => rect("q", q.startMs, q.endMs)).join("")}
      ${(r.failedAtMs || []).map((f) => rect("x", f - total * 0.004, f + total * 0.004, 6)).join("")}</svg>`;
  };
  const row = (r) => {
    const agent = r.kind === "agent";
    const what = agent ? agentTitle(r.label, r.prompt, r.agent || r.name) : r.name;
    const config = agent ? r.agent || configName(r.name) : "workflow";
    const hm = agent ? [r.harness, r.model].filter(Boolean).join("/") : "workflow";
    const u = r.usage;
    return `<div class="tl-row tl-${esc(r.kind)}${r.status === "failed" ? " failed" : ""}" data-row="${esc(r.id)}" data-detail="${agent ? "agent" : "exec"}:${esc(r.id)}"
        title="${esc(what)} — ${esc(r.id)}${r.queuedMs ? ` — waited ${duration(r.queuedMs)} for admission` : ""}">
      <span class="name tl-d${Math.min(r.depth, 4)}"><span class="what">${esc(what)}</span>${agent && what !== config ? ` <span class="config">${esc(config)}</span>` : ""}</span>
      <span class="model" title="${esc(hm)}">${esc(hm || "—")}</span>
      <span class="phase" title="${esc(r.phase)}">${esc(r.phase || "—")}</span>
      <span class="num start">${offset(r.startMs)}</span>
      <span class="num dur">${duration(r.endMs - r.startMs)}</span>
      <span class="num tok">${tokens(rollupTokens(u))}</span>
      <span class="num cost">${money(rollupCost(u))}</span>
      ${badge(r.status)}
      ${bar(r)}</div>`;
  };
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => `<span>${duration(total * f)}</span>`).join(" ");
  box.innerHTML = `<div class="tl-row tl-head"><span class="name">Name</span> <span class="model">Harness/model</span> <span class="phase">Phase</span>
      <span class="num start">Start</span> <span class="num dur">Duration</span> <span class="num tok">Tokens</span> <span class="num cost">Cost</span> <span class="status-h">Status</span>
      <div class="tl-axis">${ticks}</div></div>${tl.rows.map(row).join("")}`;
  document.getElementById("tlsummary").textContent = timelineSummary(tl);
}

// grown is a running run's timeline ms after the server sent it, when
// no event has come since: what still runs has gone on to now, and what
// waited for a slot (its wait ending where its execute ends) still waits.
function grown(tl, ms) {
  const now = tl.durationMs + ms;
  const rows = tl.rows.map((r) => {
    if (r.status !== "running" || !r.busy?.length) return r;
    const last = r.busy[r.busy.length - 1];
    const queued = (r.queued || []).map((q) => (q.endMs === last.endMs ? { ...q, endMs: now } : q));
    return { ...r, endMs: now, busy: [...r.busy.slice(0, -1), { ...last, endMs: now }], queued };
  });
  return { ...tl, durationMs: now, rows };
}

// timelineSummary counts the agents and those that waited for an
// admission slot, for how long in all. (It names no peak of agents at
// once: an execute counts from its start, before it asks for a slot, so
// a peak would count agents about to wait.)
function timelineSummary(tl) {
  const agents = tl.rows.filter((r) => r.kind === "agent");
  const waited = agents.filter((r) => r.queuedMs > 0);
  const waitedMs = waited.reduce((sum, r) => sum + r.queuedMs, 0);
  return [`${agents.length} agent${agents.length === 1 ? "" : "s"}`,
    waited.length ? `${waited.length} waited for admission (${duration(waitedMs)} in all)` : "none waited for admission"].join(" · ");
}

// drawDetail shows the row clicked, an agent or an invocation: its error
// when it failed and its last events. It is drawn again only when what it
// shows changed, so that it keeps its scroll and selection.
function drawDetail(st) {
  const box = document.getElementById("detail");
  if (!box || !st.selected) return;
  const i = st.selected.indexOf(":");
  const kind = st.selected.slice(0, i), id = st.selected.slice(i + 1);
  const row = st.timeline?.rows.find((r) => r.id === id && r.kind === (kind === "agent" ? "agent" : "invocation"));
  let what, status, error, recent;
  if (kind === "agent") {
    const a = st.agents.get(id);
    what = row ? agentTitle(row.label, row.prompt, row.agent || row.name) : a ? agentTitle(a.label, a.prompt, a.name) : id;
    status = a?.state || row?.status;
    error = status === "failed" ? a?.error || row?.error : undefined;
    recent = a?.recent || [];
  } else {
    const x = st.execs.get(id);
    what = x?.workflow || row?.name || id;
    status = x?.status || row?.status;
    error = x?.error || row?.error || (id === st.run?.executionId ? st.run?.error : undefined);
    if (status !== "failed" && !(id === st.run?.executionId && st.run?.error)) error = undefined;
    recent = x?.recent || [];
  }
  const key = [st.selected, status, recent.length, recent[recent.length - 1]?.sequence, !!error].join("|");
  if (st.detailKey === key && !box.hidden) return;
  st.detailKey = key;
  box.innerHTML = `<h2>${kind === "agent" ? "Agent" : "Invocation"} <span class="what">${esc(what)}</span> ${badge(status)}
      <code class="muted">${esc(id)}</code> <button id="detailclose" type="button">Close</button></h2>
    ${error ? errorHTML(error, "detailerror") : ""}
    <h3>Last events</h3><div class="log events" id="detailevents">${recent.length ? recent.map(eventLine).join("") : `<p class="empty">No events.</p>`}</div>`;
  box.hidden = false;
}
