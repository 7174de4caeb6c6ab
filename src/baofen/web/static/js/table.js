// The table (/t/{code}): seats, bidding, kitty, tricks, results, for a player or a spectator.
//
// The server is the authority: every legality question goes to it (`check` while cards are
// selected, `legal_bids` for bidding, `hint` for 提示), and the card order comes from it too.

import { api } from "./api.js";
import { cardEl, cardsEl, chipsEl, face, groupCards, loadOrder, orderNow, suitEl, SUIT_SYMBOL } from "./cards.js";
import { Connection } from "./connection.js";
import { byId, el, fill, modal, toast } from "./dom.js";
import { t } from "./i18n.js";
import { playerName, seatToken, setPlayerName, setSeatToken } from "./prefs.js";
import { openReplay } from "./replay.js";
import { resultEl, scoreboardEl } from "./result.js";

const POSITIONS = ["bottom", "right", "top", "left"];
const CHECK_DELAY_MS = 150;
const TRICK_HOLD_MS = 1200;
const QUICK_BIDS = 5;

/** Open table `code` in `root`; returns the view (its `render` redraws, e.g. on a language change). */
export function showTable(root, code) {
  const view = new TableView(root, code);
  view.start();
  return view;
}

/** Fill `node` with `build()` unless `key` (any JSON value) is what it was last time. */
function patch(node, key, build) {
  const text = JSON.stringify(key);
  if (node.dataset.key === text) return;
  node.dataset.key = text;
  fill(node, build());
}

/** Overlap the cards of a suit group more when the group is wider than the screen. */
function fitGroups(row) {
  const width = row.clientWidth - 8;
  for (const group of row.children) {
    const cards = group.children;
    if (cards.length < 2) continue;
    const style = getComputedStyle(cards[0]);
    const cardWidth = parseFloat(style.width);
    const strip = parseFloat(getComputedStyle(row).getPropertyValue("--ov"));
    if (cardWidth + (cards.length - 1) * strip > width) {
      group.style.setProperty("--ov", `${Math.max(9, (width - cardWidth) / (cards.length - 1))}px`);
    }
  }
}

class TableView {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.conn = new Connection(code);
    this.state = null;
    this.selected = new Set();
    this.handKey = "";
    this.check = { key: "", legal: false, reason: null, pending: false };
    this.checkTimer = null;
    this.kittyTrump = null;
    this.suggestedBid = undefined;
    this.resultShown = null;
    this.closeResult = null;
    this.hold = null;
    this.tricksSeen = 0;
    this.handNumber = 0;
    this.botLevels = ["random"];
  }

  start() {
    document.body.dataset.view = "table";
    this.conn.addEventListener("status", (event) => this.showStatus(event.detail));
    this.conn.addEventListener("open", () => this.identify());
    this.conn.addEventListener("message", (event) => this.receive(event.detail));
    this.renderShell();
    this.conn.connect();
    api.defaults().then((defaults) => {
      this.botLevels = defaults.bot_levels;
      this.render();
    }, (error) => toast(error.message, "error"));
    setInterval(() => this.tick(), 250);
  }

  // -- connection -------------------------------------------------------------------------

  async identify() {
    const token = seatToken(this.code);
    if (token) {
      const answer = await this.conn.request({ type: "reclaim", token });
      if (answer.type === "joined") return;
      if (answer.code === "bad_token") setSeatToken(this.code, null);
      else if (answer.code === "closed") return;
    }
    await this.conn.request({ type: "watch" });
  }

  receive(message) {
    if (message.type === "state") {
      this.update(message);
    } else if (message.type === "error") {
      if (message.code === "replaced") this.showStatus("replaced");
      else if (message.code === "unknown_table") this.showStatus("gone");
    }
  }

  showStatus(status) {
    const node = byId("conn");
    if (!node) return;
    node.dataset.status = status;
    node.textContent = t(`conn.${status}`);
    document.body.dataset.conn = status;
  }

  // -- state ------------------------------------------------------------------------------

  update(state) {
    const previous = this.state;
    this.state = state;
    const obs = state.observation;
    const match = state.table.match;
    const number = match ? match.hand_number : 0;
    if (number !== this.handNumber) {
      this.handNumber = number;
      this.kittyTrump = null;
      this.tricksSeen = 0;
      this.hold = null;
    }
    if (obs) {
      const key = (obs.hand || []).join(" ");
      if (key !== this.handKey || obs.phase !== previous?.observation?.phase) {
        this.handKey = key;
        this.selected.clear();
        this.suggestedBid = undefined;
      }
      if (obs.tricks.length > this.tricksSeen && obs.current_trick.length > 0 && !this.myTurn()) {
        this.hold = { trick: obs.tricks[obs.tricks.length - 1], until: Date.now() + TRICK_HOLD_MS };
        setTimeout(() => this.renderCenter(), TRICK_HOLD_MS + 20);
      }
      this.tricksSeen = obs.tricks.length;
    }
    this.render();
    this.scheduleCheck();
    this.maybeShowResult();
  }

  get you() { return this.state ? this.state.you : null; }

  get obs() { return this.state ? this.state.observation : null; }

  get info() { return this.state ? this.state.table : null; }

  myTurn() {
    const obs = this.obs;
    return Boolean(obs && this.you !== null && obs.to_act === this.you && obs.phase !== "done"
      && this.info.status === "playing");
  }

  seatName(seat) {
    const s = this.info?.seats[seat];
    const where = t(`seat.${seat}`);
    if (!s || !s.kind) return where;
    const who = s.kind === "bot" ? t("bot.name", { level: t(`bot.${s.bot_level}`) }) : s.name;
    return `${where} · ${who}`;
  }

  shortName(seat) {
    const s = this.info?.seats[seat];
    if (!s || !s.kind) return t(`seat.${seat}`);
    return s.kind === "bot" ? `${t(`seat.${seat}`)}·${t(`bot.${s.bot_level}`)}` : `${t(`seat.${seat}`)}·${s.name}`;
  }

  position(seat) {
    const base = this.you ?? 0;
    return POSITIONS[(seat - base + 4) % 4];
  }

  /** The order to show the hand in: the hand's trump, or the one being chosen in the kitty. */
  displayTrump() {
    const obs = this.obs;
    if (!obs) return null;
    if (obs.phase === "kitty" && this.myTurn()) return this.kittyTrump;
    return obs.trump;
  }

  // -- drawing ----------------------------------------------------------------------------

  renderShell() {
    fill(this.root, el("div", { class: "table-view" },
      el("div", { class: "head", id: "head" },
        el("div", { class: "info", id: "head-info" }), el("span", { class: "tools", id: "head-tools" })),
      el("div", { class: "board", id: "board" },
        POSITIONS.map((pos) => el("div", { class: ["seat", pos], id: `seat-${pos}` })),
        el("div", { class: "center", id: "center" })),
      el("div", { class: "actions", id: "actions" }),
      el("div", { class: "hand", id: "hand" })));
    this.showStatus(this.conn.status);
  }

  render() {
    if (!this.state) return;
    const body = document.body.dataset;
    const obs = this.obs;
    body.status = this.info.status;
    body.phase = obs ? obs.phase : "waiting";
    body.myTurn = this.myTurn() ? "1" : "0";
    body.seat = this.you ?? "";
    body.hand = this.handNumber;
    body.version = this.info.version;
    body.tricks = obs ? obs.tricks.length : 0;
    body.declarer = obs && obs.declarer !== null ? obs.declarer : "";
    this.renderHead();
    this.renderSeats();
    this.renderCenter();
    this.renderActions();
    this.renderHand();
  }

  renderHead() {
    const info = this.info;
    const match = info.match;
    const obs = this.obs;
    const variant = info.rules.variant;
    const brand = byId("brand");
    if (brand) brand.textContent = t(`game.${variant}`);
    document.title = `${info.settings.name || t(`game.${variant}`)} · ${t("title")}`;
    const items = [el("span", { class: "game-name", text: info.settings.name || t(`game.${variant}`) })];
    if (match) {
      items.push(el("span", { class: "hand-no", text: match.hands
        ? t("head.hand_of", { n: match.hand_number, total: match.hands }) : t("head.hand", { n: match.hand_number }) }));
    }
    if (obs && obs.declarer !== null) {
      items.push(el("span", { class: "trump" }, `${t("head.trump")} `, suitEl(obs.trump)));
      items.push(el("span", { class: "target", text: `${t("head.target")} ${obs.target}` }));
      items.push(el("span", { class: "points", id: "declarer-points",
        text: `${t("head.points")} ${obs.declarer_points}` }));
    }
    if (match && variant === "baofen") items.push(el("span", { class: "pot", text: `${t("head.pot")} ${match.pot}` }));
    fill(byId("head-info"), items);
    const me = this.you !== null ? info.seats[this.you] : null;
    const canLast = Boolean(obs && obs.tricks.length);
    const canReplay = Boolean(match && match.history.length);
    const showAuto = Boolean(me && info.status === "playing");
    // Redrawn only when they change, so that a click is never lost to a redraw.
    patch(byId("head-tools"), [canLast, Boolean(match), canReplay, showAuto, me?.auto], () => [
      el("button", { type: "button", class: "tool", id: "btn-last", text: t("btn.last"),
        disabled: !canLast, on: { click: () => this.showLastTrick() } }),
      el("button", { type: "button", class: "tool", id: "btn-scores", text: t("btn.scores"),
        disabled: !match, on: { click: () => this.showScores() } }),
      el("button", { type: "button", class: "tool", id: "btn-replay", text: t("btn.replay"),
        disabled: !canReplay, on: { click: () => openReplay(this.code, (seat) => this.shortName(seat)) } }),
      showAuto && el("button", {
        type: "button", class: ["tool", me.auto && "on"], id: "btn-auto",
        text: me.auto ? t("btn.auto_off") : t("btn.auto_on"),
        on: { click: () => this.send({ type: "auto", on: !this.info.seats[this.you].auto }) } }),
    ]);
  }

  renderSeats() {
    const info = this.info;
    const obs = this.obs;
    const match = info.match;
    for (const seat of [0, 1, 2, 3]) {
      const s = info.seats[seat];
      const node = byId(`seat-${this.position(seat)}`);
      node.dataset.seat = seat;
      node.classList.toggle("to-act", Boolean(obs && obs.to_act === seat && obs.phase !== "done"));
      node.classList.toggle("me", seat === this.you);
      node.classList.toggle("empty", !s.kind);
      const badges = [];
      if (obs && obs.declarer === seat) badges.push(el("span", { class: "badge declarer", text: t("seat.declarer") }));
      if (seat === this.you) badges.push(el("span", { class: "badge you", text: t("seat.you") }));
      if (s.away) badges.push(el("span", { class: "badge away", text: t("seat.away") }));
      else if (s.auto) badges.push(el("span", { class: "badge auto", text: t("seat.auto") }));
      if (s.kind === "human" && !s.connected && !s.away) badges.push(el("span", { class: "badge offline", text: t("seat.offline") }));
      const meta = [];
      if (obs) meta.push(el("span", { class: "count", text: t("seat.cards", { n: obs.hand_sizes[seat] }) }));
      if (match) {
        meta.push(el("span", { class: "score", text: match.coins
          ? t("seat.levels", { n: match.scores[seat], coins: match.coins[seat] })
          : t("seat.score", { n: match.scores[seat] }) }));
      }
      let bid = null;
      if (obs && obs.phase === "bidding") {
        const mine = obs.bids.filter(([who]) => who === seat);
        if (mine.length) {
          const value = mine[mine.length - 1][1];
          bid = el("span", { class: "bid", text: value === null ? t("seat.pass") : value });
        }
      }
      fill(node,
        el("div", { class: "name" }, el("span", { class: "who", text: this.seatName(seat) }), badges),
        el("div", { class: "meta" }, meta, bid, el("span", { class: "timer", dataset: { seatTimer: seat } })));
    }
    this.tick();
  }

  renderCenter() {
    const center = byId("center");
    const info = this.info;
    const obs = this.obs;
    if (info.status === "waiting") {
      // Redrawn only when the seats change: a name being typed keeps its focus.
      return patch(center, [info.seats, this.you, this.botLevels], () => this.waitingPanel());
    }
    delete center.dataset.key;
    if (!obs) return fill(center);
    if (obs.phase === "bidding" || (obs.phase === "kitty")) return fill(center, this.biddingSummary());
    if (obs.phase === "done" && !obs.tricks.length) return fill(center, this.biddingSummary());
    let trick = null;
    let live = false;
    if (obs.current_trick.length) {
      if (this.hold && Date.now() < this.hold.until && !this.myTurn()) trick = this.hold.trick;
      else { trick = { leader: obs.leader, plays: obs.current_trick, winner: null, points: null, attempted: obs.current_attempt, penalty: null }; live = true; }
    } else if (obs.tricks.length) {
      trick = obs.tricks[obs.tricks.length - 1];
    }
    fill(center, this.trickEl(trick, live));
  }

  trickEl(trick, live) {
    const slots = POSITIONS.map((pos) => el("div", { class: ["slot", pos], dataset: { pos } }));
    const area = el("div", { class: ["trick", live ? "live" : "done"], id: "trick" }, slots);
    if (!trick) return area;
    for (const [seat, cards] of trick.plays) {
      const slot = slots[POSITIONS.indexOf(this.position(seat))];
      slot.dataset.seat = seat;
      slot.classList.toggle("winner", trick.winner === seat);
      fill(slot, cardsEl(cards, "played"),
        trick.winner === seat && el("span", { class: "won", text: `★ ${t("trick.won")}${trick.points ? ` · ${t("trick.points", { n: trick.points })}` : ""}` }));
    }
    if (trick.attempted) {
      area.append(el("div", { class: "failed-throw", id: "failed-throw" },
        el("strong", { text: `${t("trick.failed")} · ${this.shortName(trick.leader)}` }),
        el("div", {}, `${t("trick.attempted")}: `, chipsEl(trick.attempted)),
        el("div", {}, `${t("trick.played")}: `, chipsEl(trick.plays[0][1])),
        trick.penalty ? el("div", { text: t("trick.penalty", { n: trick.penalty }) }) : null));
    }
    return area;
  }

  biddingSummary() {
    const obs = this.obs;
    return el("div", { class: "bids-summary" },
      el("div", { class: "bids-title", text: t("bids.title") }),
      el("ol", { class: "bids" }, obs.bids.map(([seat, value]) => el("li", {},
        el("span", { class: "who", text: this.shortName(seat) }),
        el("span", { class: "value", text: value === null ? t("seat.pass") : value })))));
  }

  waitingPanel() {
    const info = this.info;
    const seated = this.you !== null;
    const link = `${location.origin}/t/${this.code}`;
    const nameInput = el("input", { id: "seat-name", type: "text", maxLength: 24,
      value: playerName() || t("seat.you"), "aria-label": t("lobby.yourname"),
      on: { change: (event) => setPlayerName(event.target.value) } });
    const seats = el("div", { class: "seat-picker" }, info.seats.map((s) => el("div", {
      class: ["pick", s.kind && "taken", s.seat === this.you && "mine"], dataset: { seat: s.seat } },
      el("strong", { text: t(`seat.${s.seat}`) }),
      el("span", { text: s.kind ? this.seatName(s.seat).split(" · ")[1] : t("seat.empty") }),
      !s.kind && !seated && el("button", { type: "button", class: "primary small", dataset: { sit: s.seat },
        text: t("seat.sit"), on: { click: () => this.join(s.seat, nameInput.value) } }))));
    const empty = info.seats.some((s) => !s.kind);
    const levels = el("select", { id: "bot-level", "aria-label": t("field.bot_level") },
      this.botLevels.map((level) => el("option", { value: level, text: t(`bot.${level}`),
        selected: level === info.settings.bot_level })));
    return el("div", { class: "waiting" },
      el("h2", { text: t("wait.title") }),
      el("div", { class: "share" }, el("span", { text: `${t("wait.share")}: ` }),
        el("input", { id: "share-link", type: "text", readOnly: true, value: link, on: { focus: (e) => e.target.select() } }),
        el("button", { type: "button", class: "secondary small", text: t("wait.copy"), on: { click: () => {
          navigator.clipboard?.writeText(link).then(() => toast(t("wait.copied")), () => {});
        } } })),
      !seated && el("p", { text: t("wait.watching") }),
      !seated && el("div", { class: "field inline" }, el("label", { for: "seat-name", text: t("lobby.yourname") }), nameInput),
      seats,
      seated && el("div", { class: "wait-actions" },
        empty && el("span", { class: "inline" }, levels,
          el("button", { type: "button", class: "secondary", id: "btn-bots", text: t("wait.bots"),
            on: { click: () => this.send({ type: "fill_bots", level: levels.value }) } })),
        el("button", { type: "button", class: "primary", id: "btn-start", text: t("wait.start"),
          disabled: empty, title: empty ? t("wait.need") : "", on: { click: () => this.send({ type: "start" }) } }),
        el("button", { type: "button", class: "secondary", id: "btn-leave", text: t("wait.leave"),
          on: { click: () => this.leave() } })));
  }

  renderActions() {
    const box = byId("actions");
    const obs = this.obs;
    const info = this.info;
    if (!obs || info.status === "waiting") return fill(box);
    if (info.status === "finished" && obs.phase === "done") return fill(box, el("p", { class: "status", text: t("act.over") }));
    const me = this.you !== null ? info.seats[this.you] : null;
    if (!this.myTurn()) {
      let text;
      if (this.you === null) text = t("act.spectator");
      else if (obs.phase === "done") text = t("act.next_hand");
      else if (obs.phase === "bidding") text = t("act.waiting_bid", { name: this.shortName(obs.to_act) });
      else if (obs.phase === "kitty") text = t("act.waiting_kitty", { name: this.shortName(obs.to_act) });
      else text = t("act.waiting", { name: this.shortName(obs.to_act) });
      return fill(box, el("p", { class: "status" }, text));
    }
    const hint = el("button", { type: "button", class: "secondary", id: "btn-hint", text: t("btn.hint"),
      on: { click: () => this.hint() } });
    const timer = el("span", { class: "timer", dataset: { seatTimer: this.you } });
    const auto = me && me.auto ? el("p", { class: "status auto", text: t("act.auto") }) : null;
    if (obs.phase === "bidding") return fill(box, auto, el("div", { class: "prompt" }, t("act.bid"), timer), this.bidButtons(hint));
    if (obs.phase === "kitty") {
      const count = this.selected.size;
      return fill(box, auto,
        el("div", { class: "prompt" }, t("act.kitty"), timer),
        el("div", { class: "kitty-row" },
          el("span", { text: `${t("act.trump")}: ` }),
          ["S", "H", "C", "D"].map((suit) => el("button", {
            type: "button", class: ["suit", suit === "H" || suit === "D" ? "red" : "black", this.kittyTrump === suit && "chosen"],
            dataset: { trump: suit }, "aria-pressed": this.kittyTrump === suit ? "true" : "false", text: SUIT_SYMBOL[suit],
            on: { click: () => this.chooseTrump(suit) } })),
          el("span", { class: "count", id: "bury-count", text: t("act.buried", { n: count }) })),
        el("div", { class: "kitty-cards" }, `${t("act.kitty_cards")}: `, chipsEl(obs.kitty || [])),
        el("div", { class: "buttons" }, hint,
          el("button", { type: "button", class: "secondary", text: t("btn.clear"), on: { click: () => { this.selected.clear(); this.applySelection(); } } }),
          el("button", { type: "button", class: "primary", id: "btn-bury", text: t("btn.bury"),
            disabled: !(this.kittyTrump && count === 8), on: { click: () => this.declare() } })));
    }
    const cards = this.selectedNames();
    const checked = this.check.key === this.checkKey(cards) && !this.check.pending;
    let note = t("act.select");
    if (cards.length && checked && !this.check.legal && this.check.reason) note = t("act.illegal", { reason: this.check.reason });
    return fill(box, auto,
      el("div", { class: "prompt" }, obs.current_trick.length ? t("act.follow") : t("act.lead"), timer),
      el("p", { class: ["note", checked && !this.check.legal && cards.length && "error"], id: "play-note", text: note }),
      el("div", { class: "buttons" }, hint,
        el("button", { type: "button", class: "primary", id: "btn-play", text: t("btn.play"),
          disabled: !(cards.length && checked && this.check.legal), on: { click: () => this.play() } })));
  }

  /** Buttons for the legal bids (a few, then a list for the rest: 包红五 has up to 27). */
  bidButtons(hint) {
    const values = this.obs.legal_bids;
    const button = (value) => el("button", {
      type: "button", class: [value === null ? "secondary" : "primary", "bid", this.suggestedBid === value && "suggested"],
      dataset: { bid: value === null ? "pass" : value },
      text: value === null ? t("act.pass") : value,
      on: { click: () => this.send({ type: "bid", value }) } });
    const quick = values.slice(0, QUICK_BIDS + 1);
    const rest = values.slice(QUICK_BIDS + 1);
    let more = null;
    if (rest.length) {
      const select = el("select", { id: "bid-select", "aria-label": t("act.more_bids") },
        rest.map((value) => el("option", { value, text: value, selected: this.suggestedBid === value })));
      more = el("span", { class: ["more-bids", rest.includes(this.suggestedBid) && "suggested"] }, select,
        el("button", { type: "button", class: "primary", id: "btn-bid", text: t("act.bid_this"),
          on: { click: () => this.send({ type: "bid", value: Number(select.value) }) } }));
    }
    return el("div", { class: "bid-buttons" }, quick.map(button), more, hint);
  }

  renderHand() {
    const box = byId("hand");
    const obs = this.obs;
    if (!obs || !obs.hand || !obs.hand.length) return fill(box);
    const variant = this.info.rules.variant;
    const trump = this.displayTrump();
    const order = orderNow(variant, trump);
    if (!order) {
      loadOrder(variant, trump).then(() => this.renderHand(), (error) => toast(error.message, "error"));
      return;
    }
    const selectable = this.myTurn() && (obs.phase === "playing" || obs.phase === "kitty");
    const seen = new Map();
    const groups = groupCards(obs.hand, order).map(([group, names]) => el("div", {
      class: ["suit-group", group === 4 && "trumps"], dataset: { group } },
    names.map((name) => {
      const n = seen.get(name) ?? 0;
      seen.set(name, n + 1);
      const id = `${name}#${n}`;
      return cardEl(name, {
        class: [this.selected.has(id) && "selected", selectable && "selectable"],
        dataset: { id }, role: "button", tabIndex: selectable ? 0 : -1,
        "aria-pressed": this.selected.has(id) ? "true" : "false",
        on: selectable ? { click: () => this.toggle(id), keydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.toggle(id); } } } : {},
      });
    })));
    const row = el("div", { class: "cards-in-hand" }, groups);
    fill(box, row);
    fitGroups(row);
  }

  /** Refresh every countdown (seat panels and the action bar) from the table's deadline. */
  tick() {
    const info = this.info;
    const obs = this.obs;
    for (const node of document.querySelectorAll("[data-seat-timer]")) {
      let text = "";
      if (info && info.deadline && obs && Number(node.dataset.seatTimer) === obs.to_act) {
        const cap = info.settings.timer_seconds ?? Infinity;
        const left = Math.max(0, Math.min(cap, info.deadline - Date.now() / 1000));
        text = t("act.timer", { s: Math.ceil(left) });
        node.classList.toggle("urgent", left < 6);
      }
      node.textContent = text;
    }
  }

  // -- selection and checks ----------------------------------------------------------------

  /** Selected cards' names, in hand order. */
  selectedNames() {
    const names = [];
    for (const node of document.querySelectorAll("#hand .card.selected")) names.push(node.dataset.card);
    return names;
  }

  checkKey(cards) { return `${this.info?.version}|${cards.join(" ")}`; }

  toggle(id) {
    if (this.selected.has(id)) this.selected.delete(id);
    else this.selected.add(id);
    this.applySelection();
  }

  /** Show the selection on the cards in place (keeps keyboard focus), then re-check it. */
  applySelection() {
    for (const node of document.querySelectorAll("#hand .card")) {
      const on = this.selected.has(node.dataset.id);
      node.classList.toggle("selected", on);
      node.setAttribute("aria-pressed", on ? "true" : "false");
    }
    this.renderActions();
    this.scheduleCheck();
  }

  selectNames(names) {
    this.selected.clear();
    const wanted = new Map();
    for (const name of names) wanted.set(name, (wanted.get(name) ?? 0) + 1);
    const counts = new Map();
    for (const name of this.obs.hand) {
      const n = counts.get(name) ?? 0;
      counts.set(name, n + 1);
      if (n < (wanted.get(name) ?? 0)) this.selected.add(`${name}#${n}`);
    }
  }

  scheduleCheck() {
    clearTimeout(this.checkTimer);
    const obs = this.obs;
    const cards = this.selectedNames();
    if (!cards.length || !obs || obs.phase !== "playing" || !this.myTurn()) return;
    const key = this.checkKey(cards);
    if (this.check.key === key) return;
    this.check = { key, legal: false, reason: null, pending: true };
    this.checkTimer = setTimeout(async () => {
      const answer = await this.conn.request({ type: "check", cards });
      if (this.check.key !== key) return;
      this.check = { key, legal: answer.type === "checked" && answer.legal, reason: reasonText(answer), pending: false };
      this.renderActions();
    }, CHECK_DELAY_MS);
  }

  chooseTrump(suit) {
    const names = this.selectedNames();
    this.kittyTrump = suit;
    loadOrder(this.info.rules.variant, suit).then(() => {
      this.selectNames(names);
      this.renderHand();
      this.applySelection();
    }, (error) => toast(error.message, "error"));
  }

  // -- actions ----------------------------------------------------------------------------

  async send(message) {
    const answer = await this.conn.request(message);
    if (answer.type === "error") toast(t("err.generic", { message: reasonText(answer) }), "error");
    return answer;
  }

  async join(seat, name) {
    const clean = (name || "").trim() || t("seat.you");
    setPlayerName(clean);
    const answer = await this.send({ type: "join", seat, name: clean });
    if (answer.type === "joined") setSeatToken(this.code, answer.token);
  }

  async leave() {
    const answer = await this.send({ type: "leave" });
    if (answer.type === "ack") setSeatToken(this.code, null);
  }

  async hint() {
    const answer = await this.send({ type: "hint" });
    if (answer.type !== "suggestion") return;
    if (answer.action === "bid") {
      this.suggestedBid = answer.value;
      this.renderActions();
    } else if (answer.action === "declare") {
      this.kittyTrump = answer.trump;
      await loadOrder(this.info.rules.variant, answer.trump);
      this.selectNames(answer.bury);
      this.renderHand();
      this.applySelection();
    } else {
      this.selectNames(answer.cards);
      this.applySelection();
    }
  }

  async play() {
    const cards = this.selectedNames();
    const answer = await this.send({ type: "play", cards });
    if (answer.type === "ack") this.selected.clear();
  }

  async declare() {
    const bury = this.selectedNames();
    const answer = await this.send({ type: "declare", trump: this.kittyTrump, bury });
    if (answer.type === "ack") this.selected.clear();
  }

  // -- dialogs ----------------------------------------------------------------------------

  names() { return [0, 1, 2, 3].map((seat) => this.shortName(seat)); }

  /** Seat directions, marking this player's: for narrow tables. */
  directions() {
    return [0, 1, 2, 3].map((seat) => (seat === this.you ? `${t(`seat.${seat}`)}(${t("seat.you")})` : t(`seat.${seat}`)));
  }

  maybeShowResult() {
    const obs = this.obs;
    if (!obs || obs.phase !== "done" || !obs.result) return;
    const number = this.handNumber;
    if (this.resultShown === number) return;
    this.resultShown = number;
    const match = this.info.match;
    const entry = match.history.find((h) => h.number === number) ?? null;
    const variant = this.info.rules.variant;
    const finished = this.info.status === "finished";
    if (this.closeResult) this.closeResult();
    const body = el("div", {},
      resultEl(obs.result, {
        entry, variant, names: this.directions(), fullNames: this.names(),
        lastWinner: obs.tricks.length ? obs.tricks[obs.tricks.length - 1].winner : null,
      }),
      finished && el("h3", { text: t("result.final") }),
      finished && scoreboardEl(match, variant, this.directions()),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "secondary", id: "btn-result-replay", text: t("btn.replay"),
          on: { click: () => openReplay(this.code, (s) => this.shortName(s), number) } }),
        el("button", { type: "button", class: "primary", id: "btn-continue", text: t("btn.continue"),
          on: { click: () => this.closeResult && this.closeResult() } })));
    this.closeResult = modal(t("result.title", { n: number }), body, {
      className: "result-dialog", onClose: () => { this.closeResult = null; } });
  }

  showLastTrick() {
    const obs = this.obs;
    if (!obs || !obs.tricks.length) return;
    const trick = obs.tricks[obs.tricks.length - 1];
    modal(t("trick.number", { n: obs.tricks.length }), el("div", { class: "last-trick" }, this.trickEl(trick, false)));
  }

  showScores() {
    const info = this.info;
    modal(t("scores.title"), scoreboardEl(info.match, info.rules.variant, this.directions()), { className: "wide" });
  }
}

/** An answer's refusal in the interface language: translated from its reason code when it has
 * one (every refusal by the rules), else the server's English text. */
function reasonText(answer) {
  const text = answer.reason ?? answer.message ?? null;
  const coded = answer.reason_code;
  if (!coded) return text;
  const params = { ...coded.params };
  if ("group" in params) params.group = t(`group.${params.group}`);
  for (const name of ["seat", "to_act"]) if (typeof params[name] === "number") params[name] = t(`seat.${params[name]}`);
  for (const name of ["phase", "expected"]) if (name in params) params[name] = t(`phase.${params[name]}`);
  if (typeof params.card === "string" && /^([SHCD][2-9TJQKA]|BJ|LJ)$/.test(params.card)) {
    const { rank, suit } = face(params.card);
    params.card = params.card === "BJ" || params.card === "LJ" ? t(`card.${params.card}`) : suit + rank;
  }
  const key = `reason.${coded.code}`;
  return t(key) === key ? text : t(key, params);
}

