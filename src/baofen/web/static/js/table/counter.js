// 记牌器 (card counter): for each card kind, how many copies this seat has not seen yet — the
// server's `counter`, drawn as a compact grid, trumps first, in the server's card order.
// Folded by default on a phone; the player's choice is kept while the page lives.

import { cardText, isRed, orderNow } from "../cards.js";
import { byId, el, fill } from "../dom.js";
import { t } from "../i18n.js";

const WIDE = "(min-width: 900px)";

/** Draw the card counter from `state` (nothing when the table has it off). */
export function renderCounter(state) {
  const box = byId("counter-box");
  const obs = state.message.observation;
  const variant = state.message.table.rules.variant;
  const order = obs && obs.counter ? orderNow(variant, obs.trump) : null;
  if (!order) return fill(box);
  state.counterOpen ??= window.matchMedia(WIDE).matches;
  const rows = new Map();
  for (const [name, group] of order.group) {
    if (!rows.has(group)) rows.set(group, []);
    rows.get(group).push(name);
  }
  const grid = el("div", { class: "counter-grid" }, [...rows].map(([group, names]) => el("div", {
    class: ["counter-row", group === order.trumpGroup && "trumps"] },
  names.map((name) => {
    const text = cardText(name);
    const left = obs.counter[name];
    return el("span", { class: ["cell", isRed(name) ? "red" : "black", left === 0 && "none-left"],
      dataset: { card: name, left }, title: `${text}: ${left}` },
    el("span", { class: "face", text }),
    el("b", { text: left }));
  }))));
  const details = el("details", { class: "counter", id: "counter", open: state.counterOpen,
    on: { toggle: (e) => { state.counterOpen = e.currentTarget.open; } } },
  el("summary", {}, t("counter.title"), el("small", { text: ` · ${t("counter.note")}` })), grid);
  return fill(box, details);
}
