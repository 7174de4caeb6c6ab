// What the table's buttons and keys ask: the `act` object every region draws its controls with.
// Each request goes to the server, which refuses what the rules forbid (said in a banner).

import { loadOrder } from "../cards.js";
import { banner, toast } from "../dom.js";
import { nameOrDefault, setPlayerName, setSeatToken } from "../prefs.js";
import { me } from "../session.js";
import { openReplay } from "../replay.js";
import { renderActions } from "./actions.js";
import { showLastTrick, showScores } from "./dialogs.js";
import { renderHand, selectedNames } from "./hand.js";
import { reasonText, refusalTitle } from "./reasons.js";
import { applySelection, clearSelection, selectNames, toggle } from "./selection.js";
import { checkKey, myTurn, shortName } from "./state.js";

/** Send `message` on the page's connection; a refusal is said in a banner. The answer. */
async function send(page, message) {
  const answer = await page.conn.request(message);
  if (answer.type === "error") banner(refusalTitle(answer), reasonText(answer));
  return answer;
}

/** The actions of table page `page` (see table.js), for its regions' controls. */
export function tableActions(page) {
  const { code, state } = page;
  return {
    send: (message) => send(page, message),
    toggle: (id) => toggle(page, id),
    clearSelection: () => clearSelection(page),
    ...seatActions(page),
    ...playActions(page),
    showLastTrick: () => showLastTrick(state),
    showScores: () => showScores(state),
    openReplay: (number = null) => openReplay(code, (seat) => shortName(state, seat), number),
  };
}

/** Taking a seat, leaving it, 托管 and 继续. */
function seatActions(page) {
  const { code, state } = page;
  return {
    async join(seat, name) {
      // An empty name becomes the readable default of the page's language (玩家4821,
      // Player4821); the account's name when signed in is the server's to use.
      const clean = me() ? (name || "").trim() : nameOrDefault(name || "");
      const answer = await send(page, { type: "join", seat, name: clean });
      if (answer.type !== "joined") return;
      setSeatToken(code, answer.token);
      if (!me()) setPlayerName(clean || answer.name || "");
    },

    async leave() {
      const answer = await send(page, { type: "leave" });
      if (answer.type === "ack") setSeatToken(code, null);
    },

    toggleAuto() {
      const { table: info, you } = state.message;
      send(page, { type: "auto", on: !info.seats[you].auto });
    },

    takeBack: () => send(page, { type: "auto", on: false }),

    /** 继续: this player is ready for the next hand. */
    ready: () => send(page, { type: "ready" }),
  };
}

/** Naming trump and burying, the hint, and playing the selection. */
function playActions(page) {
  const { state } = page;
  const variant = () => state.message.table.rules.variant;
  return {
    /** Enter on a card: play the selection (or bury it), when the server allows it. */
    submit() {
      const obs = state.message?.observation;
      if (!obs || !myTurn(state)) return;
      if (obs.phase === "playing" && state.check.legal && !state.check.pending
        && state.check.key === checkKey(state, selectedNames())) page.act.play();
      else if (obs.phase === "kitty" && state.kittyTrump && state.selected.size === state.defaults.kitty_size) page.act.declare();
    },

    /** The declarer tries a trump suit: the hand is redrawn in its order, keeping the selection
     * as it is when the order arrives (a hint may have chosen one meanwhile). */
    chooseTrump(suit) {
      state.kittyTrump = suit;
      loadOrder(variant(), suit).then(() => {
        if (state.kittyTrump !== suit) return; // a later choice, or a hint, took over
        selectNames(state, selectedNames());
        renderHand(state, page.act);
        applySelection(page);
      }, (error) => toast(error.message, "error"));
    },

    async hint() {
      const answer = await send(page, { type: "hint" });
      if (answer.type !== "suggestion") return;
      if (answer.action === "bid") {
        state.suggestedBid = answer.value;
        renderActions(state, page.act);
      } else if (answer.action === "declare") {
        state.kittyTrump = answer.trump;
        await loadOrder(variant(), answer.trump);
        if (state.kittyTrump !== answer.trump) return; // the player chose another suit meanwhile
        selectNames(state, answer.bury);
        renderHand(state, page.act);
        applySelection(page);
      } else {
        selectNames(state, answer.cards);
        applySelection(page);
      }
    },

    async play() {
      state.hold = null; // acting ends the pause on the finished trick
      const answer = await send(page, { type: "play", cards: selectedNames() });
      if (answer.type === "ack") state.selected.clear();
    },

    async declare() {
      const answer = await send(page, { type: "declare", trump: state.kittyTrump, bury: selectedNames() });
      if (answer.type === "ack") state.selected.clear();
    },
  };
}
