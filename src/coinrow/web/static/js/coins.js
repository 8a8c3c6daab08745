// The row of coins of Play and of the analysis board: one button a coin, marked with who took
// it and when, the ends that can be taken, and the hinted moves. Nothing is decided here: the
// legal moves, their words and who took what come from the server's answer (/api/play,
// /api/analysis), which the library computes.
import { fmt } from "./api.js";

// The CSS class of a seat's colour.
export function seatClass(seat) {
  return seat === 0 ? "first" : seat === 1 ? "second" : "other";
}

// Who took each coin up to move `ply` of the line `played`: index -> [seat, move number].
export function owners(played, ply) {
  const owner = new Map();
  played.slice(0, ply).forEach((row, k) => row.indices.forEach((index) => owner.set(index, [row.seat, k + 1])));
  return owner;
}

// A coin's index -> the legal move that takes that coin alone (a click on the coin plays it).
export function singleMoves(legal) {
  const moves = new Map();
  for (const item of legal) {
    if (item.indices.length === 1 && !moves.has(item.indices[0])) moves.set(item.indices[0], item.move);
  }
  return moves;
}

// The coins shown of a row of n: all of them when they fit (`fit` coins); otherwise the `ends`
// coins at each end of what is left (`remaining`, ascending indices) with the coins just taken
// beside them, and the gap between: [its place among the shown coins, how many coins it hides].
export function shownCoins(n, remaining, { fit, ends }) {
  if (n <= fit) return { shown: [...Array(n).keys()], gap: null };
  const left = remaining.length ? remaining[0] : n;
  const right = remaining.length ? remaining[remaining.length - 1] : -1;
  const near = new Set();
  for (let k = Math.max(0, left - 1); k <= Math.min(n - 1, left + ends - 1); k += 1) near.add(k);
  for (let k = Math.max(0, right - ends + 1); k <= Math.min(n - 1, right + 1); k += 1) near.add(k);
  const shown = [...near].sort((a, b) => a - b);
  const cut = shown.findIndex((k, i) => i > 0 && k > shown[i - 1] + 1);
  return { shown, gap: cut > 0 ? [cut, shown[cut] - shown[cut - 1] - 1] : null };
}

// The buttons of the row: `data` is the server's answer (coins, legal moves); `owner` and
// `single` as above; `last` the indices the move shown took; `hinted(move)` whether a move is
// marked; `named(seat)` a seat's name.
export function coinButtons(data, { shown, gap, owner, single, last, hinted, named }) {
  const buttons = shown.map((index) => {
    const coin = data.coins[index];
    const button = document.createElement("button");
    button.type = "button";
    button.className = "coin";
    button.dataset.index = index;
    button.textContent = fmt(coin);
    const taken = owner.get(index);
    const move = single.get(index);
    if (taken) {
      const [seat, number] = taken;
      button.classList.add("taken", seatClass(seat));
      if (last.includes(index)) button.classList.add("last");
      button.disabled = true;
      button.title = `taken by ${named(seat).toLowerCase()} at move ${number}${last.includes(index) ? " (the last move)" : ""}`;
      button.setAttribute("aria-label", `${fmt(coin)}, ${button.title}`);
    } else if (move) {
      button.classList.add("end");
      button.dataset.move = move;
      const legal = data.legal.find((item) => item.move === move);
      button.title = `${legal.words} (${move})`;
      if (hinted(move)) button.classList.add("hinted");
    } else {
      button.disabled = true;
      button.title = "not takeable now";
    }
    return button;
  });
  if (gap) {
    const span = document.createElement("span");
    span.className = "gap";
    span.textContent = `… ${gap[1].toLocaleString()} more coins …`;
    buttons.splice(gap[0], 0, span);
  }
  return buttons;
}
