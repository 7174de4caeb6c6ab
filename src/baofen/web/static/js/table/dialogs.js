// Dialogs over the table: a hand's result (once per hand), the last trick, the scoreboard.

import { el, modal } from "../dom.js";
import { t } from "../i18n.js";
import { challengeTable } from "../prefs.js";
import { resultEl, scoreboardEl } from "../result.js";
import { trickEl } from "./center.js";
import { directions, shortName, shortNames } from "./state.js";

let closeResult = null;

/** Close the result dialog without pressing 继续 (the next hand was dealt meanwhile). */
export function dropResult() {
  if (closeResult) closeResult(true);
}

/** Show the hand's result once, when the hand is done; `act.openReplay` replays it. */
export function showResult(state, act) {
  const { table: info, observation: obs } = state.message;
  if (!obs || obs.phase !== "done" || !obs.result) return;
  const number = state.handNumber;
  if (state.resultShown === number) return;
  state.resultShown = number;
  const match = info.match;
  const entry = match.history.find((h) => h.number === number) ?? null;
  const variant = info.rules.variant;
  const finished = info.status === "finished";
  const challenge = finished ? challengeTable(info.code) : null; // a 比赛 deal: back to its page
  if (closeResult) closeResult();
  const body = el("div", {},
    resultEl(obs.result, {
      entry, variant, names: directions(state), fullNames: shortNames(state),
      lastWinner: obs.tricks.length ? obs.tricks[obs.tricks.length - 1].winner : null,
      caller: variant === "baofen" ? obs.first : null, rules: info.rules,
    }),
    finished && el("h3", { text: t("result.final") }),
    finished && scoreboardEl(match, variant, directions(state)),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "secondary", id: "btn-result-replay", text: t("btn.replay"),
        on: { click: () => act.openReplay(number) } }),
      challenge
        ? el("a", { class: "button primary", id: "btn-compete", href: `/compete?variant=${challenge}`,
          text: t("compete.back") })
        : el("button", { type: "button", class: "primary", id: "btn-continue", text: t("btn.continue"),
          on: { click: () => closeResult && closeResult() } })));
  // Closing the dialog, by 继续 or ✕, is this player's 继续 (ready) for the next hand.
  let dropped = false;
  const close = modal(t("result.title", { n: number }), body, {
    className: "result-dialog", onClose: () => {
      closeResult = null;
      if (!dropped && !finished && state.message.you !== null) act.ready();
    } });
  closeResult = (drop = false) => { dropped = drop; close(); };
}

/** The last finished trick, in a dialog. */
export function showLastTrick(state) {
  const obs = state.message?.observation;
  if (!obs || !obs.tricks.length) return;
  const trick = obs.tricks[obs.tricks.length - 1];
  const area = trickEl(state, trick, false);
  // Each seat's cards under its name: in a dialog the table's seat panels are out of sight.
  for (const slot of area.querySelectorAll(".slot[data-seat]")) {
    slot.prepend(el("span", { class: "slot-name", text: shortName(state, Number(slot.dataset.seat)) }));
  }
  modal(t("trick.number", { n: obs.tricks.length }), el("div", { class: "last-trick" }, area));
}

/** The match's scoreboard, in a dialog. */
export function showScores(state) {
  const info = state.message.table;
  modal(t("scores.title"), scoreboardEl(info.match, info.rules.variant, directions(state)), { className: "wide" });
}
