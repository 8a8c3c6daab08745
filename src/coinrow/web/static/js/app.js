// The page: one row of coins shared by the views (Solve, Explore, Play, the analysis board,
// Learn, Puzzles), tabs,
// the address (#view?coins=...&...) holding each view's state, Back/Forward through views and
// rows, the random row form, keyboard shortcuts and their overlay (?).
import * as analysis from "./analysis.js";
import { get, post, showDecimals } from "./api.js";
import * as explore from "./explore.js";
import * as home from "./home.js";
import * as learn from "./learn.js";
import * as play from "./play.js";
import * as puzzles from "./puzzles.js";
import * as rules from "./rules.js";
import * as solve from "./solve.js";

const views = { home, solve, explore, play, analysis, learn, puzzles };
// Views that take other rules of the game (the rules selector shows there).
const RULED = ["solve", "explore", "play", "analysis"];
const input = document.getElementById("coins");
const errorBox = document.getElementById("error");
const overlay = document.getElementById("keys-overlay");
// Longest address offered as a link: browsers and servers refuse far shorter ones than the
// 4 MB a million-coin row needs.
export const LINK_LIMIT = 8000;
let active = null;

const ctx = {
  limits: { table_coins: 40, steps_coins: 40, random_coins: 10000, play_coins: 1000 },
  // The row as typed; the minus signs the page prints (U+2212) are read back as "-".
  text: () => input.value.trim().replace(/[\u2212\u2012\u2013\uFE63\uFF0D]/g, "-"),
  error(message, { row = true } = {}) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    if (row) input.setAttribute("aria-invalid", "true");
  },
  clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
    input.removeAttribute("aria-invalid");
  },
  // The rules of the game as text (name:parameter) and their /api/rules entry: see rules.js.
  rules: () => rules.text(),
  rulesInfo: () => rules.info(),
  defaultRules: () => rules.isDefault(),
  // The address of a view with its state, or null when the row is too long for a link.
  link(view, params = null) {
    const state = params || (views[view].params ? views[view].params() : {});
    const ruled = RULED.includes(view) && !rules.isDefault() ? { rules: rules.text() } : {};
    const query = new URLSearchParams({ coins: ctx.text(), ...ruled, ...state });
    const text = `#${view}?${query.toString().replace(/\+/g, "%20")}`;
    return text.length <= LINK_LIMIT ? text : null;
  },
  linkNote() {
    return `This row is too long for a link (${ctx.text().length.toLocaleString()} characters; `
      + `links hold at most ${LINK_LIMIT.toLocaleString()}): copy the row or export a record instead.`;
  },
  // A view changed its own state (a move, a step): the address follows, without a new entry.
  update(view) {
    if (view !== active) return;
    const link = ctx.link(view);
    history.replaceState(null, "", link || `#${view}`);
  },
  // A row from another feature (a puzzle, a record, a "why not" row), under the given rules
  // (default: the plain game's).
  load(text, view = "solve", params = null, rulesText = null) {
    input.value = text;
    rules.set(rulesText);
    go(view, params);
  },
  go: (view, params) => go(view, params),
  // Put a kept game's row and rules back in the form (a discard the player refused).
  keepRow(text, rulesText) {
    input.value = text;
    rules.set(rulesText);
    rules.offerFor(active);
  },
};

// A new entry in the history for every change of view or row, so Back returns to it.
function go(view, params = null) {
  notice.hidden = true;
  const link = ctx.link(view, params) || `#${view}`;
  if (link !== location.hash) history.pushState(null, "", link);
  activate(view, params);
}

function activate(view, params = null) {
  if (!(view in views)) view = "home";
  for (const [name, module] of Object.entries(views)) {
    const on = name === view;
    document.getElementById(`view-${name}`).hidden = !on;
    const tab = document.getElementById(`tab-${name}`);
    if (tab) tab.setAttribute("aria-selected", String(on)); // the landing has no tab
    if (!on && module.hide) module.hide();
  }
  active = view;
  document.body.dataset.view = view;
  rules.offerFor(view);
  ctx.clearError();
  showDecimals(/\d\.\d|\.\d/.test(ctx.text()));
  views[view].show(ctx.text(), params);
}

// What each address parameter may hold (the row, `coins`, is checked by the server). A link
// is data: a bad value is dropped, so the view uses its default, and a short notice says so.
const PARAMS = {
  rules: { test: (text) => rules.valid(text) }, // the patterns of /api/rules
  show: /^(?:total|margin|first)$/,
  best: /^[01]$/,
  cell: /^\d{1,4},\d{1,4}$/,
  classroom: /^[01]$/,
  method: /^(?:fill|memo)$/,
  step: /^[1-9]\d{0,6}$/,
  opponent: /^[a-z][a-z0-9]{0,20}(?::[a-z0-9]{1,10})?$/,
  seat: /^(?:first|second|\d{1,2})$/,
  moves: /^[LRB0-9 ]{0,9000}$/,
  ply: /^\d{1,7}$/,
  seed: /^\d{1,10}$/,
  hide: /^[01]$/,
  vars: /^\d{1,5}:[LRB0-9 ]{1,9000}(?:;\d{1,5}:[LRB0-9 ]{1,9000}){0,99}$/, // the board's variations
  var: /^\d{1,3}$/,
  puzzle: /^(?:daily|\d{1,10}|(?:greedy-trap|parity-trap|endgame|misere):\d{1,10})$/,
};
const notice = document.getElementById("link-notice");

function checkedParams(view, params) {
  const bad = view && !(view in views) ? [`view “${view.slice(0, 30)}”`] : [];
  for (const [name, value] of Object.entries(params)) {
    if (name === "coins" || (PARAMS[name] && PARAMS[name].test(value))) continue;
    bad.push(`${name.slice(0, 20)}=${value.slice(0, 30)}`);
    delete params[name];
  }
  notice.textContent = bad.length
    ? `This link's ${bad.join(", ")} ${bad.length > 1 ? "are" : "is"} not valid here; the default is used instead.`
    : "";
  notice.hidden = !bad.length;
  return params;
}

function route() {
  const [view, query] = location.hash.replace(/^#/, "").split("?");
  const params = checkedParams(view, Object.fromEntries(new URLSearchParams(query || "")));
  if (params.coins) input.value = params.coins;
  if (RULED.includes(view || "home")) rules.set(params.rules || null);
  delete params.coins;
  delete params.rules;
  activate(view || "home", Object.keys(params).length ? params : null);
}

// A new row or other rules in Play end the game on the board: only once the player says so
// (play.js asks); kept, the game's row and rules go back in the form.
async function mayLeaveGame(what) {
  if (active !== "play" || (await play.mayDiscard(what))) return true;
  const kept = play.playing();
  ctx.keepRow(kept.text, kept.rules);
  return false;
}

document.getElementById("row-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!(await mayLeaveGame("A new row"))) return;
  go(active && active !== "home" ? active : "solve");
});

document.getElementById("random-go").addEventListener("click", async () => {
  const field = document.getElementById("random-n");
  const most = ctx.limits.random_coins;
  const n = Number(field.value);
  field.max = String(most);
  if (!Number.isInteger(n) || n < 1 || n > most) {
    field.setAttribute("aria-invalid", "true");
    ctx.error(`Coins: type a whole number from 1 to ${most.toLocaleString()}.`, { row: false });
    return;
  }
  const seed = document.getElementById("random-seed");
  if (seed.value !== "" && !(Number.isInteger(Number(seed.value)) && Number(seed.value) >= 0 && Number(seed.value) < 2 ** 32)) {
    seed.setAttribute("aria-invalid", "true");
    ctx.error("Seed: leave it empty or type a whole number from 0 to 4,294,967,295.", { row: false });
    return;
  }
  field.removeAttribute("aria-invalid");
  seed.removeAttribute("aria-invalid");
  try {
    const row = await get("random", {
      n, values: document.getElementById("random-values").value, seed: seed.value,
    });
    if (!(await mayLeaveGame("A random row"))) return;
    input.value = row.coins.join(" ");
    go(active && active !== "home" ? active : "solve");
  } catch (error) {
    ctx.error(`Values: ${error.message.replace(/^query parameter values: /, "")}`, { row: false });
  }
});

for (const tab of document.querySelectorAll('[role="tab"]')) {
  tab.addEventListener("click", () => go(tab.dataset.view));
}

// The shortcuts are a modal <dialog>: showModal makes the page behind it inert (Tab stays in
// it), Esc closes it, and closing returns focus to what had it before.
function toggleOverlay(open) {
  if (open && !overlay.open) {
    overlay.showModal();
    document.getElementById("keys-close").focus();
  } else if (!open && overlay.open) {
    overlay.close();
  }
}
document.getElementById("keys-close").addEventListener("click", () => toggleOverlay(false));
overlay.addEventListener("click", (event) => {
  const box = overlay.getBoundingClientRect(); // a click on the backdrop, outside the box
  const inside = event.clientX >= box.left && event.clientX <= box.right
    && event.clientY >= box.top && event.clientY <= box.bottom;
  if (event.target === overlay && !inside) toggleOverlay(false);
});

// Game and stepper keys work wherever focus is, except in a text field; a handled key never
// reaches a focused select or radio button (which would change the opponent or the method).
const TEXT_FIELDS = 'input:not([type]), input[type="text"], input[type="number"], input[type="search"], textarea, [contenteditable]';
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest(TEXT_FIELDS)) return;
  if (overlay.open) {
    if (event.key === "Escape" || event.key === "?") {
      toggleOverlay(false);
      event.preventDefault();
    }
    return;
  }
  if (document.querySelector("dialog[open]")) return; // another modal dialog takes the keys
  if (event.key === "?") {
    toggleOverlay(true);
    event.preventDefault();
    return;
  }
  const module = views[active];
  if (module && module.key && module.key(event.key)) {
    event.preventDefault();
    event.stopPropagation();
  }
}, true);

// The "why not" rows open, on the analysis board, that strategy's game moving first against
// perfect play.
for (const button of document.querySelectorAll("button.load")) {
  button.addEventListener("click", async () => {
    const strategy = button.dataset.strategy;
    try {
      const duel = await post("duel", { coins: button.dataset.coins, first: strategy, second: "optimal" });
      ctx.load(button.dataset.coins, "analysis", { moves: duel.line, ply: "0" });
    } catch (error) {
      ctx.error(error.message, { row: false });
    }
  });
}

window.addEventListener("popstate", route);

for (const module of Object.values(views)) module.init(ctx);
get("limits")
  .then((limits) => {
    Object.assign(ctx.limits, limits);
    document.getElementById("random-n").max = String(limits.random_coins);
  })
  .catch(() => {});
rules.init(async () => {
  if (await mayLeaveGame("Other rules")) go(RULED.includes(active) ? active : "solve");
})
  .catch((error) => ctx.error(error.message, { row: false }))
  .finally(route);
