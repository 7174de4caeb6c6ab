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

function row(setting, value) {
  const control = input(setting, value);
  return el("div", { class: ["field", setting.kind === "bool" && "check"], dataset: { field: setting.name } },
    el("label", { for: control.id, text: t(setting.meta.label) }),
    control,
    el("small", { class: "default", text: t("lobby.default", { value: shown(setting, value) }) }),
    setting.meta.help && el("small", { class: "help", text: t(setting.meta.help) }));
}

/** One fieldset per group (in the server's order) of `settings`, each showing `values`. */
function fieldsets(settings, values, groups) {
  return groups.map((group) => {
    const members = settings.filter((setting) => setting.meta.group === group);
    if (!members.length) return null;
    return el("fieldset", { class: "group", dataset: { group } },
      el("legend", { text: t(`group.${group}`) }),
      members.map((setting) => row(setting, values[setting.name])));
  });
}

const formOf = new WeakMap();

/**
 * Build the settings form for `variant` into `container`, from `defaults` (GET /api/defaults)
 * and `schema` (the protocol's JSON Schema): the rules, folded on small screens, then the table.
 */
export function buildSettings(container, variant, defaults, schema) {
  const rules = settingsOf(schema.$defs.RuleSet, variant);
  const table = settingsOf(schema.$defs.TableSettings, variant);
  const values = { ...defaults.rules[variant], ...defaults.settings };
  fill(container,
    el("details", { class: "rules", open: window.innerWidth >= 900 },
      el("summary", { text: t("lobby.rules") }),
      el("div", { class: "groups" }, fieldsets(rules, values, defaults.groups))),
    fieldsets(table, values, defaults.groups));
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
