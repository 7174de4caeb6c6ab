// A player's 战绩 (/players/{username}): their rating and record in each game, and their latest
// hands with their replays. On one's own page, the account's settings too.

import { accountSection } from "./account.js";
import { api } from "./api.js";
import { el, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { dateText, percent, ratingEl, signed } from "./ratings.js";
import { openReplay } from "./replay.js";
import { me } from "./session.js";

/** Draw the profile of `username` into `root`. */
export async function showProfile(root, username) {
  document.body.dataset.view = "profile";
  let profile;
  try {
    profile = await api.player(username);
  } catch (error) {
    const text = error.status === 404 ? t("profile.none", { name: username }) : t("err.generic", { message: error.message });
    return fill(root, el("div", { class: "page" }, el("section", { class: "panel" },
      el("h1", { text: t("profile.title") }), el("p", { class: "empty", id: "profile-missing", text }))));
  }
  const own = me()?.username === profile.username;
  document.title = `${profile.username} · ${t("profile.title")}`;
  fill(root, el("div", { class: "page profile", id: "profile" },
    el("section", { class: "panel profile-head" },
      el("h1", { id: "profile-name", text: profile.username }),
      el("p", { class: "muted", text: t("profile.since", { date: dateText(profile.created) }) })),
    el("div", { class: "game-records" },
      Object.entries(profile.games).map(([variant, record]) => gameEl(variant, record))),
    recentEl(profile.recent),
    own && accountSection()));
}

function gameEl(variant, record) {
  const stat = (key, label, value) => el("div", { class: "stat", dataset: { stat: key } },
    el("dt", { text: label }), el("dd", { text: value }));
  return el("section", { class: "panel game-record", dataset: { variant } },
    el("h2", {}, t(`game.${variant}`), " ", ratingEl(record.rating, true, record.rated_hands)),
    el("dl", { class: "stats" },
      stat("hands", t("profile.hands"), String(record.hands)),
      stat("declarer", t("profile.declarer"), String(record.as_declarer)),
      stat("defender", t("profile.defender"), String(record.as_defender)),
      stat("made", t("profile.made"), percent(record.made_rate)),
      stat("average", t("profile.average"), record.average_result === null ? "—" : signed(record.average_result, 1)),
      stat("rated", t("profile.rated"), String(record.rated_hands))));
}

function recentEl(recent) {
  const body = recent.length
    ? el("div", { class: "table-scroll" }, el("table", { class: "records", id: "recent" },
      el("thead", {}, el("tr", {}, [t("profile.col.when"), t("profile.col.game"), t("profile.col.role"),
        t("profile.col.result"), t("profile.col.contract"), t("profile.col.replay")].map((text) =>
        el("th", { scope: "col", text })))),
      el("tbody", {}, recent.map(handRow))))
    : el("p", { class: "empty", text: t("profile.recent.none") });
  const later = recent.some((hand) => !hand.table_code);
  return el("section", { class: "panel" }, el("h2", { text: t("profile.recent") }), body,
    later && el("p", { class: "form-note", text: t("profile.replay.later") }));
}

function handRow(hand) {
  const declarer = hand.role === "declarer";
  return el("tr", {},
    el("td", { text: dateText(hand.finished, true) }),
    el("td", { text: t(`game.${hand.variant}`) }),
    el("td", { text: t(declarer ? "profile.role.declarer" : "profile.role.defender") }),
    el("td", { class: ["num", hand.result > 0 && "up", hand.result < 0 && "down"], text: signed(hand.result) }),
    el("td", { text: t(hand.made ? "profile.made.yes" : "profile.made.no") }),
    el("td", {}, hand.table_code
      ? el("button", { type: "button", class: "secondary small", text: t("profile.replay"),
        "aria-label": t("profile.replay.of", { n: hand.hand_number }),
        dataset: { replay: `${hand.table_code}/${hand.hand_number}` },
        on: { click: () => replay(hand.table_code, hand.hand_number) } })
      : el("span", { class: "muted", text: "—" })));
}

/** 复盘: the hand's replay with the computer's review asked for at once. */
async function replay(code, number) {
  let table;
  try { table = await api.table(code); } catch (error) { return toast(error.message, "error"); }
  openReplay(code, (seat) => table.seats[seat].name ?? "", number, { review: true });
}
