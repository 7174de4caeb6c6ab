// The rules, for players (/rules): both games in the page's language, with examples, and the
// legend of the table's marks. It retells docs/rules.md (the rule book decides); long prose
// lives here rather than in the dictionaries of i18n.js, one text per language. Cards written
// {SA SK} in a text are drawn as chips.

import { cardEl, chipsEl } from "./cards.js";
import { el, fill } from "./dom.js";
import { lang, t } from "./i18n.js";

const TEXT = {
  zh: [
    ["basics", "两种游戏", [
      "包分（江苏）和包红五（绍兴）都是四人、两副牌加四张王（108 张）的打牌游戏：每人 25 张，8 张扣作底牌。",
      "叫分最高的人做庄家，一个人对另外三家（闲家）。庄家拿起底牌，定主花色，再扣回 8 张。",
      "分牌：每张 5 算 5 分，每张 10 和 K 算 10 分，整副牌共 200 分。只算庄家抓到的分，闲家赢走的分就“逃”了。",
      "2 永远是主。出牌按逆时针：南 → 东 → 北 → 西。",
    ]],
    ["hand", "一局怎么打", [
      ["ol",
        "叫分：包分叫 85、90 或 95；包红五从 70 叫到 200，每次加 5 的倍数。不叫之后这一局不能再叫。",
        "扣底：庄家拿起 8 张底牌（手里 33 张），定主（♠♥♣♦ 之一），扣回 8 张。",
        "出牌：庄家先出。每人出和领出的人一样多的张数，这一轮最大的人赢走这一轮的分，并领下一轮。",
        "计分：牌出完后按下面的规则算分。"],
    ]],
    ["order", "谁大谁小", [
      "包分的主牌从大到小：大王、小王、主 2（主花色的 2）、其他三个 2（一样大）、主花色 A 到 3。例如主 ♠：{BJ LJ S2 H2 SA SK}。",
      "包红五的主牌从大到小：红五 {H5}（永远最大，不管主是什么）、大王、小王、正参谋（主花色的 3）、副参谋（同色另一花色的 3）、主 2、其他 2、主花色 A 到 4。例如主 ♠：{H5 BJ LJ S3 C3 S2 SA}。",
      "副牌（不是主的花色）从 A 到 3，去掉已经算主的牌。",
      "一样大的牌互相管不住：先出的大。",
    ]],
    ["units", "对子和拖拉机", [
      "对子：两张完全一样的牌，如 {SK SK}。{C2 D2} 不是对子（花色不同）。",
      "拖拉机：同一门里相连的两个或更多对子，如 {DT DT D9 D9}、{C5 C5 C4 C4 C3 C3}。包分的王也能连：{BJ BJ LJ LJ}。",
      "包红五里，已经算主的牌从副牌里拿掉后，两边就算相连：主 ♠ 时 {H6 H6 H4 H4} 是拖拉机（{H5} 是主）。",
    ]],
    ["throw", "甩牌", [
      "领出的人可以一次出同一门的几组牌（甩牌），如 {HA HK HK}。",
      "包分：每一组都必须别人管不住；包红五：甩牌里最小的牌必须比别人这一门最大的牌大。",
      "甩牌失败（甩错牌）：所有想甩的牌亮给大家看，只出被管住的那一组（包红五出最小的一张），其余收回。桌上会写出是谁用哪几张牌管住的。",
      "罚分：包分每张想甩的牌罚 3 分，例如想甩 5 张罚 15 分；庄家甩错从庄家得分里扣，闲家甩错加给庄家。包红五默认不罚。",
    ]],
    ["follow", "跟牌", [
      "有领出的那一门就必须跟那一门；不够就全出，再随便补。没有这一门可以垫牌，也可以全用主牌毙。",
      "包分还要跟牌型：领对子要出对子（有的话），领拖拉机要出拖拉机（没有就出尽量多的对子）。例如领 {HQ HQ}，手里红心 {HK H9 H9 H6}，必须出 {H9 H9}。包红五只要跟花色。",
      "牌型对不上的跟牌赢不了：领 {HQ HQ}，跟 {HA HK} 合法，但管不住。毙牌也要牌型一样才算毙，否则只是垫牌。",
    ]],
    ["baofen", "包分怎么算分", [
      "庄家抓到的分减去叫的分，就是这一局的得分；庄家得这个分，每个闲家减这个分。得分 ≥ 0 就算庄家做成了。",
      "王分：主花色的分牌（两张 5、两张 10、两张 K，共 50 分）。庄家把 50 分王分全抓到：再加 50（王分全抓）；一张王分都没抓到：倒扣 100（倒扣王分）。",
      "全击：庄家抓到了出过的每一张分牌，底牌里也没有分：得 500；底牌里有分：半击，得 250。庄家一分没抓到：−500。",
      "例：叫 90，抓到 75 分：得分 75 − 90 = −15，庄家 −15，每个闲家 +15。叫 95，抓到 110 分，其中王分 50 全抓：110 + 50 − 95 = +65。",
      "捞水草：四家都不叫时，主叫放 40 分、其他三家各放 20 分进“水草”（共 100）。以后有人坐庄做成，就把水草全捞走；没做成，就再放进同样多，水草翻倍（100 → 200 → 400）。无人坐庄后水草超过 400 就四家平分。",
      "八张：八张同点的牌（不含 2，每个花色一对）可以一起领出，当主，谁也管不住。",
    ]],
    ["hongwu", "包红五怎么算分", [
      "庄家的分：抓到的分牌，再算红五和底牌，然后换算成级：够了叫分得 1 级，每多 10 分（不满 10 也算）再加 1 级；不够时同样算负的级。每个闲家输给庄家这么多级，庄家得三倍。",
      "红五 {H5}：庄家的红五被闲家赢走，庄家 −20；闲家的红五被庄家赢走，庄家 +20（另加它本身的 5 分）。",
      "保底 / 抓底：底牌跟着最后一轮走。庄家赢最后一轮（保底）：底牌的分加给庄家。闲家赢最后一轮（抓底）：用主牌赢的扣底牌分 × 2，用副牌赢的扣 × 1。",
      "例：叫 70，最后得 95 分：1 + 3 = 4 级，庄家 +12，每个闲家 −4。叫 90 只得 65 分：−4 级，庄家 −12，每个闲家 +4。",
      "四家都不叫：第一个不叫的人以 70 做庄。",
    ]],
    ["table", "在牌桌上", [
      "计时：叫分 20 秒、定主扣底 90 秒、出牌 30 秒。超时一次电脑替你出这一手；连续两次就进入托管（电脑替你打），点“我来打”收回。",
      "一局打完后点“继续”；和朋友一起玩时，等所有人都点了才发下一局，座位上会标出谁还没点。",
      "提示：选出规则电脑会出的牌。记牌器：每种牌还有几张没见过。",
    ]],
  ],
  en: [
    ["basics", "The two games", [
      "Baofen (包分, from Jiangsu) and Bao Hong Wu (包红五, from Shaoxing) are played by four, with two decks and four jokers (108 cards): 25 cards each, 8 face down in the kitty.",
      "The highest bidder is the declarer (庄家) and plays alone against the other three, the defenders. The declarer takes the kitty, names trump and buries 8 cards.",
      "Points: every 5 is worth 5, every 10 and K is worth 10 — 200 in all. Only what the declarer captures counts; points a defender wins escape.",
      "The 2s are always trump. Play goes counter-clockwise: South → East → North → West.",
    ]],
    ["hand", "A hand, step by step", [
      ["ol",
        "Bidding: in Baofen bid 85, 90 or 95; in Bao Hong Wu from 70 to 200 in steps of 5. Once you pass, you cannot bid again this hand.",
        "Kitty: the declarer picks up the 8 kitty cards (33 in hand), names trump (♠ ♥ ♣ or ♦) and buries 8.",
        "Play: the declarer leads. Everyone plays as many cards as the leader; the highest play wins the trick's points and leads the next one.",
        "Score: once the cards are played, the hand is scored as below."],
    ]],
    ["order", "Which card is higher", [
      "Baofen trumps, high to low: big joker, little joker, the trump 2, the other three 2s (all equal), then the trump suit from A down to 3. With ♠ trump: {BJ LJ S2 H2 SA SK}.",
      "Bao Hong Wu trumps, high to low: the red five {H5} (always the highest, whatever is trump), big joker, little joker, the trump 3 (正参谋), the other 3 of the trump's colour (副参谋), the trump 2, the other 2s, then the trump suit from A down to 4. With ♠ trump: {H5 BJ LJ S3 C3 S2 SA}.",
      "Plain suits run from A down to 3, without the cards that are trumps.",
      "Cards of equal order never beat each other: the one played first stays ahead.",
    ]],
    ["units", "Pairs and tractors", [
      "A pair is two identical cards, like {SK SK}. {C2 D2} is not a pair (two suits).",
      "A tractor is two or more adjacent pairs of one suit group: {DT DT D9 D9}, {C5 C5 C4 C4 C3 C3}. In Baofen the jokers join up too: {BJ BJ LJ LJ}.",
      "In Bao Hong Wu a card that is trump leaves its plain suit, so its neighbours become adjacent: with ♠ trump, {H6 H6 H4 H4} is a tractor ({H5} is a trump).",
    ]],
    ["throw", "Throws (甩牌)", [
      "The leader may play several units of one suit group at once — a throw, like {HA HK HK}.",
      "Baofen: no other player may be able to beat any of its units. Bao Hong Wu: its lowest card must be higher than every other player's best card of that suit.",
      "A failed throw: every card of it is shown to all, only the unit that can be beaten is played (in Bao Hong Wu the lowest card), the rest go back. The table says who stopped it, with which cards.",
      "Penalty: in Baofen 3 points for each card of the attempted throw — 15 for five cards; taken from the declarer's points if the declarer threw, added to them if a defender did. Bao Hong Wu has none by default.",
    ]],
    ["follow", "Following", [
      "Follow the suit led if you can; with too few cards of it play them all and add any others. With none you may discard, or play all trumps to ruff.",
      "Baofen also asks for the shape: answer a pair with a pair if you have one, a tractor with a tractor (else as many pairs as you can). With {HQ HQ} led and {HK H9 H9 H6} in hearts, you must play {H9 H9}. Bao Hong Wu only asks for the suit.",
      "A follow of another shape cannot win: {HA HK} on {HQ HQ} is legal but loses. A ruff must match the shape too, else it is only a discard.",
    ]],
    ["baofen", "Scoring Baofen", [
      "The hand's score is the declarer's points minus the bid: the declarer gains it, each defender loses it. A score of 0 or more means the declarer made it.",
      "王分 (trump points): the point cards of the trump suit — two 5s, two 10s, two Ks, 50 points. All 50 captured: +50 more (王分全抓). None captured: −100 (倒扣王分).",
      "全击 (full sweep): the declarer captured every point card played and the buried kitty holds none: 500. With points in the kitty: 半击, 250. No point card captured at all: −500.",
      "Examples: bid 90, captured 75: 75 − 90 = −15; the declarer −15, each defender +15. Bid 95, captured 110 including all 50 王分: 110 + 50 − 95 = +65.",
      "捞水草 (the pot): when all four pass, the caller puts 40 and the others 20 each into the pot (100). A later declarer who makes it takes the whole pot; one who fails pays as much again into it, so it doubles (100 → 200 → 400). After a hand without declarer, a pot above 400 is split among the four.",
      "Eight of a kind: the eight cards of one rank (not 2, a pair of each suit) may be led together; they count as trump and nothing beats them.",
    ]],
    ["hongwu", "Scoring Bao Hong Wu", [
      "The declarer's points — the point cards captured, then the red fives and the kitty — become levels (级): reaching the bid is 1 level, plus 1 for every 10 over (a started 10 counts); short of it, the same count negative. Each defender pays the declarer that many levels: the declarer gets 3 times them.",
      "Red five {H5}: the declarer's red five won by a defender costs the declarer 20; a defender's red five won by the declarer gives the declarer 20 (besides its own 5).",
      "保底 / 抓底 (the kitty): the kitty goes with the last trick. The declarer wins it (保底): the kitty's points are added. A defender wins it (抓底): the kitty's points are taken off, twice when the winning play was trump, once when it was a plain suit.",
      "Examples: bid 70, 95 points: 1 + 3 = 4 levels; the declarer +12, each defender −4. Bid 90, 65 points: −4 levels; the declarer −12, each defender +4.",
      "When all four pass, the first player who passed declares at 70.",
    ]],
    ["table", "At the table", [
      "Timers: 20 s to bid, 90 s to name trump and bury, 30 s to play. One timeout: the computer makes that move for you; two in a row: the computer plays your seat (auto-play) until you press Take over.",
      "After a hand press Continue; with friends, the next hand is dealt once everyone has, and the seats show who has not yet.",
      "Hint selects what the rule-based computer would play. The card counter shows how many of each card you have not seen yet.",
    ]],
  ],
};

/** A text with its cards ({SA SK}) drawn as chips. */
function withCards(text) {
  return text.split(/\{([^}]+)\}/).map((part, i) => (i % 2 ? chipsEl(part.split(" ")) : part));
}

function block(item) {
  if (Array.isArray(item)) return el(item[0], {}, item.slice(1).map((line) => el("li", {}, withCards(line))));
  return el("p", {}, withCards(item));
}

/** The legend of the marks on cards, seats and tricks, drawn with the table's own faces. */
export function legendEl() {
  const row = (face, text) => el("li", {}, el("span", { class: "legend-face" }, face), el("span", { text }));
  const badge = (className, text) => el("span", { class: ["badge", className], text });
  return el("ul", { class: "legend", id: "legend" },
    row(cardEl("SA", { class: "trump" }), t("legend.trump")),
    row(cardEl("S3", { class: ["trump", "staff"] }), t("legend.staff")),
    row(cardEl("H5", { class: ["trump", "red5"] }), t("legend.red5")),
    row(cardEl("DK", { class: "from-kitty" }), t("legend.kitty")),
    row(badge("declarer", t("seat.declarer")), t("legend.declarer")),
    row(el("span", { class: "tag lead", text: t("trick.lead") }), t("legend.lead")),
    row(el("span", { class: "tag winning", text: `★ ${t("trick.winning")}` }), t("legend.winning")));
}

/** Draw the rules page into `root`. */
export function showHelp(root) {
  document.body.dataset.view = "rules";
  document.title = `${t("help.title")} · ${t("title")}`;
  const sections = TEXT[lang()] ?? TEXT.zh;
  fill(root, el("div", { class: "page help" },
    el("section", { class: "panel" },
      el("h1", { text: t("help.title") }),
      el("nav", { class: "help-toc", "aria-label": t("help.contents") },
        el("a", { href: "#marks", text: t("legend.title") }),
        sections.map(([id, title]) => el("a", { href: `#${id}`, text: title })))),
    el("section", { class: "panel", id: "marks" }, el("h2", { text: t("legend.title") }), legendEl()),
    sections.map(([id, title, items]) => el("section", { class: "panel", id },
      el("h2", { text: title }), items.map(block)))));
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}
