// 亲友圈 (clubs): my clubs at /clubs, a club at /clubs/{id} (its tables, standings, members,
// presets, its events (比赛 for members only, organised by its admins at
// /tournaments?club={id}); invitations, requests and settings for its admins), and an invitation at
// /clubs/join/{code}. A club page asks the server again every few seconds; once the server
// says the club is not ours (removed, or it never was), the page stops and shows nothing of it.

import { api, request } from "./api.js";
import { el, fill, modal, toast } from "./dom.js";
import { t } from "./i18n.js";
import { drawInvites, myInvites, pickMembers, sendInvites } from "./invites.js";
import { setSeatToken } from "./prefs.js";
import { buildSettings, changedSettings, markProblems, readSettings, refresh as refreshSettings, refusedSettings, settingsProblems } from "./settings.js";
import { openReplay } from "./replay.js";
import { me } from "./session.js";
import { openSignIn } from "./signin.js";
import { refusalText } from "./table/reasons.js";

const GAMES = ["baofen", "hongwu"];
const PERIODS = ["week", "month", "all"];
const POLL_MS = 4000;
let poller = null;

/** Whether the player is choosing or typing in `node` (a redraw would lose it). */
function busy(node) {
  const active = document.activeElement;
  return node.contains(active) && ["INPUT", "SELECT"].includes(active.tagName) && active.value !== "";
}

const clubPath = (id) => `/api/clubs/${encodeURIComponent(id)}`;
const failed = (error) => toast(t("err.generic", { message: refusalText(error.reason, error.message) }), "error");

/** Draw the page of the address: my clubs, one club, or an invitation. */
export async function showClubs(root, clubId, inviteCode) {
  document.body.dataset.view = "clubs";
  document.title = t("clubs.title");
  if (poller) clearInterval(poller);
  if (!me()) {
    return fill(root, el("div", { class: "page" }, el("section", { class: "panel" },
      el("h1", { text: t("clubs.title") }), el("p", { text: t("clubs.signin") }),
      el("button", { type: "button", class: "primary", id: "clubs-signin", text: t("account.signin"),
        on: { click: () => openSignIn() } }))));
  }
  if (inviteCode) return showInvitation(root, inviteCode);
  if (clubId) return showClub(root, clubId);
  return showMine(root);
}

async function showMine(root) {
  const clubs = await request("GET", "/api/clubs");
  const name = el("input", { id: "club-name", maxlength: 20, placeholder: t("clubs.name"), "aria-label": t("clubs.name") });
  fill(root, el("div", { class: "page" },
    el("section", { class: "panel" }, el("h1", { text: t("clubs.title") }),
      clubs.length
        ? el("ul", { class: "club-list", id: "club-list" }, clubs.map((club) => el("li", {},
          el("a", { href: `/clubs/${club.id}`, class: "club-link", text: club.name }),
          el("span", { class: "muted", text: ` · ${t(`clubs.role.${club.role}`)} · ${t("clubs.members.n", { n: club.members })}` }))))
        : el("p", { class: "empty", text: t("clubs.none") })),
    el("section", { class: "panel" }, el("h2", { text: t("clubs.create") }),
      el("form", { class: "inline-form", on: { submit: async (e) => {
        e.preventDefault();
        try {
          const club = await request("POST", "/api/clubs", { name: name.value });
          location.assign(`/clubs/${club.id}`);
        } catch (error) { failed(error); }
      } } }, name, el("button", { type: "submit", class: "primary", id: "club-create", text: t("clubs.create.go") })),
      el("p", { class: "form-note", text: t("clubs.create.note") }))));
}

async function showInvitation(root, code) {
  const path = `/api/club-invitations/${encodeURIComponent(code)}`;
  let info;
  try { info = await request("GET", path); } catch (error) {
    return fill(root, el("div", { class: "page" }, el("section", { class: "panel", id: "invite-gone" },
      el("h1", { text: t("clubs.invite.gone") }), el("p", { text: error.message }))));
  }
  fill(root, el("div", { class: "page" }, el("section", { class: "panel" },
    el("p", { class: "muted", text: t("clubs.invite.to") }),
    el("h1", { text: info.club }), el("p", { text: t("clubs.members.n", { n: info.members }) }),
    el("button", { type: "button", class: "primary big", id: "club-join",
      text: t(info.approval ? "clubs.invite.ask" : "clubs.invite.join"),
      on: { click: async () => {
        try {
          const joined = await request("POST", path);
          if (joined.member) location.assign(`/clubs/${joined.club}`);
          else toast(t("clubs.invite.asked"));
        } catch (error) { failed(error); }
      } } }))));
}

/** One club's page, redrawn from the server every few seconds while we are a member. */
async function showClub(root, id) {
  const state = { period: "week", variant: "baofen" };
  let updateAdmin = null;
  const sections = {
    head: el("section", { class: "panel", id: "club-head" }),
    invites: el("section", { class: "panel invites", id: "club-invites", hidden: true }),
    tables: el("section", { class: "panel", id: "club-tables" }),
    events: el("section", { class: "panel", id: "club-events" }),
    standings: el("section", { class: "panel", id: "club-standings" }),
    members: el("section", { class: "panel", id: "club-members" }),
    presets: el("section", { class: "panel", id: "club-presets" }),
    admin: el("section", { class: "panel", id: "club-admin", hidden: true }),
  };
  fill(root, el("div", { class: "page club-page" }, Object.values(sections)));
  const gone = () => {
    clearInterval(poller);
    poller = null;
    fill(root, el("div", { class: "page" }, el("section", { class: "panel", id: "club-gone" },
      el("h1", { text: t("clubs.gone") }), el("p", { text: t("clubs.gone.text") }),
      el("a", { href: "/clubs", class: "link", text: t("clubs.back") }))));
  };
  const refresh = async () => {
    try {
      const club = await request("GET", clubPath(id));
      const [tables, standings, members, presets, invites] = await Promise.all([
        request("GET", `${clubPath(id)}/tables`),
        request("GET", `${clubPath(id)}/standings?variant=${state.variant}&period=${state.period}`),
        request("GET", `${clubPath(id)}/members`),
        request("GET", `${clubPath(id)}/presets`),
        myInvites().catch(() => [])]);
      document.title = `${club.name} · ${t("clubs.title")}`;
      drawHead(sections.head, club, id);
      drawInvites(sections.invites, invites.filter((invite) => invite.club === id), false, refresh);
      drawTables(sections.tables, tables, presets, members, id);
      // Events run on a single server: in cluster mode the list is unavailable (503), the rest is not.
      drawEvents(sections.events, await request("GET", `/api/tournaments?club=${encodeURIComponent(id)}`)
        .catch((error) => { if (error.status === 404) throw error; return null; }), club, id);
      drawStandings(sections.standings, standings, state, refresh);
      drawMembers(sections.members, members, club, id, refresh);
      await drawPresets(sections.presets, presets, club, id, refresh);
      if (club.role !== "member") {
        if (!updateAdmin) updateAdmin = await drawAdmin(sections.admin, club, id, refresh);
        else await updateAdmin(members.map((m) => m.username));
      }
    } catch (error) {
      if (error.status === 404) gone();
      else if (error.status !== 503) failed(error);
    }
  };
  await refresh();
  poller = setInterval(refresh, POLL_MS);
}

function drawHead(node, club, id) {
  fill(node, el("h1", { id: "club-title", text: club.name }),
    el("p", { class: "muted", text: `${t(`clubs.role.${club.role}`)} · ${t("clubs.members.n", { n: club.members })}` }),
    club.role !== "owner" && el("button", { type: "button", class: "secondary small", id: "club-leave",
      text: t("clubs.leave"), on: { click: async () => {
        if (!confirm(t("clubs.leave.confirm"))) return;
        try { await request("DELETE", `${clubPath(id)}/members/${encodeURIComponent(me().username)}`); location.assign("/clubs"); } catch (error) { failed(error); }
      } } }));
}

function presetSelect(presets, idName) {
  return el("select", { id: idName, "aria-label": t("clubs.preset") },
    el("option", { value: "", text: t("clubs.preset.default") }),
    presets.map((p) => el("option", { value: p.name, text: p.name })));
}

/** The club's open tables: to join (可以加入, with 邀请 to invite members to it), to watch (观战),
 * and its events' tables, which take no spectator while their round runs: listed with their
 * event to follow, not to watch. Below, opening a table (and inviting members to it at once). */
function drawTables(node, tables, presets, members, id) {
  if (busy(node)) return;
  const chosen = presetSelect(presets, "club-preset");
  const open = async (level, invitees = []) => {
    try {
      const made = await request("POST", `${clubPath(id)}/tables`, { preset: chosen.value || null, level });
      if (made.token) setSeatToken(made.code, made.token);
      if (invitees.length) await sendInvites(id, made.code, invitees);
      location.assign(level ? `/t/${made.code}` : `/t/${made.code}#sit`);
      return true;
    } catch (error) { failed(error); return false; }
  };
  const seated = (table) => table.seats.filter((seat) => seat.kind === "human").map((seat) => seat.name);
  const entry = (table) => {
    const game = t(`game.${table.rules.variant}`);
    const free = table.free_seats.length > 0;
    const action = table.event
      ? el("a", { class: ["button", "secondary", "small"], href: `/tournaments/${encodeURIComponent(table.event)}`, text: t("clubs.table.event") })
      : el("a", { class: ["button", free ? "primary" : "secondary", "small"], href: `/t/${table.code}${free ? "#sit" : ""}`,
        text: t(free ? "clubs.table.join" : "clubs.table.watch") });
    return el("li", { dataset: table.event ? { code: table.code, event: table.event } : { code: table.code } },
      el("span", { class: "club-table-what" },
        el("span", { text: [table.settings.name || table.preset || game, (table.settings.name || table.preset) && game,
          t("clubs.table.seated", { n: seated(table).length + table.seats.filter((seat) => seat.kind === "bot").length })]
          .filter(Boolean).join(" · ") }),
        table.event && el("span", { class: ["badge", "playing"], text: t("clubs.table.event.badge") })),
      el("span", { class: "club-table-do" },
        !table.event && free && el("button", { type: "button", class: "secondary small club-invite", text: t("clubs.table.invite"),
          on: { click: () => pickMembers(members, seated(table), (names) => sendInvites(id, table.code, names)) } }),
        action));
  };
  fill(node, el("h2", { text: t("clubs.tables") }),
    tables.length
      ? el("ul", { class: "club-tables", id: "club-table-list" }, tables.map(entry))
      : el("p", { class: "empty", text: t("clubs.tables.none") }),
    el("div", { class: "inline-form" }, chosen,
      el("button", { type: "button", class: "primary", id: "club-open", text: t("clubs.table.open"), on: { click: () => open(null) } }),
      el("button", { type: "button", class: "secondary", id: "club-open-invite", text: t("clubs.table.open_invite"),
        on: { click: () => pickMembers(members, [], (names) => open(null, names)) } }),
      el("button", { type: "button", class: "secondary", id: "club-computer", text: t("clubs.table.computer"), on: { click: () => open("normal") } })));
}

/** What an event's link says: register (upcoming), follow (running), its results (over). */
function actionOf(group) {
  const upcoming = group === "upcoming";
  const running = group === "running";
  return t(upcoming ? "clubs.events.upcoming" : running ? "clubs.events.running" : "clubs.events.finished");
}

function drawEvents(node, events, club, id) {
  const groups = [
    ["upcoming", (e) => e.status === "registering"],
    ["running", (e) => e.status === "playing" || e.status === "break"],
    ["finished", (e) => e.status === "finished" || e.status === "cancelled"],
  ];
  const listed = (events ?? []).map((event) => ({ event, group: groups.find(([, test]) => test(event))[0] }));
  fill(node, el("h2", { text: t("clubs.events") }),
    events === null ? el("p", { class: "empty", text: t("clubs.events.unavailable") })
      : listed.length ? el("ul", { class: "club-tables", id: "club-event-list" }, listed.map(({ event, group }) =>
        el("li", { dataset: { code: event.code, group } },
          el("span", { text: event.settings.name || t("tour.unnamed") }),
          el("span", { class: ["badge", event.status], text: t(`tour.status.${event.status}`) }),
          el("a", { class: ["button", group === "upcoming" ? "primary" : "secondary", "small"],
            href: `/tournaments/${encodeURIComponent(event.code)}`, text: actionOf(group) }))))
        : el("p", { class: "empty", text: t("clubs.events.none") }),
    club.role !== "member" && events !== null && el("a", { class: ["button", "secondary"], id: "club-event-new",
      href: `/tournaments?club=${encodeURIComponent(id)}#organise`, text: t("clubs.events.new") }));
}

function drawStandings(node, standings, state, refresh) {
  const pick = (key, values, label, name) => el("nav", { class: "tabs", "aria-label": label }, values.map((value) =>
    el("button", { type: "button", class: ["tab", state[key] === value && "on"], dataset: { [key]: value },
      text: name(value),
      on: { click: () => { state[key] = value; refresh(); } } })));
  const mine = me()?.username;
  fill(node, el("h2", { text: t("clubs.standings") }),
    pick("period", PERIODS, t("clubs.standings"), (value) => t(`clubs.period.${value}`)),
    pick("variant", GAMES, t("lobby.game"), (value) => t(`game.${value}`)),
    standings.rows.length
      ? el("table", { class: "records", id: "club-standings-table" },
        el("thead", {}, el("tr", {}, ["player", "matches", "hands", "made", "failed", "result"].map((col) =>
          el("th", { scope: "col", text: t(`clubs.col.${col}`) })))),
        el("tbody", {}, standings.rows.map((row) => el("tr", { class: row.username === mine && "me", dataset: { player: row.username } },
          el("td", { text: row.username }),
          ...["matches", "hands", "made", "failed"].map((col) => el("td", { class: "num", text: String(row[col]) })),
          el("td", { class: ["num", row.result > 0 && "up", row.result < 0 && "down"], text: String(row.result) })))))
      : el("p", { class: "empty", text: t("clubs.standings.none") }));
}

function drawMembers(node, members, club, id, refresh) {
  const admin = club.role !== "member";
  fill(node, el("h2", { text: t("clubs.members") }),
    el("ul", { class: "club-members", id: "club-member-list" }, members.map((member) => el("li", { dataset: { member: member.username } },
      el("button", { type: "button", class: "link", text: member.username, on: { click: () => showHistory(id, member.username) } }),
      el("span", { class: "muted", text: ` ${t(`clubs.role.${member.role}`)}` }),
      el("span", { class: "member-actions" },
      club.role === "owner" && member.role !== "owner" && el("button", { type: "button", class: "secondary small",
        text: t(isAdmin(member) ? "clubs.role.demote" : "clubs.role.promote"), on: { click: async () => {
          try { await request("PUT", `${clubPath(id)}/members/${encodeURIComponent(member.username)}/role`, { role: member.role === "admin" ? "member" : "admin" }); refresh(); } catch (error) { failed(error); }
        } } }),
      club.role === "owner" && member.role !== "owner" && el("button", { type: "button", class: "secondary small", text: t("clubs.hand_over"),
        on: { click: async () => {
          if (!confirm(t("clubs.hand_over.confirm", { name: member.username }))) return;
          try { await request("POST", `${clubPath(id)}/owner`, { username: member.username }); location.reload(); } catch (error) { failed(error); }
        } } }),
      admin && member.role !== "owner" && member.username !== me()?.username && (club.role === "owner" || member.role === "member") &&
        el("button", { type: "button", class: "secondary small remove", text: t("clubs.remove"), "aria-label": t("clubs.remove.of", { name: member.username }),
          on: { click: async () => {
            try { await request("DELETE", `${clubPath(id)}/members/${encodeURIComponent(member.username)}`); refresh(); } catch (error) { failed(error); }
          } } }))))));
}

async function showHistory(id, username) {
  let hands;
  try { hands = await request("GET", `${clubPath(id)}/members/${encodeURIComponent(username)}/history`); } catch (error) { return failed(error); }
  modal(t("clubs.history", { name: username }), hands.length
    ? el("table", { class: "records" }, el("tbody", {}, hands.map((hand) => el("tr", {},
      el("td", { text: t(`game.${hand.variant}`) }),
      el("td", { text: t(declarerOf(hand) ? "profile.role.declarer" : "profile.role.defender") }),
      el("td", { class: "num", text: String(hand.result) }),
      el("td", {}, el("button", { type: "button", class: "secondary small", text: t("profile.replay"),
        on: { click: () => openReplay(hand.table, () => "", hand.hand, { review: true }) } }))))))
    : el("p", { class: "empty", text: t("clubs.history.none") }));
}

/** The club's presets (玩法), each summed up by what it changes from the defaults; for its
 * admins, a form with every setting of the rules and the table (the lobby's, settings.js), to
 * make a preset or edit one. The form is built once: the page's redraws keep what is typed. */
async function drawPresets(node, presets, club, id, refresh) {
  const admin = club.role !== "member";
  const { defaults, schema } = await settingsData();
  if (!node.querySelector(".preset-listing")) {
    node.append(el("h2", { text: t("clubs.presets") }), el("div", { class: "preset-listing" }));
  }
  const form = admin ? node.querySelector("#preset-form") ?? presetForm(node, id, refresh, defaults, schema) : null;
  const listing = node.querySelector(".preset-listing");
  fill(listing, presets.length
    ? el("ul", { class: "club-presets", id: "club-preset-list" }, presets.map((p) => el("li", { dataset: { preset: p.name } },
      el("span", { class: "preset-what" }, el("strong", { text: p.name }),
        el("small", { class: "muted preset-summary", text: [t(`game.${p.rules.variant}`), ...changedSettings(p, defaults, schema)].join(" · ") })),
      admin && el("span", { class: "member-actions" },
        el("button", { type: "button", class: "secondary small preset-edit", text: t("clubs.preset.edit"),
          on: { click: () => form.edit(p) } }),
        el("button", { type: "button", class: "secondary small preset-delete", text: t("clubs.preset.delete"),
          on: { click: async () => {
            if (!confirm(t("clubs.preset.delete.confirm", { name: p.name }))) return;
            try { await request("DELETE", `${clubPath(id)}/presets/${encodeURIComponent(p.name)}`); refresh(); } catch (error) { failed(error); }
          } } })))))
    : el("p", { class: "empty", id: "club-presets-none", text: t("clubs.presets.none") }));
}

let settingsCache = null;
/** The lobby's defaults and the protocol's schema, which the preset form is built from. */
async function settingsData() {
  settingsCache ??= Promise.all([api.defaults(), api.schema()]).then(([defaults, schema]) => ({ defaults, schema }));
  return settingsCache;
}

function presetForm(node, id, refresh, defaults, schema) {
  let variant = "baofen";
  const name = el("input", { id: "preset-name", maxlength: 40, placeholder: t("clubs.preset.name"), "aria-label": t("clubs.preset.name") });
  const game = el("select", { id: "preset-variant", "aria-label": t("lobby.game") }, GAMES.map((g) => el("option", { value: g, text: t(`game.${g}`) })));
  const box = el("div", { class: "settings" });
  const build = (start = null) => {
    buildSettings(box, variant, defaults, schema, start);
    // A club table is private whatever the preset says: the club lists it to its members.
    const privacy = box.querySelector("[data-field='private']");
    if (privacy) privacy.hidden = true;
  };
  const save = el("button", { type: "submit", class: "primary", id: "preset-save", text: t("clubs.preset.save") });
  const form = el("form", { class: "create preset-form", id: "preset-form", novalidate: true, on: {
    input: () => refreshSettings(box),
    change: (event) => {
      if (event.target === game) { variant = game.value; build(); }
      refreshSettings(box);
    },
    submit: async (event) => {
      event.preventDefault();
      if (!name.value.trim()) {
        name.focus();
        return toast(t("clubs.preset.name.missing"), "error");
      }
      const problems = settingsProblems(box);
      markProblems(box, problems);
      if (problems.length) return toast(problems.map((p) => p.text).join("；"), "error");
      save.disabled = true;
      try {
        await request("PUT", `${clubPath(id)}/presets/${encodeURIComponent(name.value.trim())}`, readSettings(box));
        toast(t("clubs.preset.saved", { name: name.value.trim() }));
        name.value = "";
        build();
        details.open = false;
        refresh();
      } catch (error) {
        const refused = error.status === 422 && Array.isArray(error.detail) ? refusedSettings(box, error.detail) : [];
        markProblems(box, refused);
        if (refused.length) toast(refused.map((p) => p.text).join("；"), "error");
        else failed(error);
      } finally { save.disabled = false; }
    },
  } },
  el("div", { class: "inline-form" }, name, game), box,
  el("div", { class: "buttons" }, save));
  const details = el("details", { class: "preset-new", id: "preset-new" },
    el("summary", { text: t("clubs.preset.new") }), form);
  form.edit = (preset) => {
    name.value = preset.name;
    variant = preset.rules.variant;
    game.value = variant;
    build({ ...preset.rules, ...preset.settings });
    details.open = true;
    details.scrollIntoView({ block: "start" });
  };
  build();
  node.append(details);
  return form;
}

async function drawAdmin(node, club, id, refresh) {
  node.hidden = false;
  const links = el("div", { id: "club-invitations" });
  const requests = el("ul", { id: "club-requests" });
  let shown = null;
  const showLinks = async () => {
    const [invitations, pending] = await Promise.all([request("GET", `${clubPath(id)}/invitations`), request("GET", `${clubPath(id)}/requests`)]);
    const drawn = JSON.stringify([invitations, pending]);
    if (drawn === shown) return; // unchanged: keep the links (and any text selected in them)
    shown = drawn;
    fill(links, invitations.map((inv) => el("div", { class: "invitation" },
      el("img", { src: inv.qr, alt: t("clubs.invite.qr"), width: 120, height: 120 }),
      el("input", { class: "invite-link", readonly: true, value: inv.link, "aria-label": t("clubs.invite.link") }),
      el("span", { class: "muted", text: t("clubs.invite.uses", { n: inv.uses, max: inv.max_uses ?? "∞" }) }),
      el("button", { type: "button", class: "secondary small", text: t("clubs.invite.revoke"),
        on: { click: async () => { await request("DELETE", `${clubPath(id)}/invitations/${inv.code}`).catch(failed); showLinks(); } } }))));
    if (!pending.length) return fill(requests, el("li", { class: "muted", text: t("clubs.requests.none") }));
    fill(requests, pending.map((asking) => el("li", {}, el("span", { text: asking.username }),
      ...[true, false].map((accept) => el("button", { type: "button", class: accept ? "primary small" : "secondary small",
        text: t(accept ? "clubs.request.accept" : "clubs.request.decline"),
        on: { click: async () => { await request("POST", `${clubPath(id)}/requests/${encodeURIComponent(asking.username)}`, { accept }).catch(failed); showLinks(); refresh(); } } })))));
  };
  const pairs = el("ul", { id: "club-pairs", class: "club-members" });
  const first = el("select", { id: "pair-first", "aria-label": t("clubs.pairs") });
  const second = el("select", { id: "pair-second", "aria-label": t("clubs.pairs") });
  const choices = (names) => {
    for (const [index, select] of [first, second].entries()) {
      if (document.activeElement === select) continue;
      const kept = select.value;
      fill(select, names.map((n) => el("option", { value: n, text: n })));
      select.value = names.includes(kept) ? kept : names[Math.min(index, names.length - 1)];
    }
  };
  const showPairs = async () => {
    const listed = await request("GET", `${clubPath(id)}/pairs`);
    if (!listed.length) return fill(pairs, el("li", { class: "muted", text: t("clubs.pairs.none") }));
    fill(pairs, listed.map((pair) => el("li", {}, el("span", { text: `${pair.first} × ${pair.second}` }),
      el("button", { type: "button", class: "secondary small", text: t("clubs.pairs.allow"),
        on: { click: async () => { await request("DELETE", `${clubPath(id)}/pairs`, pair).catch(failed); showPairs(); } } }))));
  };
  const approval = el("input", { type: "checkbox", id: "invite-approval" });
  const lifetime = el("select", { id: "invite-hours", "aria-label": t("clubs.invite.valid") },
    [["24", t("clubs.invite.day")], ["72", t("clubs.invite.days3")], ["168", t("clubs.invite.week")], ["", t("clubs.invite.forever")]]
      .map(([value, text]) => el("option", { value, text, selected: value === "72" })));
  const uses = el("input", { id: "invite-uses", type: "number", min: 1, max: 10000, placeholder: "∞", "aria-label": t("clubs.invite.uses.max") });
  const rule = el("select", { id: "club-same-address", "aria-label": t("clubs.same_address"),
    on: { change: async () => { await request("PATCH", `${clubPath(id)}/settings`, { same_address: rule.value }).catch(failed); } } },
  ["rated", "always", "never"].map((value) => el("option", { value, text: t(`clubs.same_address.${value}`), selected: club.settings.same_address === value })));
  fill(node, el("h2", { text: t("clubs.admin") }),
    el("div", { class: "inline-form" },
      el("button", { type: "button", class: "primary", id: "invite-new", text: t("clubs.invite.new"), on: { click: async () => {
        const body = { hours: lifetime.value ? Number(lifetime.value) : null, uses: uses.value ? Number(uses.value) : null, approval: approval.checked };
        try { await request("POST", `${clubPath(id)}/invitations`, body); showLinks(); } catch (error) { failed(error); }
      } } }),
      lifetime, el("label", { class: "inline-label" }, t("clubs.invite.uses.max"), uses),
      el("label", {}, approval, ` ${t("clubs.invite.approval")}`)),
    links, el("h3", { text: t("clubs.requests") }), requests,
    el("h3", { text: t("clubs.pairs") }), pairs,
    el("div", { class: "inline-form" }, first, second,
      el("button", { type: "button", class: "secondary", id: "pair-forbid", text: t("clubs.pairs.forbid"), on: { click: async () => {
        try { await request("PUT", `${clubPath(id)}/pairs`, { first: first.value, second: second.value }); showPairs(); } catch (error) { failed(error); }
      } } })),
    el("label", { class: "field" }, el("span", { text: t("clubs.same_address") }), rule));
  const update = async (names) => {
    choices(names);
    await Promise.all([showLinks(), showPairs()]);
  };
  await update((await request("GET", `${clubPath(id)}/members`)).map((m) => m.username));
  return update;
}

/** Whether the member was the hand's declarer (坐庄). */
function declarerOf(hand) {
  return hand.role === "declarer";
}

/** Whether the member is one of the club's admins (not its owner). */
function isAdmin(member) {
  return member.role === "admin";
}
