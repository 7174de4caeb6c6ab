// Entry point: the lobby at /, a table at /t/{code}; the language switch redraws the page.

import { byId, el, fill } from "./dom.js";
import { lang, setLang, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const root = byId("app");
const match = location.pathname.match(/^\/t\/([^/]+)\/?$/);
const code = match ? decodeURIComponent(match[1]) : null;
let table = null;

function drawTopbar() {
  fill(byId("topbar"),
    el("a", { class: "brand", id: "brand", href: "/", text: t("title") }),
    el("span", { class: "spacer" }),
    code && el("span", { class: "conn", id: "conn" }),
    el("button", { type: "button", class: "lang", id: "lang", text: t("lang.switch"),
      on: { click: () => setLang(lang() === "zh" ? "en" : "zh") } }));
}

function draw() {
  drawTopbar();
  if (!code) {
    showLobby(root).catch((error) => fill(root, el("p", { class: "error", text: t("err.generic", { message: error.message }) })));
  } else if (table) {
    table.renderShell();
    table.render();
  } else {
    table = showTable(root, code);
  }
}

window.addEventListener("langchange", draw);
setLang(lang());
