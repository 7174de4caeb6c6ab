// 比赛 (/compete?variant=…): today's 每日复式挑战 — the deals one by one against the computer,
// each finished deal's result and traveller, the leaderboards — and the way to the tournaments
// and the rating leaderboard.
// The server decides what may be seen (docs/competition.md): this page shows what it is given.

import { request } from "./api.js";
import { el, fill, modal, toast } from "./dom.js";
import { t } from "./i18n.js";
import { nameOrDefault, setChallengeTable, setSeatToken } from "./prefs.js";
import { openReplay } from "./replay.js";
import { me } from "./session.js";

const GAMES = ["baofen", "hongwu"];
/** The leaderboards' periods, each with its label. */
const periods = () => [["day", t("compete.period.day")], ["week", t("compete.period.week")], ["all", t("compete.period.all")]];
const base = (variant) => `/api/challenge/${variant}`;
/** How soon the page reads a result again that was not ranked yet. */
const RANKING_MS = 2000;

/** Draw the 比赛 page of the game named in the address (default 包分) into `root`. */
export async function showCompete(root) {
  document.body.dataset.view = "compete";
  document.title = t("compete.title");
  const asked = new URLSearchParams(location.search).get("variant");
  const variant = GAMES.includes(asked) ? asked : GAMES[0];
  const challenge = el("div", { id: "challenge", "aria-busy": "true" });
  const boards = el("section", { class: "panel", id: "challenge-boards" });
  const history = el("section", { class: "panel", id: "challenge-history", hidden: true });
  const tournaments = el("section", { class: "panel", id: "tournaments" },
    el("h2", { text: t("tour.title") }), el("p", { class: "muted", text: t("tour.intro") }),
    el("p", { class: "compete-links" },
      el("a", { id: "to-tournaments", href: "/tournaments", text: t("compete.more.tournaments") }),
      el("a", { id: "to-leaders", href: "/leaderboard", text: t("compete.more.leaders") })));
  fill(root, el("div", { class: "page compete" },
    el("section", { class: "panel" },
      el("h1", { text: t("compete.title") }),
      el("nav", { class: "tabs", "aria-label": t("lobby.game") }, GAMES.map((game) =>
        el("a", { class: ["tab", game === variant && "on"], href: `/compete?variant=${game}`,
          "aria-current": game === variant ? "page" : null, text: t(`game.${game}`) }))),
      challenge),
    boards, history, tournaments));
  if (await readChallenge(challenge, boards, variant) && me()) drawHistory(history, variant);
}

/** Read today's challenge and draw it with its boards: the state read, or null on a failure.
 * A result just settled may not be ranked yet (a busy day is ranked again in the background,
 * its boards served meanwhile from the ranking before): its percentage comes with a later
 * reading. */
async function readChallenge(challenge, boards, variant) {
  let state;
  try {
    state = await request("GET", base(variant));
  } catch (error) {
    fill(challenge, el("p", { class: "error", text: t("err.generic", { message: error.message }) }));
    return null;
  }
  challenge.removeAttribute("aria-busy");
  drawChallenge(challenge, variant, state);
  drawBoards(boards, variant, state, "day");
  if (state.deals.some((deal) => deal.status === "finished" && deal.percentage === null)) {
    setTimeout(() => { if (challenge.isConnected) readChallenge(challenge, boards, variant); }, RANKING_MS);
  }
  return state;
}

/** A signed-in player's challenges of this game, newest first. */
async function drawHistory(box, variant) {
  let answer;
  try {
    answer = await request("GET", `${base(variant)}/history`);
  } catch {
    return; // the page stands without it
  }
  if (!answer.days.length) return;
  box.hidden = false;
  fill(box, el("h2", { text: t("compete.history") }),
    el("table", { class: "records" },
      el("thead", {}, el("tr", {}, [t("compete.col.day"), "%", t("compete.total"), t("leaders.col.rank")]
        .map((text) => el("th", { scope: "col", text })))),
      el("tbody", {}, answer.days.map((day) => el("tr", {},
        el("td", { text: day.day }),
        el("td", { class: "num", text: percent(day.percentage) }),
        el("td", { class: "num", text: signed(day.total) }),
        el("td", { class: "num", text: day.rank === null ? "–" : `${day.rank} / ${day.entrants}` }))))));
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function percent(p) {
  return p === null ? "…" : `${p.toFixed(1)}%`; // null: not ranked yet
}

function drawChallenge(box, variant, state) {
  const next = state.deals.find((deal) => deal.status !== "finished");
  const standing = state.standing;
  const resuming = next?.status === "playing";
  fill(box,
    el("h2", { text: t("compete.daily") }),
    el("p", { class: "form-note", text: t("compete.daily.note", {
      day: state.day, n: state.deals.length, level: t(`level.${state.level}`),
    }) }),
    standing && el("p", { class: "compete-standing", id: "challenge-standing" },
      el("strong", { text: percent(standing.percentage) }),
      ` · ${t("compete.total")} ${signed(standing.total)}`,
      state.rank && ` · ${t("compete.rank", { rank: state.rank, n: state.entrants })}`),
    el("ol", { class: "deals", id: "challenge-deals" }, state.deals.map((deal) => dealEl(variant, state, deal))),
    next
      ? el("button", { type: "button", class: "primary big", id: "challenge-play",
        text: t(resuming ? "compete.resume" : "compete.play", { n: next.number }),
        on: { click: (e) => play(e.currentTarget, variant) } })
      : el("p", { class: "status", id: "challenge-done", text: t("compete.done") }),
    el("p", { class: "form-note", text: t(me() ? "compete.once.account" : "compete.once.guest") }));
}

function dealEl(variant, state, deal) {
  const label = el("span", { class: "deal-n", text: t("compete.deal", { n: deal.number }) });
  if (deal.status !== "finished") {
    const playing = deal.status === "playing";
    return el("li", { class: ["deal", deal.status], dataset: { deal: deal.number } }, label,
      el("span", { class: "deal-status", text: t(playing ? "compete.status.playing" : "compete.status.waiting") }));
  }
  return el("li", { class: "deal finished", dataset: { deal: deal.number } }, label,
    el("span", { class: ["deal-result", deal.result >= 0 ? "plus" : "minus"], text: signed(deal.result) }),
    el("span", { class: "deal-pct", text: percent(deal.percentage) }),
    el("span", { class: "deal-links" },
      el("button", { type: "button", class: "secondary small traveller-open", text: t("compete.traveller"),
        on: { click: () => openTraveller(variant, state.day, deal.number) } }),
      el("button", { type: "button", class: "secondary small", text: t("compete.replay"),
        on: { click: () => openReplay(deal.table_code, (seat) => t(`seat.${seat}`), 1) } })));
}

async function play(button, variant) {
  button.disabled = true;
  try {
    const table = await request("POST", `${base(variant)}/play`, { name: nameOrDefault() });
    if (table.token) setSeatToken(table.code, table.token);
    setChallengeTable(table.code, variant);
    location.href = `/t/${encodeURIComponent(table.code)}`;
  } catch (error) {
    button.disabled = false;
    toast(error.message, "error");
  }
}

/** A deal's traveller: every result on it, best first, with the contracts. */
async function openTraveller(variant, day, number) {
  const body = el("div", { class: "traveller", id: "traveller", "aria-busy": "true" });
  modal(t("compete.traveller.title", { n: number }), body, { className: "wide" });
  let traveller;
  try {
    traveller = await request("GET", `${base(variant)}/deals/${number}?day=${day}`);
  } catch (error) {
    return fill(body, el("p", { class: "error", text: error.message }));
  }
  body.removeAttribute("aria-busy");
  const head = [t("compete.col.player"), t("compete.col.contract"), t("compete.col.result"), "%"];
  // The asker's own row stays in sight when it ranks below the first page.
  const rows = traveller.yours && !traveller.rows.some((row) => row.you)
    ? [...traveller.rows, traveller.yours] : traveller.rows;
  fill(body, el("p", { class: "form-note", text: t("compete.traveller.entrants", { n: traveller.entrants }) }),
    el("table", { class: "records" },
    el("thead", {}, el("tr", {}, head.map((text) => el("th", { scope: "col", text })))),
    el("tbody", {}, rows.map((row) => el("tr", { class: row.you && "me" },
      el("td", {}, row.replay
        ? el("a", { href: "#", text: row.name, on: { click: (e) => {
          e.preventDefault(); openReplay(row.table_code, (seat) => t(`seat.${seat}`), 1);
        } } })
        : row.name),
      el("td", { text: contractText(row.contract) }),
      el("td", { class: "num", text: signed(row.result) }),
      el("td", { class: "num", text: percent(row.percentage) }))))),
  el("p", { class: "form-note", text: t("compete.traveller.note") }));
}

function contractText(contract) {
  if (!contract || contract.declarer === null) return t("compete.nobid");
  const who = [t("compete.who.0"), t("compete.who.1"), t("compete.who.2"), t("compete.who.3")][contract.declarer];
  const target = contract.target === null ? "" : ` ${contract.target}`;
  return `${who}${target} · ${t(contract.made ? "compete.made" : "compete.down")}`;
}

async function drawBoards(box, variant, state, period) {
  const list = el("div", { class: "leaders", id: "challenge-board", "aria-busy": "true" });
  fill(box, el("h2", { text: t("compete.boards") }),
    el("nav", { class: "tabs small" }, periods().map(([p, label]) => el("button", {
      type: "button", class: ["tab", p === period && "on"], dataset: { period: p }, text: label,
      on: { click: () => drawBoards(box, variant, state, p) } }))),
    list);
  let board;
  try {
    board = await request("GET", `${base(variant)}/leaderboard?period=${period}`);
  } catch (error) {
    const text = error.reason === "challenge_not_finished" ? t("compete.board.later") : error.message;
    return fill(list, el("p", { class: "empty", text }));
  }
  list.removeAttribute("aria-busy");
  const daily = period === "day";
  if (!board.rows.length) {
    return fill(list, el("p", { class: "empty", text: t(daily ? "compete.board.none" : "compete.board.none.period", { n: board.min_days }) }));
  }
  fill(list, el("table", { class: "records" },
    el("thead", {}, el("tr", {}, [t("leaders.col.rank"), t("leaders.col.player"), "%",
      t(daily ? "compete.col.deals" : "compete.col.days"), t("compete.total")].map((text) => el("th", { scope: "col", text })))),
    el("tbody", {}, board.rows.map((row) => el("tr", { class: row.you && "me" },
      el("td", { class: "num", text: String(row.rank) }),
      el("td", { text: row.name }),
      el("td", { class: "num", text: percent(row.percentage) }),
      el("td", { class: "num", text: String(row.count) }),
      el("td", { class: "num", text: signed(row.total) }))))),
  period !== "day" && el("p", { class: "form-note", text: t("compete.board.min", { n: board.min_days }) }));
}
