// The middle of the table: the waiting panel before the start, the bids while bidding and
// burying, then the trick being played (or the last one, held a moment for everyone to see).

import { cardsEl, chipsEl, marks, orderNow } from "../cards.js";
import { byId, el, fill, patch } from "../dom.js";
import { t } from "../i18n.js";
import { POSITIONS, position, shortName } from "./state.js";
import { waitingPanel } from "./waiting.js";

/** Draw the middle of the table from `state`. */
export function renderCenter(state, act) {
  const center = byId("center");
  const { table: info, observation: obs, you } = state.message;
  if (info.status === "waiting") {
    // Redrawn only when the seats change: a name being typed keeps its focus.
    return patch(center, [info.seats, you, state.defaults.bot_levels], () => waitingPanel(state, act));
  }
  delete center.dataset.key;
  if (!obs) return fill(center);
  if (obs.phase === "bidding" || obs.phase === "kitty") return fill(center, biddingSummary(state));
  if (obs.phase === "done" && !obs.tricks.length) return fill(center, biddingSummary(state));
  let trick = null;
  let live = false;
  let held = false;
  if (obs.current_trick.length) {
    if (state.hold && Date.now() < state.hold.until) {
      trick = state.hold.trick;
      held = true;
    } else {
      trick = { leader: obs.leader, plays: obs.current_trick, winner: null, points: null,
        attempted: obs.current_attempt, penalty: obs.current_penalty, winning: obs.winning };
      live = true;
    }
  } else if (obs.tricks.length) {
    trick = obs.tricks[obs.tricks.length - 1];
  }
  const number = live ? obs.trick_number : obs.tricks.length;
  const points = live ? obs.trick_points : trick?.points ?? 0;
  const area = trickEl(state, trick, live);
  const notes = area.querySelector(".trick-notes");
  if (trick) notes.prepend(el("div", { class: "trick-info", id: "trick-info", text: t("trick.info", { n: number, p: points }) }));
  if (held) notes.append(nextTrickNote(state));
  return fill(center, area);
}

/** Where a text of the dictionaries puts its cards (`{cards}`), drawn as chips. */
const CARDS = "\u0000";

/** `text` (made with `cards: CARDS`) with `cards` drawn as chips in their place. */
function withChips(text, cards) {
  const [before, after = ""] = text.split(CARDS);
  return [before, chipsEl(cards), after];
}

/** A trick (a TrickView, or the one being played when `live`) laid out around the table: the
 * leader marked, the seat winning so far (the server's `winning`) or the winner highlighted,
 * the card that just landed sliding in, and trumps, 红五 and 参谋 marked. Notes (a failed
 * throw: every card it tried and the penalty; never who stopped it, whose cards are a hand's,
 * docs/rules.md §2) go in a row of their own above the seats' cards, never over them. */
export function trickEl(state, trick, live) {
  const slots = POSITIONS.map((pos) => el("div", { class: ["slot", pos], dataset: { pos } }));
  const notes = el("div", { class: "trick-notes" });
  const area = el("div", { class: ["trick", live ? "live" : "done"], id: "trick" }, notes, slots);
  if (!trick) return area;
  const variant = state.message.table.rules.variant;
  const order = orderNow(variant, state.message.observation?.trump ?? null);
  const mark = (name) => marks(name, variant, order);
  const top = live ? trick.winning : trick.winner;
  trick.plays.forEach(([seat, cards], index) => {
    const slot = slots[POSITIONS.indexOf(position(state, seat))];
    slot.dataset.seat = seat;
    slot.classList.toggle("winner", top === seat);
    slot.classList.toggle("fresh", live && index === trick.plays.length - 1);
    const tags = [];
    if (seat === trick.leader) tags.push(el("span", { class: "tag lead", text: t("trick.lead") }));
    if (live && top === seat) tags.push(el("span", { class: "tag winning", id: "winning", text: `★ ${t("trick.winning")}` }));
    fill(slot, cardsEl(cards, "played", mark), el("div", { class: "tags" }, tags),
      !live && trick.winner === seat && el("span", { class: "won", text: `★ ${t("trick.won")}${trick.points ? ` · ${t("trick.points", { n: trick.points })}` : ""}` }));
  });
  if (trick.attempted) {
    notes.append(el("div", { class: "failed-throw", id: "failed-throw" },
      el("strong", { text: t("trick.failed") }), " ",
      el("span", {}, withChips(t("trick.tried", { name: shortName(state, trick.leader), cards: CARDS }), trick.attempted)),
      trick.penalty ? el("span", { class: "penalty", text: ` · ${t("trick.penalty", { n: trick.penalty })}` }) : null));
  }
  return area;
}

/** While the finished trick is held: the next trick's cards so far, beside it (this player may
 * be the one to follow). */
function nextTrickNote(state) {
  const obs = state.message.observation;
  return el("div", { class: "next-trick", id: "next-trick" },
    el("strong", { text: `${t("trick.next", { n: obs.trick_number })}: ` }),
    obs.current_trick.map(([seat, cards], i) => el("span", {}, i ? " · " : "",
      `${shortName(state, seat)}${seat === obs.leader ? ` (${t("trick.lead")})` : ""} `, chipsEl(cards))));
}

function biddingSummary(state) {
  const obs = state.message.observation;
  return el("div", { class: "bids-summary" },
    el("div", { class: "bids-title", text: t("bids.title") }),
    el("ol", { class: "bids" }, obs.bids.map(([seat, value]) => el("li", {},
      el("span", { class: "who", text: shortName(state, seat) }),
      el("span", { class: "value", text: value === null ? t("seat.pass") : value })))));
}
