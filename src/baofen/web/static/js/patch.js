// A `patch` message (docs/protocol.md): what changed since this connection's previous view.
// The same as baofen.wire.patch.apply on the server's side.

/** The `state` that `patch` makes of `view` (a `state` message); `view` is left as it was. */
export function applyPatch(view, patch) {
  const next = { ...view, type: "state", view: patch.view };
  for (const part of ["table", "observation"]) {
    if (next[part] && typeof next[part] === "object") next[part] = { ...next[part] };
  }
  for (const [path, value] of Object.entries(patch.set || {})) {
    const dot = path.indexOf(".");
    if (dot < 0) next[path] = value;
    else next[path.slice(0, dot)][path.slice(dot + 1)] = value;
  }
  if (patch.tricks && patch.tricks.length) {
    next.observation.tricks = [...next.observation.tricks, ...patch.tricks];
  }
  if (patch.counter && Object.keys(patch.counter).length) {
    next.observation.counter = { ...next.observation.counter, ...patch.counter };
  }
  return next;
}
