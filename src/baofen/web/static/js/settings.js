// The new-table form: every setting of the rule set (rules.md §13) and of the table, grouped,
// with its default shown; settings of the other game are hidden. Nothing is declared here: each
// field's type and limits come from the JSON Schema of RuleSet and TableSettings
// (GET /api/protocol), its game(s), group, condition and label keys from its `x-setting`, the
// defaults and the order of the groups from GET /api/defaults, the words from the dictionaries.

import { el, fill } from "./dom.js";
import { t } from "./i18n.js";

/** Key of a setting's metadata in its field's schema (baofen.setting.SCHEMA_KEY). */
const META = "x-setting";

/**
 * The settings of one model's schema for `variant`, in field order: `{name, meta, kind, …}`;
 * `kind` is the control (bool, choice, list, text, number) with its choices or limits.
 */
export function settingsOf(model, variant) {
  return Object.entries(model.properties)
    .filter(([, property]) => property[META] && property[META].games.includes(variant))
    .map(([name, property]) => ({ name, meta: property[META], ...control(property) }));
}

/** The control a schema property takes (looking inside anyOf for optional values). */
function control(property) {
  const options = property.anyOf ?? [property];
  const value = options.find((option) => option.type !== "null");
  if (value.enum) return { kind: "choice", choices: value.enum };
  if (value.type === "boolean") return { kind: "bool" };
  if (value.type === "array") return { kind: "list" };
  if (value.type === "string") return { kind: "text", maxLength: value.maxLength };
  return {
    kind: "number",
    nullable: options.some((option) => option.type === "null"),
    step: value.type === "integer" ? 1 : "any",
    min: value.minimum ?? (value.exclusiveMinimum !== undefined ? value.exclusiveMinimum + 1 : undefined),
    max: value.maximum ?? value.exclusiveMaximum,
  };
}

const choiceText = (setting, value) => t(`${setting.meta.choice_labels}.${value}`);

/** A value as the "default …" line shows it. */
function shown(setting, value) {
  if (setting.kind === "bool") return value ? t("yes") : t("no");
  if (setting.kind === "list") return value.join(", ");
  if (setting.kind === "choice") return choiceText(setting, value);
  if (value === null || value === undefined) return t(setting.meta.none_label);
  if (value === "") return "—";
  return String(value);
}

function input(setting, value) {
  const { name } = setting;
  const id = `f-${name}`;
  if (setting.kind === "bool") return el("input", { id, name, type: "checkbox", checked: Boolean(value) });
  if (setting.kind === "choice") {
    return el("select", { id, name }, setting.choices.map((choice) => el("option", {
      value: choice, selected: choice === value, text: choiceText(setting, choice) })));
  }
  if (setting.kind === "text") return el("input", { id, name, type: "text", maxLength: setting.maxLength ?? false, value: value ?? "" });
  if (setting.kind === "list") return el("input", { id, name, type: "text", inputMode: "numeric", value: value.join(", ") });
  return el("input", {
    id, name, type: "number", step: setting.step, inputMode: "numeric",
    min: setting.min ?? false, max: setting.max ?? false, value: value ?? "",
  });
}

/** Read one setting's value from the form; a list is parsed into numbers. */
function read(form, setting) {
  const node = form.elements[setting.name];
  if (setting.kind === "bool") return node.checked;
  if (setting.kind === "choice" || setting.kind === "text") return node.value;
  if (setting.kind === "list") return node.value.split(/[\s,，]+/).filter(Boolean).map(Number);
  if (node.value.trim() === "") return setting.nullable ? null : NaN;
  return Number(node.value);
}

function row(setting, value, fallback) {
  const control = input(setting, value);
  return el("div", { class: ["field", setting.kind === "bool" && "check"], dataset: { field: setting.name } },
    el("label", { for: control.id, text: t(setting.meta.label) }),
    control,
    el("small", { class: "default", text: t("lobby.default", { value: shown(setting, fallback) }) }),
    setting.meta.help && el("small", { class: "help", text: t(setting.meta.help) }));
}

/** One fieldset per group (in the server's order) of `settings`, each showing `values` (and
 * its default of `defaults`). */
function fieldsets(settings, values, defaults, groups) {
  return groups.map((group) => {
    const members = settings.filter((setting) => setting.meta.group === group);
    if (!members.length) return null;
    return el("fieldset", { class: "group", dataset: { group } },
      el("legend", { text: t(`group.${group}`) }),
      members.map((setting) => row(setting, values[setting.name], defaults[setting.name])));
  });
}

const formOf = new WeakMap();

/**
 * Build the settings form for `variant` into `container`, from `defaults` (GET /api/defaults)
 * and `schema` (the protocol's JSON Schema): the rules, folded on small screens, then the table.
 * `start`: values to show instead of the defaults (a club's preset being edited).
 */
export function buildSettings(container, variant, defaults, schema, start = null) {
  const rules = settingsOf(schema.$defs.RuleSet, variant);
  const table = settingsOf(schema.$defs.TableSettings, variant);
  const values = { ...defaults.rules[variant], ...defaults.settings };
  const shownNow = start ? { ...values, ...start } : values;
  fill(container,
    el("details", { class: "rules", open: window.innerWidth >= 900 },
      el("summary", { text: t("lobby.rules") }),
      el("div", { class: "groups" }, fieldsets(rules, shownNow, values, defaults.groups))),
    fieldsets(table, shownNow, values, defaults.groups));
  formOf.set(container, { variant, rules, table, values });
  refresh(container);
}

/** Hide settings whose `shown_when` condition fails; mark settings changed from their default. */
export function refresh(container) {
  const form = container.closest("form");
  const { rules, table, values } = formOf.get(container);
  for (const setting of [...rules, ...table]) {
    const node = container.querySelector(`[data-field="${setting.name}"]`);
    const when = setting.meta.shown_when;
    if (when) node.hidden = form.elements[when.field]?.value !== String(when.value);
    const now = JSON.stringify(read(form, setting));
    node.classList.toggle("changed", now !== JSON.stringify(values[setting.name] ?? null));
  }
}

/** The `POST /api/tables` body from the form in `container`: every setting of its game. */
export function readSettings(container) {
  const form = container.closest("form");
  const { variant, rules, table } = formOf.get(container);
  const body = { rules: { variant }, settings: {} };
  for (const setting of rules) body.rules[setting.name] = read(form, setting);
  for (const setting of table) body.settings[setting.name] = read(form, setting);
  return body;
}

/** The settings of `body` (rules and table settings of `variant`) that differ from the
 * defaults, each as "label value" in the page's language (a club's preset, summed up). */
export function changedSettings(body, defaults, schema) {
  const variant = body.rules.variant;
  const values = { ...defaults.rules[variant], ...defaults.settings };
  const given = { ...body.rules, ...body.settings };
  return [...settingsOf(schema.$defs.RuleSet, variant), ...settingsOf(schema.$defs.TableSettings, variant)]
    .filter((setting) => setting.name in given && JSON.stringify(given[setting.name]) !== JSON.stringify(values[setting.name] ?? null))
    .map((setting) => `${shortLabel(t(setting.meta.label))} ${shown(setting, given[setting.name])}`);
}

/** A setting's label without its closing note in brackets ("局数（空 = 不限）": "局数"). */
function shortLabel(label) {
  return label.replace(/\s*[（(][^（()）]*[）)]$/, "") || label;
}

/** What is wrong with the values typed in the form of `container`, before asking the server:
 * `[{name, text}]`, each naming its setting (a number out of its limits, not a whole number, a
 * list of numbers that is not): `text` names it, `problem` says what is wrong (under it). */
export function settingsProblems(container) {
  const form = container.closest("form");
  const { rules, table } = formOf.get(container);
  const found = [];
  for (const setting of [...rules, ...table]) {
    if (container.querySelector(`[data-field="${setting.name}"]`)?.hidden) continue;
    const value = read(form, setting);
    let problem = null;
    if (setting.kind === "number" && value !== null) {
      if (Number.isNaN(value)) problem = t("settings.err.number");
      else if (setting.min !== undefined && value < setting.min) problem = t("settings.err.min", { min: setting.min });
      else if (setting.max !== undefined && value > setting.max) problem = t("settings.err.max", { max: setting.max });
      else if (setting.step === 1 && !Number.isInteger(value)) problem = t("settings.err.integer");
    } else if (setting.kind === "list" && (!value.length || value.some((n) => !Number.isInteger(n)))) {
      problem = t("settings.err.list");
    }
    if (problem) found.push({ name: setting.name, problem, text: t("settings.err.field", { label: t(setting.meta.label), problem }) });
  }
  return found;
}

/** A limit the server names (pydantic's error types), said in the page's language. */
const LIMITS = {
  greater_than_equal: (ctx) => t("settings.err.min", { min: ctx.ge }),
  less_than_equal: (ctx) => t("settings.err.max", { max: ctx.le }),
  greater_than: (ctx) => t("settings.err.above", { limit: ctx.gt }),
  less_than: (ctx) => t("settings.err.below", { limit: ctx.lt }),
};

/** The server's refusal of the form's values (a 422's `detail`), as `[{name, text}]`, each naming
 * its setting in the page's language (a rule set whose settings disagree: the server's words). */
export function refusedSettings(container, detail) {
  const { rules, table } = formOf.get(container);
  const known = new Map([...rules, ...table].map((setting) => [setting.name, setting]));
  return (Array.isArray(detail) ? detail : []).map((item) => {
    const path = item.loc.filter((part) => part !== "body");
    let name = path[1];
    let message = item.msg.replace(/^Value error, /, "");
    const whole = message.match(/rule set: (\w+): (.*)$/);
    if (!name && whole) [, name, message] = whole;
    const setting = known.get(name);
    const problem = LIMITS[item.type] && item.ctx ? LIMITS[item.type](item.ctx) : message;
    return { name, problem, text: setting ? t("settings.err.field", { label: t(setting.meta.label), problem }) : problem };
  });
}

/** Mark the fields of `problems` in the form of `container` (a note under each, the first
 * shown and focused), clearing the marks of an earlier try. */
export function markProblems(container, problems) {
  for (const node of container.querySelectorAll(".field.invalid")) node.classList.remove("invalid");
  for (const node of container.querySelectorAll(".field-error")) node.remove();
  let first = null;
  for (const { name, problem } of problems) {
    const node = container.querySelector(`[data-field="${name}"]`);
    if (!node) continue;
    node.classList.add("invalid");
    node.append(el("small", { class: "field-error", role: "alert", text: problem }));
    first ??= node;
  }
  if (first) {
    const rulesBox = first.closest("details");
    if (rulesBox) rulesBox.open = true;
    first.scrollIntoView({ block: "center" });
    first.querySelector("input, select")?.focus();
  }
}
