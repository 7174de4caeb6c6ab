// The action bar: what this player may do now (bid, name trump and bury, play) with the hint,
// or whom the table waits for. Legal bids, the kitty's size and the trump suits come from the
// server; whether a selection may be played is the server's answer to `check`.

import { chipsEl, isRed, SUIT_SYMBOL } from "../cards.js";
import { byId, el, fill, patch } from "../dom.js";
import { t } from "../i18n.js";
import { selectedNames } from "./hand.js";
import { reasonText } from "./reasons.js";
import { checkKey, myTurn, notReady, shortName } from "./state.js";

/** Bids offered as buttons before the rest go into a list (包红五 has up to 27). */
const QUICK_BIDS = 5;

/** Draw the action bar from `state`; `act` holds the actions its buttons take. */
export function renderActions(state, act) {
  const box = byId("actions");
  const { table: info, observation: obs, you } = state.message;
  renderAutoBanner(state, act);
  if (!obs || info.status === "waiting") return fill(box);
  if (info.status === "finished" && obs.phase === "done") return fill(box, el("p", { class: "status", text: t("act.over") }));
  if (!myTurn(state)) return fill(box, el("p", { class: "status" }, waitingText(state)));
  const hint = el("button", { type: "button", class: "secondary", id: "btn-hint", text: t("btn.hint"),
    on: { click: act.hint } });
  const timer = el("span", { class: "timer", dataset: { seatTimer: you } });
  if (obs.phase === "bidding") return fill(box, el("div", { class: "prompt" }, t("act.bid"), timer), bidButtons(state, act, hint));
  if (obs.phase === "kitty") return fill(box, kittyBar(state, act, hint, timer));
  return fill(box, playBar(state, act, hint, timer));
}

/** 托管: the computer plays this seat (after two timeouts in a row, or on request), said by a
 * banner with one button to take the seat back; redrawn only when it changes, so that the
 * button stays put while the computer plays on. */
function renderAutoBanner(state, act) {
  const { table: info, you } = state.message;
  const on = Boolean(you !== null && info.seats[you].auto && info.status === "playing");
  patch(byId("auto-box"), [on], () => on && el("div", { class: "auto-banner", id: "auto-banner", role: "status" },
    el("span", { text: t("auto.banner") }),
    el("button", { type: "button", class: "primary", id: "btn-take-back", text: t("auto.take"),
      on: { click: act.takeBack } })));
}

/** Whom the table waits for, or why this player has nothing to do. */
function waitingText(state) {
  const { observation: obs, you } = state.message;
  if (you === null) return t("act.spectator");
  if (obs.phase === "done") return readyText(state);
  const name = shortName(state, obs.to_act);
  if (obs.phase === "bidding") return t("act.waiting_bid", { name });
  if (obs.phase === "kitty") return t("act.waiting_kitty", { name });
  return t("act.waiting", { name });
}

/** Between hands: press 继续, or (once pressed) who has not pressed yet. */
function readyText(state) {
  const { table: info, you } = state.message;
  if (!info.ready.includes(you)) return t("act.next_hand");
  const names = notReady(info).map((seat) => shortName(state, seat));
  return names.length ? t("ready.waiting_for", { names: names.join(t("list.sep")) }) : t("ready.dealing");
}

/** Buttons for the legal bids (a few, then a list for the rest). */
function bidButtons(state, act, hint) {
  const values = state.message.observation.legal_bids;
  const suggested = state.suggestedBid;
  const button = (value) => el("button", {
    type: "button", class: [value === null ? "secondary" : "primary", "bid", suggested === value && "suggested"],
    dataset: { bid: value === null ? "pass" : value },
    text: value === null ? t("act.pass") : value,
    on: { click: () => act.send({ type: "bid", value }) } });
  const quick = values.slice(0, QUICK_BIDS + 1);
  const rest = values.slice(QUICK_BIDS + 1);
  let more = null;
  if (rest.length) {
    const select = el("select", { id: "bid-select", "aria-label": t("act.more_bids") },
      rest.map((value) => el("option", { value, text: value, selected: suggested === value })));
    more = el("span", { class: ["more-bids", rest.includes(suggested) && "suggested"] }, select,
      el("button", { type: "button", class: "primary", id: "btn-bid", text: t("act.bid_this"),
        on: { click: () => act.send({ type: "bid", value: Number(select.value) }) } }));
  }
  return el("div", { class: "bid-buttons" }, quick.map(button), more, hint);
}

/** The declarer's bar: the trump suits to choose from, the kitty, and the cards to bury. */
function kittyBar(state, act, hint, timer) {
  const obs = state.message.observation;
  const { kitty_size: size, trumps } = state.defaults;
  const count = state.selected.size;
  return [
    el("div", { class: "prompt" }, t("act.kitty", { size }), timer),
    el("div", { class: "kitty-row" },
      el("span", { text: `${t("act.trump")}: ` }),
      trumps.map((suit) => el("button", {
        type: "button", class: ["suit", isRed(suit) ? "red" : "black", state.kittyTrump === suit && "chosen"],
        dataset: { trump: suit }, "aria-pressed": state.kittyTrump === suit ? "true" : "false", text: SUIT_SYMBOL[suit],
        on: { click: () => act.chooseTrump(suit) } })),
      el("span", { class: "count", id: "bury-count", text: t("act.buried", { n: count, size }) })),
    el("div", { class: "kitty-cards" }, `${t("act.kitty_cards")}: `, chipsEl(obs.kitty || [])),
    el("div", { class: "buttons" }, hint,
      el("button", { type: "button", class: "secondary", text: t("btn.clear"), on: { click: act.clearSelection } }),
      el("button", { type: "button", class: "primary", id: "btn-bury", text: t("btn.bury"),
        disabled: !(state.kittyTrump && count === size), on: { click: act.declare } })),
  ];
}

/** The player's bar at a lead or a follow: the server's verdict on the selection, and Play. */
function playBar(state, act, hint, timer) {
  const obs = state.message.observation;
  const cards = selectedNames();
  const check = state.check;
  const checked = check.key === checkKey(state, cards) && !check.pending;
  const refused = Boolean(cards.length && checked && !check.legal);
  const reason = refused && check.answer ? reasonText(check.answer) : null;
  // The lead to follow, beside the prompt over the hand: while the finished trick is still held
  // on the table (a phone shows no more than one), this is where the new lead shows.
  const [leader, led] = obs.current_trick[0] ?? [null, null];
  return [
    el("div", { class: "prompt" }, obs.current_trick.length ? t("act.follow") : t("act.lead"),
      led && el("span", { class: "lead-now", id: "lead-now" }, `${t("act.led_by", { name: shortName(state, leader) })} `, chipsEl(led)),
      timer),
    el("p", { class: ["note", refused && "error"], id: "play-note",
      text: reason ? t("act.illegal", { reason }) : t("act.select") }),
    el("div", { class: "buttons" }, hint,
      el("button", { type: "button", class: "primary", id: "btn-play", text: t("btn.play"),
        disabled: !(cards.length && checked && check.legal), on: { click: act.play } })),
  ];
}
