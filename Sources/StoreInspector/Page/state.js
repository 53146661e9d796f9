// The state tree: collapsible, the selected action's changes highlighted, long lists in
// pages of 100, and a search over keys and values (as :find).
const StateTree = (() => {
  const pageSize = 100;
  const isContainer = (v) => v !== null && typeof v === "object";

  // Paths as storesh writes them: field names joined by dots, [i] for a list element,
  // ["id"] for a list element whose id is "id" (the diff names keyed elements so).
  function childPath(parent, key, value, inList) {
    if (!inList) return parent === "" ? key : `${parent}.${key}`;
    const index = `${parent}[${key}]`;
    if (isContainer(value) && !Array.isArray(value) && (typeof value.id === "string" || typeof value.id === "number")) {
      return [index, `${parent}[${JSON.stringify(value.id)}]`];
    }
    return index;
  }

  function leafText(value) {
    const span = document.createElement("span");
    if (typeof value === "string") { span.className = "str"; span.textContent = JSON.stringify(value); }
    else if (typeof value === "number") { span.className = "num"; span.textContent = String(value); }
    else { span.className = "lit"; span.textContent = String(value); }
    return span;
  }

  function mark(element, paths, changes, query, value, key) {
    const names = Array.isArray(paths) ? paths : [paths];
    if (names.some((p) => changes.exact.has(p))) element.classList.add("changed");
    else if (names.some((p) => changes.prefixes.has(p))) element.classList.add("within");
    if (query && (String(key).toLowerCase().includes(query) || (!isContainer(value) && String(value).toLowerCase().includes(query)))) {
      element.classList.add("match");
      return 1;
    }
    return 0;
  }

  function node(key, value, paths, inList, changes, query, depth, counter) {
    const path = Array.isArray(paths) ? paths[0] : paths;
    const label = document.createElement("span");
    label.className = "key";
    label.textContent = inList ? `[${key}]` : key;
    if (!isContainer(value)) {
      const leaf = document.createElement("div");
      leaf.className = "leaf";
      leaf.dataset.path = path;
      leaf.append(label, ": ", leafText(value));
      counter.found += mark(leaf, paths, changes, query, value, key);
      return leaf;
    }
    const details = document.createElement("details");
    details.dataset.path = path;
    const summary = document.createElement("summary");
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    summary.append(label, Array.isArray(value) ? ` [${value.length}]` : ` {${entries.length}}`);
    details.append(summary);
    counter.found += mark(details, paths, changes, query, value, key);
    const interesting = details.classList.contains("within") || details.classList.contains("changed");
    details.open = depth < 2 || interesting || (query !== "" && containsMatch(value, query));
    const fill = (from) => {
      const shown = entries.slice(from, from + pageSize);
      for (const [childKey, childValue] of shown) {
        const childPaths = [].concat(childPath(path, childKey, childValue, Array.isArray(value)));
        details.append(node(childKey, childValue, childPaths.length === 1 ? childPaths[0] : childPaths, Array.isArray(value), changes, query, depth + 1, counter));
      }
      if (from + pageSize < entries.length) {
        const more = document.createElement("button");
        more.type = "button";
        more.className = "more";
        more.textContent = `show ${Math.min(pageSize, entries.length - from - pageSize)} more of ${entries.length - from - pageSize} left`;
        more.addEventListener("click", () => { more.remove(); fill(from + pageSize); });
        details.append(more);
      }
    };
    // Children are made when first opened, so a closed list of 100,000 costs nothing.
    if (details.open) fill(0);
    else details.addEventListener("toggle", () => { if (details.open && details.childElementCount === 1) fill(0); }, { once: false });
    return details;
  }

  function containsMatch(value, query) {
    const stack = [value];
    let seen = 0;
    while (stack.length && seen < 200000) {
      const v = stack.pop();
      seen += 1;
      if (isContainer(v)) {
        for (const [k, child] of Object.entries(v)) {
          if (!Array.isArray(v) && k.toLowerCase().includes(query)) return true;
          stack.push(child);
        }
      } else if (String(v).toLowerCase().includes(query)) return true;
    }
    return false;
  }

  // The changed paths of a diff, and every path above one.
  function changeSets(diff) {
    const exact = new Set(), prefixes = new Set();
    for (const change of diff) {
      exact.add(change.path);
      const parts = change.path.match(/(\[[^\]]*\]|[^.[]+)/g) || [];
      let prefix = "";
      for (const part of parts.slice(0, -1)) {
        prefix = part.startsWith("[") ? prefix + part : (prefix === "" ? part : `${prefix}.${part}`);
        prefixes.add(prefix);
      }
    }
    return { exact, prefixes };
  }

  function render(container, state, diff, query) {
    const changes = changeSets(diff);
    const counter = { found: 0 };
    const q = (query || "").toLowerCase();
    container.replaceChildren();
    if (!isContainer(state)) {
      container.append(leafText(state));
      return 0;
    }
    const entries = Array.isArray(state) ? state.map((v, i) => [String(i), v]) : Object.entries(state);
    for (const [key, value] of entries) {
      container.append(node(key, value, childPath("", key, value, Array.isArray(state)), Array.isArray(state), changes, q, 0, counter));
    }
    return counter.found;
  }

  function renderDiff(list, diff) {
    list.replaceChildren();
    const symbols = { changed: "~", added: "+", removed: "-", moved: "↕" };
    for (const change of diff) {
      const item = document.createElement("li");
      const op = document.createElement("span");
      op.className = "op";
      op.textContent = symbols[change.op] || change.op;
      const text = change.op === "moved" ? `${change.path}: ${change.from} → ${change.to}`
        : `${change.path}: ${"old" in change ? JSON.stringify(change.old) : ""}${"old" in change && "new" in change ? " → " : ""}${"new" in change ? JSON.stringify(change.new) : ""}`;
      item.append(op, text);
      list.append(item);
    }
    if (!diff.length) {
      const item = document.createElement("li");
      item.textContent = "(no change)";
      list.append(item);
    }
  }

  return { render, renderDiff };
})();
