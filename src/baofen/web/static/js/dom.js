// Small DOM helpers: build elements without innerHTML, so that names typed by players are
// always text, never markup.

import { t } from "./i18n.js";

/**
 * Create an element. `attrs` may hold `class`, `text`, `dataset`, `on` (event handlers),
 * boolean properties (disabled, checked, hidden) and any attribute; `children` are nodes,
 * strings or falsy (skipped), possibly nested in arrays.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = Array.isArray(value) ? value.flat(Infinity).filter(Boolean).join(" ") : value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (value === true) node.setAttribute(key, "");
    else if (key in node && typeof node[key] !== "function" && !key.includes("-")) node[key] = value;
    else node.setAttribute(key, value);
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** Replace every child of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** Fill `node` with `build()` unless `key` (any JSON value) is what it was last time: a part
 * redrawn only when it changes never loses a click or the focus of a field being typed in. */
export function patch(node, key, build) {
  const text = JSON.stringify(key);
  if (node.dataset.key === text) return;
  node.dataset.key = text;
  fill(node, build());
}

/** The element with this id. */
export const byId = (id) => document.getElementById(id);

/** Show a short message at the bottom of the screen. */
export function toast(message, kind = "info") {
  const box = byId("toasts");
  if (!box) return;
  const item = el("div", { class: ["toast", kind], role: "status", text: message });
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

/** Show a refusal as a banner at the top of the screen, in the page's language, until the
 * player closes it or a few seconds pass. */
export function banner(title, message) {
  const old = byId("refusal");
  if (old) old.remove();
  const node = el("div", { class: "refusal", id: "refusal", role: "alert" },
    el("strong", { text: title }), el("span", { text: message }),
    el("button", { type: "button", class: "icon close", "aria-label": t("btn.close"), text: "✕",
      on: { click: () => node.remove() } }));
  document.body.append(node);
  setTimeout(() => node.remove(), 6000);
}

let dialogs = 0;

/** Show a modal dialog over the page, named by its title; returns a function that closes it.
 * Escape closes the topmost dialog, and the focus goes back to where it was before it opened. */
export function modal(title, body, { onClose, className } = {}) {
  const titleId = `dialog-title-${++dialogs}`;
  const layer = byId("overlay");
  const before = document.activeElement;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    box.remove();
    if (!layer.children.length) layer.hidden = true;
    if (before && before.isConnected && typeof before.focus === "function") before.focus();
    if (onClose) onClose();
  };
  const box = el("div", { class: ["modal", className], role: "dialog", "aria-modal": "true",
    "aria-labelledby": titleId },
    el("div", { class: "modal-head" },
      el("h2", { id: titleId, text: title }),
      el("button", { class: "icon close", "aria-label": t("btn.close"), text: "✕", on: { click: close } })),
    el("div", { class: "modal-body" }, body));
  box.close = close;
  layer.append(box);
  layer.hidden = false;
  box.querySelector(".modal-head .close").focus();
  return close;
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const layer = byId("overlay");
  const top = layer && !layer.hidden ? layer.lastElementChild : null;
  if (!top || !top.close) return;
  event.preventDefault();
  top.close();
});

/** Close every modal dialog. */
export function closeModals() {
  const layer = byId("overlay");
  for (const button of [...layer.querySelectorAll(".modal > .modal-head .close")]) button.click();
}
