// Solve: totals, margin, winner, the optimal line and who takes which coin; a share link.
// Under other rules: every player's total, the outcome, the first moves and the line, and
// for the pizza the library's ring (/api/solve's SVG) with each first slice's margin.
import { fmt, moveWords, post, rulesInfo } from "./api.js";
import { mountRing } from "./picture.js";

let ctx;
let shown = null;
const $ = (id) => document.getElementById(id);
const CHIPS = 2000; // coins drawn as chips at most

export function init(context) {
  ctx = context;
  $("share-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("share-link").href);
      $("share-done").textContent = "copied";
    } catch {
      $("share-done").textContent = "select the link to copy it";
    }
  });
}

export function params() {
  return {};
}

export function show(text) {
  const key = `${ctx.rules()}|${text}`;
  if (key === shown) return;
  if (ctx.defaultRules()) render(text, key);
  else renderVariant(text, key);
}

async function render(text, key) {
  let data;
  try {
    data = await post("solve", { coins: text });
  } catch (error) {
    shown = null;
    $("solve-result").hidden = true;
    ctx.error(error.message);
    return;
  }
  shown = key;
  $("solve-variant").hidden = true;
  $("solve-first").textContent = fmt(data.first_total);
  $("solve-second").textContent = fmt(data.second_total);
  $("solve-margin").textContent = fmt(data.margin);
  const by = fmt(data.margin).replace(/^−/, "");
  $("solve-verdict").textContent = {
    first: `The first player wins by ${by}.`,
    second: `The second player wins by ${by}.`,
    tie: "The game is a tie.",
  }[data.outcome];
  const n = data.n;
  const coins = data.coins;
  const words = data.first_move_info.map((info) => moveWords(info.words, info.coins));
  $("solve-best").textContent = words.length === 2 ? `either: ${words.join(" or ")}` : words[0];
  $("solve-best").dataset.moves = data.first_moves.join(" ");
  $("solve-line").textContent = data.line || "(left out for long rows)";
  const list = $("solve-coins");
  list.replaceChildren();
  if (coins) {
    const owner = new Map();
    data.first_coins.forEach((index, k) => owner.set(index, ["first", 2 * k + 1]));
    data.second_coins.forEach((index, k) => owner.set(index, ["second", 2 * k + 2]));
    for (const [index, coin] of coins.slice(0, CHIPS).entries()) {
      const [player, move] = owner.get(index);
      const item = document.createElement("li");
      item.className = player;
      item.textContent = fmt(coin);
      const small = document.createElement("small");
      small.textContent = `move ${move}`;
      item.append(small);
      item.title = `coin ${index + 1}: ${fmt(coin)}, taken by the ${player} player at move ${move}`;
      list.append(item);
    }
  }
  const omitted = $("solve-omitted");
  omitted.hidden = Boolean(coins) && n <= CHIPS;
  omitted.textContent = coins
    ? `The first ${CHIPS.toLocaleString()} of ${n.toLocaleString()} coins are shown.`
    : `${n.toLocaleString()} coins: the line and the coins taken are left out for rows this long.`;
  const link = ctx.link("solve");
  $("share-link").hidden = !link;
  $("share-copy").hidden = !link;
  if (link) $("share-link").href = link;
  $("share-done").textContent = link ? "" : ctx.linkNote();
  $("solve-result").hidden = false;
}

// --- other rules ----------------------------------------------------------------------------

const ORDINAL = ["first", "second"];

function seatName(seat, players) {
  if (players > 2) return `Player ${seat + 1}`;
  return seat === 0 ? "First player" : "Second player";
}

async function renderVariant(text, key) {
  const rules = ctx.rules();
  let data;
  let info;
  try {
    data = await post("solve", { coins: text, rules }); // its refusal is the one to show
    info = await rulesInfo(rules);
  } catch (error) {
    shown = null;
    $("solve-variant").hidden = true;
    $("solve-result").hidden = true;
    ctx.error(error.message);
    return;
  }
  if (rules !== ctx.rules()) return; // the rules changed while this answer was on its way
  shown = key;
  $("solve-result").hidden = true;
  const players = data.totals.length;
  const scores = $("solve-v-scores");
  scores.replaceChildren();
  data.totals.forEach((total, seat) => {
    const card = document.createElement("div");
    card.className = `score ${seat < 2 ? ORDINAL[seat] : "other"}${data.winners.includes(seat) ? " winner" : ""}`;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = seatName(seat, players) + (data.winners.includes(seat) && data.outcome !== "tie" ? " · wins" : "");
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = fmt(total);
    card.append(who, points);
    scores.append(card);
  });
  let verdict;
  if (data.outcome === "tie") {
    verdict = players > 2
      ? `A tie: ${data.winners.map((seat) => `player ${seat + 1}`).join(" and ")} have the most.`
      : "The game is a tie.";
  } else if (players > 2) {
    verdict = `Player ${data.winners[0] + 1} wins with ${fmt(data.totals[data.winners[0]])}.`;
  } else {
    const by = fmt(data.margin).replace(/^−/, "");
    verdict = info.lowest_wins
      ? `The ${data.outcome} player wins, taking ${by} less.`
      : `The ${data.outcome} player wins by ${by}.`;
  }
  $("solve-v-verdict").textContent = verdict;
  // The margin as the library names it for these rules (the misère game's lead, second −
  // first, is the number Explore's triangle shows): its label and value from the server.
  $("solve-v-margin").parentElement.hidden = data.margin === null;
  $("solve-v-margin-label").textContent = info.margin_label;
  if (data.margin !== null) $("solve-v-margin").textContent = fmt(info.lowest_wins ? data.objective : data.margin);
  const circular = info.circle;
  const firsts = data.first_move_info.map((info) => moveWords(info.words, info.coins));
  $("solve-v-best").textContent = firsts.length > 1 ? `any of: ${firsts.join("; ")}` : firsts[0] || "none";
  $("solve-v-best").dataset.moves = data.first_moves.join(" ");
  $("solve-v-line").textContent = data.line;
  $("solve-v-about").textContent = `${info.description} Moves: ${info.moves}. Solved by ${data.engine}.`;
  $("solve-ring-box").hidden = !circular;
  if (circular) showRing(data);
  const link = ctx.link("solve");
  $("solve-v-link").hidden = !link;
  if (link) $("solve-v-link").href = link;
  $("solve-variant").hidden = false;
}

function showRing(data) {
  const info = $("solve-ring-info");
  const best = `The best first slice: slice ${data.start} (${fmt(data.coins[data.start])}).`;
  if (!data.svg) {
    $("solve-ring").replaceChildren();
    info.textContent = `The ring is drawn for pizzas of up to ${ctx.limits.table_coins} slices; `
      + `this one has ${data.n.toLocaleString()}. ${best}`;
    return;
  }
  const ring = mountRing($("solve-ring"), data.svg, (slice) => {
    ring.select(slice);
    info.textContent = ring.words(slice);
  });
  for (const slice of ring.slices) ring.activate(slice);
  info.textContent = `${best} Tab to a slice or tap it to read it.`;
}
