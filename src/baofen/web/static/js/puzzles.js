// 残局练习 (/puzzles): a position from a reviewed hand, shown as its seat saw it at the table —
// its hand, the bids, the trump, the tricks so far, the 记牌器 — where one move is clearly best.
// The player picks the cards (or the bid, or the trump and bury); the server judges the answer
// and only then reveals it: the best move, every option's value, the reason where the review
// gives one. Next puzzle by rating, the daily puzzle, a streak; a signed-in player's rating
// moves with each answer, a guest plays unrated (the streak kept in this browser).

import { cardEl, cardsEl, chipsEl, groupCards, loadOrder, marks, suitEl } from "./cards.js";
import { byId, el, fill } from "./dom.js";
import { lang, t } from "./i18n.js";
import { signed } from "./ratings.js";
import { reasonText } from "./review.js";
import { me } from "./session.js";
import { renderCounter } from "./table/counter.js";

const GAMES = ["baofen", "hongwu"];
const SUITS = ["S", "H", "C", "D"];
const BURY = 8;
const GUEST_KEY = "baofen.puzzles.guest";

let page = null;

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data?.detail;
    const message = detail?.message ?? (typeof detail === "string" ? detail : `${response.status}`);
    throw Object.assign(new Error(message), { status: response.status, reason: detail?.reason });
  }
  return data;
}

function guest() {
  try {
    return { streak: 0, best: 0, seen: [], ...JSON.parse(localStorage.getItem(GUEST_KEY) || "{}") };
  } catch {
    return { streak: 0, best: 0, seen: [] };
  }
}

function keepGuest(record) {
  try {
    localStorage.setItem(GUEST_KEY, JSON.stringify(record));
  } catch { /* private mode: the streak lives as long as the page */ }
}

/** Draw the puzzle page into `root` (the game and mode from the address). */
export async function showPuzzles(root) {
  document.body.dataset.view = "puzzles";
  document.title = t("puzzles.title");
  if (!document.getElementById("puzzles-css")) {
    document.head.append(el("link", { id: "puzzles-css", rel: "stylesheet", href: "/static/css/puzzles.css" }));
  }
  const params = new URLSearchParams(location.search);
  const game = GAMES.includes(params.get("game")) ? params.get("game") : GAMES[0];
  const mode = params.get("mode") === "daily" ? "daily" : "train";
  const keep = page && page.game === game && page.mode === mode ? page : null;
  page = keep ?? { game, mode, question: null, result: null, solver: null, selected: new Set(),
    trump: null, order: null, error: null };
  page.root = root;
  if (me() && !page.solver) {
    const asked = page;
    // An answer's record is newer than this one: a slow reply must not undo it.
    call("GET", `/api/puzzles/me?game=${game}`).then((body) => {
      if (page === asked && !page.solver) { page.solver = body.solver; draw(); }
    }, () => {});
  }
  if (!page.question) await load();
  draw();
}

async function load() {
  const { game, mode } = page;
  page.result = null;
  page.selected = new Set();
  page.trump = null;
  page.error = null;
  page.question = null;
  draw();
  try {
    const skip = me() ? "" : `&skip=${guest().seen.slice(-40).join(",")}`;
    page.question = await call("GET", mode === "daily" ? `/api/puzzles/daily?game=${game}`
      : `/api/puzzles/next?game=${game}${skip}`);
    const view = page.question.view;
    page.order = await loadOrder(game, view.trump);
  } catch (error) {
    page.error = error.message;
  }
  draw();
}

function draw() {
  if (!page) return;
  const { game, mode } = page;
  fill(page.root, el("div", { class: "page puzzles" },
    el("section", { class: "panel puzzle-head" },
      el("div", { class: "section-head" },
        el("h1", { text: t("puzzles.title") }),
        statsEl()),
      el("nav", { class: "tabs", "aria-label": t("lobby.game") }, GAMES.map((g) =>
        el("a", { class: ["tab", g === game && "on"], href: `/puzzles?game=${g}${mode === "daily" ? "&mode=daily" : ""}`,
          "aria-current": g === game ? "page" : null, text: t(`game.${g}`) }))),
      el("nav", { class: "tabs modes" }, ["train", "daily"].map((m) =>
        el("a", { class: ["tab", m === mode && "on"], id: `puzzle-mode-${m}`,
          href: `/puzzles?game=${game}${m === "daily" ? "&mode=daily" : ""}`, text: m === "daily" ? t("puzzles.mode.daily") : t("puzzles.mode.train") })))),
    boardEl(),
    page.result && resultEl()));
  if (page.question && page.order) {
    renderCounter({ message: { observation: page.question.view, table: { rules: { variant: game } } },
      counterOpen: page.counterOpen ?? window.matchMedia("(min-width: 900px)").matches });
    const box = byId("counter");
    if (box) box.addEventListener("toggle", (e) => { page.counterOpen = e.currentTarget.open; });
  }
}

function statsEl() {
  const solver = page.solver;
  if (me() && solver) {
    return el("div", { class: "puzzle-stats", id: "puzzle-stats" },
      el("span", { class: "stat" }, t("puzzles.rating"), el("b", { id: "my-puzzle-rating", text: String(Math.round(solver.rating)) })),
      el("span", { class: "stat" }, t("puzzles.streak"), el("b", { id: "puzzle-streak", text: String(solver.streak) })));
  }
  const record = guest();
  return el("div", { class: "puzzle-stats", id: "puzzle-stats" },
    el("span", { class: "stat guest", text: t("puzzles.guest") }),
    el("span", { class: "stat" }, t("puzzles.streak"), el("b", { id: "puzzle-streak", text: String(record.streak) })));
}

const seatText = (seat) => t(`seat.${seat}`);

function boardEl() {
  if (page.error) return el("section", { class: "panel" }, el("p", { class: "error", text: t("err.generic", { message: page.error }) }));
  const q = page.question;
  if (!q || !page.order) return el("section", { class: "panel", "aria-busy": "true" }, el("p", { class: "empty", text: t("puzzles.loading") }));
  const view = q.view;
  const role = view.declarer === null ? "" : view.declarer === q.seat ? t("puzzles.role.declarer") : t("puzzles.role.defender");
  return el("section", { class: "panel puzzle-board", id: "puzzle-board", dataset: { puzzle: q.id, kind: q.kind } },
    el("div", { class: "task" },
      el("div", {},
        el("strong", { class: "task-title", text: taskText(q.kind) }),
        el("div", { class: "task-who", text: [seatText(q.seat), role].filter(Boolean).join(" · ") })),
      el("div", { class: "puzzle-rating", title: t("puzzles.difficulty") },
        q.daily && el("span", { class: "daily-tag", text: t("puzzles.daily", { day: q.daily }) }),
        el("span", { text: `${t("puzzles.difficulty")} ` }), el("b", { text: String(q.rating) }))),
    factsEl(q),
    view.current_trick.length ? trickEl(view)
      : view.phase === "playing" && el("div", { class: "puzzle-trick lead", text: t("puzzles.lead", { n: view.trick_number }) }),
    el("div", { class: "puzzle-hand", id: "puzzle-hand" }, handEl(q)),
    controlsEl(q),
    view.tricks.length ? tricksEl(view) : null,
    el("div", { class: "counter-box", id: "counter-box" }));
}

function factsEl(q) {
  const view = q.view;
  const bids = view.bids.map(([seat, value]) => `${seatText(seat)} ${value === null ? t("seat.pass") : value}`);
  return el("dl", { class: "facts" },
    el("div", {}, el("dt", { text: t("puzzles.trump") }), el("dd", {}, suitEl(view.trump))),
    view.declarer !== null && el("div", {}, el("dt", { text: t("head.declarer") }),
      el("dd", { text: `${seatText(view.declarer)}${view.target ? ` · ${view.target}` : ""}` })),
    view.phase === "playing" && el("div", {}, el("dt", { text: t("puzzles.captured") }), el("dd", { text: String(view.declarer_points) })),
    view.phase === "playing" && el("div", {}, el("dt", { text: t("puzzles.trick") }), el("dd", { text: String(view.trick_number) })),
    bids.length ? el("div", { class: "wide" }, el("dt", { text: t("puzzles.bids") }), el("dd", { text: bids.join(" · ") })) : null);
}

function trickEl(view) {
  const mark = (name) => marks(name, page.game, page.order);
  return el("div", { class: "puzzle-trick", id: "puzzle-trick" },
    el("div", { class: "label", text: t("trick.info", { n: view.trick_number, p: view.trick_points }) }),
    el("div", { class: "plays" }, view.current_trick.map(([seat, cards]) => el("div", {
      class: ["play", seat === view.winning && "winning"] },
    el("span", { class: "who", text: seatText(seat) + (seat === view.winning ? ` · ${t("trick.winning")}` : "") }),
    cardsEl(cards, "trick-cards", mark)))));
}

function tricksEl(view) {
  return el("details", { class: "tricks", id: "puzzle-tricks" },
    el("summary", { text: t("puzzles.tricks", { n: view.tricks.length }) }),
    [...view.tricks].reverse().map((trick, i) => el("div", { class: "trick-row" },
      el("span", { class: "n", text: `#${view.tricks.length - i}` }),
      trick.plays.map(([seat, cards]) => el("span", { class: ["play", seat === trick.winner && "won"] },
        `${seatText(seat)} `, chipsEl(cards))),
      trick.points ? el("span", { class: "pts", text: t("trick.points", { n: trick.points }) }) : null)));
}

function handEl(q) {
  const view = q.view;
  const order = page.order;
  const picking = !page.result && q.kind !== "bid";
  const copies = new Map();
  const fromKitty = new Map();
  if (view.phase === "kitty" && view.kitty) for (const name of view.kitty) fromKitty.set(name, (fromKitty.get(name) ?? 0) + 1);
  const groups = groupCards(view.hand, order).map(([group, names]) => el("div", {
    class: ["suit-group", group === order.trumpGroup && "trumps"] },
  names.map((name) => {
    const n = copies.get(name) ?? 0;
    copies.set(name, n + 1);
    const id = `${name}#${n}`;
    const toggle = () => {
      if (page.selected.has(id)) page.selected.delete(id); else page.selected.add(id);
      draw();
    };
    return cardEl(name, {
      class: [page.selected.has(id) && "selected", picking && "selectable", (fromKitty.get(name) ?? 0) > n && "from-kitty",
        marks(name, page.game, order)],
      dataset: { id }, role: picking ? "button" : null, tabIndex: picking ? 0 : -1,
      "aria-pressed": page.selected.has(id) ? "true" : "false",
      on: picking ? { click: toggle, keydown: (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); toggle(); } } } : {},
    });
  })));
  return el("div", { class: "cards-in-hand" }, groups);
}

const selectedCards = () => [...page.selected].map((id) => id.split("#")[0]);

function controlsEl(q) {
  if (page.result) return null;
  if (q.kind === "bid") {
    return el("div", { class: "puzzle-controls bid-buttons", id: "puzzle-controls" }, q.view.legal_bids.map((value) =>
      el("button", { type: "button", class: value === null ? "secondary" : "primary", dataset: { bid: value ?? "pass" },
        text: value === null ? t("act.pass") : String(value), on: { click: () => submit({ bid: value ?? "pass" }) } })));
  }
  const count = page.selected.size;
  const declare = q.kind === "declare";
  const ready = declare ? count === BURY && page.trump : count > 0;
  return el("div", { class: "puzzle-controls", id: "puzzle-controls" },
    declare && el("div", { class: "trump-pick" }, el("span", { text: t("puzzles.pick.trump") }), SUITS.map((suit) =>
      el("button", { type: "button", class: ["secondary", "suit", page.trump === suit && "on"], dataset: { suit },
        "aria-pressed": page.trump === suit ? "true" : "false", on: { click: () => { page.trump = suit; draw(); } } }, suitEl(suit)))),
    el("span", { class: "picked", text: declare ? t("puzzles.pick.bury", { n: count, of: BURY }) : t("puzzles.pick.cards", { n: count }) }),
    el("button", { type: "button", class: "secondary", id: "puzzle-clear", disabled: count === 0,
      text: t("puzzles.clear"), on: { click: () => { page.selected.clear(); draw(); } } }),
    el("button", { type: "button", class: "primary", id: "puzzle-submit", disabled: !ready, text: t("puzzles.submit"),
      on: { click: () => submit(declare ? { trump: page.trump, bury: selectedCards() } : { cards: selectedCards() }) } }));
}

async function submit(answer) {
  const q = page.question;
  const started = performance.now();
  try {
    page.result = await call("POST", `/api/puzzles/${encodeURIComponent(q.id)}/answer`, answer);
  } catch (error) {
    page.error = null;
    flash(error.message);
    return;
  }
  page.answerMs = performance.now() - started;
  if (page.result.solver) {
    page.solver = page.result.solver;
  } else {
    const record = guest();
    record.streak = page.result.solved ? record.streak + 1 : 0;
    record.best = Math.max(record.best, record.streak);
    record.seen = [...record.seen.filter((id) => id !== q.id), q.id].slice(-40);
    keepGuest(record);
  }
  draw();
  byId("puzzle-result")?.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

function flash(message) {
  const box = byId("puzzle-controls");
  if (!box) return;
  byId("puzzle-refusal")?.remove();
  box.append(el("p", { class: "error", id: "puzzle-refusal", role: "alert", text: message }));
}

function moveEl(kind, text) {
  if (kind === "bid") return el("span", { class: "bid-text", text: text === "pass" ? t("act.pass") : text });
  if (kind === "declare") {
    const [trump, bury] = text.split(":");
    return el("span", { class: "declare-text" }, suitEl(trump.trim()), chipsEl(bury.trim().split(/\s+/)));
  }
  return chipsEl(text.split(/\s+/));
}

const unitText = (unit) => (unit === "levels" ? t("puzzles.unit.levels") : t("puzzles.unit.points"));

function taskText(kind) {
  if (kind === "bid") return t("puzzles.task.bid");
  if (kind === "declare") return t("puzzles.task.declare");
  return t("puzzles.task.play");
}
const number = (value) => (Math.round(value * 10) / 10).toLocaleString(lang() === "zh" ? "zh-CN" : "en");

function resultEl() {
  const r = page.result;
  const q = page.question;
  const best = r.options.find((o) => o.best);
  const reason = r.reason ? reasonText(r.reason) : "";
  return el("section", { class: ["panel", "puzzle-result", r.solved ? "solved" : "failed"], id: "puzzle-result",
    dataset: { solved: String(r.solved) }, "aria-live": "polite" },
  el("div", { class: "verdict" },
    el("span", { class: "mark", text: r.solved ? "✓" : "✗" }),
    el("div", {},
      el("strong", { text: r.solved ? t("puzzles.solved") : t("puzzles.failed") }),
      r.rating
        ? el("div", { class: "change", id: "puzzle-change" }, t("puzzles.your.rating"), ` ${Math.round(r.rating.after)} `,
          el("b", { class: r.rating.change >= 0 ? "up" : "down", text: `(${signed(r.rating.change, 1)})` }))
        : el("div", { class: "change", text: t("puzzles.unrated") }))),
  el("p", { class: "best-line" }, t("puzzles.best"), " ", moveEl(q.kind, r.best),
    " ", el("span", { class: "margin", text: t("puzzles.margin", { d: number(r.threshold), unit: unitText(r.unit) }) })),
  reason && el("p", { class: "reason", id: "puzzle-reason", text: reason }),
  el("table", { class: "records options", id: "puzzle-options" },
    el("thead", {}, el("tr", {}, el("th", { text: t("puzzles.col.move") }), el("th", { class: "num", text: t("puzzles.col.value", { unit: unitText(r.unit) }) }),
      el("th", { class: "num", text: t("puzzles.col.diff") }))),
    el("tbody", {}, r.options.map((o) => el("tr", { class: [o.best && "best", o.made && "made"] },
      el("td", {}, el("div", { class: "move" }, moveEl(q.kind, o.move), el("span", { class: "tags" },
        o.best && el("span", { class: "tag best", text: t("puzzles.tag.best") }),
        o.made && el("span", { class: "tag made", text: t("puzzles.tag.yours") }),
        o.move === r.hint && el("span", { class: "tag hint", text: t("puzzles.tag.hint") })))),
      el("td", { class: "num", text: number(o.value) }),
      el("td", { class: "num", text: o.best ? "—" : signed(o.value - best.value, 1) }))))),
  r.value_made === null && el("p", { class: "form-note", text: t("puzzles.not.compared") }),
  r.themes.length ? el("p", { class: "themes" }, t("puzzles.themes"), " ", r.themes.map((theme) => el("span", { class: "theme", text: t(`puzzles.theme.${theme}`) }))) : null,
  el("p", { class: "form-note", text: t("puzzles.values.note", { unit: unitText(r.unit) }) }),
  el("div", { class: "buttons" },
    page.mode === "daily"
      ? el("a", { class: "button primary", id: "puzzle-next", href: `/puzzles?game=${page.game}`, text: t("puzzles.train") })
      : el("button", { type: "button", class: "primary", id: "puzzle-next", text: t("puzzles.next"), on: { click: () => load() } })));
}

