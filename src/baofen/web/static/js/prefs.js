// What the browser remembers: the player's name and, per table code, the seat token.

import { t } from "./i18n.js";

const NAME = "baofen.name";
const TOKEN = (code) => `baofen.token.${code}`;

/** The name the player last used (for joining a seat). */
export const playerName = () => localStorage.getItem(NAME) || "";

/** Remember the player's name. */
export function setPlayerName(name) {
  const value = name.trim().slice(0, 24);
  if (value) localStorage.setItem(NAME, value);
}

/** The name to play under: `typed` when given (remembered), else the one remembered, else a
 * readable default in the page's language (玩家4821, Player4821), remembered too. The one rule
 * for default names wherever the browser sits a player: the lobby's choices and a table's seat. */
export function nameOrDefault(typed = "") {
  setPlayerName(typed);
  if (!playerName()) setPlayerName(t("name.default", { n: 1000 + Math.floor(Math.random() * 9000) }));
  return playerName();
}

const SOUND = "baofen.sound";

/** Whether a sound says it is this player's turn (off until the player turns it on). */
export const soundOn = () => localStorage.getItem(SOUND) === "1";

/** Turn the turn sound on or off. */
export function setSound(on) {
  localStorage.setItem(SOUND, on ? "1" : "0");
}

/** The seat token of this table, kept to reclaim the seat after a reload or a drop. */
export const seatToken = (code) => localStorage.getItem(TOKEN(code));

/** Keep (or, with null, forget) this table's seat token. */
export function setSeatToken(code, token) {
  if (token) localStorage.setItem(TOKEN(code), token);
  else localStorage.removeItem(TOKEN(code));
}

const CHALLENGE = (code) => `baofen.challenge.${code}`;

/** The game of the daily challenge this table plays a deal of (null: not a challenge table),
 * so that its result leads back to the 比赛 page. */
export const challengeTable = (code) => localStorage.getItem(CHALLENGE(code));

/** Remember that table `code` plays a deal of `variant`'s daily challenge. */
export function setChallengeTable(code, variant) {
  localStorage.setItem(CHALLENGE(code), variant);
}
