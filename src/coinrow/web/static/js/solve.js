// Solve: totals, margin, winner, the optimal line and who takes which coin; a share link.
import { fmt, post } from "./api.js";

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
  if (text === shown) return;
  render(text);
}

async function render(text) {
  let data;
  try {
    data = await post("solve", { coins: text });
  } catch (error) {
    shown = null;
    $("solve-result").hidden = true;
    ctx.error(error.message);
    return;
  }
  shown = text;
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
  const words = [...data.first_moves].map((move) => {
    const side = move === "L" ? "left" : "right";
    return coins ? `take the ${side} coin (${fmt(coins[move === "L" ? 0 : n - 1])})` : `take the ${side} coin`;
  });
  $("solve-best").textContent = words.length === 2 ? `either: ${words.join(" or ")}` : words[0];
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
