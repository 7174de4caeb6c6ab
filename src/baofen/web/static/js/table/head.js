// The header: the table's name, the hand number, trump, bid, the declarer's points and the pot;
// and the tools (last trick, scores, replay, 托管).

import { suitEl } from "../cards.js";
import { byId, el, fill, modal, patch } from "../dom.js";
import { legendEl } from "../help.js";
import { t } from "../i18n.js";
import { setSound, soundOn } from "../prefs.js";
import { beep } from "./notice.js";

/** Draw the header from `state`; `act` holds the tools' actions. */
export function renderHead(state, act) {
  const { table: info, observation: obs } = state.message;
  const match = info.match;
  const variant = info.rules.variant;
  const brand = byId("brand");
  if (brand) brand.textContent = t(`game.${variant}`);
  document.title = `${info.settings.name || t(`game.${variant}`)} · ${t("title")}`;
  const items = [el("span", { class: "game-name", text: info.settings.name || t(`game.${variant}`) })];
  if (match) {
    items.push(el("span", { class: "hand-no", text: match.hands
      ? t("head.hand_of", { n: match.hand_number, total: match.hands }) : t("head.hand", { n: match.hand_number }) }));
  }
  if (obs && obs.declarer !== null) {
    items.push(el("span", { class: "trump" }, `${t("head.trump")} `, suitEl(obs.trump)));
    items.push(el("span", { class: "target", text: `${t("head.target")} ${obs.target}` }));
    items.push(el("span", { class: "points", id: "declarer-points",
      text: `${t("head.points")} ${obs.declarer_points}` }));
  }
  if (match && variant === "baofen") items.push(el("span", { class: "pot", text: `${t("head.pot")} ${match.pot}` }));
  fill(byId("head-info"), items);
  renderTools(state, act);
}

function renderTools(state, act) {
  const { table: info, observation: obs, you } = state.message;
  const match = info.match;
  const me = you !== null ? info.seats[you] : null;
  const canLast = Boolean(obs && obs.tricks.length);
  const canReplay = Boolean(match && match.history.length);
  const showAuto = Boolean(me && info.status === "playing");
  // Redrawn only when they change, so that a click is never lost to a redraw.
  patch(byId("head-tools"), [canLast, Boolean(match), canReplay, showAuto, me?.auto, soundOn()], () => [
    el("button", { type: "button", class: ["tool", soundOn() && "on"], id: "btn-sound",
      text: `♪ ${t("btn.sound")}`, "aria-pressed": soundOn() ? "true" : "false",
      on: { click: () => { setSound(!soundOn()); if (soundOn()) beep(); renderTools(state, act); } } }),
    el("button", { type: "button", class: "tool", id: "btn-last", text: t("btn.last"),
      disabled: !canLast, on: { click: act.showLastTrick } }),
    el("button", { type: "button", class: "tool", id: "btn-scores", text: t("btn.scores"),
      disabled: !match, on: { click: act.showScores } }),
    el("button", { type: "button", class: "tool", id: "btn-replay", text: t("btn.replay"),
      disabled: !canReplay, on: { click: () => act.openReplay() } }),
    el("button", { type: "button", class: "tool", id: "btn-legend", text: t("btn.legend"),
      on: { click: showLegend } }),
    showAuto && el("button", {
      type: "button", class: ["tool", me.auto && "on"], id: "btn-auto",
      text: me.auto ? t("btn.auto_off") : t("btn.auto_on"),
      on: { click: act.toggleAuto } }),
  ]);
}

/** The marks on the table explained, with the way to the whole rules (opened beside the game). */
function showLegend() {
  modal(t("legend.title"), el("div", {}, legendEl(),
    el("p", {}, el("a", { class: "link", id: "legend-rules", href: "/rules", target: "_blank", text: t("legend.more") }))));
}
