// The rules selector shared by Solve, Explore and Play, built from the library's registry
// (GET /api/rules: each rule's name, title, description, moves in words, text form and
// flags). A rule with parameters gets one field for them (the text after "name:"); the server
// checks the rules and answers with the library's sentence. No rule is named here.
import { get } from "./api.js";

const $ = (id) => document.getElementById(id);
const RULES = new Map(); // name -> the rule's /api/rules entry (its default parameters)
let onChange = null;
let view = null;

// The parameter part of a text form (the text after "name:"), or null without one.
function parameter(text) {
  const colon = text.indexOf(":");
  return colon < 0 ? null : text.slice(colon + 1);
}

// `changed()` runs when the rules change. Resolves once the selector holds every rule.
export async function init(changed) {
  onChange = changed;
  const select = $("rules");
  const data = await get("rules");
  select.replaceChildren();
  for (const rule of data.rules) {
    RULES.set(rule.name, rule);
    const option = new Option(rule.title, rule.name);
    option.dataset.positions = String(rule.positions);
    select.append(option);
  }
  select.addEventListener("change", () => {
    const rule = RULES.get(select.value);
    $("rules-param").value = parameter(rule.rules) || "";
    showFields();
    onChange();
  });
  $("rules-param").addEventListener("change", () => onChange());
  showFields();
}

function showFields() {
  const rule = RULES.get($("rules").value);
  if (!rule) return;
  const spelled = parameter(rule.syntax);
  $("rules-param-box").hidden = spelled === null;
  $("rules-param-name").textContent = spelled || "";
  $("rules-help").textContent = `${rule.description} Moves: ${rule.moves}.`;
  $("rules-help").hidden = isDefault(); // the default rules: the tagline says it; phones keep the room
}

// The rules as text, name:parameter; the parameter as typed (the server refuses bad ones).
export function text() {
  const rule = RULES.get($("rules").value) || RULES.values().next().value;
  if (!rule) return "";
  const name = rule.name;
  if (parameter(rule.syntax) === null) return name;
  return `${name}:${$("rules-param").value.trim()}`;
}

// True for the default rules (the registry's first entry, the plain game): left out of links.
export function isDefault() {
  const first = RULES.values().next().value;
  return !first || text() === first.rules;
}

// True when `spelled` is a text form of a rule the server takes (its /api/rules pattern).
export function valid(spelled) {
  const rule = RULES.get(String(spelled).split(":")[0].toLowerCase());
  return Boolean(rule) && new RegExp(`^(?:${rule.pattern})$`).test(spelled);
}

// The current rule's entry of /api/rules (flags: interval, circle, positions, players...).
export function info() {
  return RULES.get($("rules").value) || null;
}

// Set the controls from a text form (an address); unknown names leave the first rule.
export function set(rulesText) {
  const spelled = String(rulesText || (RULES.values().next().value || {}).rules || "");
  const colon = spelled.indexOf(":");
  const name = (colon < 0 ? spelled : spelled.slice(0, colon)).toLowerCase();
  const rule = RULES.get(name) || RULES.values().next().value;
  if (!rule) return;
  $("rules").value = rule.name;
  const given = colon < 0 ? null : spelled.slice(colon + 1);
  $("rules-param").value = given !== null && rule.name === name ? given : parameter(rule.rules) || "";
  showFields();
}

// Only the rules a view takes are offered there: Play takes the rules whose positions a game
// holds (the `positions` flag of /api/rules); the others are shown everywhere.
export function offerFor(name) {
  view = name;
  for (const option of $("rules").options) {
    option.hidden = view === "play" && option.dataset.positions !== "true";
    option.disabled = option.hidden;
  }
}
