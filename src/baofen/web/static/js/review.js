// 复盘 in the replay: the computer's review of a finished hand (GET …/hands/{n}/analysis), shown
// move by move beside the replay's tricks, with a summary per player. The server does the work
// (in a process pool) and answers 202 with its progress until it is done; this only polls and draws.

import { api } from "./api.js";
import { el } from "./dom.js";
import { cardText, chipsEl, face, suitEl } from "./cards.js";
import { t } from "./i18n.js";

const POLL_MS = 1000;

/** Ask for the review of hand `n` of table `code` until it is done; `onProgress(fraction, moves,
 * total)` while it runs (decisions reviewed of all). Resolves to the review: {unit, thresholds,
 * hint, moves, seats}. */
export async function fetchReview(code, n, onProgress) {
  for (;;) {
    const answer = await api.analysis(code, n);
    if (answer.status === "done") return answer.review;
    onProgress(answer.progress, answer.moves, answer.total);
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

/** A loss in the hand's own unit: 包分 points, 包红五 levels (a whole number as it is). */
function amount(review, loss) {
  const inPoints = review.unit === "points";
  const n = typeof loss === "string" || Number.isInteger(loss) ? String(loss) : Number(loss).toFixed(1);
  return t(inPoints ? "review.unit.points" : "review.unit.levels", { n });
}

/** The review's note on one decision of the replay: ✓ when it was the best found (or the only
 * choice); ≈ when another looked better by less than the inaccuracy threshold or by no more
 * than the noise of the sampled worlds (the details in its title); otherwise its category
 * (不精确 / 失误 / 大错), the loss, the better choice and, when the hint (提示) would have
 * played otherwise, what it suggests and why the two differ. */
export function noteEl(review, move) {
  if (!move) return null;
  if (move.candidates < 2 || move.made === move.best || (!move.category && move.loss <= 0)) {
    const title = move.candidates < 2 ? t("review.forced") : t("review.matched");
    return el("span", { class: "review-note good", title, text: `✓ ${t("review.matched")}` });
  }
  if (!move.category) {
    return el("span", { class: "review-note close", title: t("review.close.why", {
      loss: amount(review, move.loss), best: move.best }), text: `≈ ${t("review.close")}` });
  }
  const wasted = move.reason && move.reason.kind === "wasted_winner";
  const hintDiffers = move.kind === "play" && move.hint !== move.best;
  return el("span", { class: ["review-note", "flagged", move.category] },
    el("strong", { text: `${move.category === "inaccuracy" ? "?!" : "⚠"} ${categoryName(move.category)} ` }),
    wasted && el("span", { class: "review-why", title: t("review.wasted.why"), text: t("review.wasted") }),
    wasted ? " · " : "",
    move.loss > 0 ? el("span", { class: "review-loss", text: t("review.loss", { n: lossText(review, move) }) }) : "",
    move.loss > 0 ? " · " : "",
    `${t("review.best")} `, optionEl(move.kind, move.best),
    hintDiffers && el("span", { class: "review-why", title: t("review.hint.why", { worlds: move.worlds }) },
      ` · ${t("review.hint")} `, optionEl(move.kind, move.hint)),
    move.reason && el("span", { class: "review-reason" }, `${t("review.why")}: `, reasonText(move.reason)));
}

/** A flagged move's loss as the page shows it: its interval, lower end (which gives the
 * category, by the legend's thresholds) to estimate, or one figure when the two agree. The
 * lower end is rounded down, so that the figure shown never reaches a threshold its category
 * does not (1.96 levels shows 1.9, an inaccuracy, not 2.0, a mistake). */
export function lossText(review, move) {
  const step = review.unit === "points" ? 1 : 0.1;
  const digits = review.unit === "points" ? 0 : 1;
  const low = (Math.floor(Math.max(0, move.loss_low) / step + 1e-9) * step).toFixed(digits);
  const high = lossEstimate(review.unit, move.loss);
  return amount(review, low === high ? high : `${low}–${high}`);
}

/** A loss's estimate as the page shows it: whole points, or levels to one decimal. */
function lossEstimate(unit, loss) {
  return unit === "points" ? Math.round(loss).toFixed(0) : (Math.round(loss * 10) / 10).toFixed(1);
}

/** A flagged move's reason in words (review.reason.* keys; the facts as the review gives them,
 * the same as the CLI's ``baofen.review.reasons.describe``). */
export function reasonText(reason) {
  const f = { ...reason.facts };
  const pct = (x) => Math.round(100 * x);
  const cards = (names) => names.split(" ").map(cardText).join(" ");
  if (f.keeps) f.keeps = cards(f.keeps);
  if (f.card) f.card = cards(f.card);
  if (reason.kind === "trick" || reason.kind === "card") {
    f.share = pct(f.share);
    f.last = f.last ? t("review.reason.last") : "";
  }
  // The whole difference as the loss shown (its estimate) where the review gave it, else the
  // card points of the reason's deals, worded as card points.
  const loss = f.loss === undefined ? null : amount({ unit: f.unit }, lossEstimate(f.unit, f.loss));
  if (reason.kind === "trick") {
    f.keeps = f.plays ? t("review.reason.plays", { cards: cards(f.plays) })
      : f.keeps ? t("review.reason.keeps", { cards: f.keeps }) : "";
    f.changes = f.share ? t("review.reason.changes", { share: f.share }) : "";
    f.worth = loss !== null ? t("review.reason.worth", { loss }) : "";
  }
  if (reason.kind === "card") {
    f.now = f.given > 0 ? t("review.reason.now", { points: f.given })
      : f.given < 0 ? t("review.reason.costs", { points: -f.given }) : "";
    f.gained = loss !== null ? t("review.reason.worth", { loss })
      : f.gained > 0 ? t("review.reason.gained", { points: f.gained }) : "";
  }
  if (reason.kind === "value") {
    return loss !== null ? t("review.reason.value", { loss }) : t("review.reason.value_points", f);
  }
  if (reason.kind === "declare") {
    for (const name of ["made", "best"]) f[`trump_${name}`] = face(`${f[`trump_${name}`]}2`).suit;
  }
  if (reason.kind === "bid") {
    for (const name of ["made", "best"]) {
      f[`declares_${name}`] = pct(f[`declares_${name}`]);
      const rate = f[`makes_${name}`];
      f[`makes_${name}`] = rate === null ? "" : t("review.reason.makes", { rate: pct(rate) });
      f[name] = f[name] === "pass" ? t("review.reason.pass") : t("review.reason.bid_value", { n: f[name] });
    }
  }
  return t(`review.reason.${reason.kind}`, f);
}

/** A seat's accuracy as shown: whole percents, except that below 100 it never rounds up to
 * 100 (a seat with a flagged move has no 100%). */
function accuracyText(accuracy) {
  return accuracy < 100 && accuracy >= 99.5 ? accuracy.toFixed(1) : accuracy.toFixed(0);
}

/** The name of a category: 不精确, 失误, 大错. */
function categoryName(category) {
  if (category === "blunder") return t("review.blunder");
  return category === "mistake" ? t("review.mistake") : t("review.inaccuracy");
}

/** An option: cards, a bid ("pass" or its value), or a trump and its bury. */
function optionEl(kind, option) {
  if (kind === "bid") return option === "pass" ? t("seat.pass") : option;
  if (kind === "declare") {
    const [trump, cards] = option.split(": ");
    return el("span", {}, suitEl(trump), " ", chipsEl(cards.split(" ")));
  }
  return chipsEl(option.split(" "));
}

/** A table of each reviewed player's accuracy, moves as good as the best found (of those with
 * a choice), and the count of each category. */
export function summaryEl(review, names) {
  const limits = review.thresholds;
  return el("table", { class: "review-summary" },
    el("caption", { text: t("review.legend", {
      inaccuracy: amount(review, limits.inaccuracy), mistake: amount(review, limits.mistake),
      blunder: amount(review, limits.blunder), scale: review.scale }) }),
    el("tr", {}, [t("review.player"), t("review.accuracy"), t("review.matched"),
      t("review.inaccuracies"), t("review.mistakes"), t("review.blunders")]
      .map((text) => el("th", { scope: "col", text }))),
    review.seats.map((seat) => el("tr", {},
      // A long name may break after its seat ("South·…") on a phone, not in the middle.
      el("th", { scope: "row", text: names(seat.seat).replace("·", "·\u200b") }),
      el("td", { class: "accuracy", text: `${accuracyText(seat.accuracy)}%` }),
      el("td", { text: `${seat.matched}/${seat.choices}` }),
      el("td", { text: seat.inaccuracies }),
      el("td", { class: seat.mistakes ? "minus" : "", text: seat.mistakes }),
      el("td", { class: seat.blunders ? "minus" : "", text: seat.blunders }))));
}
