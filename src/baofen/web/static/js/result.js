// A hand's scored result with its breakdown (rules.md §11), and the match scoreboard (§12).
// Only shows what the server computed (HandResult.breakdown, the match's history).

import { el } from "./dom.js";
import { t } from "./i18n.js";

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function line(label, value, className) {
  return el("tr", { class: className }, el("th", { text: label }), el("td", { text: value }));
}

/** Rows of the breakdown of `result` (ResultView) for its game. */
function breakdownRows(result, variant, lastWinner) {
  const b = result.breakdown || {};
  const rows = [line(t("result.target"), result.target)];
  if (variant === "baofen") {
    rows.push(line(t("result.captured"), b.captured));
    rows.push(line(t("result.wangfen"), b.wangfen));
    if (b.wangfen_adjustment > 0) rows.push(line(t("result.wangfen_all"), signed(b.wangfen_adjustment)));
    if (b.wangfen_adjustment < 0) rows.push(line(t("result.wangfen_none"), signed(b.wangfen_adjustment)));
    if (b.penalties) rows.push(line(t("result.penalties"), signed(b.penalties)));
    rows.push(line(t("result.kitty_points"), b.kitty_points));
    rows.push(line(t("result.declarer_points"), result.declarer_points, "total"));
    if (result.kind) rows.push(line(t(`result.kind.${result.kind}`), "", "kind"));
    rows.push(line(t("result.score"), signed(result.score), "total"));
  } else {
    rows.push(line(t("result.captured"), b.captured));
    if (b.red_fives) rows.push(line(t("result.red_fives"), signed(b.red_fives)));
    rows.push(line(t("result.kitty_points"), b.kitty_points));
    const kept = lastWinner === undefined || lastWinner === null ? b.kitty >= 0 : lastWinner === result.declarer;
    rows.push(line(t(kept ? "result.baodi" : "result.zhuadi"), signed(b.kitty)));
    if (b.penalties) rows.push(line(t("result.penalties"), signed(b.penalties)));
    rows.push(line(t("result.declarer_points"), result.declarer_points, "total"));
    rows.push(line(t("result.levels"), signed(result.levels), "total"));
  }
  return rows;
}

/** Why a hand nobody bid costs what it costs: the caller's and the others' stakes, and the
 * setting (`no_bid_mode`, rules.md §12.2) that decides it. */
function stakesEl(rules, callerName) {
  const direct = rules.no_bid_mode === "direct";
  const params = {
    caller: callerName,
    a: direct ? rules.direct_penalty : rules.pot_caller_stake,
    b: rules.pot_other_stake,
    setting: t("field.no_bid_mode"),
    mode: direct ? t("field.no_bid_mode.direct") : t("field.no_bid_mode.pot"),
  };
  const text = direct ? t("result.stakes.direct", params) : t("result.stakes.pot", params);
  return el("p", { class: "stakes", id: "result-stakes", text });
}

/**
 * The result of one hand: headline, breakdown, and each seat's change and total.
 * `entry` is the match history's HandSummary of the hand (running scores, pot), if known;
 * `names` head the seat columns, `fullNames` name the declarer; `lastWinner` (the seat that
 * won the last trick) tells 保底 from 抓底 in 包红五. In 包分, `caller` (主叫) is marked in its
 * column and, with `rules`, a hand nobody bid says why it cost what it did.
 */
export function resultEl(result, { entry = null, variant, names, fullNames = names, lastWinner = null,
  caller = null, rules = null }) {
  let headline;
  if (result.kind === "no_bid") headline = t("result.no_bid");
  else headline = t(result.made ? "result.made" : "result.failed", { name: fullNames[result.declarer] });
  const deltas = entry ? entry.deltas : result.deltas;
  const seats = el("table", { class: "seats-result" },
    el("thead", {}, el("tr", {}, el("th"), names.map((name, seat) => el("th", {},
      name, seat === caller && el("small", { class: "caller-mark", dataset: { caller: seat }, text: ` · ${t("seat.caller")}` }))))),
    el("tbody", {},
      el("tr", {}, el("th", { text: t("result.deltas") }),
        deltas.map((d) => el("td", { class: d > 0 ? "plus" : d < 0 ? "minus" : "", text: signed(d) }))),
      entry && el("tr", {}, el("th", { text: t("result.scores") }), entry.scores.map((s) => el("td", { text: s }))),
      entry && entry.left.length > 0 && el("tr", {}, el("th", { text: t("result.left") }),
        [0, 1, 2, 3].map((seat) => el("td", { text: entry.left.includes(seat) ? "✓" : "" })))));
  return el("div", { class: ["result", result.made ? "made" : "down"], dataset: { kind: result.kind || "" } },
    el("p", { class: "headline", text: headline }),
    result.kind === "no_bid" && rules && caller !== null && stakesEl(rules, fullNames[caller]),
    result.kind !== "no_bid" && el("table", { class: "breakdown" }, el("tbody", {}, breakdownRows(result, variant, lastWinner))),
    seats,
    entry && variant === "baofen" && el("p", { class: "pot", text: `${t("result.pot")}: ${entry.pot}` }));
}

/** The match scoreboard: every settled hand's changes and the running totals. */
export function scoreboardEl(match, variant, names) {
  if (!match || !match.history.length) return el("p", { class: "empty", text: t("scores.none") });
  const pot = variant === "baofen";
  return el("table", { class: "scoreboard" },
    el("thead", {}, el("tr", {}, el("th", { text: t("scores.hand") }), names.map((n) => el("th", { text: n })),
      pot && el("th", { text: t("result.pot") }))),
    el("tbody", {}, match.history.map((entry) => el("tr", {},
      el("th", { text: entry.number }),
      entry.deltas.map((d, seat) => el("td", { class: d > 0 ? "plus" : d < 0 ? "minus" : "" },
        signed(d), el("small", { text: ` ${entry.scores[seat]}` }))),
      pot && el("td", { text: entry.pot })))),
    el("tfoot", {},
      el("tr", {}, el("th", { text: t("scores.total") }), match.scores.map((s) => el("td", { text: s })),
        pot && el("td", { text: match.pot })),
      match.coins && el("tr", {}, el("th", { text: t("result.coins") }), match.coins.map((c) => el("td", { text: c })))));
}
