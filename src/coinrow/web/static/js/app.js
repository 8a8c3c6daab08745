// The page: one row of coins shared by four views (Solve, Explore, Play, Learn), tabs, the
// address (#view?coins=...) as a share link, the random row form and keyboard shortcuts.
import { get } from "./api.js";
import * as explore from "./explore.js";
import * as learn from "./learn.js";
import * as play from "./play.js";
import * as solve from "./solve.js";

const views = { solve, explore, play, learn };
const input = document.getElementById("coins");
const errorBox = document.getElementById("error");
let active = null;

const ctx = {
  limits: { table_coins: 40, steps_coins: 40 },
  text: () => input.value.trim(),
  error(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  },
  clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  },
  link(view) {
    return `#${view}?coins=${encodeURIComponent(ctx.text())}`;
  },
  load(text, view = "solve") {
    input.value = text;
    go(view);
  },
};

function go(view) {
  history.replaceState(null, "", ctx.link(view));
  activate(view);
}

function activate(view) {
  if (!(view in views)) view = "solve";
  for (const [name, module] of Object.entries(views)) {
    const on = name === view;
    document.getElementById(`view-${name}`).hidden = !on;
    const tab = document.getElementById(`tab-${name}`);
    tab.setAttribute("aria-selected", String(on));
    if (!on && module.hide) module.hide();
  }
  active = view;
  document.body.dataset.view = view;
  ctx.clearError();
  views[view].show(ctx.text());
}

function route() {
  const [view, query] = location.hash.replace(/^#/, "").split("?");
  const coins = new URLSearchParams(query || "").get("coins");
  if (coins) input.value = coins;
  activate(view || "solve");
}

document.getElementById("row-form").addEventListener("submit", (event) => {
  event.preventDefault();
  go(active || "solve");
});

document.getElementById("random-go").addEventListener("click", async () => {
  try {
    const row = await get("random", {
      n: document.getElementById("random-n").value,
      values: document.getElementById("random-values").value,
      seed: document.getElementById("random-seed").value,
    });
    input.value = row.coins.join(" ");
    go(active || "solve");
  } catch (error) {
    ctx.error(error.message);
  }
});

// The arrow keys play (Play) or step (Learn), so the tabs are plain buttons reached with Tab.
for (const tab of document.querySelectorAll('[role="tab"]')) {
  tab.addEventListener("click", () => go(tab.dataset.view));
}

document.addEventListener("keydown", (event) => {
  const typing = event.target.closest("input, select, textarea, summary");
  if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
  const module = views[active];
  if (module && module.key && module.key(event.key)) event.preventDefault();
});

for (const button of document.querySelectorAll("button.load")) {
  button.addEventListener("click", () => ctx.load(button.dataset.coins, "solve"));
}

window.addEventListener("hashchange", route);

for (const module of Object.values(views)) module.init(ctx);
get("limits")
  .then((limits) => Object.assign(ctx.limits, limits))
  .catch(() => {});
route();
