// The lobby (/): two big choices first — play the computer at once (和电脑玩) or open a table
// for friends (和朋友玩) — then a table with one's own rules (folded), joining by link or code,
// and the open tables.

import { api } from "./api.js";
import { el, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { buildSettings, readSettings, refresh } from "./settings.js";
import { playerName, setPlayerName, setSeatToken } from "./prefs.js";
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
  const gamePicker = el("div", { class: "games", role: "radiogroup" },
    Object.keys(defaults.rules).map((game) => el("label", { class: ["game", game === variant && "chosen"] },
      el("input", { type: "radio", name: "variant", value: game, checked: game === variant,
        on: { change: () => { variant = game; showLobby(root); } } }),
      el("strong", { text: t(`game.${game}`) }),
      el("small", { text: t(`game.${game}.note`) }))));
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
  fill(root, el("div", { class: "lobby" }, el("div", { class: "main" }, quick, more),
    el("div", { class: "side" }, join, open)));
  listTables(list);
}

async function listTables(list) {
  let tables = [];
  try { tables = await api.tables(); } catch (error) { toast(error.message, "error"); }
  if (!tables.length) return fill(list, el("li", { class: "empty", text: t("lobby.open.none") }));
  fill(list, tables.map((table) => {
    const seated = table.seats.filter((s) => s.kind).length;
    const game = t(`game.${table.rules.variant}`);
    return el("li", {},
      el("a", { href: `/t/${table.code}` },
        el("strong", { text: table.settings.name || game }),
        el("span", { text: ` · ${table.settings.name ? `${game} · ` : ""}${t("lobby.seats", { n: seated })}` })));
  }));
}

/** The player's name: the account's when signed in, else the one typed, or a readable default
 * remembered for next time. */
function nameNow() {
  const account = me();
  if (account) return account.username;
  const typed = document.getElementById("f-player")?.value.trim();
  if (typed) setPlayerName(typed);
  else if (!playerName()) setPlayerName(t("name.default", { n: 1000 + Math.floor(Math.random() * 9000) }));
  return playerName();
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
