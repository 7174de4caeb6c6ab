// The table's layout, one drawing pass over every region from the state, the connection's
// status, and the page of a table that does not exist.

import { byId, el, fill } from "../dom.js";
import { t } from "../i18n.js";
import { renderActions } from "./actions.js";
import { reasonText } from "./reasons.js";
import { renderCenter } from "./center.js";
import { renderCounter } from "./counter.js";
import { renderHand } from "./hand.js";
import { renderHead } from "./head.js";
import { renderSeats } from "./seats.js";
import { myTurn, POSITIONS, ready } from "./state.js";

/** Lay out the table's regions in `root`. */
export function renderShell(root) {
  fill(root, el("div", { class: "table-view" },
    el("div", { class: "head", id: "head" },
      el("div", { class: "info", id: "head-info" }), el("span", { class: "tools", id: "head-tools" })),
    el("div", { class: "board", id: "board" },
      POSITIONS.map((pos) => el("div", { class: ["seat", pos], id: `seat-${pos}` })),
      el("div", { class: "center", id: "center" }),
      el("div", { class: "counter-box", id: "counter-box" })),
    el("div", { class: "auto-box", id: "auto-box" }),
    el("div", { class: "actions", id: "actions" }),
    el("div", { class: "hand", id: "hand" })));
}

/** Draw every region from `state`, and put the page's state on `<body>` (for tests and CSS). */
export function render(state, act) {
  if (!ready(state)) return;
  const { table: info, observation: obs, you } = state.message;
  const body = document.body.dataset;
  body.status = info.status;
  body.phase = obs ? obs.phase : "waiting";
  body.myTurn = myTurn(state) ? "1" : "0";
  body.seat = you ?? "";
  body.hand = state.handNumber;
  body.version = info.version;
  body.tricks = obs ? obs.tricks.length : 0;
  body.declarer = obs && obs.declarer !== null ? obs.declarer : "";
  renderHead(state, act);
  renderSeats(state);
  renderCenter(state, act);
  renderActions(state, act);
  renderHand(state, act);
  // The action bar reads the selection off the hand's cards: once more when the page was drawn
  // anew (a language switch) with cards selected, so that the refusal stays said.
  if (state.selected.size) renderActions(state, act);
  renderCounter(state);
}

/** Show the connection's status in the top bar. */
export function showStatus(status) {
  const node = byId("conn");
  if (!node) return;
  node.dataset.status = status;
  node.textContent = t(`conn.${status}`);
  node.title = node.textContent;
  document.body.dataset.conn = status;
}

/** An unknown link: say so, and lead back to the lobby. */
/** `text` as a sentence of its own (a refusal's words start in lower case: they follow a title). */
const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The table refused this page even as a spectator (a club's table, a round being played):
 * why, in the page's language, in place of the table. */
export function showRefused(root, answer) {
  fill(root, el("section", { class: "gone", id: "gone", dataset: { code: answer.code } },
    el("h2", { text: t("table.refused.title") }),
    el("p", { id: "refused-text", text: sentence(reasonText(answer)) }),
    el("a", { class: "button primary", href: "/", text: t("gone.back") })));
  byId("conn")?.remove();
}

export function showGone(root) {
  fill(root, el("section", { class: "gone", id: "gone" },
    el("h2", { text: t("gone.title") }),
    el("p", { text: t("gone.text") }),
    el("a", { class: "button primary", href: "/", text: t("gone.back") })));
  byId("conn")?.remove();
}
