// The rules selector shared by Solve, Explore and Play: its controls as the rules' canonical
// text form (coinrow.Rules: "misere", "take:2", "players:3:spite"), and back. The server
// checks the rules; this module only spells what the controls say.

const $ = (id) => document.getElementById(id);

// A short explanation of each choice (docs/variants.md).
const HELP = {
  plain: "Take the leftmost or rightmost coin; each player wants the largest total.",
  circular: "Peter Winkler's pizza: the coins lie in a ring. The first player eats any slice; then each eats a slice next to the eaten part.",
  misere: "Take an end coin; each player wants the smallest total.",
  "stone-game-vii": "Take an end coin and score the sum of the coins that remain (LeetCode 1690); the most points wins.",
  take: "Take 1 to K coins from one end (moves L1, L2, …, R1, R2, …); the largest total wins.",
  "take-any": "Take any number of coins from one end (UVa 10891 Game of Sum); the largest total wins.",
  "both-ends": "Take the left coin, the right coin, or both at once (move B); the largest total wins.",
  reply: "The first player's best against a known second player who always takes the larger end coin (SPOJ TWENDS).",
  players: "Several players take end coins in turn, each wanting their own largest total; the tie-break says which coin a player takes when both give them the same.",
};

// Rules with a triangle of subgames (their positions are intervals of the row).
export const INTERVAL = ["plain", "misere", "stone-game-vii", "take", "both-ends"];

let onChange = null;
let onInvalid = null;

// `changed()` runs when the rules change; `invalid(message)` when a number field is out of range.
export function init(changed, invalid) {
  onChange = changed;
  onInvalid = invalid;
  $("rules").addEventListener("change", () => {
    showFields();
    onChange();
  });
  for (const id of ["rules-k", "rules-players", "rules-tie"]) {
    $(id).addEventListener("change", () => {
      const problem = check();
      if (problem) onInvalid(problem);
      else onChange();
    });
  }
  showFields();
}

function showFields() {
  const choice = $("rules").value;
  $("rules-k-box").hidden = choice !== "take";
  $("rules-players-box").hidden = choice !== "players";
  $("rules-tie-box").hidden = choice !== "players";
  $("rules-help").textContent = HELP[choice];
  $("rules-help").hidden = choice === "plain"; // the tagline says it; phones keep the room
}

function whole(field, low, high) {
  const value = Number(field.value);
  const ok = field.value !== "" && Number.isInteger(value) && value >= low && value <= high;
  if (ok) field.removeAttribute("aria-invalid");
  else field.setAttribute("aria-invalid", "true");
  return ok;
}

// What is wrong with the number fields, or "" (the server checks the rules again).
export function check() {
  const choice = $("rules").value;
  if (choice === "take" && !whole($("rules-k"), 1, 1000000)) {
    return "K: type a whole number from 1 to 1,000,000 (the most coins a move may take).";
  }
  if (choice === "players" && !whole($("rules-players"), 2, 64)) {
    return "Players: type a whole number from 2 to 64.";
  }
  return "";
}

// The rules as text, e.g. "take:2"; the fields as typed (the server refuses bad ones).
export function text() {
  const choice = $("rules").value;
  if (choice === "take") return `take:${$("rules-k").value.trim()}`;
  if (choice === "take-any") return "take:any";
  if (choice === "reply") return "reply:greedy";
  if (choice === "players") {
    const tie = $("rules-tie").value;
    return `players:${$("rules-players").value.trim()}${tie === "left" ? "" : `:${tie}`}`;
  }
  return choice;
}

// The kind of the rules ("take", "players", ...), as Rules.kind.
export function kind() {
  const choice = $("rules").value;
  return choice === "take-any" ? "take" : choice;
}

// Set the controls from a text form (an address); unknown text leaves the plain game.
export function set(rulesText) {
  const [name, first, second] = String(rulesText || "plain").toLowerCase().split(":");
  let choice = "plain";
  if (name === "take" && first === "any") choice = "take-any";
  else if (name === "take") {
    choice = "take";
    $("rules-k").value = first || "2";
  } else if (name === "players") {
    choice = "players";
    $("rules-players").value = first || "3";
    $("rules-tie").value = ["left", "right", "spite"].includes(second) ? second : "left";
  } else if (name === "reply") choice = "reply";
  else if (HELP[name]) choice = name;
  $("rules").value = choice;
  showFields();
}
