// A refusal in the interface's language: every refusal by the rules (and a club's seating rule)
// carries a reason code with parameters, and every refused message an error code
// (docs/protocol.md), said here with the dictionaries' words.

import { cardText } from "../cards.js";
import { has, t } from "../i18n.js";

const CARD = /^([SHCD][2-9TJQKA]|BJ|LJ)$/;

/** An answer's refusal (error or checked): translated from its reason code when it has one,
 * else from its error code; the server's English text only for a code newer than this page. */
export function reasonText(answer) {
  const text = answer.reason ?? answer.message ?? null;
  const coded = answer.reason_code;
  if (!coded) return refusalText(answer.code, text);
  const params = { ...coded.params };
  if ("group" in params) params.group = t(`group.${params.group}`);
  for (const name of ["seat", "to_act"]) if (typeof params[name] === "number") params[name] = t(`seat.${params[name]}`);
  for (const name of ["phase", "expected"]) if (name in params) params[name] = t(`phase.${params[name]}`);
  if (typeof params.card === "string" && CARD.test(params.card)) {
    params.card = params.card === "BJ" || params.card === "LJ" ? t(`card.${params.card}`) : cardText(params.card);
  }
  return t(`reason.${coded.code}`, params);
}

/** The words of refusal `code` (an error code of the table's protocol or a club's REST reason),
 * `message` the server's English text (shown only for a code this page does not know). */
export function refusalText(code, message) {
  return code && has(`refusal.${code}`) ? t(`refusal.${code}`, { message }) : message;
}

/** The title of a refusal's banner: an illegal play, or anything else the server refused. */
export function refusalTitle(answer) {
  const illegal = answer.code === "illegal_action";
  return t(illegal ? "refused.title" : "refused.server");
}
