// The table (/t/{code}): seats, bidding, kitty, tricks, results, for a player or a spectator.
//
// The server is the authority: every legality question goes to it (`check` while cards are
// selected, `legal_bids` for bidding, `hint` for 提示), and the card order, the kitty's size
// and the trump suits come from it too. This module keeps the table's one state object up to
// date from the connection and does what the buttons ask; the modules in ./table/ draw it,
// one region each.

import { api } from "./api.js";
import { loadOrder } from "./cards.js";
import { Connection } from "./connection.js";
import { banner, byId, el, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { playerName, seatToken, setPlayerName, setSeatToken } from "./prefs.js";
import { me } from "./session.js";
import { openReplay } from "./replay.js";
import { renderActions } from "./table/actions.js";
import { renderCenter } from "./table/center.js";
import { dropResult, showLastTrick, showResult, showScores } from "./table/dialogs.js";
import { renderHand, selectedNames, showSelection } from "./table/hand.js";
import { noticeTurn } from "./table/notice.js";
import { reasonText } from "./table/reasons.js";
import { tick } from "./table/seats.js";
import { checkKey, myTurn, ready, shortName, tableState } from "./table/state.js";
import { render, renderShell, showStatus } from "./table/view.js";

const CHECK_DELAY_MS = 150;
const TRICK_HOLD_MS = 1800;

/** Open table `code` in `root`; returns its `renderShell` and `render` (to redraw the page,
 * e.g. on a language change), and `signedIn` (to call when the page signs in). */
export function showTable(root, code) {
  const state = tableState(code);
  const conn = new Connection(code);
  let checkTimer = null;

  // -- the state ------------------------------------------------------------------------------

  /** Take in a `state` message: a new hand, a new hand of cards, a finished trick to hold. */
  function update(message) {
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
    redraw();
    if (hold && hold.until === Infinity) { // counted from the moment it is drawn, however slow the page
      hold.until = Date.now() + TRICK_HOLD_MS;
      setTimeout(() => ready(state) && renderCenter(state, act), TRICK_HOLD_MS + 20);
    }
    noticeTurn(state, myTurn(state));
  }

  function redraw() {
    if (!ready(state)) return;
    render(state, act);
    scheduleCheck();
    showResult(state, act);
  }

  // -- the selection and its check ---------------------------------------------------------------

  function toggle(id) {
    if (state.selected.has(id)) state.selected.delete(id);
    else state.selected.add(id);
    applySelection();
  }

  function clearSelection() {
    state.selected.clear();
    applySelection();
  }

  /** Select these cards of the hand (a hint's, or the same cards after the order changed). */
  function selectNames(names) {
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
  function applySelection() {
    showSelection(state);
    renderActions(state, act);
    scheduleCheck();
  }

  /** Ask the server whether the selection may be played, once it rests for a moment. */
  function scheduleCheck() {
    clearTimeout(checkTimer);
    const obs = state.message?.observation;
    const cards = selectedNames();
    if (!cards.length || !obs || obs.phase !== "playing" || !myTurn(state)) return;
    const key = checkKey(state, cards);
    if (state.check.key === key) return;
    state.check = { key, legal: false, answer: null, pending: true };
    checkTimer = setTimeout(async () => {
      const answer = await conn.request({ type: "check", cards });
      if (state.check.key !== key) return;
      // the answer is kept, not its words: a language switch says the refusal again in the new one
      state.check = { key, legal: answer.type === "checked" && answer.legal, answer, pending: false };
      renderActions(state, act);
    }, CHECK_DELAY_MS);
  }

  // -- actions --------------------------------------------------------------------------------

  async function send(message) {
    const answer = await conn.request(message);
    if (answer.type === "error") banner(t("refused.title"), reasonText(answer));
    return answer;
  }

  const variant = () => state.message.table.rules.variant;

  const act = {
    send,
    toggle,
    clearSelection,

    async join(seat, name) {
      // An empty name is the server's to choose (玩家4821); the name it gives is remembered.
      const clean = (name || "").trim();
      const answer = await send({ type: "join", seat, name: clean });
      if (answer.type !== "joined") return;
      setSeatToken(code, answer.token);
      if (!me()) setPlayerName(clean || answer.name || "");
    },

    async leave() {
      const answer = await send({ type: "leave" });
      if (answer.type === "ack") setSeatToken(code, null);
    },

    toggleAuto() {
      const { table: info, you } = state.message;
      send({ type: "auto", on: !info.seats[you].auto });
    },

    takeBack: () => send({ type: "auto", on: false }),

    /** 继续: this player is ready for the next hand. */
    ready: () => send({ type: "ready" }),

    /** Enter on a card: play the selection (or bury it), when the server allows it. */
    submit() {
      const obs = state.message?.observation;
      if (!obs || !myTurn(state)) return;
      if (obs.phase === "playing" && state.check.legal && !state.check.pending
        && state.check.key === checkKey(state, selectedNames())) act.play();
      else if (obs.phase === "kitty" && state.kittyTrump && state.selected.size === state.defaults.kitty_size) act.declare();
    },

    /** The declarer tries a trump suit: the hand is redrawn in its order, keeping the selection
     * as it is when the order arrives (a hint may have chosen one meanwhile). */
    chooseTrump(suit) {
      state.kittyTrump = suit;
      loadOrder(variant(), suit).then(() => {
        if (state.kittyTrump !== suit) return; // a later choice, or a hint, took over
        selectNames(selectedNames());
        renderHand(state, act);
        applySelection();
      }, (error) => toast(error.message, "error"));
    },

    async hint() {
      const answer = await send({ type: "hint" });
      if (answer.type !== "suggestion") return;
      if (answer.action === "bid") {
        state.suggestedBid = answer.value;
        renderActions(state, act);
      } else if (answer.action === "declare") {
        state.kittyTrump = answer.trump;
        await loadOrder(variant(), answer.trump);
        if (state.kittyTrump !== answer.trump) return; // the player chose another suit meanwhile
        selectNames(answer.bury);
        renderHand(state, act);
        applySelection();
      } else {
        selectNames(answer.cards);
        applySelection();
      }
    },

    async play() {
      state.hold = null; // acting ends the pause on the finished trick
      const answer = await send({ type: "play", cards: selectedNames() });
      if (answer.type === "ack") state.selected.clear();
    },

    async declare() {
      const answer = await send({ type: "declare", trump: state.kittyTrump, bury: selectedNames() });
      if (answer.type === "ack") state.selected.clear();
    },

    showLastTrick: () => showLastTrick(state),
    showScores: () => showScores(state),
    openReplay: (number = null) => openReplay(code, (seat) => shortName(state, seat), number),
  };

  // -- the connection -------------------------------------------------------------------------

  /** Take back this browser's seat with its token, or the seat bound to the signed-in account;
   * sit at South when the lobby just opened
   * this table for its player (#sit); or else watch. */
  async function identify() {
    const token = seatToken(code);
    if (token) {
      const answer = await conn.request({ type: "reclaim", token });
      if (answer.type === "joined") return;
      if (answer.code === "bad_token") setSeatToken(code, null);
      else if (answer.code === "closed") return;
    }
    if (me()) { // a seat bound to the account, taken on another device: take it back here
      const answer = await conn.request({ type: "reclaim", token: null });
      if (answer.type === "joined") return setSeatToken(code, answer.token);
      if (answer.code === "closed") return;
    }
    if (location.hash === "#sit") {
      history.replaceState(null, "", location.pathname);
      const answer = await conn.request({ type: "join", seat: 0, name: playerName() });
      if (answer.type === "joined") {
        if (!me() && !playerName()) setPlayerName(answer.name || "");
        return setSeatToken(code, answer.token);
      }
    }
    await conn.request({ type: "watch" });
  }

  /** An unknown link: say so, and lead back to the lobby. */
  function showGone() {
    fill(root, el("section", { class: "gone", id: "gone" },
      el("h2", { text: t("gone.title") }),
      el("p", { text: t("gone.text") }),
      el("a", { class: "button primary", href: "/", text: t("gone.back") })));
    byId("conn")?.remove();
  }

  function receive(message) {
    if (message.type === "state") update(message);
    else if (message.type === "error" && message.code === "replaced") showStatus("replaced");
    else if (message.type === "error" && message.code === "unknown_table") {
      state.gone = true;
      showGone();
    }
  }

  document.body.dataset.view = "table";
  conn.addEventListener("status", (event) => showStatus(event.detail));
  conn.addEventListener("open", identify);
  conn.addEventListener("message", (event) => receive(event.detail));
  const shell = () => {
    if (state.gone) return showGone();
    renderShell(root);
    showStatus(conn.status);
  };
  shell();
  conn.connect();
  api.defaults().then((defaults) => {
    state.defaults = defaults;
    redraw();
  }, (error) => toast(error.message, "error"));
  setInterval(() => tick(state), 250);
  // Signed in while watching: connect again, so that the account's seat here is taken back.
  const signedIn = () => { if (me() && state.message && state.message.you === null) conn.reopen(); };
  return { renderShell: shell, render: () => render(state, act), signedIn };
}
