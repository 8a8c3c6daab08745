// Play: one view for every rules. A game against an opponent level or friends on the same
// device, with a review like lichess's: a move list to click through, undo and redo, the
// last move marked, the evaluation chart with mistakes marked, records and share links.
// The server is stateless and holds the game logic: each step is one /api/play call with the
// coins, the rules, the moves, the move shown (ply), your seat and the opponent; it answers
// with the position, the computer's replies, the legal moves and their words, the best moves,
// the totals, every move's review, the evaluation after every move and the library's SVG.
import { approx, fmt, get, moveWords, post } from "./api.js";
import { mountRing } from "./picture.js";
import { mountTriangle } from "./triangle.js";

const FRIEND = "friend";
const BOARD_ALL = 24; // longer rows show the two ends of what is left, not every coin
const BOARD_END = 6;
let ctx;
const $ = (id) => document.getElementById(id);
const game = {
  key: null, moves: [], line: null, ply: 0, seat: 0, opponent: "optimal", seed: 0, data: null, token: 0,
  revealed: false, hinted: [], pictured: true,
};
const about = new Map();
let levelsFor = null; // the rules whose levels fill the opponent list

export function init(context) {
  ctx = context;
  $("play-new").addEventListener("click", () => newGame());
  $("play-invite").addEventListener("click", () => invite());
  $("play-seat").addEventListener("change", () => newGame());
  $("play-strategy").addEventListener("change", () => newGame());
  $("play-hint").addEventListener("click", () => showHint());
  $("play-undo").addEventListener("click", () => undo());
  $("play-redo").addEventListener("click", () => redo());
  for (const id of ["play-board", "play-choices"]) {
    $(id).addEventListener("click", (event) => {
      const button = event.target.closest("button[data-move]");
      if (button && !button.disabled) human(button.dataset.move);
    });
  }
  $("play-moves").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-ply]");
    if (button) goTo(Number(button.dataset.ply));
  });
  $("play-chart").addEventListener("click", (event) => {
    const point = event.target.closest("[data-ply]");
    if (point) goTo(Number(point.dataset.ply));
  });
  $("play-hide-eval").addEventListener("change", () => {
    game.revealed = false;
    applyEval();
    render();
    ctx.update("play");
  });
  $("play-show-eval").addEventListener("click", () => {
    game.revealed = true;
    applyEval();
    refresh(); // with the picture, which a hidden evaluation does not ask for
  });
  $("play-export").addEventListener("click", exportRecord);
  $("play-import-open").addEventListener("click", () => {
    $("play-import-box").hidden = !$("play-import-box").hidden;
    if (!$("play-import-box").hidden) $("play-import-text").focus();
  });
  $("play-import-file").addEventListener("change", async () => {
    const file = $("play-import-file").files[0];
    if (file) $("play-import-text").value = await file.text();
  });
  $("play-import-go").addEventListener("click", importRecord);
}

// The line of moves as the library writes it (the server's `line`), or the moves apart.
function line() {
  return game.line !== null ? game.line : game.moves.join(" ");
}

function friend() {
  return game.opponent === FRIEND;
}

// The opponent levels that play these rules (GET /api/levels?rules=...), and a friend.
async function loadLevels(rules) {
  if (levelsFor === rules) return;
  levelsFor = rules;
  const select = $("play-strategy");
  try {
    const data = await get("levels", { rules });
    select.replaceChildren();
    for (const level of data.levels) {
      select.append(new Option(level.name, level.strategy));
      about.set(level.strategy, `${level.description}. Measured in the plain game: loses `
        + `${fmt(level.loss)} points a game on average against perfect play.`);
    }
  } catch (error) {
    levelsFor = null;
    ctx.error(error.message, { row: false });
  }
  select.append(new Option("Friends on this device (every seat)", FRIEND));
  about.set(FRIEND, "Pass and play: every player moves on this device; the review covers all.");
  setOpponent(game.opponent);
}

function setOpponent(name) {
  const select = $("play-strategy");
  select.value = name;
  if (select.value !== name) select.value = select.options[select.options.length - 2]?.value || FRIEND;
  game.opponent = select.value;
  $("play-about").textContent = about.get(game.opponent) || "";
}

function seatOptions(players) {
  const select = $("play-seat");
  const names = players === 2 ? ["first", "second"] : Array.from({ length: players }, (_, k) => `player ${k + 1}`);
  if (select.options.length !== names.length || select.options[0].textContent !== names[0]) {
    select.replaceChildren(...names.map((name, k) => new Option(name, String(k))));
  }
  if (game.seat >= players) game.seat = 0;
  select.value = String(game.seat);
}

export function params() {
  const state = { opponent: game.opponent, seat: String(game.seat), seed: String(game.seed) };
  if (game.moves.length) state.moves = line();
  if (game.ply !== game.moves.length) state.ply = String(game.ply);
  if ($("play-hide-eval").checked) state.hide = "1";
  return state;
}

function seatOf(text) {
  if (text === "first") return 0;
  if (text === "second") return 1;
  const seat = Number(text);
  return Number.isInteger(seat) && seat >= 0 ? seat : 0;
}

export async function show(text, restore = null) {
  const info = ctx.rulesInfo();
  const playable = !info || info.positions;
  $("play-unplayable").hidden = playable;
  $("play-game").hidden = !playable;
  if (!playable) {
    $("play-unplayable").textContent = `${info.title} cannot be played move by move here yet: `
      + "a position of these rules is more than the coins left. Solve shows its answer.";
    $("view-play").dataset.state = "unplayable";
    return;
  }
  const key = `${ctx.rules()}|${text}`;
  await loadLevels(ctx.rules());
  seatOptions(info ? info.players : 2);
  if (restore) {
    game.key = key;
    game.seat = seatOf(restore.seat);
    seatOptions(info ? info.players : 2);
    setOpponent(restore.opponent || "optimal");
    $("play-hide-eval").checked = restore.hide === "1";
    game.moves = (restore.moves || "").split(/\s+/).filter(Boolean); // the server reads the line
    game.line = restore.moves || "";
    game.ply = restore.ply === undefined ? null : Number(restore.ply); // null: the whole line
    game.seed = Number(restore.seed) || Math.floor(Math.random() * 2 ** 31);
    game.revealed = false;
    refresh();
    return;
  }
  if (key !== game.key) newGame();
  else if (game.data) render();
}

// An online game of this row and these rules against a friend: the server keeps the game and
// gives this browser its seat's secret token (kept here, never in the link to share).
async function invite() {
  try {
    const made = await post("online/games", { coins: game.data.coins, rules: ctx.rules(), seat: game.seat });
    localStorage.setItem(`coinrow-online:${made.game}`, made.token);
    location.assign(new URL(made.invite.replace(/^\//, ""), document.baseURI).href);
  } catch (error) {
    ctx.error(error.message, { row: false });
  }
}

export function hide() {
  game.token += 1; // drop answers on their way; show() resumes the game
}

function newGame() {
  game.key = `${ctx.rules()}|${ctx.text()}`;
  game.moves = [];
  game.line = null;
  game.ply = 0;
  game.seat = Number($("play-seat").value) || 0;
  game.opponent = $("play-strategy").value || "optimal";
  game.seed = Math.floor(Math.random() * 2 ** 31);
  game.revealed = false;
  $("play-about").textContent = about.get(game.opponent) || "";
  $("play-record").hidden = true;
  refresh();
}

// One call: the position after game.ply moves; at the end of the line, the computer answers.
async function refresh() {
  const token = ++game.token;
  setState("loading");
  let data;
  game.pictured = !evalHidden() || Boolean(ctx.rulesInfo() && ctx.rulesInfo().circle); // the ring is the board
  try {
    data = await post("play", {
      coins: ctx.text(),
      rules: ctx.rules(),
      moves: line(),
      ply: game.ply,
      seat: friend() ? null : game.seat,
      picture: game.pictured,
      opponent: friend() ? "optimal" : game.opponent,
      seed: game.seed,
    });
  } catch (error) {
    if (token !== game.token) return;
    ctx.error(error.message);
    setState("error");
    $("play-board").replaceChildren();
    $("play-status").textContent = "This row cannot be played: fix it above and press Go.";
    $("play-moves").replaceChildren();
    return;
  }
  if (token !== game.token) return;
  ctx.clearError();
  game.data = data;
  game.moves = data.moves;
  game.line = data.line;
  game.ply = data.ply;
  game.hinted = [];
  seatOptions(data.players);
  ctx.update("play");
  render();
}

function yours() {
  const data = game.data;
  return Boolean(data) && !data.finished && (friend() || data.seat === game.seat);
}

function setState(state) {
  $("view-play").dataset.state = state;
  const idle = ["your-turn", "over", "review"].includes(state);
  $("play-hint").disabled = state !== "your-turn";
  $("play-undo").disabled = !idle || undoTarget() === null;
  $("play-redo").disabled = !idle || game.ply >= game.moves.length;
}

function evalHidden() {
  const data = game.data;
  const over = data && data.over && game.ply === game.moves.length;
  return $("play-hide-eval").checked && !game.revealed && !over;
}

function applyEval() {
  const hidden = evalHidden();
  document.body.classList.toggle("hide-eval", hidden);
  $("play-show-eval").hidden = !hidden;
}

function seatClass(seat) {
  return seat === 0 ? "first" : seat === 1 ? "second" : "other";
}

function name(seat) {
  const players = game.data ? game.data.players : 2;
  if (friend()) return players === 2 ? ["First player", "Second player"][seat] : `Player ${seat + 1}`;
  if (seat === game.seat) return "You";
  return players === 2 ? "Computer" : `Computer (player ${seat + 1})`;
}

function render() {
  const data = game.data;
  if (!data) return;
  if (!game.pictured && !evalHidden()) { // the evaluation shows again: ask for the picture
    refresh();
    return;
  }
  applyEval();
  setState(data.finished ? "over" : yours() ? "your-turn" : "review");
  renderScores();
  renderStatus();
  renderBoard();
  renderChoices();
  renderPicture();
  renderMoves();
  renderChart();
  renderAnalysis();
  renderLink();
  $("play-hint-text").textContent = "";
}

function renderScores() {
  const data = game.data;
  const box = $("play-scores");
  box.replaceChildren();
  data.totals.forEach((total, seat) => {
    const card = document.createElement("div");
    const won = data.finished && data.winners.includes(seat);
    card.className = `score ${seatClass(seat)}${won ? " winner" : ""}${seat === data.seat ? " moving" : ""}`;
    card.dataset.seat = String(seat);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${name(seat)}${data.players > 2 && seat === game.seat && !friend() ? ` (player ${seat + 1})` : ""}`
      + `${seat === data.seat ? " · to move" : ""}${won ? " · wins" : ""}`;
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = fmt(total);
    const sub = document.createElement("span");
    sub.className = "sub eval";
    sub.append("best play from here: ");
    const best = document.createElement("span");
    best.className = "best";
    best.textContent = fmt(data.best_totals[seat]);
    sub.append(best);
    card.append(who, points, sub);
    box.append(card);
  });
}

function renderStatus() {
  const data = game.data;
  const parts = [];
  if (game.ply > 0) {
    const row = data.played[game.ply - 1];
    const coins = row.indices.map((index) => data.coins[index]);
    const who = name(row.seat);
    parts.push(`Move ${game.ply}: ${who === "You" ? "you" : who} ${moveWords(row.words, coins).replace(/^take/, "took")}.`
      .replace(/^(Move \d+: )you /, "$1You "));
  }
  if (data.finished) {
    const winners = data.winners;
    const least = ctx.rulesInfo() && ctx.rulesInfo().lowest_wins ? " (the smallest total wins)" : "";
    const totals = data.totals.map((total, seat) => `${name(seat).toLowerCase()} ${fmt(total)}`).join(", ");
    if (winners.length > 1) parts.push(`Game over: ${totals}. A tie${least}.`);
    else if (!friend() && winners[0] === game.seat) parts.push(`Game over: ${totals}. You win!${least}`);
    else parts.push(`Game over: ${totals}. ${name(winners[0])} wins${least}.`);
  } else if (yours()) {
    parts.push(friend() ? `${name(data.seat)}'s turn.` : "Your turn.");
  } else {
    parts.push("Reviewing: press → or Redo to go forward, or pick a move in the list.");
  }
  $("play-status").textContent = parts.join(" ");
}

// Who took each coin up to the move shown: index -> [seat, move number].
function owners() {
  const owner = new Map();
  game.data.played.slice(0, game.ply).forEach((row, k) => row.indices.forEach((index) => owner.set(index, [row.seat, k + 1])));
  return owner;
}

function singleMoves() {
  const moves = new Map(); // a coin's index -> the legal move that takes that coin alone
  if (!yours()) return moves;
  for (const legal of game.data.legal) {
    if (legal.indices.length === 1 && !moves.has(legal.indices[0])) moves.set(legal.indices[0], legal.move);
  }
  return moves;
}

function renderBoard() {
  const data = game.data;
  const circle = Boolean(data.svg) && data.cell === null && ctx.rulesInfo() && ctx.rulesInfo().circle;
  $("play-board").hidden = circle;
  $("play-ring").hidden = !circle;
  const owner = owners();
  const single = singleMoves();
  const last = game.ply > 0 ? data.played[game.ply - 1].indices : [];
  if (circle) {
    renderRing(owner, single, last);
    return;
  }
  const n = data.coins.length;
  let shown = [...data.coins.keys()];
  let gap = null;
  const left = data.remaining.length ? data.remaining[0] : n;
  const right = data.remaining.length ? data.remaining[data.remaining.length - 1] : -1;
  if (n > BOARD_ALL) {
    // The ends of what is left, close together, with the coins just taken beside them.
    const near = new Set();
    for (let k = Math.max(0, left - 1); k <= Math.min(n - 1, left + BOARD_END - 1); k += 1) near.add(k);
    for (let k = Math.max(0, right - BOARD_END + 1); k <= Math.min(n - 1, right + 1); k += 1) near.add(k);
    shown = [...near].sort((a, b) => a - b);
    const cut = shown.findIndex((k, i) => i > 0 && k > shown[i - 1] + 1);
    gap = cut > 0 ? [cut, shown[cut] - shown[cut - 1] - 1] : null;
  }
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
      button.title = `taken by ${name(seat).toLowerCase()} at move ${number}${last.includes(index) ? " (the last move)" : ""}`;
      button.setAttribute("aria-label", `${fmt(coin)}, ${button.title}`);
    } else if (move) {
      button.classList.add("end");
      button.dataset.move = move;
      const legal = data.legal.find((item) => item.move === move);
      button.title = `${legal.words} (${move})`;
      if (game.hinted.includes(move)) button.classList.add("hinted");
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
  $("play-board").replaceChildren(...buttons);
}

function renderRing(owner, single, last) {
  const ring = mountRing($("play-ring"), game.data.svg, (slice) => human(single.get(slice)));
  for (const slice of ring.slices) {
    const group = ring.group(slice);
    const taken = owner.get(slice);
    group.classList.remove("best"); // the ring's outlines are the evaluation: shown below
    if (taken) {
      group.classList.add("eaten", seatClass(taken[0]));
      group.setAttribute("aria-label", `${ring.words(slice)}; eaten by ${name(taken[0]).toLowerCase()} at move ${taken[1]}`);
    }
    if (last.includes(slice)) group.classList.add("last");
    const move = single.get(slice);
    if (move) {
      ring.activate(slice);
      group.dataset.move = move;
      if (game.hinted.includes(move)) group.classList.add("hinted");
    }
  }
}

// Every legal move as a button with the library's words (moves of several coins, both ends).
function renderChoices() {
  const data = game.data;
  const box = $("play-choices");
  box.replaceChildren();
  if (!yours()) return;
  for (const legal of data.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = legal.move;
    button.textContent = moveWords(legal.words, legal.indices.map((index) => data.coins[index]));
    button.setAttribute("aria-label", `${legal.move}: ${button.textContent}`);
    if (game.hinted.includes(legal.move)) button.classList.add("hinted");
    box.append(button);
  }
}

function renderPicture() {
  const data = game.data;
  const box = $("play-triangle");
  const note = $("play-picture-note");
  const ring = !$("play-ring").hidden;
  box.hidden = !data.svg || ring;
  if (!data.svg || ring) {
    box.replaceChildren();
    const legend = box.previousElementSibling;
    if (legend && legend.classList.contains("triangle-legend")) legend.remove();
    note.textContent = ring ? "" : data.picture_note;
    note.hidden = ring || !data.picture_note;
    return;
  }
  note.hidden = true;
  const triangle = mountTriangle(box, data.svg);
  if (data.cell) {
    const cell = triangle.cell(...data.cell);
    if (cell) cell.classList.add("current");
  }
}

function human(move) {
  if (!move || !yours() || $("view-play").dataset.state !== "your-turn") return;
  if (!game.data.legal.some((legal) => legal.move === move)) return;
  if (game.moves[game.ply] === move) {
    game.ply += 1; // the move already played here: keep the rest of the line for redo
  } else {
    game.moves = [...game.moves.slice(0, game.ply), move];
    game.line = null;
    game.ply = game.moves.length;
    $("play-record").hidden = true;
  }
  refresh();
}

function goTo(ply) {
  const target = Math.max(0, Math.min(game.moves.length, ply));
  if (target === game.ply && $("view-play").dataset.state !== "loading") return;
  game.ply = target;
  refresh();
}

function showHint() {
  const data = game.data;
  if (!yours()) return;
  game.hinted = data.best_moves;
  const words = data.best_moves.map((move) => {
    const legal = data.legal.find((item) => item.move === move);
    return moveWords(legal.words, legal.indices.map((index) => data.coins[index]));
  });
  renderBoard();
  renderChoices();
  const text = evalHidden() ? "" : ` With best play you finish with ${fmt(data.best_totals[data.seat])}.`;
  $("play-hint-text").textContent = `Best: ${words.join(", or ")}.${text}`;
  $("play-hint-text").dataset.moves = data.best_moves.join(" ");
}

// Undo goes back to before your last move (and the replies); the moves are kept for redo.
function undoTarget() {
  if (!game.data || game.ply === 0) return null;
  if (friend()) return game.ply - 1;
  const seats = game.data.played.slice(0, game.ply).map((row) => row.seat);
  const index = seats.lastIndexOf(game.seat);
  return index < 0 ? null : index;
}

function undo() {
  const target = undoTarget();
  if (target === null || !["your-turn", "over", "review"].includes($("view-play").dataset.state)) return;
  game.ply = target;
  refresh();
}

function redo() {
  if (game.ply >= game.moves.length) return;
  let ply = game.ply + 1;
  if (!friend()) {
    while (ply < game.moves.length && game.data.played[ply].seat !== game.seat) ply += 1;
  }
  game.ply = ply;
  refresh();
}

// Keys: ← and → take the coin at either end of what is left (a move of one coin; in a
// review, a step back or forward), h a hint, u undo, r redo.
export function key(keyName) {
  const data = game.data;
  // Only at the end of the line do the arrows take a coin: elsewhere they step (a review).
  const moving = $("view-play").dataset.state === "your-turn" && game.ply === game.moves.length;
  const end = (first) => {
    const single = singleMoves();
    const index = first ? data.remaining[0] : data.remaining[data.remaining.length - 1];
    return single.get(index);
  };
  const actions = {
    ArrowLeft: () => (moving ? human(end(true)) : goTo(game.ply - 1)),
    ArrowRight: () => (moving ? human(end(false)) : goTo(game.ply + 1)),
    h: showHint,
    u: undo,
    r: redo,
  };
  if (!(keyName in actions) || !data) return false;
  actions[keyName]();
  return true;
}

function renderMoves() {
  const data = game.data;
  const list = $("play-moves");
  $("play-moves-none").hidden = game.moves.length > 0;
  const items = [];
  if (game.moves.length) {
    const start = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = "0";
    button.textContent = "Start";
    if (game.ply === 0) button.setAttribute("aria-current", "step");
    start.append(button);
    items.push(start);
  }
  data.played.forEach((row, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = String(index + 1);
    const coins = row.indices.map((k) => fmt(data.coins[k])).join(" ");
    const judged = data.review[index];
    button.textContent = `${index + 1}. ${row.move} ${coins}`;
    button.className = seatClass(row.seat);
    const label = judged && !evalHidden() ? judged.label : "";
    if (label) button.classList.add(label);
    button.setAttribute("aria-label", `move ${index + 1}: ${name(row.seat)}, ${row.words} (${coins})${label ? `, ${label}` : ""}`);
    if (index + 1 === game.ply) button.setAttribute("aria-current", "step");
    item.append(button);
    items.push(item);
  });
  list.replaceChildren(...items);
}

function renderChart() {
  const box = $("play-chart");
  const data = game.data;
  const series = data.evaluation.map((point) => point.margin);
  $("play-chart-box").hidden = !data.moves.length || series.some((margin) => margin === null);
  if ($("play-chart-box").hidden) {
    box.replaceChildren();
    return;
  }
  // The chart is the page's own plot of the server's numbers (not a picture of the game).
  const values = series.map(approx);
  const width = Math.max(300, Math.min(900, box.clientWidth || 600));
  const height = 160;
  const pad = 24;
  const top = Math.max(1, ...values.map(Math.abs));
  const x = (ply) => pad + (ply * (width - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (value) => height / 2 - (value / top) * (height / 2 - pad);
  const points = values.map((value, ply) => {
    const judged = ply > 0 ? data.review[ply - 1] : null;
    const bad = judged && (judged.label === "mistake" || judged.label === "blunder") ? ` ${judged.label}` : "";
    return `<circle cx="${x(ply)}" cy="${y(value)}" r="9" class="bad${bad}"${bad ? "" : ' visibility="hidden"'}/>`
      + `<circle cx="${x(ply)}" cy="${y(value)}" r="5" class="point${ply === game.ply ? " now" : ""}" data-ply="${ply}">`
      + `<title>after move ${ply}: margin ${fmt(series[ply])}${judged ? ` (${judged.label})` : ""}</title></circle>`;
  });
  const label = `Evaluation after each move: margins ${series.map(fmt).join(", ")}`;
  box.innerHTML = `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">`
    + `<line x1="${pad}" x2="${width - pad}" y1="${height / 2}" y2="${height / 2}" class="axis"/>`
    + `<text x="2" y="14">first ahead</text><text x="2" y="${height - 4}">second ahead</text>`
    + `<polyline class="curve" points="${values.map((v, k) => `${x(k)},${y(v)}`).join(" ")}"/>`
    + `${points.join("")}</svg>`;
}

function renderAnalysis() {
  const data = game.data;
  const over = data.over;
  $("play-analysis").hidden = !over;
  if (!over) return;
  const rows = data.review.map((move, index) => {
    const row = document.createElement("tr");
    const played = data.played[index];
    const coins = played.indices.map((k) => fmt(data.coins[k])).join(" ");
    const cells = [move.step, name(played.seat), move.move, coins, move.best_moves.join(" or "), fmt(move.loss), move.label];
    for (const value of cells) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.append(cell);
    }
    row.lastChild.className = move.label;
    return row;
  });
  $("play-analysis-table").tBodies[0].replaceChildren(...rows);
  const summary = (key, seat) => {
    const mine = data.summary[key];
    if (!mine) return "";
    const who = name(seat);
    const you = who === "You";
    return `${who}: ${mine.labels.best} of ${mine.moves} moves best (${mine.accuracy.toFixed(0)}%), `
      + `${fmt(mine.total_loss)} points given away; best play from the start guaranteed `
      + `${you ? "you" : "them"} ${fmt(mine.guaranteed_start)}, and ${you ? "you" : "they"} took ${fmt(mine.final_total)}.`;
  };
  const keys = Object.keys(data.summary);
  $("play-summary").textContent = friend()
    ? keys.map((key, seat) => summary(key, seat)).join(" ")
    : summary(keys[game.seat], game.seat);
}

function renderLink() {
  const link = ctx.link("play");
  $("play-link").hidden = !link;
  if (link) $("play-link").href = link;
  $("play-link-note").textContent = link ? "" : ctx.linkNote();
}

async function exportRecord() {
  try {
    const opponent = $("play-strategy").selectedOptions[0]?.textContent || game.opponent;
    const seats = game.data.totals.map((_, seat) => (friend() ? `player ${seat + 1}` : seat === game.seat ? "you" : opponent));
    const data = await post("record", {
      coins: ctx.text(), moves: line(), players: seats.join(" vs "), rules: ctx.rules(),
    });
    const box = $("play-record");
    box.textContent = data.text;
    box.hidden = false;
    const blob = new Blob([data.text], { type: "text/plain" });
    const anchor = document.createElement("a");
    anchor.href = URL.createObjectURL(blob);
    anchor.download = "coinrow-game.txt";
    anchor.click();
    URL.revokeObjectURL(anchor.href);
  } catch (error) {
    ctx.error(error.message, { row: false });
  }
}

async function importRecord() {
  let data;
  try {
    data = await post("record/read", { text: $("play-import-text").value });
  } catch (error) {
    ctx.error(error.message, { row: false });
    return;
  }
  $("play-import-box").hidden = true;
  ctx.load(data.coins_text, "analysis", { moves: data.moves, ply: "0" }, data.rules); // a review
}
