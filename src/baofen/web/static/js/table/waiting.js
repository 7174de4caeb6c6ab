// Before the start: the invitation link, the seats to pick, computer players, start and leave.

import { request } from "../api.js";
import { byId, el, fill, toast } from "../dom.js";
import { t } from "../i18n.js";
import { pickMembers, sendInvites } from "../invites.js";
import { playerName, setPlayerName } from "../prefs.js";
import { me } from "../session.js";
import { refusalText } from "./reasons.js";
import { seatName } from "./state.js";

/** An address only this computer can open: friends on other devices need the LAN address. */
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** 复制: the Clipboard API where the page may use it (a secure context: https or this computer);
 * else the share sheet (phones); else the link selected in its field, copied the old way if the
 * browser still allows it. Whatever happened is said. */
async function shareLink(link, input) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(link);
      return toast(t("wait.copied"));
    } catch {
      // refused (no permission): fall through to the other ways
    }
  }
  if (navigator.share) {
    try {
      await navigator.share({ title: t("share.title"), url: link });
      return toast(t("wait.shared"));
    } catch (error) {
      if (error.name === "AbortError") return toast(t("wait.share_cancelled"));
    }
  }
  input.focus();
  input.select();
  let copied = false;
  try {
    copied = document.execCommand("copy"); // the only way to copy on a plain-http address
  } catch {
    copied = false;
  }
  toast(copied ? t("wait.copied") : t("wait.selected"), copied ? "info" : "error");
}

/** The waiting panel of `state`'s table; `act` sits, fills seats with bots, starts, leaves. */
export function waitingPanel(state, act) {
  const { table: info, you } = state.message;
  const seated = you !== null;
  const link = `${location.origin}/t/${state.code}`;
  const nameInput = el("input", { id: "seat-name", type: "text", maxLength: 24,
    value: playerName(), placeholder: t("wait.name_auto"), "aria-label": t("lobby.yourname"),
    on: { change: (event) => setPlayerName(event.target.value) } });
  const seats = el("div", { class: "seat-picker" }, info.seats.map((s) => el("div", {
    class: ["pick", s.kind && "taken", s.seat === you && "mine"], dataset: { seat: s.seat } },
    el("strong", { text: t(`seat.${s.seat}`) }),
    el("span", { text: s.kind ? seatName(state, s.seat).split(" · ")[1] : t("seat.empty") }),
    !s.kind && !seated && el("button", { type: "button", class: "primary small", dataset: { sit: s.seat },
      text: t("seat.sit"), on: { click: () => act.join(s.seat, nameInput.value) } }))));
  const empty = info.seats.some((s) => !s.kind);
  // Only the host starts and fills the seats; the others are told whom they wait for.
  const hosting = seated && info.host === you;
  const hostName = info.host === null ? "" : info.seats[info.host].name;
  const levels = el("select", { id: "bot-level", "aria-label": t("field.bot_level") },
    state.defaults.bot_levels.map((level) => el("option", { value: level, text: t(`level.${level}`),
      selected: level === info.settings.bot_level })));
  // The invitation kit is the host's (or the creator's before anyone sits): a friend who came by
  // the link sees the seats and the name field first, and the kit folded below.
  const inviting = hosting || info.host === null;
  return el("div", { class: "waiting" },
    el("h2", { text: t("wait.title") }),
    inviting && inviteKit(state.code, link),
    !seated && el("p", { text: t("wait.watching") }),
    !seated && el("div", { class: "field inline" }, el("label", { for: "seat-name", text: t("lobby.yourname") }), nameInput),
    seats,
    seated && !hosting && el("p", { class: "wait-host", id: "wait-host", text: t("wait.for_host", { name: hostName }) }),
    seated && empty && me() && clubInvite(state),
    seated && el("div", { class: "wait-actions" },
      hosting && empty && el("span", { class: "inline" }, levels,
        el("button", { type: "button", class: "secondary", id: "btn-bots", text: t("wait.bots"),
          on: { click: () => act.send({ type: "fill_bots", level: levels.value }) } })),
      hosting && el("button", { type: "button", class: "primary", id: "btn-start", text: t("wait.start"),
        disabled: empty, title: empty ? t("wait.need") : "", on: { click: () => act.send({ type: "start" }) } }),
      el("button", { type: "button", class: "secondary", id: "btn-leave", text: t("wait.leave"),
        on: { click: act.leave } })),
    !inviting && el("details", { class: "invite-more", id: "invite-more" },
      el("summary", { text: t("share.title") }), inviteKit(state.code, link)));
}

/** At a club table, 邀请圈友: invite members of the club to the free seats (the club is asked
 * once per page; at any other table, nothing). */
function clubInvite(state) {
  const slot = el("span", { class: "club-invite-slot", id: "club-invite-slot" });
  const draw = (node) => {
    const club = state.club;
    if (!club) return;
    const taken = state.message.table.seats.filter((seat) => seat.kind === "human").map((seat) => seat.name);
    fill(node, el("button", { type: "button", class: "secondary", id: "btn-club-invite", text: t("wait.club_invite"), title: club.club_name,
      on: { click: async () => {
        try {
          const members = await request("GET", `/api/clubs/${encodeURIComponent(club.club)}/members`);
          pickMembers(members, taken, (names) => sendInvites(club.club, state.code, names));
        } catch (error) {
          toast(refusalText(error.reason, error.message), "error");
        }
      } } }));
  };
  if (state.club === undefined) {
    state.club = null; // asked once: a table of no club (or not ours) stays without the button
    request("GET", `/api/tables/${encodeURIComponent(state.code)}/club`)
      .then((club) => {
        state.club = club;
        const node = byId("club-invite-slot");
        if (node) draw(node);
      }, () => null);
  } else {
    draw(slot);
  }
  return slot;
}

/** The invitation: the QR code, the link with 复制, the table's code, and on a loopback address
 * how friends on other devices get in. */
function inviteKit(code, link) {
  return el("div", { class: "share" },
    el("img", { class: "qr", id: "share-qr", src: `/t/${encodeURIComponent(code)}/qr.svg`,
      alt: t("share.title"), width: 132, height: 132 }),
    el("div", { class: "share-text" },
      el("label", { for: "share-link", text: `${t("wait.share")}: ` }),
      el("input", { id: "share-link", type: "text", readOnly: true, value: link, on: { focus: (e) => e.target.select() } }),
      el("button", { type: "button", class: "secondary small", id: "btn-copy", text: t("wait.copy"),
        on: { click: () => shareLink(link, byId("share-link")) } }),
      el("small", { class: "code", text: `${t("share.code")}: ${code}` }),
      LOOPBACK.test(location.hostname) && el("small", { class: "share-lan", id: "share-lan", text: t("share.lan") })));
}
