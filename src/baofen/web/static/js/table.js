// The table (/t/{code}): seats, bidding, kitty, tricks, results, for a player or a spectator.
//
// The server is the authority: every legality question goes to it (`check` while cards are
// selected, `legal_bids` for bidding, `hint` for 提示), and the card order, the kitty's size
// and the trump suits come from it too. This module opens the table page and wires its parts,
// each a module of ./table/: the state it keeps (state.js) and takes in (intake.js), the
// selection and its check (selection.js), what the buttons ask (commands.js), who this page
// is at the table (identity.js), and the regions that draw it (view.js and those it calls).

import { api } from "./api.js";
import { Connection } from "./connection.js";
import { toast } from "./dom.js";
import { me } from "./session.js";
import { tableActions } from "./table/commands.js";
import { identify } from "./table/identity.js";
import { redraw, takeState } from "./table/intake.js";
import { tick } from "./table/seats.js";
import { tableState } from "./table/state.js";
import { render, renderShell, showGone, showRefused, showStatus } from "./table/view.js";

/** Open table `code` in `root`; returns its `renderShell` and `render` (to redraw the page,
 * e.g. on a language change), and `signedIn` (to call when the page signs in). */
export function showTable(root, code) {
  // The table page: what its parts share (the state, the connection, the actions, and the
  // timer of a check waiting for the selection to rest).
  const page = { code, root, state: tableState(code), conn: new Connection(code), act: null, checkTimer: null };
  page.act = tableActions(page);
  const { state, conn } = page;

  function receive(message) {
    if (message.type === "state") takeState(page, message);
    else if (message.type === "error" && message.code === "replaced") showStatus("replaced");
    else if (message.type === "error" && message.code === "unknown_table") {
      state.gone = true;
      showGone(root);
    }
  }

  document.body.dataset.view = "table";
  conn.addEventListener("status", (event) => showStatus(event.detail));
  conn.addEventListener("open", () => identify(page));
  conn.addEventListener("message", (event) => receive(event.detail));
  const shell = () => {
    if (state.gone) return state.refused ? showRefused(root, state.refused) : showGone(root);
    renderShell(root);
    showStatus(conn.status);
  };
  shell();
  conn.connect();
  api.defaults().then((defaults) => {
    state.defaults = defaults;
    redraw(page);
  }, (error) => toast(error.message, "error"));
  setInterval(() => tick(state), 250);
  // Signed in while watching: connect again, so that the account's seat here is taken back.
  const signedIn = () => { if (me() && state.message && state.message.you === null) conn.reopen(); };
  return { renderShell: shell, render: () => render(state, page.act), signedIn };
}
