// Play under other rules (the rules selector): you take one seat, the computer plays every
// other seat perfectly (the first optimal move the server gives). The server is stateless:
// each request sends the coins, the rules and the moves, and /api/play answers with the
// seat to move, the legal moves and the coins each takes, the optimal moves, and the totals.
import { fmt, moveWords, post } from "./api.js";
import { drawRing, RING_LIMIT } from "./ring.js";

const DELAY = 250; // ms before a computer's move is shown
const CHIPS = 200; // coins drawn at most
let ctx;
const $ = (id) => document.getElementById(id);
const game = { key: null, moves: [], seat: 0, data: null, token: 0, hinted: [] };

export function init(context) {
  ctx = context;
  $("pv-new").addEventListener("click", () => start([]));
  $("pv-seat").addEventListener("change", () => {
    game.seat = Number($("pv-seat").value);
    start([]);
  });
  $("pv-hint").addEventListener("click", showHint);
  $("pv-undo").addEventListener("click", undo);
  $("pv-moves").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-move]");
    if (button) human(button.dataset.move);
  });
  $("pv-board").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-move]");
    if (button) human(button.dataset.move);
  });
}

export function params() {
  const state = { seat: String(game.seat) };
  if (game.moves.length) state.moves = game.moves.join(" ");
  return state;
}

function seatOptions(players) {
  const select = $("pv-seat");
  const names = players === 2 ? ["first", "second"] : Array.from({ length: players }, (_, k) => `player ${k + 1}`);
  if (select.options.length !== names.length || select.options[0].textContent !== names[0]) {
    select.replaceChildren(...names.map((name, k) => new Option(name, String(k))));
  }
  if (game.seat >= players) game.seat = 0;
  select.value = String(game.seat);
}

function players() {
  const match = /^players:(\d+)/.exec(ctx.rules());
  return match ? Number(match[1]) : 2;
}

export function show(text, restore = null) {
  const key = `${ctx.rules()}|${text}`;
  if (restore) {
    game.seat = Number.isInteger(Number(restore.seat)) ? Number(restore.seat) : 0;
    seatOptions(players());
    game.key = key;
    start((restore.moves || "").split(/\s+/).filter(Boolean), false);
    return;
  }
  if (key !== game.key) {
    game.key = key;
    seatOptions(players());
    start([]);
  } else if (game.data && !game.data.finished && game.data.seat !== game.seat) {
    step(); // the computer's move was dropped when the view was hidden
  }
}

export function hide() {
  game.token += 1;
}

function name(seat) {
  if (seat === game.seat) return "You";
  const count = game.data ? game.data.players : 2;
  return count === 2 ? "Computer" : `Computer (player ${seat + 1})`;
}

function start(moves, fresh = true) {
  game.moves = moves;
  game.hinted = [];
  $("pv-hint-text").textContent = "";
  if (fresh) ctx.update("play");
  step();
}

// Ask for the position; while a computer seat is to move, play its move after a pause.
async function step() {
  const token = ++game.token;
  $("play-variant").dataset.state = "waiting";
  let data;
  try {
    data = await post("play", { coins: ctx.text(), rules: ctx.rules(), moves: game.moves.join(" ") });
  } catch (error) {
    if (token !== game.token) return;
    ctx.error(error.message);
    $("play-variant").dataset.state = "error";
    return;
  }
  if (token !== game.token) return;
  game.data = data;
  seatOptions(data.players);
  render();
  if (!data.finished && data.seat !== game.seat) {
    await new Promise((resolve) => setTimeout(resolve, DELAY));
    if (token !== game.token) return;
    game.moves = [...game.moves, data.move];
    ctx.update("play");
    step();
    return;
  }
  $("play-variant").dataset.state = data.finished ? "over" : "your-turn";
}

function human(move) {
  const data = game.data;
  if (!data || data.finished || data.seat !== game.seat || $("play-variant").dataset.state !== "your-turn") return;
  if (!data.legal.some((legal) => legal.move === move)) return;
  game.moves = [...game.moves, move];
  game.hinted = [];
  $("pv-hint-text").textContent = "";
  ctx.update("play");
  step();
}

function undo() {
  const data = game.data;
  if (!data) return;
  const mine = data.played.map((row) => row.seat).lastIndexOf(game.seat);
  if (mine < 0) return;
  start(game.moves.slice(0, mine));
}

// A move in words, from the coins the server says it takes.
function words(move, indices, coins) {
  const values = indices.map((index) => fmt(coins[index]));
  if (/^\d+$/.test(move)) return [`Slice ${Number(move) + 1} (${values[0]})`, `eat slice ${Number(move) + 1} (${values[0]})`];
  if (move === "B") return [`Both (${values.join(" + ")})`, `take both end coins (${values.join(" and ")})`];
  const side = move[0] === "L" ? "left" : "right";
  const count = indices.length;
  if (count === 1) {
    return [side === "left" ? `← Left (${values[0]})` : `Right (${values[0]}) →`, `take the ${side} coin (${values[0]})`];
  }
  return [`${side === "left" ? "←" : ""} ${count} from the ${side} (${values.join(" + ")}) ${side === "right" ? "→" : ""}`.trim(),
    `take ${count} coins from the ${side} (${values.join(", ")})`];
}

function seatClass(seat) {
  return seat === 0 ? "first" : seat === 1 ? "second" : "other";
}

// Which optimal move a computer takes, in words: the engines' order for these rules.
function moveOrder(data) {
  if (data.players > 2) return "the tie-break's";
  if (data.rules === "circular") return "the lowest-numbered slice first, then L before R";
  if (data.rules.startsWith("take")) return "L before R, fewer coins first";
  if (data.rules === "both-ends") return "in the order L, R, B";
  return "L before R";
}

function render() {
  const data = game.data;
  const circular = data.rules === "circular";
  const mine = !data.finished && data.seat === game.seat;
  $("pv-about").textContent = `${data.players === 2 ? "The computer plays" : "The computers play"} `
    + `perfectly under ${data.rules}, taking the first optimal move (${moveOrder(data)}).`
    + (data.rules === "reply:greedy" ? " The second seat is greedy (the larger end coin), not perfect play: it is the opponent the rules name." : "");
  // Scores
  const scores = $("pv-scores");
  scores.replaceChildren();
  data.totals.forEach((total, seat) => {
    const card = document.createElement("div");
    const won = data.finished && data.winners.includes(seat);
    card.className = `score ${seatClass(seat)}${won ? " winner" : ""}${seat === data.seat ? " moving" : ""}`;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${name(seat)}${data.players > 2 && seat === game.seat ? ` (player ${seat + 1})` : ""}${seat === data.seat ? " · to move" : ""}${won ? " · wins" : ""}`;
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = fmt(total);
    const sub = document.createElement("span");
    sub.className = "sub";
    sub.textContent = `best play from here: ${fmt(data.best_totals[seat])}`;
    card.append(who, points, sub);
    scores.append(card);
  });
  // Status
  let status;
  if (data.finished) {
    const winners = data.winners;
    const least = data.rules === "misere" ? " (the smallest total wins)" : "";
    if (winners.length > 1) status = `Game over: a tie between ${winners.map((seat) => name(seat).toLowerCase()).join(" and ")}${least}.`;
    else if (winners[0] === game.seat) status = `Game over: you win with ${fmt(data.totals[game.seat])}${least}.`;
    else status = `Game over: ${name(winners[0]).toLowerCase()} wins with ${fmt(data.totals[winners[0]])}; you took ${fmt(data.totals[game.seat])}${least}.`;
  } else if (mine) {
    status = circular && data.first_slice === null ? "Your move: eat any slice of the ring." : "Your move.";
  } else {
    status = `${name(data.seat)} is thinking…`;
  }
  $("pv-status").textContent = status;
  // Who took which coin
  const owner = new Map();
  data.played.forEach((row, k) => row.indices.forEach((index) => owner.set(index, [row.seat, k + 1])));
  const ends = new Map();
  if (mine) {
    for (const legal of data.legal) if (legal.indices.length === 1 && !ends.has(legal.indices[0])) ends.set(legal.indices[0], legal.move);
  }
  $("pv-board").hidden = circular;
  $("pv-ring").hidden = !circular;
  if (circular) drawPizza(data, owner, mine);
  else drawRow(data, owner, ends);
  // Move buttons (the pizza's first slice is chosen on the ring)
  const buttons = $("pv-moves");
  buttons.replaceChildren();
  if (mine && !(circular && data.first_slice === null)) {
    for (const legal of data.legal) {
      const [short, long] = words(legal.move, legal.indices, data.coins);
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.move = legal.move;
      button.textContent = short;
      button.setAttribute("aria-label", `${legal.move}: ${long}`);
      if (game.hinted.includes(legal.move)) button.classList.add("hinted");
      buttons.append(button);
    }
  }
  $("pv-hint").disabled = !mine;
  $("pv-undo").disabled = !data.played.some((row) => row.seat === game.seat);
  // The moves played
  const list = $("pv-played");
  list.replaceChildren();
  data.played.forEach((row, k) => {
    const item = document.createElement("li");
    item.className = seatClass(row.seat);
    item.textContent = `${name(row.seat)}: ${row.move} (${words(row.move, row.indices, data.coins)[1]}), +${fmt(row.gain)}`;
    const judged = data.review && data.review[k];
    if (judged) { // the review, once the game is over: the library's label and what was best
      const verdict = document.createElement("strong");
      verdict.className = `label ${judged.label}`;
      verdict.textContent = judged.label;
      item.append(" · ", verdict);
      if (judged.label !== "best") item.append(` (best: ${judged.best_moves.join(" or ")}; lost ${fmt(judged.loss)})`);
    }
    list.append(item);
  });
  $("pv-review-note").hidden = !data.review;
  $("pv-played-none").hidden = data.played.length > 0;
  const link = ctx.link("play");
  $("pv-link").hidden = !link;
  if (link) $("pv-link").href = link;
}

function drawRow(data, owner, ends) {
  const board = $("pv-board");
  board.replaceChildren();
  data.coins.slice(0, CHIPS).forEach((coin, index) => {
    const taken = owner.get(index);
    const move = ends.get(index);
    const chip = document.createElement(move ? "button" : "span");
    chip.className = `coin${taken ? ` taken ${seatClass(taken[0])}` : ""}${move ? " end" : ""}`;
    chip.textContent = fmt(coin);
    if (move) {
      chip.type = "button";
      chip.dataset.move = move;
      chip.setAttribute("aria-label", `${move}: take ${fmt(coin)}`);
      if (game.hinted.includes(move)) chip.classList.add("hinted");
    } else {
      chip.setAttribute("role", "img");
      chip.setAttribute("aria-label", taken ? `${fmt(coin)}, taken by ${name(taken[0]).toLowerCase()} at move ${taken[1]}` : `${fmt(coin)}, not taken yet`);
    }
    board.append(chip);
  });
  if (data.coins.length > CHIPS) {
    const more = document.createElement("span");
    more.className = "gap";
    more.textContent = `… ${data.coins.length - CHIPS} more`;
    board.append(more);
  }
}

function drawPizza(data, owner, mine) {
  const box = $("pv-ring");
  if (data.coins.length > RING_LIMIT) {
    box.textContent = `The ring is drawn for pizzas of up to ${RING_LIMIT} slices.`;
    return;
  }
  const choices = new Map();
  if (mine) for (const legal of data.legal) choices.set(legal.indices[0], legal.move);
  const hinted = data.legal.filter((legal) => game.hinted.includes(legal.move)).map((legal) => legal.indices[0]);
  drawRing(box, data.coins, {
    outer: data.coins.map((_, s) => (owner.has(s) ? (data.players === 2 ? ["1st", "2nd"][owner.get(s)[0]] : `P${owner.get(s)[0] + 1}`) : null)),
    marked: hinted,
    classes: data.coins.map((_, s) => (owner.has(s) ? `eaten ${seatClass(owner.get(s)[0])}` : "")),
    labels: data.coins.map((coin, s) => {
      if (owner.has(s)) return `Slice ${s + 1}, value ${fmt(coin)}: eaten by ${name(owner.get(s)[0]).toLowerCase()} at move ${owner.get(s)[1]}`;
      return `Slice ${s + 1}, value ${fmt(coin)}${choices.has(s) ? ": eat it" : ""}`;
    }),
    active: (s) => choices.has(s),
    caption: data.first_slice === null ? "eat any slice" : "eat next to the gap",
    title: `The pizza: ${data.coins.length} slices; outside, who ate each`,
  }, (s) => human(choices.get(s)));
}

function showHint() {
  const data = game.data;
  if (!data || data.finished || data.seat !== game.seat) return;
  game.hinted = data.best_moves;
  const described = data.best_moves.map((move) => { // the server's words for each best move
    const legal = data.legal.find((item) => item.move === move);
    return moveWords(legal.words, legal.indices.map((index) => data.coins[index]));
  });
  $("pv-hint-text").textContent = `Best: ${described.join(", or ")}. With best play from here you end with ${fmt(data.best_totals[game.seat])}.`;
  $("pv-hint-text").dataset.moves = data.best_moves.join(" ");
  render();
}

// Keys: ← and → take the left or right coin (one coin), h a hint, u undo.
export function key(name) {
  const data = game.data;
  if (name === "h") showHint();
  else if (name === "u") undo();
  else if (name === "ArrowLeft" || name === "ArrowRight") {
    if (!data) return false;
    const side = name === "ArrowLeft" ? "L" : "R";
    const move = data.legal.find((legal) => legal.move === side || legal.move === `${side}1`);
    if (move) human(move.move);
  } else return false;
  return true;
}
