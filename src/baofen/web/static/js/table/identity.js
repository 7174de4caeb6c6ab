// Who this page is at the table once connected: the player of a seat it takes back, a player
// sitting down at once, or a spectator.

import { nameOrDefault, playerName, seatToken, setPlayerName, setSeatToken } from "../prefs.js";
import { me } from "../session.js";

/** Take back this browser's seat with its token, or the seat bound to the signed-in account;
 * sit at South when the lobby just opened this table for its player (#sit); or else watch. */
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
    const answer = await conn.request({ type: "join", seat: 0, name: me() ? playerName() : nameOrDefault() });
    if (answer.type === "joined") {
      if (!me() && !playerName()) setPlayerName(answer.name || "");
      return setSeatToken(code, answer.token);
    }
  }
  await conn.request({ type: "watch" });
}
