// Play: a game against an opponent level or a friend on the same device, with a review like
// lichess's: a move list to click through (during and after the game), undo and redo, the last
// move marked, and the evaluation chart with mistakes marked. The server is stateless: every
// request sends the coins and the moves, and answers with the position, the strategy's move,
// the best moves and the totals; /api/review gives the analysis and the evaluation series.
import { approx, fmt, get, post } from "./api.js";
import * as variant from "./playrules.js";
import { mountTriangle } from "./triangle.js";

const DELAY = 250; // ms before the computer's move is shown
const FRIEND = "friend";
const BOARD_ALL = 24; // longer rows show the two ends of what is left, not every coin
const BOARD_END = 6;
let ctx;
const $ = (id) => document.getElementById(id);
const game = {
  text: null, coins: [], moves: "", ply: 0, seat: "first", opponent: "optimal", seed: 0,
  info: null, token: 0, review: null, reviewFor: null, revealed: false,
};
const about = new Map();
let levelsReady = null; // the levels are asked for when Play is first shown

// Under other rules than the plain game's, playrules.js runs the Play tab.
const ruled = () => ctx.rules() !== "plain";

export function init(context) {
  ctx = context;
  variant.init(context);
  $("play-new").addEventListener("click", () => newGame(ctx.text()));
  $("play-seat").addEventListener("change", () => newGame(ctx.text()));
  $("play-strategy").addEventListener("change", () => newGame(ctx.text()));
  $("play-left").addEventListener("click", () => human("L"));
  $("play-right").addEventListener("click", () => human("R"));
  $("play-hint").addEventListener("click", () => showHint());
  $("play-undo").addEventListener("click", () => undo());
  $("play-redo").addEventListener("click", () => redo());
  $("play-board").addEventListener("click", (event) => {
    const button = event.target.closest("button.coin");
    if (button && !button.disabled) human(button.dataset.move);
  });
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
    ctx.update("play");
  });
  $("play-show-eval").addEventListener("click", () => {
    game.revealed = true;
    applyEval();
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

async function loadLevels() {
  const select = $("play-strategy");
  try {
    const data = await get("levels");
    select.replaceChildren();
    for (const level of data.levels) {
      const option = new Option(level.name, level.strategy);
      const description = `${level.description}. Measured: loses ${fmt(level.loss)} points a game `
        + "on average against perfect play";
      about.set(level.strategy, description);
      select.append(option);
    }
  } catch (error) {
    // An older server without levels: the strategies by name.
    try {
      const data = await get("strategies");
      select.replaceChildren();
      for (const strategy of data.strategies) {
        select.append(new Option(strategy.name, strategy.name));
        about.set(strategy.name, strategy.description);
      }
    } catch (again) {
      ctx.error(again.message, { row: false });
    }
  }
  select.append(new Option("A friend on this device (two players)", FRIEND));
  about.set(FRIEND, "Pass and play: both players move on this device; the analysis covers both.");
  select.value = game.opponent;
  if (select.value !== game.opponent) {
    const option = new Option(game.opponent, game.opponent);
    select.append(option);
    select.value = game.opponent;
  }
  $("play-about").textContent = about.get(select.value) || "";
}

export function params() {
  if (ruled()) return variant.params();
  const state = { opponent: game.opponent, seat: game.seat, seed: String(game.seed) };
  if (game.moves) state.moves = game.moves;
  if (game.ply !== game.moves.length) state.ply = String(game.ply);
  if ($("play-hide-eval").checked) state.hide = "1";
  return state;
}

export async function show(text, restore = null) {
  $("play-variant").hidden = !ruled();
  $("play-plain").hidden = ruled();
  if (ruled()) {
    hide();
    variant.show(text, restore);
    return;
  }
  variant.hide();
  if (!levelsReady) levelsReady = loadLevels();
  await levelsReady;
  if (restore) {
    game.opponent = restore.opponent || "optimal";
    game.seat = restore.seat === "second" ? "second" : "first";
    $("play-seat").value = game.seat;
    setOpponent(game.opponent);
    $("play-hide-eval").checked = restore.hide === "1";
    game.text = text;
    game.moves = /^[LR]*$/.test(restore.moves || "") ? restore.moves || "" : "";
    const ply = restore.ply === undefined ? game.moves.length : Number(restore.ply);
    game.ply = Number.isInteger(ply) ? Math.max(0, Math.min(game.moves.length, ply)) : game.moves.length;
    game.seed = Number(restore.seed) || Math.floor(Math.random() * 2 ** 31);
    game.revealed = false;
    game.review = null;
    game.reviewFor = null;
    applyEval();
    refresh();
    return;
  }
  if (text !== game.text) newGame(text);
  else if (!["your-turn", "over", "review"].includes($("view-play").dataset.state)) refresh();
}

function setOpponent(name) {
  const select = $("play-strategy");
  select.value = name;
  if (select.value !== name) {
    select.append(new Option(name, name));
    select.value = name;
  }
  $("play-about").textContent = about.get(name) || "";
}

export function hide() {
  game.token += 1; // drop answers and the pending computer move; show() resumes the game
  variant.hide();
}

export function key(name) {
  if (ruled()) return variant.key(name);
  const state = $("view-play").dataset.state;
  const moving = state === "your-turn";
  const actions = {
    ArrowLeft: () => (moving ? human("L") : goTo(game.ply - 1)),
    ArrowRight: () => (moving ? human("R") : goTo(game.ply + 1)),
    h: showHint,
    u: undo,
    r: redo,
  };
  if (!(name in actions)) return false;
  actions[name]();
  return true;
}

function friend() {
  return game.opponent === FRIEND;
}

function newGame(text) {
  game.text = text;
  game.moves = "";
  game.ply = 0;
  game.seat = $("play-seat").value;
  game.opponent = $("play-strategy").value;
  game.seed = Math.floor(Math.random() * 2 ** 31);
  game.revealed = false;
  game.review = null;
  game.reviewFor = null;
  $("play-about").textContent = about.get(game.opponent) || "";
  $("play-analysis").hidden = true;
  $("play-record").hidden = true;
  applyEval();
  refresh();
}

function evalHidden() {
  const over = game.info && game.info.finished && game.ply === game.moves.length;
  return $("play-hide-eval").checked && !game.revealed && !over;
}

function applyEval() {
  const hidden = evalHidden();
  document.body.classList.toggle("hide-eval", hidden);
  $("play-show-eval").hidden = !hidden;
}

function moverAt(index) {
  return index % 2 === 0 ? "first" : "second";
}

function setState(state) {
  $("view-play").dataset.state = state;
  const yours = state === "your-turn";
  $("play-left").disabled = !yours;
  $("play-right").disabled = !yours;
  $("play-hint").disabled = !yours;
  const idle = ["your-turn", "over", "review"].includes(state);
  $("play-undo").disabled = !idle || undoTarget() === null;
  $("play-redo").disabled = !idle || game.ply >= game.moves.length;
}

async function refresh() {
  const token = ++game.token;
  setState("loading");
  let info;
  try {
    info = await post("move", {
      coins: game.text,
      moves: game.moves.slice(0, game.ply),
      strategy: friend() ? "optimal" : game.opponent,
      seed: game.seed,
    });
  } catch (error) {
    if (token === game.token) {
      ctx.error(error.message);
      setState("error");
      $("play-board").replaceChildren();
      $("play-status").textContent = "This row cannot be played: fix it above and press Go.";
      $("play-moves").replaceChildren();
    }
    return;
  }
  if (token !== game.token) return;
  ctx.clearError();
  game.info = info;
  game.coins = info.coins;
  ctx.update("play");
  renderLink();
  renderBoard();
  renderScores();
  renderTriangle(token);
  $("play-hint-text").textContent = "";
  applyEval();
  const atEnd = game.ply === game.moves.length;
  if (info.finished) {
    setState("over");
  } else if (friend() || info.turn === game.seat) {
    setState("your-turn");
  } else if (atEnd) {
    setState("computer");
    setTimeout(() => {
      if (token !== game.token) return;
      game.moves += info.move;
      game.ply = game.moves.length;
      refresh();
    }, DELAY);
  } else {
    setState("review");
  }
  status();
  review(token);
}

function name(player) {
  if (friend()) return player === "first" ? "First player" : "Second player";
  return player === game.seat ? "You" : "Computer";
}

function side(move) {
  return move === "L" ? "left" : "right";
}

function takenIndex(line, upto) {
  let lo = 0;
  let hi = game.coins.length - 1;
  let index = -1;
  for (const move of line.slice(0, upto)) {
    index = move === "L" ? lo : hi;
    if (move === "L") lo += 1;
    else hi -= 1;
  }
  return index;
}

function status() {
  const info = game.info;
  const parts = [];
  if (game.ply > 0) {
    const move = game.moves[game.ply - 1];
    const coin = fmt(game.coins[takenIndex(game.moves, game.ply)]);
    const who = name(moverAt(game.ply - 1));
    const verb = who === "You" ? "You took" : `${who} took`;
    parts.push(`Move ${game.ply}: ${verb} the ${coin} (${side(move)} end).`);
  }
  if (info.finished) {
    const a = fmt(info[`${game.seat}_total`]);
    const b = fmt(info[`${other(game.seat)}_total`]);
    if (friend()) {
      const winner = info.leader === "tie" ? "A tie." : `${name(info.leader)} wins.`;
      parts.push(`Game over: first ${fmt(info.first_total)}, second ${fmt(info.second_total)}. ${winner}`);
    } else {
      const verdict = info.leader === "tie" ? "A tie." : info.leader === game.seat ? "You win!" : "The computer wins.";
      parts.push(`Game over: you took ${a}, the computer ${b}. ${verdict}`);
    }
  } else if (friend() || info.turn === game.seat) {
    const who = friend() ? `${name(info.turn)}'s turn` : "Your turn";
    parts.push(info.lo === info.hi
      ? `${who}: take the last coin.`
      : `${who}: take the left coin (←) or the right coin (→).`);
  } else if (game.ply < game.moves.length) {
    parts.push("Reviewing: press → or Redo to go forward, or pick a move in the list.");
  } else {
    parts.push("The computer is thinking…");
  }
  $("play-status").textContent = parts.join(" ");
}

function other(seat) {
  return seat === "first" ? "second" : "first";
}

function renderBoard() {
  const board = $("play-board");
  const owners = new Map();
  let lo = 0;
  let hi = game.coins.length - 1;
  const line = game.moves.slice(0, game.ply);
  [...line].forEach((move, index) => {
    owners.set(move === "L" ? lo : hi, [moverAt(index), index + 1]);
    if (move === "L") lo += 1;
    else hi -= 1;
  });
  const last = game.ply > 0 ? takenIndex(game.moves, game.ply) : -1;
  const info = game.info;
  const yours = !info.finished && (friend() || info.turn === game.seat);
  const n = game.coins.length;
  let shown = [...game.coins.keys()];
  let gap = null;
  if (n > BOARD_ALL) {
    // The ends of what is left, close together, with the coins just taken beside them.
    const left = [];
    for (let k = Math.max(0, lo - 1); k <= Math.min(hi, lo + BOARD_END - 1); k += 1) left.push(k);
    const right = [];
    for (let k = Math.max(lo + BOARD_END, hi - BOARD_END + 1); k <= Math.min(n - 1, hi + 1); k += 1) right.push(k);
    const hidden = hi - lo + 1 - left.filter((k) => k >= lo).length - right.filter((k) => k <= hi).length;
    shown = [...left, ...right.filter((k) => !left.includes(k))];
    gap = hidden > 0 ? [left.length, hidden] : null;
  }
  const buttons = shown.map((index) => {
    const coin = game.coins[index];
    const button = document.createElement("button");
    button.type = "button";
    button.className = "coin";
    button.dataset.index = index;
    button.textContent = fmt(coin);
    const owner = owners.get(index);
    if (owner) {
      const [player, move] = owner;
      button.classList.add("taken", player);
      if (index === last) button.classList.add("last");
      button.disabled = true;
      button.title = `taken by ${friend() ? `the ${player} player` : player === game.seat ? "you" : "the computer"} at move ${move}${index === last ? " (the last move)" : ""}`;
      button.setAttribute("aria-label", `${fmt(coin)}, ${button.title}`);
    } else if (index === lo || index === hi) {
      button.classList.add("end");
      button.dataset.move = index === lo ? "L" : "R";
      button.disabled = !yours;
      button.title = index === lo ? "take the left coin (←)" : "take the right coin (→)";
    } else {
      button.disabled = true;
      button.title = "not at an end yet";
    }
    return button;
  });
  if (gap) {
    const span = document.createElement("span");
    span.className = "gap";
    span.textContent = `… ${gap[1].toLocaleString()} more coins …`;
    buttons.splice(gap[0], 0, span);
  }
  board.replaceChildren(...buttons);
}

function renderScores() {
  const info = game.info;
  // Each card wears the colour of its player's coins on the board.
  const mine = friend() ? "first" : game.seat;
  const theirs = other(mine);
  $("play-you-card").className = `score ${mine}`;
  $("play-cpu-card").className = `score ${theirs}`;
  $("play-you-who").textContent = friend() ? "First player" : `You (${mine})`;
  $("play-cpu-who").textContent = friend() ? "Second player" : `Computer (${theirs})`;
  $("play-you").textContent = fmt(info[`${mine}_total`]);
  $("play-cpu").textContent = fmt(info[`${theirs}_total`]);
  $("play-you-best").textContent = fmt(info[`${mine}_guaranteed`]);
  $("play-cpu-best").textContent = fmt(info[`${theirs}_guaranteed`]);
}

async function renderTriangle(token) {
  const box = $("play-triangle");
  if (game.coins.length > ctx.limits.table_coins) {
    box.innerHTML = `<p class="note">The triangle is drawn for rows of up to ${ctx.limits.table_coins} coins.</p>`;
    return;
  }
  try {
    const line = game.moves.slice(0, game.ply);
    const data = await post("table", { coins: game.text, highlight: line || null });
    if (token !== game.token) return;
    const triangle = mountTriangle(box, data.svg);
    const cell = triangle.cell(game.info.lo, game.info.hi);
    if (cell) cell.classList.add("current");
  } catch (error) {
    box.replaceChildren();
  }
}

function human(move) {
  const info = game.info;
  if (!info || info.finished || $("view-play").dataset.state !== "your-turn") return;
  if (!friend() && info.turn !== game.seat) return;
  if (game.moves[game.ply] === move) {
    game.ply += 1; // the move already played here: keep the rest of the line for redo
  } else {
    game.moves = game.moves.slice(0, game.ply) + move;
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
  const info = game.info;
  if (!info || info.finished || $("view-play").dataset.state !== "your-turn") return;
  const ends = { L: info.lo, R: info.hi };
  const words = [];
  for (const move of info.best_moves) {
    const button = $("play-board").querySelector(`button.coin[data-index="${ends[move]}"]`);
    if (button) button.classList.add("hinted");
    words.push(`the ${side(move)} coin (${fmt(game.coins[ends[move]])})`);
  }
  const best = info.best_moves.length === 2 && info.lo !== info.hi
    ? `Both ends are equally good: ${words.join(" or ")}.`
    : `Best: take ${words[0]}.`;
  $("play-hint-text").textContent = `${best} With best play you finish with ${fmt(info[`${info.turn}_guaranteed`])}.`;
  $("play-hint-text").dataset.moves = info.best_moves.join(" ");
}

// Undo goes back to before your last move (and the reply); the moves are kept for redo.
function undoTarget() {
  if (game.ply === 0) return null;
  if (friend()) return game.ply - 1;
  const mine = game.seat === "first" ? 0 : 1;
  let index = game.ply - 1;
  while (index >= 0 && index % 2 !== mine) index -= 1;
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
    while (ply < game.moves.length && moverAt(ply) !== game.seat) ply += 1;
  }
  game.ply = ply;
  refresh();
}

async function review(token) {
  const line = game.moves;
  if (game.reviewFor !== line) {
    if (!line) {
      game.review = null;
    } else {
      try {
        game.review = await post("review", { coins: game.text, moves: line });
      } catch (error) {
        if (token === game.token) ctx.error(error.message);
        return;
      }
      if (token !== game.token) return;
    }
    game.reviewFor = line;
  }
  renderMoves();
  renderChart();
  renderAnalysis();
}

function renderMoves() {
  const list = $("play-moves");
  const data = game.review;
  $("play-moves-none").hidden = Boolean(game.moves);
  const items = [];
  if (game.moves) {
    const start = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = "0";
    button.textContent = "Start";
    if (game.ply === 0) button.setAttribute("aria-current", "step");
    start.append(button);
    items.push(start);
  }
  [...game.moves].forEach((move, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = String(index + 1);
    const coin = fmt(game.coins[takenIndex(game.moves, index + 1)]);
    const analysed = data && data.analysis.moves[index];
    button.textContent = `${index + 1}. ${move} ${coin}`;
    button.className = moverAt(index);
    if (analysed && !evalHidden()) button.classList.add(analysed.label);
    const label = analysed && !evalHidden() ? `, ${analysed.label}` : "";
    button.setAttribute("aria-label", `move ${index + 1}: ${name(moverAt(index))} took ${coin} (${side(move)})${label}`);
    if (index + 1 === game.ply) button.setAttribute("aria-current", "step");
    item.append(button);
    items.push(item);
  });
  list.replaceChildren(...items);
}

function renderChart() {
  const box = $("play-chart");
  const data = game.review;
  if (!data) {
    box.replaceChildren();
    return;
  }
  const series = data.series.map((point) => approx(point.margin));
  const width = Math.max(300, Math.min(900, box.clientWidth || 600)); // drawn at screen size
  const height = 160;
  const pad = 24;
  const top = Math.max(1, ...series.map(Math.abs));
  const x = (ply) => pad + (ply * (width - 2 * pad)) / Math.max(1, game.coins.length);
  const y = (value) => height / 2 - (value / top) * (height / 2 - pad);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Evaluation after each move: margins ${data.series.map((p) => fmt(p.margin)).join(", ")}`);
  const add = (tag, attributes, text = null) => {
    const element = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text !== null) element.textContent = text;
    svg.append(element);
    return element;
  };
  add("line", { x1: pad, x2: width - pad, y1: height / 2, y2: height / 2, class: "axis" });
  add("text", { x: 2, y: 14 }, "first ahead");
  add("text", { x: 2, y: height - 4 }, "second ahead");
  add("polyline", { class: "curve", points: series.map((v, k) => `${x(k)},${y(v)}`).join(" ") });
  series.forEach((value, ply) => {
    const move = ply > 0 ? data.analysis.moves[ply - 1] : null;
    if (move && (move.label === "mistake" || move.label === "blunder")) {
      add("circle", { cx: x(ply), cy: y(value), r: 9, class: `bad ${move.label}` });
    }
    const point = add("circle", { cx: x(ply), cy: y(value), r: 5, class: `point${ply === game.ply ? " now" : ""}`, "data-ply": ply });
    const title = document.createElementNS(ns, "title");
    title.textContent = `after move ${ply}: margin ${fmt(data.series[ply].margin)}${move ? ` (${move.label})` : ""}`;
    point.append(title);
  });
  box.replaceChildren(svg);
}

function renderAnalysis() {
  const data = game.review;
  const over = data && data.analysis.finished;
  $("play-analysis").hidden = !over;
  if (!over) return;
  const rows = data.analysis.moves.map((move) => {
    const row = document.createElement("tr");
    const cells = [move.step, name(move.player), move.move, fmt(move.coin), move.best_moves.join(" or "), fmt(move.loss), move.label];
    for (const value of cells) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.append(cell);
    }
    row.lastChild.className = move.label;
    return row;
  });
  $("play-analysis-table").tBodies[0].replaceChildren(...rows);
  const summary = (player, who) => {
    const mine = data.analysis.summary[player];
    return `${who}: ${mine.labels.best} of ${mine.moves} moves best (${mine.accuracy.toFixed(0)}%), `
      + `${fmt(mine.total_loss)} points given away; best play from the start guaranteed `
      + `${who === "You" ? "you" : "them"} ${fmt(mine.guaranteed_start)}, and ${who === "You" ? "you" : "they"} took ${fmt(mine.final_total)}.`;
  };
  $("play-summary").textContent = friend()
    ? `${summary("first", "First player")} ${summary("second", "Second player")}`
    : summary(game.seat, "You");
}

function renderLink() {
  const link = ctx.link("play");
  $("play-link").hidden = !link;
  if (link) $("play-link").href = link;
  $("play-link-note").textContent = link ? "" : ctx.linkNote();
}

async function exportRecord() {
  try {
    const players = friend() ? "first player vs second player"
      : game.seat === "first" ? `you vs ${game.opponent}` : `${game.opponent} vs you`;
    const data = await post("record", { coins: game.text, moves: game.moves, players });
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
  ctx.load(data.coins_text, "play", { opponent: FRIEND, seat: "first", moves: data.moves, ply: "0" });
}
