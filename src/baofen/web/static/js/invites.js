// Invitations to a club table (入座邀请): choosing members of the club to invite to one of its
// tables, and the invitations this account has received, each with a button to its seat. The
// club page draws its club's invitations as it asks the server every few seconds; the lobby
// asks for all of them as often (watchInvites).

import { request } from "./api.js";
import { el, fill, modal, toast } from "./dom.js";
import { t } from "./i18n.js";
import { me } from "./session.js";
import { refusalText } from "./table/reasons.js";

const POLL_MS = 4000;
let watcher = null;

/** The signed-in account's invitations to club tables (newest first). */
export const myInvites = () => request("GET", "/api/table-invitations");

/** Invite `names` to table `code` of club `clubId`; a toast says who was invited and why
 * anybody was not. Whether at least one was invited. */
export async function sendInvites(clubId, code, names) {
  const path = `/api/clubs/${encodeURIComponent(clubId)}/tables/${encodeURIComponent(code)}/invitations`;
  const results = await Promise.all(names.map((username) => request("POST", path, { username })
    .then(() => null, (error) => ({ username, error }))));
  const refused = results.filter(Boolean);
  const invited = names.filter((name) => !refused.some((r) => r.username === name));
  if (invited.length) toast(t("clubs.invite_pick.sent", { names: invited.join(t("clubs.invite_pick.and")) }));
  for (const { username, error } of refused) {
    toast(t("clubs.invite_pick.refused", { name: username, reason: refusalText(error.reason, error.message) }), "error");
  }
  return invited.length > 0;
}

/** A dialog to choose members (not `excluded`, nor oneself) to invite; `onSend(names)` is
 * called with those chosen (at least one), and the dialog closes once it resolves true. */
export function pickMembers(members, excluded, onSend) {
  const mine = me()?.username;
  const choosable = members.filter((m) => m.username !== mine && !excluded.includes(m.username));
  const boxes = choosable.map((member) => el("input", { type: "checkbox", value: member.username, name: "invitee" }));
  const send = el("button", { type: "button", class: "primary", id: "invite-send", text: t("clubs.invite_pick.send"),
    disabled: !choosable.length, on: { click: async () => {
      const names = boxes.filter((box) => box.checked).map((box) => box.value);
      if (!names.length) return toast(t("clubs.invite_pick.choose"), "error");
      send.disabled = true;
      try {
        if (await onSend(names)) close();
      } finally { send.disabled = false; }
    } } });
  const close = modal(t("clubs.invite_pick.title"), el("div", { class: "invite-pick", id: "invite-pick" },
    choosable.length
      ? el("ul", { class: "invite-members" }, choosable.map((member, index) => el("li", {},
        el("label", { dataset: { member: member.username } }, boxes[index], ` ${member.username}`))))
      : el("p", { class: "empty", text: t("clubs.invite_pick.none") }),
    el("div", { class: "buttons" }, send)));
  return close;
}

/** What an invitation says: who asks, to which table (its name, else its game), of which club. */
function inviteLine(invite, withClub) {
  const params = { by: invite.by, club: invite.club_name, game: t(`game.${invite.variant}`), table: invite.table_name };
  if (invite.table_name) return t(withClub ? "clubs.invites.line.club" : "clubs.invites.line", params);
  return t(withClub ? "clubs.invites.line.club.game" : "clubs.invites.line.game", params);
}

/** Draw `invites` into `node` (hidden when there are none); `withClub`: name each one's club
 * (the lobby lists every club's). */
export function drawInvites(node, invites, withClub, onChange) {
  node.hidden = !invites.length;
  if (!invites.length) return fill(node);
  fill(node, el("h2", { text: t("clubs.invites.title") }),
    el("ul", { class: "table-invites" }, invites.map((invite) => el("li", { dataset: { table: invite.table } },
      el("span", { class: "invite-what", text: inviteLine(invite, withClub) }),
      el("span", { class: "invite-do" },
        el("a", { class: ["button", "primary", "small", "invite-sit"], href: invite.seat, text: t("clubs.invites.sit") }),
        el("button", { type: "button", class: "secondary small invite-dismiss", text: t("clubs.invites.dismiss"),
          on: { click: async () => {
            await request("DELETE", `/api/table-invitations/${encodeURIComponent(invite.table)}`).catch(() => null);
            onChange?.();
          } } }))))));
}

/** Keep `node` showing this account's invitations (every club's), asking every few seconds;
 * a second call moves the watch to its node. */
export function watchInvites(node) {
  if (watcher) clearInterval(watcher);
  watcher = null;
  if (!me()) return;
  const refresh = async () => {
    if (!node.isConnected) {
      clearInterval(watcher);
      watcher = null;
      return;
    }
    try { drawInvites(node, await myInvites(), true, refresh); } catch { /* asked again soon */ }
  };
  refresh();
  watcher = setInterval(refresh, POLL_MS);
}
