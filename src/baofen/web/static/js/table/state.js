// The table's one state object: the server's last `state` message, the defaults it sent
// (bot levels, kitty size, trump suits), and what this page adds (the selection, its check,
// the trump being tried, a trick held on the table). Every region draws from it; the questions
// every region asks of it are answered here.

import { t } from "../i18n.js";

/** Where each seat sits on the screen, counter-clockwise from this player's (bottom). */
export const POSITIONS = ["bottom", "right", "top", "left"];

/** A new state of table `code`, before anything arrived. */
export function tableState(code) {
  return {
    code,
    defaults: null,
    message: null,
    selected: new Set(),
    handKey: "",
    check: { key: "", legal: false, answer: null, pending: false },
    kittyTrump: null,
    suggestedBid: undefined,
    hold: null,
    tricksSeen: 0,
    handNumber: 0,
    resultShown: null,
  };
}

/** True when the server's state and defaults are both here, so that the table can be drawn. */
export const ready = (state) => Boolean(state.message && state.defaults);

/** True when this page's seat is to act now. */
export function myTurn(state) {
  const { you, observation: obs, table: info } = state.message ?? {};
  return Boolean(obs && you !== null && obs.to_act === you && obs.phase !== "done"
    && info.status === "playing");
}

/** Between hands: the connected players who have not pressed 继续 (the server deals the next
 * hand once none is left). */
export function notReady(info) {
  return info.seats.filter((s) => s.kind === "human" && s.connected && !s.away && !info.ready.includes(s.seat))
    .map((s) => s.seat);
}

/** A seat's direction and who sits there (a name or a computer's level). */
export function seatName(state, seat) {
  const s = state.message?.table.seats[seat];
  const where = t(`seat.${seat}`);
  if (!s || !s.kind) return where;
  const who = s.kind === "bot" ? t("bot.name", { level: t(`level.${s.bot_level}`) }) : s.name;
  return `${where} · ${who}`;
}

/** A seat's direction and player, short: for prompts, bids and dialogs. */
export function shortName(state, seat) {
  const s = state.message?.table.seats[seat];
  if (!s || !s.kind) return t(`seat.${seat}`);
  return s.kind === "bot" ? `${t(`seat.${seat}`)}·${t(`level.${s.bot_level}`)}` : `${t(`seat.${seat}`)}·${s.name}`;
}

/** Every seat's short name. */
export const shortNames = (state) => [0, 1, 2, 3].map((seat) => shortName(state, seat));

/** Seat directions, marking this player's: for narrow tables. */
export function directions(state) {
  const you = state.message?.you;
  return [0, 1, 2, 3].map((seat) => (seat === you ? `${t(`seat.${seat}`)}(${t("seat.you")})` : t(`seat.${seat}`)));
}

/** Where `seat` sits on the screen. */
export function position(state, seat) {
  const base = state.message?.you ?? 0;
  return POSITIONS[(seat - base + 4) % 4];
}

/** The trump to order the hand by: the hand's, or the one the declarer is trying in the kitty. */
export function displayTrump(state) {
  const obs = state.message?.observation;
  if (!obs) return null;
  if (obs.phase === "kitty" && myTurn(state)) return state.kittyTrump;
  return obs.trump;
}

/** The key of a check of `cards` now (a check is stale once the table changed). */
export const checkKey = (state, cards) => `${state.message?.table.version}|${cards.join(" ")}`;
