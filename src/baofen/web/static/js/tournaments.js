// Tournaments (锦标赛): the list at /tournaments (upcoming, running, finished; a signed-in player
// organises one there) and an event's page at /tournaments/{code}: register or withdraw, the
// countdown, my table, live standings, and the travellers of the deals the whole field has
// played. The page reads the event again every few seconds until it is over. At
// /tournaments?club={id} the form organises the club's event (its members only).

import { request } from "./api.js";
import { el, fill, toast } from "./dom.js";
import { has, t } from "./i18n.js";
import { setSeatToken } from "./prefs.js";
import { dateText, signed } from "./ratings.js";
import { me } from "./session.js";

const REFRESH_MS = 3000;
const GAMES = ["baofen", "hongwu"];
const LEVELS = ["easy", "normal", "hard", "master"];
const path = (code, rest = "") => `/api/tournaments/${encodeURIComponent(code)}${rest}`;
const tokenKey = (code) => `baofen.entrant.${code}`;
const entrantToken = (code) => localStorage.getItem(tokenKey(code));
const headers = (code) => (entrantToken(code) ? { "X-Entrant-Token": entrantToken(code) } : {});
let timer = null;

/** A refusal of the tournament routes in the page's language (its reason code), else the
 * server's words. */
function refusedText(error) {
  const code = error.reason ?? error.detail?.code;
  return code && has(`tour.refusal.${code}`) ? t(`tour.refusal.${code}`) : error.message;
}

/** Draw the list of tournaments into `root`. */
export async function showTournaments(root) {
  document.body.dataset.view = "tournaments";
  document.title = t("tour.title");
  const events = await request("GET", "/api/tournaments");
  const groups = [
    ["upcoming", t("tour.group.upcoming"), events.filter((e) => e.status === "registering")],
    ["running", t("tour.group.running"), events.filter((e) => e.status === "playing" || e.status === "break")],
    ["finished", t("tour.group.finished"), events.filter((e) => e.status === "finished" || e.status === "cancelled")],
  ];
  fill(root, el("div", { class: "page tournaments", id: "tournaments" },
    el("section", { class: "panel" }, el("h1", { text: t("tour.title") }),
      el("p", { class: "form-note", text: t("tour.intro") })),
    groups.map(([key, title, list]) => el("section", { class: "panel", dataset: { group: key } },
      el("h2", { text: title }),
      list.length ? el("ul", { class: "tour-list" }, list.map(eventItem))
        : el("p", { class: "empty", text: t("tour.none") }))),
    organiseEl()));
}

function summary(event) {
  const s = event.settings;
  return t("tour.summary", { game: t(`game.${event.rules.variant}`), format: t(`tour.format.${s.format}`),
    rounds: s.rounds, hands: s.hands });
}

function eventItem(event) {
  const s = event.settings;
  const when = event.next_start ? dateText(event.next_start, true) : "";
  return el("li", { class: "tour-item", dataset: { code: event.code } },
    el("a", { href: `/tournaments/${encodeURIComponent(event.code)}` },
      el("strong", { text: s.name || t("tour.unnamed") }),
      el("span", { class: "muted", text: summary(event) }),
      el("span", { class: "tour-meta" },
        el("span", { class: ["badge", event.status], text: t(`tour.status.${event.status}`) }),
        when && el("span", { text: when }),
        el("span", { text: t("tour.entrants", { n: event.registered, limit: s.seat_limit }) }))));
}

function field(label, input) {
  return el("div", { class: "form-field" }, el("label", { text: label, htmlFor: input.id }), input);
}

function select(id, values, label) {
  return el("select", { id }, values.map((v) => el("option", { value: v, text: label(v) })));
}

function organiseEl() {
  if (!me()) return el("section", { class: "panel" }, el("p", { class: "form-note", text: t("tour.organise.signin") }));
  const club = new URLSearchParams(location.search).get("club");
  const problem = el("p", { class: "form-problem", role: "alert" });
  const number = (id, value, min, max) => el("input", { id, type: "number", value, min, max, inputMode: "numeric" });
  const form = el("form", { id: "tour-form", class: "tour-form" },
    field(t("tour.f.name"), el("input", { id: "tf-name", type: "text", maxLength: 40 })),
    el("div", { class: "tour-grid" },
      field(t("lobby.game"), select("tf-game", GAMES, (g) => t(`game.${g}`))),
      field(t("tour.f.format"), select("tf-format", ["duplicate", "swiss"], (f) => t(`tour.format.${f}`))),
      field(t("tour.f.rounds"), number("tf-rounds", 2, 1, 20)),
      field(t("tour.f.hands"), number("tf-hands", 4, 1, 32)),
      field(t("tour.f.start"), number("tf-start", 10, 1, 10080)),
      field(t("tour.f.limit"), number("tf-limit", 16, 4, 1024)),
      field(t("tour.f.level"), select("tf-level", LEVELS, (l) => t(`level.${l}`)))),
    club ? el("p", { class: "form-note", id: "tf-club", text: t("tour.f.club") })
      : el("label", { class: "check" }, el("input", { id: "tf-guests", type: "checkbox", checked: true }), t("tour.f.guests")),
    el("label", { class: "check" }, el("input", { id: "tf-rated", type: "checkbox" }), t("tour.f.rated")),
    problem,
    el("button", { type: "submit", class: "primary", id: "tf-create", text: t("tour.organise.create") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = (id) => form.querySelector(`#${id}`).value;
    const checked = (id) => Boolean(form.querySelector(`#${id}`)?.checked);
    const start = new Date(Date.now() + Number(value("tf-start")) * 60000).toISOString();
    try {
      const made = await request("POST", "/api/tournaments", {
        rules: { variant: value("tf-game") }, club,
        settings: { name: value("tf-name"), format: value("tf-format"), rounds: Number(value("tf-rounds")),
          hands: Number(value("tf-hands")), start, seat_limit: Number(value("tf-limit")),
          bot_level: value("tf-level"), guests: checked("tf-guests"), rated: checked("tf-rated") },
      });
      location.assign(`/tournaments/${encodeURIComponent(made.code)}`);
    } catch (error) {
      problem.textContent = refusedText(error);
    }
  });
  return el("section", { class: "panel" }, el("details", { id: "tour-organise", open: Boolean(club) },
    el("summary", { text: t("tour.organise") }), form));
}

/** Draw the page of the event `code` into `root`, and keep it current. */
export async function showTournament(root, code) {
  document.body.dataset.view = "tournament";
  clearTimeout(timer);
  let event;
  try {
    event = await request("GET", path(code));
  } catch (error) {
    return fill(root, el("div", { class: "page" }, el("section", { class: "panel" },
      el("h1", { text: t("tour.title") }), el("p", { class: "empty", id: "tour-missing", text: refusedText(error) }))));
  }
  document.title = `${event.settings.name || t("tour.unnamed")} · ${t("tour.title")}`;
  const names = Object.fromEntries(event.entrants.map((e) => [e.number, e]));
  const mine = myEntry(event);
  fill(root, el("div", { class: "page tournament", id: "tournament", dataset: { status: event.status } },
    el("section", { class: "panel tour-head" },
      el("p", {}, el("a", { href: "/tournaments", text: `← ${t("tour.title")}` })),
      el("h1", { id: "tour-name", text: event.settings.name || t("tour.unnamed") }),
      el("p", { class: "muted", text: `${summary(event)} · ${t("tour.organiser", { name: event.organiser })}` }),
      statusEl(event, mine, root)),
    event.standings.length ? standingsEl(event, mine) : entrantsEl(event, mine, root),
    roundsEl(event, names)));
  if (event.status !== "finished" && event.status !== "cancelled") {
    timer = setTimeout(() => {
      if (document.body.dataset.view === "tournament") showTournament(root, code).catch(() => {});
    }, REFRESH_MS);
  }
}

/** An entrant's name as shown: a computer filler as 电脑 N / Computer N. */
function entrantName(entrant) {
  return entrant.filler ? t("tour.filler", { n: entrant.name.replace(/\D/g, "") }) : entrant.name;
}

function myEntry(event) {
  const account = me();
  if (account) return event.entrants.find((e) => !e.guest && !e.filler && e.name === account.username) || null;
  const saved = localStorage.getItem(`${tokenKey(event.code)}.number`);
  return entrantToken(event.code) ? event.entrants.find((e) => String(e.number) === saved) || null : null;
}

// The countdown ticks every second between the page's readings of the event.
setInterval(() => {
  const clock = document.getElementById("tour-countdown");
  if (clock) clock.textContent = countdown(clock.dataset.at);
}, 1000);

function countdown(iso) {
  const left = Math.max(0, Math.round((new Date(iso) - Date.now()) / 1000));
  const minutes = Math.floor(left / 60);
  return minutes >= 60 ? dateText(iso, true) : `${minutes}:${String(left % 60).padStart(2, "0")}`;
}

function statusEl(event, mine, root) {
  const box = el("div", { class: "tour-status", id: "tour-status" });
  const redraw = () => showTournament(root, event.code);
  const act = (fn) => async () => {
    try { await fn(); await redraw(); } catch (error) { toast(refusedText(error), "error"); }
  };
  if (event.status === "registering") {
    box.append(el("p", { class: "tour-clock" }, t("tour.starts_in"), " ", el("strong", { id: "tour-countdown", dataset: { at: event.next_start }, text: countdown(event.next_start) })));
    if (mine) {
      box.append(el("p", { text: t("tour.registered", { n: mine.number }) }),
        el("button", { type: "button", class: "secondary", id: "tour-withdraw", text: t("tour.withdraw"),
          on: { click: act(async () => {
            await request("DELETE", path(event.code, `/entrants/${mine.number}`), undefined, headers(event.code));
            localStorage.removeItem(tokenKey(event.code));
          }) } }));
    } else {
      const name = el("input", { id: "tour-guest-name", type: "text", maxLength: 20, placeholder: t("tour.guest_name") });
      const guest = !me();
      if (guest && !event.settings.guests) box.append(el("p", { class: "form-note", text: t("tour.accounts_only") }));
      else box.append(el("div", { class: "tour-register" }, guest && name,
        el("button", { type: "button", class: "primary", id: "tour-register", text: t("tour.register"),
          on: { click: act(async () => {
            const made = await request("POST", path(event.code, "/entrants"), guest ? { name: name.value.trim() } : {});
            if (made.token) {
              localStorage.setItem(tokenKey(event.code), made.token);
              localStorage.setItem(`${tokenKey(event.code)}.number`, String(made.number));
            }
          }) } })));
    }
  } else if (event.status === "break") {
    box.append(el("p", { class: "tour-clock" }, t("tour.next_in", { n: event.round + 1 }), " ",
      el("strong", { id: "tour-countdown", dataset: { at: event.next_start }, text: countdown(event.next_start) })));
  } else if (event.status === "playing" && !event.tables.some((table) => table.round === event.round)) {
    // Registration has closed and the round's tables are being made: nobody has a table yet.
    box.append(el("p", { class: "tour-clock", text: t("tour.seating", { n: Math.max(1, event.round) }) }));
  } else if (event.status === "playing") {
    box.append(el("p", { class: "tour-clock", text: t("tour.round_playing", { n: event.round, of: event.settings.rounds }) }));
    if (mine && event.tables.some((table) => table.round === event.round && table.entrants.includes(mine.number))) {
      box.append(el("button", { type: "button", class: "primary big", id: "tour-my-table", text: t("tour.my_table"),
        on: { click: act(async () => {
          const table = await request("GET", path(event.code, "/mine"), undefined, headers(event.code));
          if (entrantToken(event.code)) setSeatToken(table.code, entrantToken(event.code));
          location.assign(`/t/${encodeURIComponent(table.code)}`);
        }) } }));
    }
  } else {
    box.append(el("p", { class: "tour-clock", text: t(`tour.status.${event.status}`) }));
  }
  return box;
}

function entrantsEl(event, mine, root) {
  const organiser = me() && me().username === event.organiser && event.status === "registering";
  return el("section", { class: "panel" }, el("h2", { text: t("tour.entrants_title", { n: event.registered, limit: event.settings.seat_limit }) }),
    event.entrants.length ? el("ul", { class: "tour-entrants", id: "tour-entrants" }, event.entrants.map((e) =>
      el("li", { class: mine && mine.number === e.number && "me" }, `${e.number}. ${entrantName(e)}`,
        e.guest && el("span", { class: "muted", text: ` · ${t("tour.guest")}` }),
        organiser && e.name !== event.organiser && el("button", { type: "button", class: "small secondary",
          text: t("tour.remove"), on: { click: async () => {
            try { await request("DELETE", path(event.code, `/entrants/${e.number}`)); await showTournament(root, event.code); }
            catch (error) { toast(refusedText(error), "error"); }
          } } }))))
      : el("p", { class: "empty", text: t("tour.no_entrants") }));
}

function standingsEl(event, mine) {
  const duplicate = event.settings.format === "duplicate";
  const note = event.status === "playing" ? t("tour.counted", { n: event.counted, of: event.settings.hands }) : null;
  return el("section", { class: "panel" }, el("h2", { text: event.status === "finished" ? t("tour.final") : t("tour.standings") }),
    el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("tour.standings") },
      el("table", { class: "records", id: "tour-standings" },
      el("thead", {}, el("tr", {}, [t("tour.col.rank"), t("tour.col.player"),
        duplicate ? t("tour.col.percent") : t("tour.col.points"), t("tour.col.score"), t("tour.col.hands")]
        .map((text) => el("th", { scope: "col", text })))),
      el("tbody", {}, event.standings.map((line) => el("tr", { class: [mine && mine.number === line.number && "me", line.filler && "filler"] },
        el("td", { class: "num", text: line.rank === null ? "—" : String(line.rank) }),
        el("td", { text: entrantName(line) }),
        el("td", { class: "num", text: duplicate ? `${line.points.toFixed(2)}%` : String(line.points) }),
        el("td", { class: ["num", line.score > 0 ? "up" : line.score < 0 && "down"], text: signed(line.score) }),
        el("td", { class: "num", text: String(line.hands) })))))),
    note && el("p", { class: "form-note", text: note }));
}

function roundsEl(event, names) {
  const rounds = [...new Set(event.tables.map((table) => table.round))];
  if (!rounds.length) return null;
  const who = (numbers) => numbers.map((n) => (names[n] ? entrantName(names[n]) : "?")).join(" · ");
  return el("section", { class: "panel" }, el("h2", { text: t("tour.rounds") }),
    rounds.map((round) => {
      const done = round < event.round || event.status !== "playing";
      const deals = done ? event.settings.hands : event.counted;
      return el("details", { class: "tour-round", dataset: { round }, open: round === event.round },
        el("summary", { text: t("tour.round", { n: round }) }),
        el("ul", { class: "tour-tables" }, event.tables.filter((table) => table.round === round).map((table) =>
          el("li", {}, `${t("tour.table", { n: table.table + 1 })}: ${who(table.entrants)}`,
            table.code && " ", table.code && el("a", { href: `/t/${encodeURIComponent(table.code)}`, text: t("tour.watch") })))),
        deals > 0 && el("div", { class: "tour-deals" }, Array.from({ length: deals }, (_, i) =>
          el("button", { type: "button", class: "small secondary", text: t("tour.traveller", { n: i + 1 }),
            on: { click: (e) => openTraveller(e.currentTarget, event, round, i + 1, who) } }))));
    }));
}

async function openTraveller(button, event, round, deal, who) {
  const holder = button.closest("details");
  holder.querySelector(".traveller")?.remove();
  try {
    const traveller = await request("GET", path(event.code, `/travellers/${round}/${deal}`));
    holder.append(el("div", { class: "traveller table-scroll", tabindex: "0", role: "region",
      "aria-label": t("tour.traveller", { n: deal }) }, el("table", { class: "records" },
      el("caption", { text: t("tour.traveller", { n: deal }) }),
      el("thead", {}, el("tr", {}, [t("tour.col.table"), t("tour.col.seats"), t("tour.col.contract"), t("tour.col.result")]
        .map((text) => el("th", { scope: "col", text })))),
      el("tbody", {}, traveller.lines.map((line) => el("tr", {},
        el("td", { class: "num", text: String(line.table + 1) }),
        el("td", { text: who(line.entrants) }),
        el("td", { text: line.result.declarer === null ? t("tour.no_bid")
          : `${names(line, who)} ${line.result.target ?? ""} ${line.result.made ? "✓" : "✗"}` }),
        el("td", { class: "num", text: line.result.deltas.map((d) => signed(d)).join(" / ") })))))));
  } catch (error) {
    toast(refusedText(error), "error");
  }
}

function names(line, who) {
  return who([line.entrants[line.result.declarer]]);
}
