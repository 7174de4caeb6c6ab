// This player's hand: grouped by suit group, trumps together, in the order the server gives
// for the trump (or the trump being tried); cards are selected by clicking, Enter or Space.

import { cardEl, groupCards, loadOrder, marks, orderNow } from "../cards.js";
import { byId, el, fill, toast } from "../dom.js";
import { displayTrump, myTurn } from "./state.js";

/** Draw the hand from `state` (once its card order is loaded); `act.toggle` selects a card. */
export function renderHand(state, act) {
  const box = byId("hand");
  const { table: info, observation: obs } = state.message;
  if (!obs || !obs.hand || !obs.hand.length) return fill(box);
  const variant = info.rules.variant;
  const trump = displayTrump(state);
  const order = orderNow(variant, trump);
  if (!order) {
    loadOrder(variant, trump).then(() => renderHand(state, act), (error) => toast(error.message, "error"));
    return box;
  }
  const selectable = myTurn(state) && (obs.phase === "playing" || obs.phase === "kitty");
  const copies = new Map();
  // The kitty's cards, marked in the declarer's hand while they bury (one copy per kitty card).
  const fromKitty = new Map();
  if (obs.phase === "kitty" && obs.kitty) for (const name of obs.kitty) fromKitty.set(name, (fromKitty.get(name) ?? 0) + 1);
  const groups = groupCards(obs.hand, order).map(([group, names]) => el("div", {
    class: ["suit-group", group === order.trumpGroup && "trumps"], dataset: { group } },
  names.map((name) => {
    const n = copies.get(name) ?? 0;
    copies.set(name, n + 1);
    const id = `${name}#${n}`;
    const choose = () => act.toggle(id);
    const kitty = (fromKitty.get(name) ?? 0) > n;
    return cardEl(name, {
      class: [state.selected.has(id) && "selected", selectable && "selectable", kitty && "from-kitty",
        marks(name, variant, order)],
      dataset: { id }, role: "button", tabIndex: selectable ? 0 : -1,
      "aria-pressed": state.selected.has(id) ? "true" : "false",
      on: selectable ? { click: choose, keydown: (e) => keyOnCard(e, choose, act) } : {},
    });
  })));
  const row = el("div", { class: "cards-in-hand" }, groups);
  fill(box, row);
  fitRows(row, window.innerWidth < 700 ? 3 : 2);
  fitScreen(row);
  return box;
}

/** Keyboard play: arrows move between cards, Space selects, Enter plays (or buries). */
function keyOnCard(event, choose, act) {
  if (event.key === " ") {
    event.preventDefault();
    choose();
  } else if (event.key === "Enter") {
    event.preventDefault();
    act.submit();
  } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    event.preventDefault();
    const cards = [...document.querySelectorAll("#hand .card.selectable")];
    const next = cards[cards.indexOf(event.currentTarget) + (event.key === "ArrowLeft" ? -1 : 1)];
    if (next) next.focus();
  }
}

/** Show `state`'s selection on the cards in place (keeps the keyboard focus). */
export function showSelection(state) {
  for (const node of document.querySelectorAll("#hand .card")) {
    const on = state.selected.has(node.dataset.id);
    node.classList.toggle("selected", on);
    node.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

/** The selected cards' names, in the hand's order. */
export function selectedNames() {
  return [...document.querySelectorAll("#hand .card.selected")].map((node) => node.dataset.card);
}

/** The narrowest strip of an overlapped card: the usual touch minimum, so that a tap never hits
 * the neighbour. */
const MIN_STRIP = 24;

/** Overlap every group's cards a little more while the hand takes more than `rows` rows, down
 * to a strip a finger still hits; then make the cards a little smaller (to four fifths): the
 * whole hand stays in view without scrolling, whatever the deal's groups (a group longer than
 * the screen wraps). */
function fitRows(row, rows) {
  const groups = [...row.children];
  const count = () => new Set(groups.map((group) => group.offsetTop)).size;
  const style = getComputedStyle(row);
  let strip = parseFloat(style.getPropertyValue("--ov"));
  const width = parseFloat(style.getPropertyValue("--cw"));
  const height = parseFloat(style.getPropertyValue("--ch"));
  let scale = 1;
  while (count() > rows) {
    if (strip > MIN_STRIP) {
      strip -= 1;
      for (const group of groups) {
        const own = parseFloat(group.style.getPropertyValue("--ov")) || strip;
        group.style.setProperty("--ov", `${Math.min(own, strip)}px`);
      }
    } else if (scale > 0.8) {
      scale -= 0.04;
      row.style.setProperty("--cw", `${Math.round(width * scale)}px`);
      row.style.setProperty("--ch", `${Math.round(height * scale)}px`);
    } else {
      break;
    }
  }
}

/** On a phone during play and while the declarer holds the kitty (33 cards, often four rows),
 * make the hand's cards smaller (to seven tenths at most) while the page is taller than the
 * screen: the header, a long prompt, the kitty's bar or a tall trick must not push the hand's
 * last row below it. The trick's cards keep their size, so that their ranks stay readable. */
function fitScreen(row) {
  const phase = document.body.dataset.phase;
  if (window.innerWidth >= 700 || (phase !== "playing" && phase !== "kitty")) return;
  const own = getComputedStyle(row);
  const sizes = { "--cw": parseFloat(own.getPropertyValue("--cw")), "--ch": parseFloat(own.getPropertyValue("--ch")) };
  const over = () => document.documentElement.scrollHeight > window.innerHeight;
  for (let scale = 0.95; over() && scale >= 0.7; scale -= 0.05) {
    for (const [name, size] of Object.entries(sizes)) row.style.setProperty(name, `${Math.round(size * scale)}px`);
  }
}
