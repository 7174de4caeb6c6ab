// The lobby (/): create a table, join one by link or code, or pick an open table.

import { api } from "./api.js";
import { el, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { buildSettings, readSettings, refresh } from "./settings.js";
import { playerName, setPlayerName } from "./prefs.js";

let cache = null;
let variant = "baofen";

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
  const settingsBox = el("div", { class: "settings" });
  const gamePicker = el("div", { class: "games", role: "radiogroup" },
    Object.keys(defaults.rules).map((game) => el("label", { class: ["game", game === variant && "chosen"] },
      el("input", { type: "radio", name: "variant", value: game, checked: game === variant,
        on: { change: () => { variant = game; showLobby(root); } } }),
      el("strong", { text: t(`game.${game}`) }),
      el("small", { text: t(`game.${game}.note`) }))));
  const form = el("form", { class: "create", novalidate: true,
    on: {
      input: () => refresh(settingsBox),
      change: () => refresh(settingsBox),
      submit: (event) => { event.preventDefault(); create(form, settingsBox); },
    } },
    el("h2", { text: t("lobby.create") }),
    el("div", { class: "field" },
      el("label", { for: "f-player", text: t("lobby.yourname") }),
      el("input", { id: "f-player", name: "player", type: "text", maxLength: 24, value: playerName(),
        on: { change: (e) => setPlayerName(e.target.value) } })),
    el("div", { class: "field-title", text: t("lobby.game") }),
    gamePicker,
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
    if (!code) return toast(t("lobby.bad_code"), "error");
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
  fill(root, el("div", { class: "lobby" }, form, el("div", { class: "side" }, join, open)));
  listTables(list);
}

async function listTables(list) {
  let tables = [];
  try { tables = await api.tables(); } catch (error) { toast(error.message, "error"); }
  if (!tables.length) return fill(list, el("li", { class: "empty", text: t("lobby.open.none") }));
  fill(list, tables.map((table) => {
    const seated = table.seats.filter((s) => s.kind).length;
    return el("li", {},
      el("a", { href: `/t/${table.code}` },
        el("strong", { text: table.settings.name || t(`game.${table.rules.variant}`) }),
        el("span", { text: ` · ${t(`game.${table.rules.variant}`)} · ${t("lobby.seats", { n: seated })}` })));
  }));
}

async function create(form, settingsBox) {
  setPlayerName(form.elements.player.value);
  const body = readSettings(settingsBox);
  const button = form.querySelector("#create");
  button.disabled = true;
  try {
    const created = await api.create(body);
    location.assign(`/t/${created.code}`);
  } catch (error) {
    toast(t("lobby.error", { message: error.message }), "error");
    button.disabled = false;
  }
}
