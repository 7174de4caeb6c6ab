// A `patch` message (docs/protocol.md): what changed since this connection's previous view.
// The same as baofen.wire.patch.apply on the server's side.

/** The `state` that `patch` makes of `view` (a `state` message); `view` is left as it was. */
export function applyPatch(view, patch) {
  const next = { ...view, type: "state", view: patch.view };
  for (const part of ["table", "observation"]) {
    if (next[part] && typeof next[part] === "object") next[part] = { ...next[part] };
  }
  const copied = new Set();
  for (const [path, value] of Object.entries(patch.set || {})) {
    const dot = path.indexOf(".");
    if (dot < 0) {
      next[path] = value;
      continue;
    }
    const part = path.slice(0, dot);
    const rest = path.slice(dot + 1);
    const second = rest.indexOf(".");
    if (second < 0) {
      next[part][rest] = value;
      continue;
    }
    // one field of an object field, as "table.match.step": copied once, then changed
    const field = rest.slice(0, second);
    if (!copied.has(`${part}.${field}`)) {
      next[part][field] = { ...next[part][field] };
      copied.add(`${part}.${field}`);
    }
    next[part][field][rest.slice(second + 1)] = value;
  }
  if (patch.tricks && patch.tricks.length) {
    next.observation.tricks = [...next.observation.tricks, ...patch.tricks];
  }
  if (patch.counter && Object.keys(patch.counter).length) {
    next.observation.counter = { ...next.observation.counter, ...patch.counter };
  }
  return next;
}
