// Card faces in HTML/CSS, and card order and suit groups as the server computes them
// (GET /api/order): the client never decides what is trump or what beats what.

import { el } from "./dom.js";
import { lang, t } from "./i18n.js";
import { api } from "./api.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const RANK_TEXT = { T: "10" };

/** True for cards printed red: hearts, diamonds and the big joker. */
export const isRed = (name) => name === "BJ" || name[0] === "H" || name[0] === "D";

/** Rank and suit as printed on the card's corner (an English joker says JOKER, the big one red
 * with a full star, the little one black with an empty one). */
export function face(name) {
  if (name === "BJ" || name === "LJ") {
    return lang() === "zh"
      ? { rank: name === "BJ" ? "大" : "小", suit: "王" }
      : { rank: "JOKER", suit: "" };
  }
  return { rank: RANK_TEXT[name[1]] ?? name[1], suit: SUIT_SYMBOL[name[0]] };
}

/** A card as text, in the glossary's words: ♠A, ♥10, 大王 / Big joker. */
export function cardText(name) {
  if (name === "BJ") return t("joker.big");
  if (name === "LJ") return t("joker.little");
  const { rank, suit } = face(name);
  return suit + rank;
}

/** Classes marking what a card is in this hand, from the server's card order (`order`, may be
 * null): a trump, 红五 (包红五's top trump, always trump) and 参谋 (包红五's trump 3s). */
export function marks(name, variant, order) {
  const trump = Boolean(order) && order.group.get(name) === order.trumpGroup;
  return [
    trump && "trump",
    variant === "hongwu" && name === "H5" && "red5",
    variant === "hongwu" && trump && name[1] === "3" && "staff",
  ];
}

/** A card face element; `attrs` are passed to the element (class, dataset, on…). */
export function cardEl(name, attrs = {}) {
  const { rank, suit } = face(name);
  const joker = name === "BJ" || name === "LJ";
  return el("div", {
    ...attrs,
    class: ["card", isRed(name) ? "red" : "black", joker && "joker", attrs.class],
    dataset: { card: name, ...(attrs.dataset || {}) },
    title: cardText(name),
  },
  el("span", { class: "corner" }, el("span", { class: "rank", text: rank }), suit && el("span", { class: "suit", text: suit })),
  el("span", { class: "pip", text: joker ? (name === "BJ" ? "★" : "☆") : suit }));
}

/** A row of overlapping card faces (a play, a trick); `mark(name)` gives a card's marks. */
export function cardsEl(names, className = "", mark = () => []) {
  return el("div", { class: ["cards", className] }, names.map((name) => cardEl(name, { class: mark(name) })));
}

/** Short text chips (♠A ♥10) for compact lists: bids, replays, kitty. */
export function chipsEl(names) {
  return el("span", { class: "chips" }, names.map((name) => el("span", {
    class: ["chip", isRed(name) ? "red" : "black"], dataset: { card: name }, text: cardText(name) })));
}

/** A trump suit as a coloured symbol. */
export function suitEl(suit) {
  if (!suit) return el("span", { class: "suit-sym", text: "—" });
  return el("span", { class: ["suit-sym", isRed(suit) ? "red" : "black"], text: SUIT_SYMBOL[suit] });
}

const pending = new Map();
const ready = new Map();
const orderKey = (variant, trump) => `${variant}/${trump ?? ""}`;

/**
 * The card order of a game and trump (null: before trump is named), from the server, cached:
 * a promise of `{rank: Map(name → position), group: Map(name → suit group), trumpGroup}`.
 * The server lists the trumps first, so the first card's group is the trump group.
 */
export function loadOrder(variant, trump) {
  const key = orderKey(variant, trump);
  if (!pending.has(key)) {
    pending.set(key, api.order(variant, trump).then((body) => {
      const order = {
        rank: new Map(body.cards.map((name, i) => [name, i])),
        group: new Map(body.cards.map((name, i) => [name, body.groups[i]])),
        trumpGroup: body.groups[0],
      };
      ready.set(key, order);
      return order;
    }).catch((error) => { pending.delete(key); throw error; }));
  }
  return pending.get(key);
}

/** An order already loaded, or null (then load it with loadOrder and draw again). */
export const orderNow = (variant, trump) => ready.get(orderKey(variant, trump)) ?? null;

/** `names` sorted by the order (stable), split into runs of one suit group: [[group, names]…]. */
export function groupCards(names, order) {
  const sorted = [...names].sort((a, b) => order.rank.get(a) - order.rank.get(b));
  const groups = [];
  for (const name of sorted) {
    const g = order.group.get(name);
    if (!groups.length || groups[groups.length - 1][0] !== g) groups.push([g, []]);
    groups[groups.length - 1][1].push(name);
  }
  return groups;
}
