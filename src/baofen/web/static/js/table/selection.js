// The cards this player has selected, and the server's verdict on them: a selection that rests
// for a moment is sent as `check`, and the action bar shows the answer.

import { renderActions } from "./actions.js";
import { selectedNames, showSelection } from "./hand.js";
import { checkKey, myTurn } from "./state.js";

const CHECK_DELAY_MS = 150;

/** Select card `id` of the hand, or unselect it. */
export function toggle(page, id) {
  const { state } = page;
  if (state.selected.has(id)) state.selected.delete(id);
  else state.selected.add(id);
  applySelection(page);
}

/** Unselect every card. */
export function clearSelection(page) {
  page.state.selected.clear();
  applySelection(page);
}

/** Select these cards of the hand (a hint's, or the same cards after the order changed). */
export function selectNames(state, names) {
  state.selected.clear();
  const wanted = new Map();
  for (const name of names) wanted.set(name, (wanted.get(name) ?? 0) + 1);
  const copies = new Map();
  for (const name of state.message.observation.hand) {
    const n = copies.get(name) ?? 0;
    copies.set(name, n + 1);
    if (n < (wanted.get(name) ?? 0)) state.selected.add(`${name}#${n}`);
  }
}

/** Show the selection on the cards in place, redraw the action bar, then re-check it. */
export function applySelection(page) {
  showSelection(page.state);
  renderActions(page.state, page.act);
  scheduleCheck(page);
}

/** Ask the server whether the selection may be played, once it rests for a moment. */
export function scheduleCheck(page) {
  const { state } = page;
  clearTimeout(page.checkTimer);
  const obs = state.message?.observation;
  const cards = selectedNames();
  if (!cards.length || !obs || obs.phase !== "playing" || !myTurn(state)) return;
  const key = checkKey(state, cards);
  if (state.check.key === key) return;
  state.check = { key, legal: false, answer: null, pending: true };
  page.checkTimer = setTimeout(async () => {
    const answer = await page.conn.request({ type: "check", cards });
    if (state.check.key !== key) return;
    // the answer is kept, not its words: a language switch says the refusal again in the new one
    state.check = { key, legal: answer.type === "checked" && answer.legal, answer, pending: false };
    renderActions(state, page.act);
  }, CHECK_DELAY_MS);
}
