// The pieces of the account forms: a labelled field with its hint, the line that says what
// went wrong, and the words for the server's refusals.

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const USERNAME = { min: 3, max: 20 };
export const PASSWORD = { min: 8, max: 128 };

/** A labelled input (`attrs` go to the input) with an optional hint under it. */
export function formField(id, label, attrs, hint = null) {
  const hintId = hint ? `${id}-hint` : null;
  return el("div", { class: "form-field" },
    el("label", { for: id, text: label }),
    el("input", { id, name: id, required: true, "aria-describedby": hintId, ...attrs }),
    hint && el("small", { id: hintId, text: hint }));
}

/** The line of a form that says what went wrong (read out when it changes). */
export const problemLine = () => el("p", { class: "form-problem", role: "alert" });

/** What the player reads for a refused account request. */
export function refusal(error) {
  if (error.status === 401) return t("account.err.wrong");
  if (error.status === 403) return t("account.err.password");
  if (error.status === 409) return t("account.err.taken");
  if (error.status === 422) return t("account.err.invalid", USERNAME);
  if (error.status === 429) return t("account.err.limited", { n: error.retryAfter ?? 60 });
  return t("account.err.other", { message: error.message });
}

/** The first problem of a new username and password typed twice, or null. */
export function checkNew(username, password, again) {
  if (username !== null) {
    const length = [...username.normalize("NFKC")].length;
    if (length < USERNAME.min || length > USERNAME.max) return t("account.err.username", USERNAME);
  }
  if (password.length < PASSWORD.min || password.length > PASSWORD.max) return t("account.err.short", PASSWORD);
  if (password !== again) return t("account.err.mismatch");
  return null;
}

/** Run `action` for a form's submit button: the button waits, the problem line tells. */
export async function submitting(button, problem, action) {
  button.disabled = true;
  problem.textContent = "";
  try {
    await action();
  } catch (error) {
    problem.textContent = refusal(error);
  } finally {
    button.disabled = false;
  }
}
