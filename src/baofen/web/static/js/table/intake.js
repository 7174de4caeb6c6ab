// Taking in the server's `state` messages: a new hand, a new hand of cards, a finished trick to
// hold on the table a while; then one drawing pass.

import { renderCenter } from "./center.js";
import { dropResult, showResult } from "./dialogs.js";
import { noticeTurn } from "./notice.js";
import { scheduleCheck } from "./selection.js";
import { myTurn, ready } from "./state.js";
import { render } from "./view.js";

const TRICK_HOLD_MS = 1800;

/** Take in a `state` message: a new hand, a new hand of cards, a finished trick to hold. */
export function takeState(page, message) {
  const { state } = page;
  const previous = state.message;
  state.message = message;
  const obs = message.observation;
  const match = message.table.match;
  const number = match ? match.hand_number : 0;
  if (number !== state.handNumber) {
    if (state.handNumber) dropResult();
    state.handNumber = number;
    state.kittyTrump = null;
    state.tricksSeen = 0;
    state.hold = null;
  }
  if (obs) {
    const key = (obs.hand || []).join(" ");
    if (key !== state.handKey || obs.phase !== previous?.observation?.phase) {
      state.handKey = key;
      state.selected.clear();
      state.suggestedBid = undefined;
    }
    // A trick just finished: it stays on the table a while from now, whoever plays next and
    // however soon (a computer leads the next one within a second), unless this player acts.
    if (previous && obs.tricks.length > state.tricksSeen) {
      state.hold = { trick: obs.tricks[obs.tricks.length - 1], until: Infinity };
    }
    state.tricksSeen = obs.tricks.length;
  }
  const hold = state.hold;
  redraw(page);
  if (hold && hold.until === Infinity) { // counted from the moment it is drawn, however slow the page
    hold.until = Date.now() + TRICK_HOLD_MS;
    setTimeout(() => ready(state) && renderCenter(state, page.act), TRICK_HOLD_MS + 20);
  }
  noticeTurn(state, myTurn(state));
}

/** Draw the whole table (once the state and the defaults are both here). */
export function redraw(page) {
  const { state, act } = page;
  if (!ready(state)) return;
  render(state, act);
  scheduleCheck(page);
  showResult(state, act);
}
