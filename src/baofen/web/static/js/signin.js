// The sign-in dialog, with a switch to make an account (注册) instead. Accounts are optional:
// guests play as before; a signed-in player's seats are bound to the account.

import { el, fill, modal, toast } from "./dom.js";
import { checkNew, formField, problemLine, submitting, PASSWORD, USERNAME } from "./forms.js";
import { t } from "./i18n.js";
import { signIn, signUp } from "./session.js";

/** Open the dialog on signing in ("in") or making an account ("up"). */
export function openSignIn(mode = "in") {
  const body = el("div", { class: "account-dialog" });
  const close = modal(t("account.title"), body);
  draw(mode);

  function draw(which) {
    const up = which === "up";
    const tabs = el("div", { class: "tabs", role: "group", "aria-label": t("account.title") },
      [["in", t("account.signin")], ["up", t("account.signup")]].map(([m, label]) => el("button", {
        type: "button", class: ["tab", m === which && "on"], id: `tab-sign${m}`,
        "aria-pressed": String(m === which), text: label, on: { click: () => draw(m) } })));
    const problem = problemLine();
    const submit = el("button", { type: "submit", class: "primary", id: "account-submit",
      text: t(up ? "account.signup" : "account.signin") });
    const form = el("form", { class: "account-form", novalidate: true, on: { submit: (event) => {
      event.preventDefault();
      const username = form.elements["account-username"].value.trim();
      const password = form.elements["account-password"].value;
      if (up) {
        const wrong = checkNew(username, password, form.elements["account-again"].value);
        if (wrong) { problem.textContent = wrong; return; }
      } else if (!username || !password) {
        problem.textContent = t("account.err.empty");
        return;
      }
      submitting(submit, problem, async () => {
        await (up ? signUp : signIn)(username, password);
        close();
        toast(t(up ? "account.welcome.new" : "account.welcome", { name: username }));
      });
    } } },
    formField("account-username", t("account.username"),
      { type: "text", autocomplete: "username", maxLength: USERNAME.max * 4, autocapitalize: "none", spellcheck: false },
      up ? t("account.username.hint", USERNAME) : null),
    formField("account-password", t("account.password"),
      { type: "password", autocomplete: up ? "new-password" : "current-password", maxLength: PASSWORD.max },
      up ? t("account.password.hint", PASSWORD) : null),
    up && formField("account-again", t("account.again"),
      { type: "password", autocomplete: "new-password", maxLength: PASSWORD.max }),
    problem,
    el("p", { class: "form-note", text: t(up ? "account.note.up" : "account.note.in") }),
    el("div", { class: "buttons" }, submit));
    fill(body, tabs, form);
    form.elements["account-username"].focus();
  }
}
