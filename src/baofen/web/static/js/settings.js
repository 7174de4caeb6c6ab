// The new-table form: every rules.md §13 field, grouped, with its default shown; fields that
// do not apply to the chosen game are hidden. Defaults and limits come from the server
// (GET /api/defaults and the protocol's JSON Schema), labels from the dictionaries.

import { el } from "./dom.js";
import { t } from "./i18n.js";

const BOTH = ["baofen", "hongwu"];
const BAOFEN = ["baofen"];
const HONGWU = ["hongwu"];

/** Rule fields in groups. `when` hides a field unless another field has a value. */
export const RULE_GROUPS = [
  { key: "bidding", fields: [
    { name: "bid_values", type: "list", games: BAOFEN },
    { name: "bid_min", type: "int", games: HONGWU },
    { name: "bid_step", type: "int", games: HONGWU },
    { name: "bid_max", type: "int", games: HONGWU },
  ] },
  { key: "play", fields: [
    { name: "must_follow_structure", type: "bool", games: BOTH },
    { name: "eight_of_a_kind", type: "bool", games: BAOFEN },
    { name: "throw_penalty_per_card", type: "int", games: BOTH },
  ] },
  { key: "scoring", fields: [
    { name: "wangfen_all_bonus", type: "int", games: BAOFEN },
    { name: "wangfen_none_penalty", type: "int", games: BAOFEN },
    { name: "full_sweep_score", type: "int", games: BAOFEN },
    { name: "half_sweep_score", type: "int", games: BAOFEN },
    { name: "shutout_score", type: "int", games: BAOFEN },
    { name: "settlement", type: "choice", choices: ["per_defender", "zero_sum"], games: BAOFEN },
    { name: "red5_capture_points", type: "int", games: HONGWU },
    { name: "kitty_multiplier_trump", type: "int", games: HONGWU },
    { name: "kitty_multiplier_plain", type: "int", games: HONGWU },
  ] },
  { key: "nobid", fields: [
    { name: "no_bid_mode", type: "choice", choices: ["pot", "direct"], games: BAOFEN },
    { name: "direct_penalty", type: "int", games: BAOFEN, when: ["no_bid_mode", "direct"] },
    { name: "pot_caller_stake", type: "int", games: BAOFEN, when: ["no_bid_mode", "pot"] },
    { name: "pot_other_stake", type: "int", games: BAOFEN, when: ["no_bid_mode", "pot"] },
    { name: "pot_split_above", type: "int", games: BAOFEN, when: ["no_bid_mode", "pot"] },
  ] },
  { key: "levels", fields: [
    { name: "points_per_level", type: "int", games: HONGWU },
    { name: "coins_per_level", type: "int", games: HONGWU },
  ] },
  { key: "match", fields: [
    { name: "hands", type: "optint", games: BOTH },
  ] },
];

/** Table settings (TableSettings), after the rules. */
export const TABLE_FIELDS = [
  { name: "timer_seconds", type: "optint" },
  { name: "bot_level", type: "choice" },
  { name: "private", type: "bool" },
  { name: "name", type: "text" },
];

/** Minimum and maximum of a schema property (looking inside anyOf for optional numbers). */
function limits(property) {
  if (!property) return {};
  const options = property.anyOf ? property.anyOf : [property];
  const number = options.find((o) => o.type === "integer" || o.type === "number") || {};
  return {
    min: number.minimum ?? (number.exclusiveMinimum !== undefined ? number.exclusiveMinimum + 1 : undefined),
    max: number.maximum ?? number.exclusiveMaximum,
  };
}

function shown(value, field) {
  if (field.type === "bool") return value ? t("yes") : t("no");
  if (field.type === "list") return value.join(", ");
  if (field.type === "choice" && field.name !== "bot_level") return t(`field.${field.name}.${value}`);
  if (field.name === "bot_level") return t(`bot.${value}`);
  if (value === null || value === undefined) return field.name === "timer_seconds" ? t("lobby.none") : t("lobby.unlimited");
  if (value === "") return "—";
  return String(value);
}

function input(field, value, props, choices) {
  const id = `f-${field.name}`;
  if (field.type === "bool") return el("input", { id, name: field.name, type: "checkbox", checked: Boolean(value) });
  if (field.type === "choice") {
    return el("select", { id, name: field.name },
      choices.map((choice) => el("option", {
        value: choice, selected: choice === value,
        text: field.name === "bot_level" ? t(`bot.${choice}`) : t(`field.${field.name}.${choice}`),
      })));
  }
  if (field.type === "text") return el("input", { id, name: field.name, type: "text", maxLength: 40, value: value ?? "" });
  if (field.type === "list") return el("input", { id, name: field.name, type: "text", inputMode: "numeric", value: value.join(", ") });
  const { min, max } = limits(props);
  return el("input", {
    id, name: field.name, type: "number", step: 1, inputMode: "numeric",
    min: min ?? false, max: max ?? false, value: value ?? "",
  });
}

/** Read one field's value from the form; a `list` is parsed into numbers. */
function read(form, field) {
  const node = form.elements[field.name];
  if (field.type === "bool") return node.checked;
  if (field.type === "choice" || field.type === "text") return node.value;
  if (field.type === "list") return node.value.split(/[\s,，]+/).filter(Boolean).map(Number);
  if (node.value.trim() === "") return field.type === "optint" ? null : NaN;
  return Number(node.value);
}

function row(field, value, defaultValue, props, choices) {
  const control = input(field, value, props, choices);
  return el("div", { class: ["field", field.type === "bool" && "check"], dataset: { field: field.name } },
    el("label", { for: control.id, text: t(`field.${field.name}`) }),
    control,
    el("small", { class: "default", text: t("lobby.default", { value: shown(defaultValue, field) }) }),
    field.type === "list" ? el("small", { class: "help", text: t("field.bid_values.help") }) : null);
}

/**
 * Build the settings form's fieldsets for `variant` into `form`, from `defaults`
 * (GET /api/defaults) and `schema` (the protocol's JSON Schema, for limits).
 */
export function buildSettings(container, variant, defaults, schema) {
  const rules = defaults.rules[variant];
  const ruleProps = schema.$defs.RuleSet.properties;
  const tableProps = schema.$defs.TableSettings.properties;
  const groups = RULE_GROUPS.map((group) => {
    const fields = group.fields.filter((f) => f.games.includes(variant));
    if (!fields.length) return null;
    return el("fieldset", { class: "group", dataset: { group: group.key } },
      el("legend", { text: t(`group.${group.key}`) }),
      fields.map((f) => row(f, rules[f.name], rules[f.name], ruleProps[f.name], f.choices)));
  });
  const settings = defaults.settings;
  const table = el("fieldset", { class: "group", dataset: { group: "table" } },
    el("legend", { text: t("lobby.table") }),
    TABLE_FIELDS.map((f) => {
      let value = settings[f.name];
      if (f.name === "bot_level" && !defaults.bot_levels.includes(value)) value = defaults.bot_levels.at(-1);
      if (f.name === "timer_seconds" && value !== null) value = Math.round(value);
      return row(f, value, settings[f.name], tableProps[f.name], defaults.bot_levels);
    }));
  container.replaceChildren(
    el("details", { class: "rules", open: window.innerWidth >= 900 },
      el("summary", { text: t("lobby.rules") }), el("div", { class: "groups" }, groups)),
    table);
  defaultsOf.set(container, { ...rules, ...settings });
  refresh(container);
}

const defaultsOf = new WeakMap();

/** Hide fields whose `when` condition fails; mark fields changed from their default. */
export function refresh(container) {
  const form = container.closest("form");
  const defaults = defaultsOf.get(container) || {};
  for (const field of [...RULE_GROUPS.flatMap((g) => g.fields), ...TABLE_FIELDS]) {
    const node = container.querySelector(`[data-field="${field.name}"]`);
    if (!node) continue;
    if (field.when) node.hidden = form.elements[field.when[0]]?.value !== field.when[1];
    const now = JSON.stringify(read(form, field));
    node.classList.toggle("changed", now !== JSON.stringify(defaults[field.name] ?? null));
  }
}

/** The `POST /api/tables` body from the form: every shown field of the chosen game. */
export function readSettings(form, variant) {
  const rules = { variant };
  for (const group of RULE_GROUPS) {
    for (const field of group.fields) {
      if (!field.games.includes(variant)) continue;
      rules[field.name] = read(form, field);
    }
  }
  const settings = {};
  for (const field of TABLE_FIELDS) settings[field.name] = read(form, field);
  return { rules, settings };
}
