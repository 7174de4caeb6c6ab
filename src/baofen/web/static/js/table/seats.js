// The four seats around the table: who sits there, badges (a registered player, declarer, you,
// 托管, left, offline), cards left, score, the last bid, and the turn timer.

import { byId, el, fill } from "../dom.js";
import { t } from "../i18n.js";
import { notReady, position, seatName } from "./state.js";

/** Draw every seat from `state`. */
export function renderSeats(state) {
  const { table: info, observation: obs, you } = state.message;
  const match = info.match;
  // Between hands at a table of several players: who pressed 继续, who the table waits for.
  const waiting = notReady(info);
  const between = Boolean(obs && obs.phase === "done" && info.status === "playing"
    && (info.ready.length || waiting.length > 1));
  for (const seat of [0, 1, 2, 3]) {
    const s = info.seats[seat];
    const node = byId(`seat-${position(state, seat)}`);
    node.dataset.seat = seat;
    node.classList.toggle("to-act", Boolean(obs && obs.to_act === seat && obs.phase !== "done"));
    node.classList.toggle("me", seat === you);
    node.classList.toggle("empty", !s.kind);
    const badges = [];
    // A registered player's seat is marked: a guest may type any name, even a registered one.
    if (s.account) badges.push(el("span", { class: "badge account", title: t("seat.account"), "aria-label": t("seat.account"), text: "✓" }));
    // 包分's caller (主叫) speaks first and, if all four pass, stakes the most (rules.md §12.2).
    if (obs && obs.first === seat && info.rules.variant === "baofen" && obs.phase === "bidding") {
      badges.push(el("span", { class: "badge caller", id: `caller-${seat}`, title: t("seat.caller.title"), text: t("seat.caller") }));
    }
    if (obs && obs.declarer === seat) badges.push(el("span", { class: "badge declarer", text: t("seat.declarer") }));
    if (seat === you) badges.push(el("span", { class: "badge you", text: t("seat.you") }));
    if (s.away) badges.push(el("span", { class: "badge away", text: t("seat.away") }));
    else if (s.auto) badges.push(el("span", { class: "badge auto", text: t("seat.auto") }));
    if (s.kind === "human" && !s.connected && !s.away) badges.push(el("span", { class: "badge offline", text: t("seat.offline") }));
    if (between) {
      const pressed = info.ready.includes(seat);
      if (pressed || waiting.includes(seat)) {
        badges.push(el("span", { class: ["badge", pressed ? "ready" : "not-ready"], dataset: { ready: pressed ? "1" : "0" },
          text: pressed ? t("seat.ready") : t("seat.not_ready") }));
      }
    }
    const meta = [];
    if (obs) meta.push(el("span", { class: "count", text: t("seat.cards", { n: obs.hand_sizes[seat] }) }));
    if (match) {
      let text = t("seat.score", { n: match.scores[seat] });
      if (match.coins) {
        text = match.coins[seat] === match.scores[seat] ? t("seat.levels_same", { n: match.scores[seat] })
          : t("seat.levels", { n: match.scores[seat], coins: match.coins[seat] });
      }
      meta.push(el("span", { class: "score", text, title: t("seat.score.title") }));
    }
    fill(node,
      el("div", { class: "name" }, el("span", { class: "who", text: seatName(state, seat) }), badges),
      el("div", { class: "meta" }, meta, lastBid(obs, seat), el("span", { class: "timer", dataset: { seatTimer: seat } })));
  }
  tick(state);
}

/** The seat's last bid while bidding goes on, or null. */
function lastBid(obs, seat) {
  if (!obs || obs.phase !== "bidding") return null;
  const mine = obs.bids.filter(([who]) => who === seat);
  if (!mine.length) return null;
  const value = mine[mine.length - 1][1];
  return el("span", { class: "bid", text: value === null ? t("seat.pass") : value });
}

/** Refresh every countdown (seat panels and the action bar) from the table's deadline. */
export function tick(state) {
  const info = state.message?.table;
  const obs = state.message?.observation;
  for (const node of document.querySelectorAll("[data-seat-timer]")) {
    let text = "";
    if (info && info.deadline && obs && Number(node.dataset.seatTimer) === obs.to_act) {
      const cap = info.settings[`${obs.phase === "kitty" ? "kitty" : obs.phase === "bidding" ? "bid" : "play"}_seconds`] ?? Infinity;
      const left = Math.max(0, Math.min(cap, info.deadline - Date.now() / 1000));
      text = t("act.timer", { s: Math.ceil(left) });
      node.classList.toggle("urgent", left < 6);
    }
    node.textContent = text;
  }
}
