// The leaderboard (/leaderboard?variant=…): the best ratings of one game.

import { api } from "./api.js";
import { el, fill } from "./dom.js";
import { t } from "./i18n.js";
import { ratingEl } from "./ratings.js";
import { me } from "./session.js";

const GAMES = ["baofen", "hongwu"];

/** Draw the leaderboard of the game named in the address (default 包分) into `root`. */
export async function showLeaderboard(root) {
  document.body.dataset.view = "leaderboard";
  document.title = t("leaders.title");
  const asked = new URLSearchParams(location.search).get("variant");
  const variant = GAMES.includes(asked) ? asked : GAMES[0];
  const list = el("div", { class: "leaders", id: "leaders", "aria-busy": "true" });
  fill(root, el("div", { class: "page" }, el("section", { class: "panel" },
    el("h1", { text: t("leaders.title") }),
    el("nav", { class: "tabs", "aria-label": t("lobby.game") }, GAMES.map((game) =>
      el("a", { class: ["tab", game === variant && "on"], href: `/leaderboard?variant=${game}`,
        "aria-current": game === variant ? "page" : null, text: t(`game.${game}`) }))),
    list,
    el("p", { class: "form-note", text: t("leaders.note") }))));
  let entries;
  try {
    entries = await api.leaderboard(variant);
  } catch (error) {
    fill(list, el("p", { class: "error", text: t("err.generic", { message: error.message }) }));
    return;
  }
  list.removeAttribute("aria-busy");
  if (!entries.length) return fill(list, el("p", { class: "empty", text: t("leaders.none") }));
  const mine = me()?.username;
  fill(list, el("table", { class: "records", id: "leaders-table" },
    el("thead", {}, el("tr", {}, [t("leaders.col.rank"), t("leaders.col.player"), t("leaders.col.rating"),
      t("leaders.col.hands")].map((text) => el("th", { scope: "col", text })))),
    el("tbody", {}, entries.map((entry) => el("tr", { class: entry.username === mine && "me" },
      el("td", { class: "num", text: String(entry.rank) }),
      el("td", {}, el("a", { href: `/players/${encodeURIComponent(entry.username)}`, text: entry.username })),
      el("td", {}, ratingEl(entry.rating, false, entry.hands)),
      el("td", { class: "num", text: String(entry.hands) }))))));
}
