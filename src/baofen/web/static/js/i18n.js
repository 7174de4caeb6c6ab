// Every string of the interface, one dictionary per language (./i18n/zh.js, ./i18n/en.js).
// Chinese is the default; the choice is kept in localStorage. `t(key, params)` fills `{name}`
// placeholders. Both dictionaries hold every key the client uses (tests/web/test_i18n.py checks
// it).

import en from "./i18n/en.js";
import zh from "./i18n/zh.js";

const DICTIONARIES = { zh, en };
const KEY = "baofen.lang";

let current = DICTIONARIES[localStorage.getItem(KEY)] ? localStorage.getItem(KEY) : "zh";

/** The interface language: "zh" or "en". */
export const lang = () => current;

/** Switch the language (kept for the next visit) and tell the page to redraw. */
export function setLang(code) {
  current = DICTIONARIES[code] ? code : "zh";
  localStorage.setItem(KEY, current);
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

/** Every key of every dictionary (for the tests: both languages have the same keys). */
export const keys = () => ({ zh: Object.keys(zh), en: Object.keys(en) });
