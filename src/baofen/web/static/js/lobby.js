// The lobby (/): two big choices first — play the computer at once (和电脑玩) or open a table
// for friends (和朋友玩) — then a table with one's own rules (folded), joining by link or code,
// and the open tables.

import { api } from "./api.js";
import { el, fill, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { watchInvites } from "./invites.js";
import { buildSettings, readSettings, refresh } from "./settings.js";
import { nameOrDefault, playerName, setPlayerName, setSeatToken } from "./prefs.js";
import { quickMatch } from "./quickmatch.js";
import { me } from "./session.js";

let cache = null;
let variant = "baofen";
let level = null;
let moreOpen = false;

/** The table code in a pasted link (…/t/CODE) or the code itself. */
export function codeFrom(text) {
  const value = text.trim();
  const match = value.match(/\/t\/([A-Za-z0-9_-]+)/);
  if (match) return match[1];
  return /^[A-Za-z0-9_-]{1,32}$/.test(value) ? value : null;
}

/** Draw the lobby into `root`. */
export async function showLobby(root) {
  document.body.dataset.view = "lobby";
  if (!cache) {
    const [defaults, schema] = await Promise.all([api.defaults(), api.schema()]);
    cache = { defaults, schema };
  }
  const { defaults, schema } = cache;
  level ??= defaults.settings.bot_level;
  const settingsBox = el("div", { class: "settings" });
  const gamePicker = gamePickerEl(root, defaults);
  const account = me();
  const nameInput = el("input", { id: "f-player", name: "player", type: "text", maxLength: 24,
    value: account ? account.username : playerName(), autocomplete: "nickname", readOnly: Boolean(account),
    title: account ? t("lobby.account_name") : null, on: { input: (e) => setPlayerName(e.target.value) } });  // kept as typed: a redraw keeps it
  const levelPicker = el("select", { id: "quick-level", "aria-label": t("quick.level"),
    on: { change: (e) => { level = e.target.value; } } },
  defaults.bot_levels.map((id) => el("option", { value: id, text: t(`level.${id}`), selected: id === level })));
  const quick = el("section", { class: "start" },
    el("div", { class: "field" }, el("label", { for: "f-player", text: t("lobby.yourname") }), nameInput),
    el("div", { class: "field-title", text: t("lobby.game") }),
    gamePicker,
    el("div", { class: "choices" },
      el("div", { class: "choice" },
        el("button", { type: "button", class: "primary big", id: "quickplay", text: t("quick.title"),
          on: { click: (e) => quickplay(e.currentTarget) } }),
        el("small", { text: t("quick.note") }),
        el("label", { class: "inline-field" }, el("span", { text: t("quick.level") }), levelPicker)),
      el("div", { class: "choice" },
        el("button", { type: "button", class: "primary big", id: "quickmatch", text: t("match.button"),
          on: { click: (e) => match(e.currentTarget) } }),
        el("small", { text: t(account ? "match.choice" : "match.choice.guest") })),
      el("div", { class: "choice" },
        el("button", { type: "button", class: "primary big", id: "friends", text: t("friends.title"),
          on: { click: (e) => playFriends(e.currentTarget, defaults) } }),
        el("small", { text: t("friends.note") }))));
  const form = el("form", { class: "create", novalidate: true,
    on: {
      input: () => refresh(settingsBox),
      change: () => refresh(settingsBox),
      submit: (event) => { event.preventDefault(); create(form, settingsBox); },
    } },
    settingsBox,
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "secondary", text: t("lobby.reset"),
        on: { click: () => showLobby(root) } }),
      el("button", { type: "submit", class: "primary", id: "create", text: t("lobby.submit") })));
  buildSettings(settingsBox, variant, defaults, schema);

  const joinInput = el("input", { id: "join-code", type: "text", placeholder: t("lobby.join.placeholder") });
  const join = el("form", { class: "join", on: { submit: (event) => {
    event.preventDefault();
    const code = codeFrom(joinInput.value);
    const typed = joinInput.value.trim();
    if (!code) return toast(typed ? t("lobby.bad_code", { text: typed }) : t("lobby.no_code"), "error");
    location.assign(`/t/${code}`);
  } } },
  el("h2", { text: t("lobby.join") }),
  el("div", { class: "inline" }, joinInput, el("button", { type: "submit", class: "primary", text: t("lobby.join.go") })));

  const list = el("ul", { class: "open-tables" });
  const open = el("section", { class: "open" },
    el("div", { class: "section-head" },
      el("h2", { text: t("lobby.open") }),
      el("button", { type: "button", class: "secondary small", text: t("lobby.open.refresh"),
        on: { click: () => listTables(list) } })),
    list);
  const more = el("details", { class: "more", id: "more", open: moreOpen,
    on: { toggle: (e) => { moreOpen = e.currentTarget.open; } } },
    el("summary", { text: t("lobby.more") }), form);
  // A member invited to a club table (入座邀请) sees it here too, asked for every few seconds.
  const invites = el("section", { class: "invites", id: "table-invites", hidden: true });
  fill(root, el("div", { class: "lobby" }, el("div", { class: "main" }, invites, quick, more),
    el("div", { class: "side" }, join, open)));
  listTables(list);
  watchInvites(invites);
}

/** The two games to choose from, each with a note on its rules; the bids it names are the
 * default rules' (GET /api/defaults), never written here. */
function gamePickerEl(root, defaults) {
  return el("div", { class: "games", role: "radiogroup" },
    Object.entries(defaults.rules).map(([game, rules]) => el("label", { class: ["game", game === variant && "chosen"] },
      el("input", { type: "radio", name: "variant", value: game, checked: game === variant,
        on: { change: () => { variant = game; showLobby(root); } } }),
      el("strong", { text: t(`game.${game}`) }),
      el("small", { text: t(`game.${game}.note`, { bids: rules.bid_values.join("/"), min: rules.bid_min, max: rules.bid_max }) }))));
}

/** The open tables (the server lists tables with a free seat first): those a visitor may join,
 * then those to watch, each with its game, status, host and age. */
async function listTables(list) {
  let tables = [];
  try { tables = await api.tables(); } catch (error) { toast(error.message, "error"); }
  if (!tables.length) return fill(list, el("li", { class: "empty", text: t("lobby.open.none") }));
  const joinable = tables.filter((table) => table.free_seats?.length);
  const watchable = tables.filter((table) => !table.free_seats?.length);
  fill(list,
    joinable.length > 0 && el("li", { class: "open-group", text: t("lobby.open.join") }),
    joinable.map(tableEntry),
    watchable.length > 0 && el("li", { class: "open-group", text: t("lobby.open.watch") }),
    watchable.map(tableEntry));
}

function tableEntry(table) {
  const game = t(`game.${table.rules.variant}`);
  const free = table.free_seats ?? [];
  const details = [
    table.settings.name && game,
    stageText(table),
    table.host_name && t("lobby.host", { name: table.host_name }),
    table.created && ago(table.created),
  ].filter(Boolean);
  return el("li", { class: "open-table", dataset: { code: table.code, stage: table.stage } },
    el("a", { href: `/t/${table.code}` },
      el("span", { class: "open-what" },
        el("strong", { text: table.settings.name || game }),
        el("small", { text: details.join(" · ") })),
      el("span", { class: ["open-do", free.length ? "join" : "watch"],
        text: free.length ? t("lobby.open.sit", { n: free.length }) : t("lobby.open.look") })));
}

/** What the table is doing. */
function stageText(table) {
  const n = table.match?.hand_number ?? 0;
  if (table.stage === "playing") return t("lobby.stage.playing", { n });
  if (table.stage === "between_hands") return t("lobby.stage.between_hands", { n });
  return t("lobby.stage.waiting");
}

/** How long ago a Unix time was, in the page's language ("5 分钟前", "5 minutes ago"). */
function ago(seconds) {
  const minutes = Math.max(0, Math.round((Date.now() / 1000 - seconds) / 60));
  const format = new Intl.RelativeTimeFormat(lang() === "zh" ? "zh-CN" : "en", { numeric: "auto" });
  if (minutes < 60) return t("lobby.opened", { when: format.format(-minutes, "minute") });
  const hours = Math.round(minutes / 60);
  return t("lobby.opened", { when: hours < 48 ? format.format(-hours, "hour") : format.format(-Math.round(hours / 24), "day") });
}

/** The player's name: the account's when signed in, else the one typed, or a readable default
 * remembered for next time. */
function nameNow() {
  const account = me();
  if (account) return account.username;
  return nameOrDefault(document.getElementById("f-player")?.value ?? "");
}

/** 和电脑玩: seated at South, the computer in the other seats, the hand dealt. */
async function quickplay(button) {
  button.disabled = true;
  try {
    const played = await api.quickplay({ variant, level, name: nameNow() });
    setSeatToken(played.code, played.token);
    location.assign(`/t/${played.code}`);
  } catch (error) {
    toast(t("lobby.error", { message: error.message }), "error");
    button.disabled = false;
  }
}

/** 快速匹配: wait for other players of the game; the table opens once seated. */
async function match(button) {
  button.disabled = true;
  try {
    await quickMatch(variant, nameNow());
  } catch (error) {
    toast(t("lobby.error", { message: error.message }), "error");
  }
  button.disabled = false;
}

/** 和朋友玩: a table of the game's default rules, this player seated at South. */
async function playFriends(button, defaults) {
  button.disabled = true;
  try {
    const created = await api.create({ rules: defaults.rules[variant], settings: defaults.settings });
    nameNow();
    location.assign(`/t/${created.code}#sit`);
  } catch (error) {
    toast(t("lobby.error", { message: error.message }), "error");
    button.disabled = false;
  }
}

async function create(form, settingsBox) {
  nameNow();
  const body = readSettings(settingsBox);
  const button = form.querySelector("#create");
  button.disabled = true;
  try {
    const created = await api.create(body);
    location.assign(`/t/${created.code}#sit`);
  } catch (error) {
    toast(t("lobby.error", { message: error.message }), "error");
    button.disabled = false;
  }
}
