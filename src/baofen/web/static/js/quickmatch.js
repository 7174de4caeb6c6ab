// 匹配 (quick match): wait in the server's line for other players of one game, shown in a
// dialog with the players waiting and the countdown until the computer fills the empty seats;
// once seated, the table opens. Closing the dialog cancels.

import { api } from "./api.js";
import { el, fill, modal, toast } from "./dom.js";
import { t } from "./i18n.js";
import { setSeatToken } from "./prefs.js";
import { me } from "./session.js";

/** The server drops a ticket nobody asks about for 10 s: ask every second. */
const POLL_MS = 1000;

/** Ask for a game of `variant` as `name` and follow the ticket until seated or cancelled. */
export async function quickMatch(variant, name) {
  document.body.dataset.match = "asking";
  const ticket = await api.match({ variant, name });
  const count = el("strong", { class: "match-count", id: "match-count" });
  const countdown = el("p", { class: "match-countdown", id: "match-countdown", "aria-live": "polite" });
  const seats = el("div", { class: "match-seats", "aria-hidden": "true" });
  let done = false;
  let timer = null;
  const finish = () => { done = true; clearTimeout(timer); };
  const close = modal(t("match.title", { game: t(`game.${variant}`) }), el("div", { class: "match", id: "match" },
    seats,
    el("p", { class: "match-waiting" }, count),
    countdown,
    el("p", { class: "match-note", text: t(me() ? "match.note" : "match.note.guest") }),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "secondary", id: "match-cancel", text: t("match.cancel"),
        on: { click: () => close() } }))),
  { onClose: () => { if (!done) cancel(ticket.ticket); finish(); } });

  function show(news) {
    const waiting = Math.max(1, Math.min(4, news.waiting_players));
    count.textContent = t("match.waiting", { n: waiting });
    fill(seats, [0, 1, 2, 3].map((n) => el("span", { class: ["match-seat", n < waiting && "taken"] })));
    const seconds = Math.ceil(news.seconds_left);
    countdown.textContent = seconds > 0 ? t("match.countdown", { n: seconds }) : t("match.starting");
    document.body.dataset.match = news.status;
  }

  async function follow(news) {
    if (done) return;
    show(news);
    if (news.status === "seated") {
      finish();
      setSeatToken(news.code, news.token);
      location.assign(`/t/${news.code}`);
      return;
    }
    if (news.status === "cancelled") {
      finish();
      close();
      toast(t("match.cancelled"), "error");
      return;
    }
    timer = setTimeout(async () => {
      try {
        await follow(await api.matchNews(ticket.ticket));
      } catch (error) {
        finish();
        close();
        toast(t("lobby.error", { message: error.message }), "error");
      }
    }, POLL_MS);
  }

  await follow(ticket);
}

/** Leave the line; a ticket seated meanwhile cannot leave (409), its match has started:
 * the player goes to the table after all. */
async function cancel(ticket) {
  document.body.dataset.match = "cancelled";
  try {
    await api.cancelMatch(ticket);
  } catch (error) {
    if (error.status !== 409) return toast(t("lobby.error", { message: error.message }), "error");
    const news = await api.matchNews(ticket);
    setSeatToken(news.code, news.token);
    location.assign(`/t/${news.code}`);
  }
}
