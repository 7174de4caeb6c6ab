// The signed-in player's own account, on their profile page: whether their finished hands may
// be made into puzzles (off until they turn it on), change the password, sign out, delete the
// account (its hands stay in the other players' records, under no name).

import { api } from "./api.js";
import { el, modal, toast } from "./dom.js";
import { checkNew, formField, problemLine, submitting, PASSWORD } from "./forms.js";
import { t } from "./i18n.js";
import { deleteAccount, me, signOut } from "./session.js";

/** The account section of the player's own profile. */
export function accountSection() {
  return el("section", { class: "panel account-actions", id: "account-actions" },
    el("h2", { text: t("account.manage") }),
    puzzleConsent(),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "secondary", id: "btn-password", text: t("account.change"),
        on: { click: openChangePassword } }),
      el("button", { type: "button", class: "secondary", id: "btn-signout", text: t("account.signout"),
        on: { click: () => signOut().then(() => toast(t("account.signedout")),
          (error) => toast(t("account.err.other", { message: error.message }), "error")) } }),
      el("button", { type: "button", class: "danger", id: "btn-delete", text: t("account.delete"),
        on: { click: openDelete } })));
}

/** 允许用我打过的牌局生成残局练习: saved as soon as it is changed (put back when that fails). */
function puzzleConsent() {
  const box = el("input", { type: "checkbox", id: "puzzle-consent", checked: Boolean(me()?.puzzle_consent),
    on: { change: async () => {
      const allowed = box.checked;
      box.disabled = true;
      try {
        const answer = await api.setPuzzleConsent({ allowed });
        const account = me();
        if (account) account.puzzle_consent = answer.allowed;
        toast(t(answer.allowed ? "account.puzzles.on" : "account.puzzles.off"));
      } catch (error) {
        box.checked = !allowed;
        toast(t("account.err.other", { message: error.message }), "error");
      } finally {
        box.disabled = false;
      }
    } } });
  return el("div", { class: "puzzle-consent" },
    el("label", { class: "check" }, box, t("account.puzzles")),
    el("p", { class: "form-note", text: t("account.puzzles.note") }));
}

function passwordField(id, label, autocomplete, hint = null) {
  return formField(id, label, { type: "password", autocomplete, maxLength: PASSWORD.max }, hint);
}

function openChangePassword() {
  const problem = problemLine();
  const submit = el("button", { type: "submit", class: "primary", id: "password-submit", text: t("account.change") });
  const form = el("form", { class: "account-form", novalidate: true, on: { submit: (event) => {
    event.preventDefault();
    const old = form.elements["password-old"].value;
    const fresh = form.elements["password-new"].value;
    const wrong = checkNew(null, fresh, form.elements["password-again"].value);
    if (wrong) { problem.textContent = wrong; return; }
    submitting(submit, problem, async () => {
      await api.changePassword({ old_password: old, new_password: fresh });
      close();
      toast(t("account.changed"));
    });
  } } },
  passwordField("password-old", t("account.password.old"), "current-password"),
  passwordField("password-new", t("account.password.new"), "new-password", t("account.password.hint", PASSWORD)),
  passwordField("password-again", t("account.again"), "new-password"),
  problem,
  el("p", { class: "form-note", text: t("account.note.change") }),
  el("div", { class: "buttons" }, submit));
  const close = modal(t("account.change"), form);
  form.elements["password-old"].focus();
}

function openDelete() {
  const problem = problemLine();
  const submit = el("button", { type: "submit", class: "danger", id: "delete-submit", text: t("account.delete.confirm") });
  const form = el("form", { class: "account-form", novalidate: true, on: { submit: (event) => {
    event.preventDefault();
    submitting(submit, problem, async () => {
      await deleteAccount(form.elements["delete-password"].value);
      close();
      location.assign("/");
    });
  } } },
  el("p", { class: "warning", text: t("account.delete.warning") }),
  passwordField("delete-password", t("account.password"), "current-password"),
  problem,
  el("div", { class: "buttons" }, submit));
  const close = modal(t("account.delete"), form);
  form.elements["delete-password"].focus();
}
