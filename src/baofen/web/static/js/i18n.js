// Every string of the interface, one dictionary per language (./i18n/zh.js, ./i18n/en.js).
// The player's choice is kept in localStorage; before any choice, the browser's languages
// (navigator.languages, what it sends as Accept-Language) decide, and Chinese when neither
// Chinese nor English is among them. `t(key, params)` fills `{name}`
// placeholders. Both dictionaries hold every key the client uses (tests/web/test_i18n.py checks
// it).

import en from "./i18n/en.js";
import zh from "./i18n/zh.js";

const DICTIONARIES = { zh, en };
const KEY = "baofen.lang";

/** The first of the browser's languages this page speaks, else Chinese. */
function browserLang() {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || ""];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (DICTIONARIES[base]) return base;
  }
  return "zh";
}

let current = DICTIONARIES[localStorage.getItem(KEY)] ? localStorage.getItem(KEY) : browserLang();

/** The interface language: "zh" or "en". */
export const lang = () => current;

/** Switch the language (kept for the next visit unless `keep` is false: the browser's own
 * language is followed, not remembered) and tell the page to redraw. */
export function setLang(code, keep = true) {
  current = DICTIONARIES[code] ? code : "zh";
  if (keep) localStorage.setItem(KEY, current);
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  document.title = t("title");
  window.dispatchEvent(new Event("langchange"));
}

const reported = new Set();

/**
 * The string `key` in the current language, with `{name}` filled from `params`. A key the
 * dictionary lacks is a bug, never hidden: it is reported once (console.error, which fails the
 * browser tests) and shown as ⟦key⟧.
 */
export function t(key, params = {}) {
  const text = DICTIONARIES[current][key];
  if (text === undefined) {
    if (!reported.has(`${current} ${key}`)) {
      reported.add(`${current} ${key}`);
      console.error(`i18n: no string "${key}" in the "${current}" dictionary`);
    }
    return `⟦${key}⟧`;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Whether the current language's dictionary has string `key` (for strings chosen by a code
 * the server sends, which may be newer than this page). */
export const has = (key) => DICTIONARIES[current][key] !== undefined;

/** Every key of every dictionary (for the tests: both languages have the same keys). */
export const keys = () => ({ zh: Object.keys(zh), en: Object.keys(en) });
