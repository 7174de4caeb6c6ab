// 复盘 in the replay: the computer's review of a finished hand (GET …/hands/{n}/analysis), shown
// move by move beside the replay's tricks, with a summary per player. The server does the work
// (in a process pool) and answers 202 with its progress until it is done; this only polls and draws.

import { api } from "./api.js";
import { el } from "./dom.js";
import { chipsEl, suitEl } from "./cards.js";
import { t } from "./i18n.js";

const POLL_MS = 1000;

/** Ask for the review of hand `n` of table `code` until it is done; `onProgress(fraction)`
 * while it runs. Resolves to the review: {unit, threshold, moves, seats}. */
export async function fetchReview(code, n, onProgress) {
  for (;;) {
    const answer = await api.analysis(code, n);
    if (answer.status === "done") return answer.review;
    onProgress(answer.progress);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The reviewed decisions for `noteEl`: a play by `trick:seat`, the k-th bid of a seat by
 * `bid:seat:k`, the trump and bury by `declare`. */
export function movesByPlay(review) {
  const notes = new Map();
  const bids = [0, 0, 0, 0];
  for (const move of review.moves) {
    if (move.kind === "bid") notes.set(`bid:${move.seat}:${bids[move.seat]++}`, move);
    else if (move.kind === "declare") notes.set("declare", move);
    else notes.set(`${move.trick}:${move.seat}`, move);
  }
  return notes;
}

/** A loss in the hand's own unit: 包分 points, 包红五 levels. */
function amount(review, loss) {
  const inPoints = review.unit === "points";
  return t(inPoints ? "review.unit.points" : "review.unit.levels", { n: loss.toFixed(1) });
}

/** The review's note on one play of the replay: a match ✓, or the loss and the suggested play,
 * marked as a mistake (失误) over the threshold or for a sure winner thrown on a lost trick
 * (浪费大牌, whatever its loss). */
export function noteEl(review, move) {
  if (!move) return null;
  const wasted = move.reason === "wasted_winner";
  if (!move.mistake && (move.made === move.best || move.loss === 0)) {
    return el("span", { class: "review-note good", title: t("review.matched"), text: `✓ ${t("review.matched")}` });
  }
  return el("span", { class: ["review-note", move.mistake ? "mistake" : "inexact"] },
    move.mistake && el("strong", { text: `⚠ ${t("review.mistake")} ` }),
    wasted && el("span", { class: "review-why", title: t("review.wasted.why"), text: t("review.wasted") }),
    wasted ? " · " : "",
    move.loss > 0 ? `−${amount(review, move.loss)} · ` : "",
    `${t("review.best")} `, optionEl(move));
}

/** The suggested option: cards, a bid ("pass" or its value), or a trump and its bury. */
function optionEl(move) {
  if (move.kind === "bid") return move.best === "pass" ? t("seat.pass") : move.best;
  if (move.kind === "declare") {
    const [trump, cards] = move.best.split(": ");
    return el("span", {}, suitEl(trump), " ", chipsEl(cards.split(" ")));
  }
  return chipsEl(move.best.split(" "));
}

/** A table of each reviewed player's totals: moves, moves matching the best found, expected
 * loss in the hand's unit, mistakes. */
export function summaryEl(review, names) {
  return el("table", { class: "review-summary" },
    el("caption", { text: t("review.summary", { threshold: amount(review, review.threshold) }) }),
    el("tr", {}, [t("review.player"), t("review.moves"), t("review.matched"), t("review.loss"),
      t("review.mistakes")].map((text) => el("th", { scope: "col", text }))),
    review.seats.map((seat) => el("tr", {},
      // A long name may break after its seat ("South·…") on a phone, not in the middle.
      el("th", { scope: "row", text: names(seat.seat).replace("·", "·\u200b") }),
      el("td", { text: seat.moves }),
      el("td", { text: seat.matched }),
      el("td", { text: amount(review, seat.total_loss) }),
      el("td", { class: seat.mistakes ? "minus" : "", text: seat.mistakes }))));
}
