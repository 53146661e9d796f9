// The page: the session's summary and events over a server-sent event stream, the
// history a page at a time, the state and diff after the selected action, the slider.
const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const ui = { model: null, count: 0, position: 0, selected: 0, follow: true, from: 1, pageSize: 100, lastTimeline: 0, stateAt: -1 };
window.inspector = { ui, stats: { rowsAdded: 0, lastRowAt: 0 } };

async function api(path, params = {}) {
  const response = await fetch(`/api/${path}?${new URLSearchParams(params)}`, { headers: { "X-Storesh-Token": token } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function perform(name, args = {}) {
  const response = await fetch(`/api/operations/${name}`, {
    method: "POST", headers: { "X-Storesh-Token": token, "Content-Type": "application/json" }, body: JSON.stringify(args),
  });
  return response.json();
}

function setStatus(text, live) {
  $("status").textContent = text;
  $("status").classList.toggle("live", !!live);
}

function applySummary(summary) {
  const select = $("model");
  const names = summary.models.map((m) => m.name);
  if (select.dataset.names !== names.join("\n")) {
    select.replaceChildren(...names.map((name) => new Option(name, name)));
    select.dataset.names = names.join("\n");
  }
  ui.current = summary.current;
  if (!ui.model || !names.includes(ui.model)) ui.model = summary.current;
  select.value = ui.model || "";
  const model = summary.models.find((m) => m.name === ui.model) || { position: 0, count: 0 };
  ui.count = model.count;
  ui.position = model.position;
  if (ui.follow) ui.selected = model.position;
  ui.selected = Math.min(ui.selected, ui.count);
  $("where").textContent = `${summary.current || "no model"} current · clock ${duration(summary.clock)}`;
  $("where").title = `the session's clock: ${summary.clock} ms`;
  if (ui.examplesOf !== summary.current) showExamples(summary.current);
  refresh();
}

// Milliseconds as people read a duration: 2419395 → "40m 19.395s", 500 → "0.5s".
function duration(ms) {
  const total = Math.max(0, Number(ms) || 0);
  const hours = Math.floor(total / 3600000), minutes = Math.floor((total % 3600000) / 60000);
  const seconds = ((total % 60000) / 1000).toFixed(3).replace(/\.?0+$/, "");
  return [hours ? `${hours}h` : "", hours || minutes ? `${minutes}m` : "", `${seconds}s`].filter(Boolean).join(" ");
}

// The Send box's placeholder: example lines of the current model's own actions (as
// :help ACTION writes them), one without arguments and one with, when it has them.
async function showExamples(model) {
  ui.examplesOf = model;
  const input = $("send-text");
  if (!model) { input.placeholder = "load a model to send it actions"; return; }
  try {
    const outcome = await perform("run", { line: ":actions" });
    const actions = ((outcome.outputs || []).find((o) => o.kind === "actions") || {}).actions || [];
    const plain = actions.filter((a) => !a.name.includes("[]") && a.example);
    const picks = [plain.find((a) => a.params.length === 0), plain.find((a) => a.params.length > 0)].filter(Boolean);
    if (ui.examplesOf !== model) return;
    input.placeholder = `send an action to ${model}` + (picks.length ? ` (${picks.map((a) => a.example).join(", ")})` : "");
  } catch (error) {
    input.placeholder = `send an action to ${model}`;
  }
}

function showSlider() {
  const slider = $("slider");
  slider.max = String(ui.count);
  slider.value = String(ui.selected);
  $("slider-label").textContent = `${ui.selected} of ${ui.count}` + (ui.selected === ui.position ? "" : ` (session at ${ui.position})`);
  $("follow").disabled = ui.follow;
}

// One refresh at a time; asking again while one runs runs one more after it.
let running = null, again = false;
async function refresh() {
  showSlider();
  if (running) { again = true; return running; }
  running = (async () => {
    do {
      again = false;
      try { await loadLog(); await loadState(); } catch (error) { setStatus(String(error)); }
    } while (again);
  })();
  await running;
  running = null;
}

function row(index, cls, ...parts) {
  const item = document.createElement("li");
  item.dataset.index = String(index);
  item.className = cls;
  const number = document.createElement("span");
  number.className = "n";
  number.textContent = String(index);
  item.append(number, ...parts);
  return item;
}

function badge(text) {
  const span = document.createElement("span");
  span.className = `badge ${text}`;
  span.textContent = text;
  return span;
}

async function loadLog() {
  if (!ui.model) return;
  if (ui.follow || ui.selected < ui.from || ui.selected > ui.from + ui.pageSize - 1) {
    ui.from = Math.max(1, Math.floor(Math.max(0, ui.selected - 1) / ui.pageSize) * ui.pageSize + 1);
  }
  const page = await api("history", { model: ui.model, from: ui.from, count: ui.pageSize });
  if (page.error) return;
  const list = $("log");
  const items = [];
  if (page.from <= 1) items.push(row(0, "start", badge("start"), "initial state"));
  const incidents = new Map();
  for (const incident of page.incidents) incidents.set(incident.after, [...(incidents.get(incident.after) || []), incident.note]);
  for (const entry of page.entries) {
    const cls = ["entry", entry.source, entry.undone ? "undone" : "", entry.skipped ? "skipped" : "", entry.changed ? "" : "nochange"].join(" ");
    const extra = entry.changed ? "" : "  (no change)";
    const item = row(entry.index, cls, badge(entry.source), entry.action + extra);
    item.title = entry.action;
    items.push(item);
    for (const note of incidents.get(entry.index) || []) items.push(row(entry.index, "crashed", badge("crashed"), note));
  }
  if (page.from <= 1) for (const note of incidents.get(0) || []) items.splice(1, 0, row(0, "crashed", badge("crashed"), note));
  const before = list.querySelectorAll("li.entry").length;
  list.replaceChildren(...items);
  const after = list.querySelectorAll("li.entry").length;
  if (after !== before) { window.inspector.stats.rowsAdded += 1; window.inspector.stats.lastRowAt = performance.now(); }
  for (const item of list.children) {
    const index = Number(item.dataset.index);
    item.classList.toggle("selected", index === ui.selected && !item.classList.contains("crashed"));
    item.classList.toggle("current", index === ui.position && !item.classList.contains("crashed"));
  }
  $("page-label").textContent = `${page.from}–${page.to} of ${page.count}`;
  $("older").disabled = page.from <= 1;
  $("newer").disabled = page.to >= page.count;
  const selected = list.querySelector("li.selected");
  if (selected) selected.scrollIntoView({ block: "nearest" });
}

async function loadState() {
  if (!ui.model) return;
  const asked = ui.selected;
  const past = await api("state", { model: ui.model, after: asked });
  if (asked !== ui.selected) return; // the slider moved on; the next refresh asks again
  if (past.error) { $("tree").textContent = past.error; return; }
  ui.stateAt = past.position;
  ui.lastState = past;
  // A state rebuilt by replaying lacks what effects did that the history could not keep.
  const lacking = (past.lacking || []).map((item) => `after action ${item.after}: ${item.note}`);
  $("state-at").textContent = `after action ${past.position}` + (past.position === ui.position ? " (the session's)" : "")
    + (lacking.length ? ` — rebuilt without what an effect did ${lacking.join("; ")}` : "");
  $("state-at").classList.toggle("lacking", lacking.length > 0);
  $("diff-of").textContent = past.position === 0 ? "(the start)" : `made by action ${past.position}`;
  drawState();
}

function drawState() {
  if (!ui.lastState) return;
  const query = $("search").value.trim();
  const found = StateTree.render($("tree"), ui.lastState.state, ui.lastState.diff, query);
  $("found").textContent = query ? `${found} match${found === 1 ? "" : "es"}` : "";
  StateTree.renderDiff($("diff"), ui.lastState.diff);
}

function select(index, follow = false) {
  ui.selected = Math.max(0, Math.min(ui.count, index));
  ui.follow = follow;
  refresh();
}

function addEvent(kind, text) {
  const list = $("events");
  const item = document.createElement("li");
  item.className = kind;
  item.append(badge(kind), " " + text);
  list.prepend(item);
  while (list.childElementCount > 200) list.lastElementChild.remove();
}

function addTimeline(data) {
  for (const entry of data.entries) {
    if (entry.number <= ui.lastTimeline) continue;
    ui.lastTimeline = entry.number;
    Effects.add(entry);
    if (entry.kind === "error") {
      addEvent(/crash|hung|lost|died|killed/i.test(entry.message) ? "crashed" : "refused", entry.message);
    } else if (entry.kind === "applied") {
      addEvent("effect", `${entry.action} (sent by an effect)`);
    }
  }
}

function connect() {
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  source.addEventListener("open", async () => {
    setStatus("live", true);
    try { addTimeline(await api("timeline", { after: ui.lastTimeline })); } catch (error) { setStatus(String(error)); }
  });
  source.addEventListener("error", () => setStatus("reconnecting…"));
  source.addEventListener("session", (event) => applySummary(JSON.parse(event.data)));
  source.addEventListener("timeline", (event) => addTimeline(JSON.parse(event.data)));
  source.addEventListener("note", (event) => {
    const note = JSON.parse(event.data);
    addEvent(note.kind === "info" && /reload/i.test((note.lines || []).join(" ")) ? "reloaded" : note.kind, (note.lines || []).join("\n"));
  });
}

let sliderTimer = 0;
$("slider").addEventListener("input", () => {
  clearTimeout(sliderTimer);
  const value = Number($("slider").value);
  sliderTimer = setTimeout(() => select(value), 40);
});
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    event.preventDefault();
    select(ui.selected + (event.key === "ArrowLeft" ? -1 : 1));
  }
});
$("follow").addEventListener("click", () => select(ui.position, true));
$("jump").addEventListener("click", async () => {
  if (ui.model !== ui.current) await perform("use", { model: ui.model });
  const outcome = await perform("goto", { position: ui.selected });
  addEvent(outcome.ok ? "jump" : "refused", outcome.ok ? `:goto ${ui.selected}` : outcome.error);
  if (outcome.ok) ui.follow = true;
});
$("older").addEventListener("click", () => select(Math.max(0, ui.from - 1)));
$("newer").addEventListener("click", () => select(Math.min(ui.count, ui.from + ui.pageSize)));
$("log").addEventListener("click", (event) => {
  const item = event.target.closest("li");
  if (item) select(Number(item.dataset.index), Number(item.dataset.index) === ui.position);
});
$("model").addEventListener("change", () => { ui.model = $("model").value; ui.follow = true; ui.from = 1; api("session").then(applySummary); });
$("search").addEventListener("input", drawState);
$("send-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const outcome = await perform("send", { action: $("send-text").value });
  $("send-result").textContent = outcome.ok ? "sent" : outcome.error;
  if (!outcome.ok) addEvent("refused", outcome.error);
});

api("session").then(applySummary).catch((error) => setStatus(String(error)));
connect();
