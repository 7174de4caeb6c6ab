// How ratings, counts and dates read on the profile and leaderboard pages.

import { el } from "./dom.js";
import { lang, t } from "./i18n.js";

/** Rated hands before a rating stops being provisional (docs/ratings.md): by then a player's
 * uncertainty has shrunk enough for the shown figure to say something. */
export const PROVISIONAL_HANDS = 20;

/** A rating as shown: the rating (mu − 3 sigma), and the estimate with its uncertainty;
 * `labelled` puts the word 等级分 before it. With `hands` (rated hands), a rating of fewer than
 * PROVISIONAL_HANDS says it is provisional and how many hands are left. The figure is explained
 * on hover (its title) and, on a phone, by a tap on ?. */
export function ratingEl(rating, labelled = false, hands = null) {
  const provisional = hands !== null && hands < PROVISIONAL_HANDS;
  const explain = t("rating.explain", { n: PROVISIONAL_HANDS });
  const help = el("span", { class: "rating-help", hidden: true, text: explain });
  return el("span", { class: "rating", title: explain },
    labelled && el("span", { class: "rating-label", text: t("leaders.col.rating") }),
    // A new account's rating starts below zero (mu − 3 sigma): said with its sign, not in green.
    el("strong", { class: ["rating-value", rating.display < 0 && "below"], text: rating.display < 0 ? signed(rating.display, 1) : rating.display.toFixed(1) }),
    el("small", { class: "rating-spread", text: t("rating.spread", { mu: rating.mu.toFixed(1), sigma: rating.sigma.toFixed(1) }) }),
    provisional && el("small", { class: "rating-provisional", text: t("rating.provisional", { n: PROVISIONAL_HANDS - hands }) }),
    el("button", { type: "button", class: "rating-what", "aria-label": t("rating.what"), "aria-expanded": "false", text: "?",
      on: { click: (event) => {
        help.hidden = !help.hidden;
        event.currentTarget.setAttribute("aria-expanded", help.hidden ? "false" : "true");
      } } }),
    help);
}

/** A number with its sign (+3, −1.5; 0 without). */
export function signed(value, digits = 0) {
  const text = Math.abs(value).toFixed(digits);
  if (value > 0) return `+${text}`;
  return value < 0 ? `−${text}` : text;
}

/** A share as a percentage, or a dash for none. */
export const percent = (share) => (share === null ? "—" : `${Math.round(share * 100)}%`);

/** A date in the page's language; `withTime`: the short day and the time (a recent hand). */
export function dateText(iso, withTime = false) {
  const options = withTime
    ? { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }
    : { year: "numeric", month: "long", day: "numeric" };
  return new Date(iso).toLocaleString(lang() === "zh" ? "zh-CN" : "en-GB", options);
}
