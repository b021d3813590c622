// screenpilot console: the page's behaviour. Plain JavaScript, no build step.
// Everything from the server is shown with textContent (never parsed as HTML).
"use strict";

const $ = (id) => document.getElementById(id);
const phone = { width: 0, height: 0 };
const live = { wanted: 0, shown: 0, loading: false, url: "" };
let readingOn = false;
let heldTap = "";
let runState = "idle";
let recordState = "idle";

// --- small helpers ---------------------------------------------------------------------------
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function api(path, options) {
  const response = await fetch(path, Object.assign({ credentials: "same-origin" }, options));
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error((data.error || response.statusText) + (data.hint ? ` (${data.hint})` : ""));
  }
  return data;
}

function post(path, body) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" },
                     body: JSON.stringify(body || {}) });
}

function log(text) {
  const list = $("log");
  const time = el("time", { textContent: new Date().toLocaleTimeString() });
  list.prepend(el("li", {}, time, text));
  while (list.children.length > 60) list.lastChild.remove();
}

function fail(error) { log(`refused: ${error.message}`); }

function steps(n) { return `${n} step${n === 1 ? "" : "s"}`; }

// --- the live screen ----------------------------------------------------------------------------
async function showImage(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) throw new Error(response.statusText);
  const url = URL.createObjectURL(await response.blob());
  const img = $("screen");
  img.src = url;
  if (live.url) URL.revokeObjectURL(live.url);
  live.url = url;
  $("screen-empty").hidden = true;
}

async function pump() {
  if (live.loading || readingOn || live.wanted <= live.shown) return;
  live.loading = true;
  const seq = live.wanted;
  try {
    await showImage(`/api/frame.jpg?seq=${seq}`);
    $("screen").dataset.mode = "live";
    $("screen").dataset.seq = String(seq);
    live.shown = seq;
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    live.loading = false;
  }
  pump();
}

function onFrame(event) {
  phone.width = event.width;
  phone.height = event.height;
  live.wanted = Math.max(live.wanted, event.seq);
  $("fps").textContent = event.fps ? `${event.fps.toFixed(1)} frames/s` : "";
  pump();
}

async function onReading(event) {
  if (!readingOn) return;
  $("reading-text").textContent = event.text || "(nothing read)";
  $("reading-source").textContent = `${event.elements} elements, from ${
    { live: "the live screen", run: "the run's last step", tap: "your last tap" }[event.source]
    || event.source}`;
  try {
    await showImage(`/api/reading.jpg?seq=${event.seq}`);
    $("screen").dataset.mode = "reading";
  } catch (error) { /* the next reading comes */ }
}

$("reading-toggle").addEventListener("change", async (e) => {
  readingOn = e.target.checked;
  $("reading-panel").hidden = !readingOn;
  if (readingOn) {
    $("reading-text").textContent = "reading the screen…";
    $("reading-source").textContent = "";
  }
  try { await post("/api/reading", { on: readingOn }); } catch (error) { fail(error); }
  if (!readingOn) { live.shown = 0; pump(); }
});

function markTap(e, img) {
  const mark = $("tap-mark");
  const box = img.getBoundingClientRect();
  const wrap = $("screen-wrap").getBoundingClientRect();
  mark.style.left = `${e.clientX - wrap.left}px`;
  mark.style.top = `${e.clientY - wrap.top}px`;
  mark.hidden = false;
  mark.style.animation = "none";
  void mark.offsetWidth;             // restart the fade
  mark.style.animation = "";
  return box;
}

$("screen").addEventListener("click", async (e) => {
  const img = e.currentTarget;
  if (!phone.width) return;
  const box = markTap(e, img);
  const scale = phone.width / box.width;      // the overlay is as wide as the screen
  const x = Math.round((e.clientX - box.left) * scale);
  const y = Math.round((e.clientY - box.top) * scale);
  if (y >= phone.height) return;              // the overlay's legend, below the screen
  log(`tap at (${x}, ${y})…`);
  try { answerTap(await post("/api/tap", { x, y })); } catch (error) { fail(error); }
});

function answerTap(answer) {
  if (answer.status === "confirm") {
    heldTap = answer.id;
    $("confirm-what").textContent = answer.what;
    $("confirm-category").textContent = answer.category.replace("_", " ");
    fillList($("confirm-evidence"), answer.evidence);
    $("confirm").hidden = false;
    log(`asks first: ${answer.what} (${answer.category})`);
  } else if (answer.status !== "done") {
    log(`${answer.status}: ${answer.what}`);
  }
}

async function confirmTap(go) {
  $("confirm").hidden = true;
  const id = heldTap;
  heldTap = "";
  try { answerTap(await post("/api/tap/answer", { id, go })); } catch (error) { fail(error); }
}
$("confirm-go").addEventListener("click", () => confirmTap(true));
$("confirm-cancel").addEventListener("click", () => confirmTap(false));

for (const name of ["back", "home"]) {
  $(`key-${name}`).addEventListener("click", async () => {
    try { await post("/api/key", { name }); } catch (error) { fail(error); }
  });
}

function fillList(list, items) {
  list.replaceChildren(...(items || []).map((text) => el("li", { textContent: text })));
}

// --- runs ------------------------------------------------------------------------------------
function setRunState(state, task) {
  runState = state;
  const busy = state !== "idle";
  $("run-start").disabled = busy || recordState !== "idle";
  $("record-start").disabled = busy || recordState !== "idle";
  $("run-stop").disabled = !busy || state === "stopping";
  const status = $("run-status");
  if (busy) {
    status.className = "status";
    delete status.dataset.outcome;
    const words = { handover: "Waiting for you", starting: "Starting",
                    stopping: "Stopping after this step" };
    status.textContent = `${words[state] || "Running"}: ${task}`;
  }
}

function addStep(step) {
  const list = $("steps");
  const timings = Object.entries(step.timings || {})
    .map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(" · ");
  const title = el("h3", { textContent: `${step.index + 1}. ${step.action}` });
  if (step.sensitive) title.append(el("span", { className: "badge", textContent: step.sensitive }));
  const body = el("div", {}, title,
    step.reason ? el("p", { className: "reason", textContent: step.reason }) : null,
    step.error ? el("p", { className: "error", textContent: step.error }) : null,
    timings ? el("p", { className: "timings", textContent: timings }) : null);
  const image = step.image ? el("img", { src: step.image, alt: `screen before step ${step.index + 1}` })
    : null;
  const item = el("li", { className: `step${step.kind === "handover" ? " handover" : ""}` },
    image, body);
  item.dataset.index = String(step.index);
  list.append(item);
  item.scrollIntoView({ block: "nearest" });
}

function showHandover(event) {
  $("handover-what").textContent = event.what;
  $("handover-category").textContent = event.category.replace("_", " ");
  fillList($("handover-evidence"), event.evidence);
  $("handover").hidden = false;
  $("handover").dataset.category = event.category;
}

function endRun(event) {
  $("handover").hidden = true;
  const status = $("run-status");
  status.replaceChildren();
  status.className = `status ${event.outcome === "success" ? "success" : "failed"}`;
  status.dataset.outcome = event.outcome;
  status.append(`${event.outcome.replace("_", " ")} after ${steps(event.steps)}`);
  endNote(status, event);
  loadRuns();
}

function endNote(status, event) {
  if (event.note) status.append(` — ${event.note}`);
  if (event.report) {
    status.append(" · ");
    status.append(el("a", { href: event.report, target: "_blank", rel: "noopener",
                            textContent: "report" }));
  }
}

$("run-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const task = $("task").value.trim();
  if (!task) return;
  try {
    await post("/api/run", { task });
  } catch (error) { fail(error); }
});
$("run-stop").addEventListener("click", async () => {
  try { await post("/api/run/stop"); log("stopping the run…"); } catch (error) { fail(error); }
});
async function answerHandover(goOn) {
  $("handover").hidden = true;
  try { await post("/api/run/handover", { go_on: goOn }); } catch (error) { fail(error); }
}
$("handover-done").addEventListener("click", () => answerHandover(true));
$("handover-abort").addEventListener("click", () => answerHandover(false));

// --- recording -------------------------------------------------------------------------------
function setRecordState(state) {
  recordState = state;
  const busy = state !== "idle";
  $("record-start").disabled = busy || runState !== "idle";
  $("run-start").disabled = busy || runState !== "idle";
  $("record-stop").disabled = !busy;
}

$("record-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const task = $("record-task").value.trim();
  if (!task) return;
  try {
    await post("/api/record", { task, store: $("record-store").checked });
  } catch (error) { fail(error); }
});
$("record-stop").addEventListener("click", async () => {
  try { await post("/api/record/stop"); log("ending the recording…"); } catch (error) { fail(error); }
});

function endRecording(event) {
  setRecordState("idle");
  const status = $("record-status");
  status.replaceChildren(`Recorded ${steps(event.steps)}`);
  if (event.ended) status.append(` (${event.ended})`);
  if (event.demo) status.append(`; stored as ${event.demo}`);
  endNote(status, event);
  loadRuns();
  loadDemos();
}

// --- past runs and demonstrations ------------------------------------------------------------
async function loadRuns() {
  let data;
  try { data = await api("/api/runs"); } catch (error) { return; }
  const rows = data.runs.map((r) => el("tr", {},
    el("td", { textContent: (r.started || r.name).replace("T", " ").slice(0, 19) }),
    el("td", { textContent: r.task }),
    el("td", { className: r.outcome === "success" ? "outcome-success" : "outcome-other",
               textContent: r.outcome.replace("_", " ") }),
    el("td", { textContent: String(r.steps) }),
    el("td", {}, el("a", { href: r.report, target: "_blank", rel: "noopener",
                           textContent: "report" }))));
  $("runs").tBodies[0].replaceChildren(...rows);
  $("runs-empty").hidden = rows.length > 0;
}

async function loadDemos() {
  let data;
  try { data = await api("/api/demos"); } catch (error) {
    $("demos-location").textContent = error.message;
    return;
  }
  $("demos-location").textContent = `${data.demos.length} in ${data.location}`;
  const rows = data.demos.map((d) => {
    const show = el("button", { className: "small", textContent: "Show" });
    show.addEventListener("click", () => showDemo(d.id));
    const remove = el("button", { className: "small", textContent: "Delete" });
    remove.addEventListener("click", () => deleteDemo(d));
    return el("tr", {}, el("td", { textContent: d.instruction }),
      el("td", { textContent: (d.app || "").split(".").pop() || "–" }),
      el("td", { textContent: String(d.steps) }),
      el("td", { textContent: d.source || "–" }), el("td", {}, show, " ", remove));
  });
  $("demos").tBodies[0].replaceChildren(...rows);
  $("demos-empty").hidden = rows.length > 0;
}

async function showDemo(id) {
  try {
    const d = await api(`/api/demos/${encodeURIComponent(id)}`);
    const steps = el("ol", {}, ...d.steps.map((s) => el("li", { textContent: s })));
    const meta = [d.app, d.created, d.source].filter(Boolean).join(" · ");
    $("demo-detail").replaceChildren(el("strong", { textContent: d.instruction }),
      el("div", { className: "meta", textContent: `${d.id} · ${meta}` }), steps);
    $("demo-detail").hidden = false;
  } catch (error) { fail(error); }
}

async function deleteDemo(d) {
  if (!window.confirm(`Delete the demonstration “${d.instruction}”?`)) return;
  try {
    await api(`/api/demos/${encodeURIComponent(d.id)}`, { method: "DELETE" });
    log(`deleted demonstration ${d.id}`);
    $("demo-detail").hidden = true;
    loadDemos();
  } catch (error) { fail(error); }
}

for (const tab of document.querySelectorAll(".tabs button")) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll(".tabs button")) {
      other.classList.toggle("active", other === tab);
      $(`tab-${other.dataset.tab}`).hidden = other !== tab;
    }
    if (tab.dataset.tab === "runs") loadRuns();
    if (tab.dataset.tab === "demos") loadDemos();
  });
}

// --- the event stream --------------------------------------------------------------------------
function restore(state) {
  $("device").textContent = `phone ${state.device}`;
  $("planner").textContent = state.planner ? `planner ${state.planner}` : "";
  if (!state.store) {
    $("record-store-label").hidden = true;
    $("demos-location").textContent = "no demonstration store";
  }
  readingOn = Boolean(state.reading);
  $("reading-toggle").checked = readingOn;
  $("reading-panel").hidden = !readingOn;
  if (state.frame) onFrame({ ...state.frame, fps: 0 });
  if (readingOn && state.read) onReading(state.read);
  $("steps").replaceChildren();
  for (const event of state.run.events) handle(event);
  setRunState(state.run.state, state.run.task);
  if (state.run.handover) showHandover(state.run.handover);
  setRecordState(state.record.state);
  fillList($("record-steps"), state.record.steps);
}

const handlers = {
  state: restore,
  frame: onFrame,
  reading: onReading,
  run_start: (e) => { $("steps").replaceChildren(); setRunState("starting", e.task);
                      log(`run: ${e.task}`); },
  run_state: (e) => setRunState(e.state, e.task),
  step: addStep,
  handover: showHandover,
  handover_done: (e) => { $("handover").hidden = true;
                          log(e.go_on ? "handover: you did it, the run goes on"
                                      : "handover: aborted"); },
  run_end: endRun,
  record_start: (e) => { $("record-steps").replaceChildren(); setRecordState("recording");
                         $("record-status").textContent = `Recording: ${e.task}`; },
  record_step: (e) => $("record-steps").append(el("li", { textContent: e.words })),
  record_end: endRecording,
  manual: (e) => log(`done: ${e.what}`),
  notice: (e) => log(e.text),
};

function handle(event) {
  const handler = handlers[event.type];
  if (handler) handler(event);
}

function connect() {
  const source = new EventSource("/api/events");
  source.onopen = () => { $("conn").textContent = "live"; $("conn").className = "pill live"; };
  source.onerror = () => { $("conn").textContent = "reconnecting…"; $("conn").className = "pill lost"; };
  source.onmessage = (message) => handle(JSON.parse(message.data));
}

connect();
loadRuns();
