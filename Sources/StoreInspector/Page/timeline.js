// The effect timeline: one lane per effect, a mark for each event (started, emitted,
// finished, failed, cancelled) placed by its time on the session's clock; hovering a mark
// shows what happened (its title).
const Effects = (() => {
  const lanes = new Map();   // "model#id" -> { row, bar, first, last }
  const maxLanes = 200;
  let origin = null;         // the session's clock at the first effect shown
  let scale = 0.5;           // pixels per millisecond, shrunk as time goes by
  const width = () => document.getElementById("lanes").clientWidth - 160;

  function x(time) { return 150 + (time - origin) * scale; }

  function relayout() {
    for (const lane of lanes.values()) {
      lane.bar.style.left = `${x(lane.first)}px`;
      lane.bar.style.width = `${Math.max(2, (lane.last - lane.first) * scale)}px`;
      for (const mark of lane.row.querySelectorAll(".mark")) mark.style.left = `${x(Number(mark.dataset.time))}px`;
    }
  }

  function add(entry) {
    if (entry.kind !== "effect") return;
    const container = document.getElementById("lanes");
    const key = `${entry.model}#${entry.id}`;
    if (origin === null) origin = entry.time;
    let lane = lanes.get(key);
    if (!lane) {
      const row = document.createElement("div");
      row.className = "lane";
      row.dataset.effect = key;
      const label = document.createElement("span");
      label.className = "lane-label";
      label.textContent = `#${entry.id} ${entry.label || "effect"}`;
      const bar = document.createElement("div");
      bar.className = "lane-bar";
      row.append(label, bar);
      container.append(row);
      lane = { row, bar, first: entry.time, last: entry.time };
      lanes.set(key, lane);
      if (lanes.size > maxLanes) {
        const [oldest] = lanes.keys();
        lanes.get(oldest).row.remove();
        lanes.delete(oldest);
      }
    }
    lane.last = Math.max(lane.last, entry.time);
    const mark = document.createElement("div");
    mark.className = `mark ${entry.event}`;
    mark.dataset.time = String(entry.time);
    mark.dataset.event = entry.event;
    const details = [`#${entry.id} ${entry.label || "effect"} ${entry.event}`, `at ${entry.time - origin} ms (session clock), +${entry.elapsed_ms} ms since it started`];
    if (entry.action) details.push(`action: ${entry.action}`);
    if (entry.message) details.push(`message: ${entry.message}`);
    details.push(`model: ${entry.model}`);
    mark.title = details.join("\n");
    lane.row.append(mark);
    const span = Math.max(1, entry.time - origin);
    if (x(entry.time) > width()) scale = Math.max(0.0005, (width() - 150) / span);
    relayout();
  }

  return { add };
})();
