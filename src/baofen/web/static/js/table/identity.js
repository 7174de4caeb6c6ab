// Who this page is at the table once connected: the player of a seat it takes back, a player
// sitting down at once, or a spectator.

import { banner } from "../dom.js";
import { nameOrDefault, playerName, seatToken, setPlayerName, setSeatToken } from "../prefs.js";
import { me } from "../session.js";
import { reasonText, refusalTitle } from "./reasons.js";
import { showRefused } from "./view.js";

/** Say why the server refused this page a seat or the table (a club's rule, a round on). */
function refused(answer) {
  if (answer.type === "error" && answer.code !== "closed") banner(refusalTitle(answer), reasonText(answer));
}

/** Take back this browser's seat with its token, or the seat bound to the signed-in account;
 * sit when the lobby just opened this table for its player, or a club page sends a player to a
 * free seat (#sit: South, else the next free seat); or else watch. */
export async function identify(page) {
  const { code, conn } = page;
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
    let answer = null;
    for (const seat of [0, 1, 2, 3]) {
      answer = await conn.request({ type: "join", seat, name: me() ? playerName() : nameOrDefault() });
      if (answer.type === "joined" || answer.code !== "seat_taken") break;
    }
    if (answer.type === "joined") {
      if (!me() && !playerName()) setPlayerName(answer.name || "");
      return setSeatToken(code, answer.token);
    }
    refused(answer); // a club's 禁止同桌, say: told, then watching if the club lets us
  }
  const watching = await conn.request({ type: "watch" });
  if (watching.type === "error" && watching.code !== "closed") {
    page.state.gone = true; // nothing of the table comes to this page: say why, in its place
    page.state.refused = watching;
    showRefused(page.root, watching);
  }
}
