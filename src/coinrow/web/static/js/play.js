// Play: a game against a strategy. The server is stateless: every request sends the coins
// and the moves so far, and answers with the position, the strategy's move, the best moves
// and the totals. Take a coin by clicking an end coin or with the arrow keys.
import { fmt, get, post } from "./api.js";
import { mountTriangle } from "./triangle.js";

const DELAY = 200; // ms before the computer's move is shown
let ctx;
const $ = (id) => document.getElementById(id);
const game = {
  text: null, coins: [], moves: "", seat: "first", strategy: "optimal", seed: 0,
  info: null, token: 0, hint: false,
};
const about = new Map();

export function init(context) {
  ctx = context;
  $("play-new").addEventListener("click", () => newGame(ctx.text()));
  $("play-seat").addEventListener("change", () => newGame(ctx.text()));
  $("play-strategy").addEventListener("change", () => newGame(ctx.text()));
  $("play-left").addEventListener("click", () => human("L"));
  $("play-right").addEventListener("click", () => human("R"));
  $("play-hint").addEventListener("click", () => showHint());
  $("play-undo").addEventListener("click", () => undo());
  $("play-board").addEventListener("click", (event) => {
    const button = event.target.closest("button.coin");
    if (button && !button.disabled) human(button.dataset.move);
  });
  loadStrategies();
}

async function loadStrategies() {
  try {
    const data = await get("strategies");
    const select = $("play-strategy");
    const chosen = select.value;
    select.replaceChildren();
    for (const strategy of data.strategies) {
      const option = new Option(strategy.name, strategy.name);
      option.title = strategy.description;
      about.set(strategy.name, strategy.description);
      select.append(option);
    }
    select.value = chosen;
    $("play-about").textContent = about.get(select.value) || "";
  } catch (error) {
    ctx.error(error.message);
  }
}

export function show(text) {
  if (text !== game.text) newGame(text);
  else if (!["your-turn", "over"].includes($("view-play").dataset.state)) refresh();
}

export function hide() {
  game.token += 1; // drop answers and the pending computer move; show() resumes the game
}

export function key(name) {
  const actions = { ArrowLeft: () => human("L"), ArrowRight: () => human("R"), h: showHint, u: undo };
  if (!(name in actions)) return false;
  actions[name]();
  return true;
}

function newGame(text) {
  game.text = text;
  game.moves = "";
  game.seat = $("play-seat").value;
  game.strategy = $("play-strategy").value;
  game.seed = Math.floor(Math.random() * 2 ** 31);
  game.hint = false;
  $("play-about").textContent = about.get(game.strategy) || "";
  $("play-analysis").hidden = true;
  refresh();
}

function setState(state) {
  $("view-play").dataset.state = state;
  const yours = state === "your-turn";
  $("play-left").disabled = !yours;
  $("play-right").disabled = !yours;
  $("play-hint").disabled = !yours;
  const mine = game.seat === "first" ? 0 : 1;
  $("play-undo").disabled = !(state === "your-turn" || state === "over")
    || ![...game.moves].some((_, index) => index % 2 === mine);
}

async function refresh() {
  const token = ++game.token;
  setState("loading");
  let info;
  try {
    info = await post("move", {
      coins: game.text, moves: game.moves, strategy: game.strategy, seed: game.seed,
    });
  } catch (error) {
    if (token === game.token) {
      ctx.error(error.message);
      setState("error");
      $("play-board").replaceChildren();
      $("play-status").textContent = "";
    }
    return;
  }
  if (token !== game.token) return;
  ctx.clearError();
  game.info = info;
  game.coins = info.coins;
  renderBoard();
  renderScores();
  renderTriangle(token);
  $("play-hint-text").textContent = "";
  if (info.finished) {
    setState("over");
    status();
    analyse(token);
  } else if (info.turn !== game.seat) {
    setState("computer");
    status();
    setTimeout(() => {
      if (token !== game.token) return;
      game.moves += info.move;
      refresh();
    }, DELAY);
  } else {
    setState("your-turn");
    status();
  }
}

function status() {
  const info = game.info;
  const you = fmt(info[`${game.seat}_total`]);
  const cpu = fmt(info[`${other(game.seat)}_total`]);
  let text;
  if (info.finished) {
    const verdict = info.leader === "tie" ? "A tie." : info.leader === game.seat ? "You win!" : "The computer wins.";
    text = `Game over: you took ${you}, the computer ${cpu}. ${verdict}`;
  } else if (info.turn === game.seat) {
    text = info.lo === info.hi
      ? "Your turn: take the last coin."
      : "Your turn: take the left coin (←) or the right coin (→).";
  } else {
    text = `The computer (${game.strategy}) is thinking…`;
  }
  $("play-status").textContent = text;
}

function other(seat) {
  return seat === "first" ? "second" : "first";
}

function renderBoard() {
  const board = $("play-board");
  const owners = new Map();
  let lo = 0;
  let hi = game.coins.length - 1;
  [...game.moves].forEach((move, index) => {
    owners.set(move === "L" ? lo : hi, [index % 2 === 0 ? "first" : "second", index + 1]);
    if (move === "L") lo += 1;
    else hi -= 1;
  });
  const yours = !game.info.finished && game.info.turn === game.seat;
  const buttons = game.coins.map((coin, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "coin";
    button.dataset.index = index;
    button.textContent = fmt(coin);
    const owner = owners.get(index);
    if (owner) {
      const [player, move] = owner;
      button.classList.add("taken", player);
      button.disabled = true;
      button.title = `taken by ${player === game.seat ? "you" : "the computer"} at move ${move}`;
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
  board.replaceChildren(...buttons);
}

function renderScores() {
  const info = game.info;
  $("play-you").textContent = fmt(info[`${game.seat}_total`]);
  $("play-cpu").textContent = fmt(info[`${other(game.seat)}_total`]);
  $("play-you-best").textContent = fmt(info[`${game.seat}_guaranteed`]);
  $("play-cpu-best").textContent = fmt(info[`${other(game.seat)}_guaranteed`]);
}

async function renderTriangle(token) {
  const box = $("play-triangle");
  if (game.coins.length > ctx.limits.table_coins) {
    box.innerHTML = `<p class="note">The triangle is drawn for rows of up to ${ctx.limits.table_coins} coins.</p>`;
    return;
  }
  try {
    const data = await post("table", { coins: game.text, highlight: game.moves || null });
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
  if (!info || info.finished || info.turn !== game.seat || $("view-play").dataset.state !== "your-turn") return;
  game.moves += move;
  refresh();
}

function showHint() {
  const info = game.info;
  if (!info || info.finished || info.turn !== game.seat) return;
  const ends = { L: info.lo, R: info.hi };
  const words = [];
  for (const move of info.best_moves) {
    const button = $("play-board").querySelector(`button.coin[data-index="${ends[move]}"]`);
    if (button) button.classList.add("hinted");
    words.push(`the ${move === "L" ? "left" : "right"} coin (${fmt(game.coins[ends[move]])})`);
  }
  const best = info.best_moves.length === 2 && info.lo !== info.hi
    ? `Both ends are equally good: ${words.join(" or ")}.`
    : `Best: take ${words[0]}.`;
  $("play-hint-text").textContent = `${best} With best play you finish with ${fmt(info[`${game.seat}_guaranteed`])}.`;
  $("play-hint-text").dataset.moves = info.best_moves;
}

function undo() {
  const mine = game.seat === "first" ? 0 : 1;
  let index = game.moves.length - 1;
  while (index >= 0 && index % 2 !== mine) index -= 1;
  if (index < 0) return;
  game.moves = game.moves.slice(0, index);
  $("play-analysis").hidden = true;
  refresh();
}

async function analyse(token) {
  let data;
  try {
    data = await post("analyze", { coins: game.text, moves: game.moves });
  } catch (error) {
    ctx.error(error.message);
    return;
  }
  if (token !== game.token) return;
  const rows = data.moves.map((move) => {
    const row = document.createElement("tr");
    const who = move.player === game.seat ? "You" : "Computer";
    const cells = [move.step, who, move.move, fmt(move.coin), [...move.best_moves].join(" or "), fmt(move.loss), move.label];
    for (const value of cells) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.append(cell);
    }
    row.lastChild.className = move.label;
    return row;
  });
  $("play-analysis-table").tBodies[0].replaceChildren(...rows);
  const mine = data.summary[game.seat];
  $("play-summary").textContent = `You: ${mine.labels.best} of ${mine.moves} moves best `
    + `(${mine.accuracy.toFixed(0)}%), ${fmt(mine.total_loss)} points given away; best play `
    + `from the start guaranteed you ${fmt(mine.guaranteed_start)}, and you took ${fmt(mine.final_total)}.`;
  $("play-analysis").hidden = false;
}
