// A refusal in the interface's language: every refusal by the rules carries a reason code
// with parameters (docs/protocol.md), said here with the dictionaries' words.

import { cardText } from "../cards.js";
import { t } from "../i18n.js";

const CARD = /^([SHCD][2-9TJQKA]|BJ|LJ)$/;

/** An answer's refusal (error or checked): translated from its reason code when it has one,
 * else the server's English text (a refusal by the server, not the rules). */
export function reasonText(answer) {
  const text = answer.reason ?? answer.message ?? null;
  const coded = answer.reason_code;
  if (!coded) return text;
  const params = { ...coded.params };
  if ("group" in params) params.group = t(`group.${params.group}`);
  for (const name of ["seat", "to_act"]) if (typeof params[name] === "number") params[name] = t(`seat.${params[name]}`);
  for (const name of ["phase", "expected"]) if (name in params) params[name] = t(`phase.${params[name]}`);
  if (typeof params.card === "string" && CARD.test(params.card)) {
    params.card = params.card === "BJ" || params.card === "LJ" ? t(`card.${params.card}`) : cardText(params.card);
  }
  return t(`reason.${coded.code}`, params);
}
