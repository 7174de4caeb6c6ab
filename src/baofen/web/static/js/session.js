// Who is signed in. The session itself is an HttpOnly cookie the page never sees; this keeps
// the account the server last named (GET /api/me) and tells the page when it changes
// ("sessionchange" on window).

import { api } from "./api.js";

let account = null;
let loading = null;

/** The signed-in account ({username, created, ratings}), or null for a guest. */
export const me = () => account;

/** The account `GET /api/me` names: null when it answers that nobody is signed in
 * (`{"signed_in": false}`, a 200 so that a guest's page logs no failed request). */
const accountOf = (answer) => (answer && answer.signed_in !== false ? answer : null);

/** Ask the server who is signed in (once; later calls wait for the same answer). A server that
 * does not answer leaves the page a guest's. */
export function loadSession() {
  loading ??= api.me().then((found) => { account = accountOf(found); }, () => { account = null; });
  return loading;
}

function changed(next) {
  account = next;
  window.dispatchEvent(new Event("sessionchange"));
}

/** Sign in; throws the server's refusal (401 wrong, 429 with `retryAfter`). */
export async function signIn(username, password) {
  await api.signIn({ username, password });
  changed(accountOf(await api.me()));
}

/** Make an account and sign in; throws the server's refusal (409 taken, 422 not allowed). */
export async function signUp(username, password) {
  await api.signUp({ username, password });
  changed(accountOf(await api.me()));
}

/** Sign out (this browser only). */
export async function signOut() {
  await api.signOut();
  changed(null);
}

/** Delete the account (its history stays, anonymised); the session ends with it. */
export async function deleteAccount(password) {
  await api.deleteAccount({ password });
  changed(null);
}
