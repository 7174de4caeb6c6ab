// Replay of finished hands, trick by trick. The server works every trick out from the hand's
// record (GET /api/tables/{code}/hands/{n}/replay); this only steps through it.

import { api } from "./api.js";
import { el, fill, modal, toast } from "./dom.js";
import { chipsEl, cardsEl, suitEl } from "./cards.js";
import { t } from "./i18n.js";
import { resultEl } from "./result.js";
import { fetchReview, movesByPlay, noteEl, summaryEl } from "./review.js";

/** Open the replay dialog of table `code`; `names(seat)` names a seat; `number` opens a hand;
 * `review`: its 复盘 is asked for at once. */
export async function openReplay(code, names, number = null, { review: reviewNow = false } = {}) {
  const body = el("div", { class: "replay" });
  modal(t("replay.title"), body, { className: "wide" });
  let hands;
  try { hands = await api.hands(code); } catch (error) { return toast(error.message, "error"); }
  if (!hands.length) return fill(body, el("p", { class: "empty", text: t("replay.none") }));
  const picker = el("div", { class: "replay-hands" },
    el("span", { text: t("replay.pick") }),
    hands.map((summary) => el("button", { type: "button", class: "secondary small", dataset: { hand: summary.number },
      text: summary.number, on: { click: () => load(summary.number) } })));
  const viewer = el("div", { class: "replay-viewer" });
  fill(body, picker, viewer);

  async function load(n) {
    for (const b of picker.querySelectorAll("button")) b.classList.toggle("chosen", Number(b.dataset.hand) === n);
    let view;
    try { view = await api.replay(code, n); } catch (error) { return toast(error.message, "error"); }
    stepper(viewer, view, names, () => review(n), reviewNow && n === number);
  }
  const reviews = new Map();
  const review = (n) => {
    if (!reviews.has(n)) reviews.set(n, fetchReview(code, n, progress).catch((error) => {
      reviews.delete(n);  // a failed review may be asked for again
      throw error;
    }));
    return reviews.get(n);
  };
  const progress = (fraction, moves, total) => {
    const bar = viewer.querySelector(".review-progress progress");
    if (bar) bar.value = fraction;
    const count = viewer.querySelector(".review-progress .review-count");
    if (count && total) count.textContent = `${moves}/${total}`;
  };
  load(number ?? hands[hands.length - 1].number);
}

/** Step through one hand's replay; `review()` gives the promise of its 复盘 (asked for on a click,
 * or at once when `reviewNow`). */
function stepper(viewer, view, names, review, reviewNow) {
  const last = view.tricks.length + 1;
  let step = 0;
  const content = el("div", { class: "replay-step" });
  const label = el("span", { class: "replay-label" });
  const slider = el("input", { type: "range", min: 0, max: last, value: 0,
    on: { input: () => go(Number(slider.value)) } });
  const prev = el("button", { type: "button", class: "secondary", id: "replay-prev", text: t("btn.prev"), on: { click: () => go(step - 1) } });
  const next = el("button", { type: "button", class: "primary", id: "replay-next", text: t("btn.next"), on: { click: () => go(step + 1) } });
  const header = el("p", { class: "replay-head" },
    view.declarer === null ? t("result.no_bid")
      : [`${t("head.declarer")} ${names(view.declarer)} · ${t("head.target")} ${view.target} · ${t("head.trump")} `, suitEl(view.trump)]);
  let reviewed = null;
  let notes = new Map();
  const reviewBox = el("div", { class: "review-box" });
  const ask = el("button", { type: "button", class: "secondary small", id: "replay-review", text: t("review.start"),
    on: { click: startReview } });
  fill(reviewBox, ask);
  fill(viewer, header, reviewBox, el("div", { class: "replay-controls" }, prev, label, next), slider, content);
  viewer.tabIndex = 0;
  viewer.onkeydown = (event) => {
    if (event.key === "ArrowLeft") go(step - 1);
    if (event.key === "ArrowRight") go(step + 1);
  };
  go(0);
  if (reviewNow) startReview();

  async function startReview() {
    ask.disabled = true;
    fill(reviewBox, el("label", { class: "review-progress" }, t("review.running"), " ",
      el("progress", { max: 1, value: 0 }), " ", el("span", { class: "review-count" })));
    try {
      reviewed = await review();
    } catch (error) {
      fill(reviewBox, ask);
      ask.disabled = false;
      return toast(error.message, "error");
    }
    notes = movesByPlay(reviewed);
    fill(reviewBox, summaryEl(reviewed, names));
    go(step);
  }

  function go(to) {
    step = Math.max(0, Math.min(last, to));
    slider.value = step;
    prev.disabled = step === 0;
    next.disabled = step === last;
    if (step === 0) {
      label.textContent = t("replay.deal");
      fill(content, dealEl(view, names, reviewed, notes));
    } else if (step < last) {
      label.textContent = t("replay.trick", { n: step, total: view.tricks.length });
      fill(content, trickStepEl(view, step, names, reviewed, notes));
    } else {
      label.textContent = t("replay.end");
      fill(content, endEl(view, names));
    }
  }
}

/** Step 0: the bids, the deal, the kitty and what the declarer buried (with the 复盘's notes
 * on the bids and the burial, once `reviewed`). */
function dealEl(view, names, reviewed, notes) {
  return [
    el("div", { class: "replay-bids" }, el("strong", { text: `${t("bids.title")}: ` }),
      view.bids.map(([seat, value], i) => [el("span", { class: "bid",
        text: `${names(seat)} ${value === null ? t("seat.pass") : value}` }),
      reviewed && noteEl(reviewed, notes.get(`bid:${seat}:${bidsBefore(view.bids, seat, i)}`))])),
    handsEl(view.deal, names),
    el("p", {}, el("strong", { text: `${t("replay.kitty")}: ` }), chipsEl(view.kitty)),
    view.buried && el("p", {}, el("strong", { text: `${t("replay.bury")}: ` }), chipsEl(view.buried),
      reviewed && [" ", noteEl(reviewed, notes.get("declare"))]),
  ];
}

/** Step `step`: that trick's plays (a failed throw said at its leader), the declarer's points
 * after it, and the hands before it. */
function trickStepEl(view, step, names, reviewed, notes) {
  const entry = view.tricks[step - 1];
  const before = step === 1 ? view.hands : view.tricks[step - 2].hands;
  const trick = entry.trick;
  return [
    el("div", { class: "replay-trick" }, trick.plays.map(([seat, cards]) => el("div", {
      class: ["replay-play", seat === trick.winner && "winner"] },
      el("span", { class: "who", text: names(seat) }),
      cardsEl(cards, "small"),
      reviewed && noteEl(reviewed, notes.get(`${step}:${seat}`)),
      seat === trick.winner && el("span", { class: "won", text: `★ ${t("trick.won")} · ${t("trick.points", { n: trick.points })}` }),
      seat === trick.leader && trick.attempted && el("span", { class: "failed" },
        `${t("trick.failed")} · ${t("trick.attempted")} `, chipsEl(trick.attempted),
        ` · ${t("trick.penalty", { n: trick.penalty })}`)))),
    el("p", {}, `${t("head.points")}: ${entry.declarer_points}`),
    handsEl(before, names),
  ];
}

/** The last step: the hand's result. */
function endEl(view, names) {
  return resultEl(view.result, {
    variant: view.rules.variant,
    names: [0, 1, 2, 3].map((seat) => t(`seat.${seat}`)),
    fullNames: [0, 1, 2, 3].map(names),
    lastWinner: view.tricks.length ? view.tricks[view.tricks.length - 1].trick.winner : null,
    caller: view.rules.variant === "baofen" ? view.first : null, rules: view.rules,
  });
}

/** How many bids `seat` made before the `i`-th bid of the hand. */
const bidsBefore = (bids, seat, i) => bids.slice(0, i).filter(([other]) => other === seat).length;

function handsEl(hands, names) {
  return el("div", { class: "replay-hands-list" }, hands.map((cards, seat) =>
    el("div", { class: "replay-hand" }, el("span", { class: "who", text: names(seat) }), chipsEl(cards))));
}
