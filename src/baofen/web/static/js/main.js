// Entry point: the lobby at /, a table at /t/{code}, a player's 战绩 at /players/{name}, the
// leaderboard at /leaderboard, 比赛 at /compete (the daily challenge, with the way to the
// tournaments at /tournaments and the leaderboard), the puzzles (残局练习) at /puzzles, 亲友圈 at
// /clubs. The top bar links to 比赛, the puzzles and the clubs (on a phone, a row of their own
// under the bar, away from a table), the rules and signing in. The language switch and signing in
// or out redraw the page.

import { showCompete } from "./compete.js";
import { showClubs } from "./clubs.js";
import { byId, el, fill } from "./dom.js";
import { lang, setLang, t } from "./i18n.js";
import { showHelp } from "./help.js";
import { showLeaderboard } from "./leaderboard.js";
import { showLobby } from "./lobby.js";
import { showProfile } from "./profile.js";
import { showPuzzles } from "./puzzles.js";
import { loadSession, me } from "./session.js";
import { openSignIn } from "./signin.js";
import { showTable } from "./table.js";
import { showTournament, showTournaments } from "./tournaments.js";

const root = byId("app");
const path = location.pathname;
const code = pathPart(/^\/t\/([^/]+)\/?$/);
const player = pathPart(/^\/players\/([^/]+)\/?$/);
const leaderboard = /^\/leaderboard\/?$/.test(path);
const rules = /^\/rules\/?$/.test(path);
const compete = /^\/compete\/?$/.test(path);
const puzzles = /^\/puzzles\/?$/.test(path);
const clubs = /^\/clubs(\/.*)?$/.test(path);
const club = pathPart(/^\/clubs\/([^/]+)\/?$/);
const invitation = pathPart(/^\/clubs\/join\/([^/]+)\/?$/);
const tournaments = /^\/tournaments\/?$/.test(path);
const tournament = pathPart(/^\/tournaments\/([^/]+)\/?$/);
let table = null;

function pathPart(pattern) {
  const match = path.match(pattern);
  return match ? decodeURIComponent(match[1]) : null;
}

function drawTopbar() {
  const account = me();
  fill(byId("topbar"),
    el("a", { class: "brand", id: "brand", href: "/" },
      el("span", { class: "long", text: t("title") }), el("span", { class: "short", text: t("title.short") })),
    el("span", { class: "spacer" }),
    code && el("span", { class: "conn", id: "conn" }),
    !code && el("nav", { class: "sections", "aria-label": t("nav.sections") },
      el("a", { class: "nav", id: "nav-compete", href: "/compete", text: t("compete.short") }),
      el("a", { class: "nav", id: "nav-puzzles", href: "/puzzles", text: t("puzzles.short") }),
      el("a", { class: "nav", id: "nav-clubs", href: "/clubs", text: t("clubs.short") })),
    el("a", { class: "nav", id: "nav-rules", href: "/rules", text: t("help.short"),
      target: code ? "_blank" : null }), // from a table, the rules open beside the game
    account
      ? el("a", { class: "nav me", id: "nav-me", href: `/players/${encodeURIComponent(account.username)}`,
        title: t("account.you"), text: account.username })
      : el("button", { type: "button", class: "nav", id: "nav-signin", text: t("account.signin"),
        on: { click: () => openSignIn() } }),
    el("button", { type: "button", class: "lang", id: "lang", title: t("lang.switch"), "aria-label": t("lang.switch"),
      on: { click: () => setLang(lang() === "zh" ? "en" : "zh") } },
    el("span", { class: "long", text: t("lang.switch") }), el("span", { class: "short", text: t("lang.switch.short") })));
}

function failed(error) {
  fill(root, el("p", { class: "error", text: t("err.generic", { message: error.message }) }));
}

function draw() {
  drawTopbar();
  if (player !== null) {
    showProfile(root, player).catch(failed);
  } else if (leaderboard) {
    showLeaderboard(root).catch(failed);
  } else if (compete) {
    showCompete(root).catch(failed);
  } else if (clubs) {
    showClubs(root, invitation ? null : club, invitation).catch(failed);
  } else if (rules) {
    showHelp(root);
  } else if (puzzles) {
    showPuzzles(root).catch(failed);
  } else if (tournaments) {
    showTournaments(root).catch(failed);
  } else if (tournament !== null) {
    showTournament(root, tournament).catch(failed);
  } else if (!code) {
    showLobby(root).catch(failed);
  } else if (table) {
    table.renderShell();
    table.render();
  } else {
    table = showTable(root, code);
  }
}

window.addEventListener("langchange", draw);
window.addEventListener("sessionchange", () => {
  draw();
  if (table) table.signedIn();
});
loadSession().then(() => setLang(lang(), false));
