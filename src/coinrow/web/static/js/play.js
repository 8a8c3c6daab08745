// Play: one view for every rules. A game against an opponent level or friends on the same
// device, with a review like lichess's: a move list to click through, undo and redo, the
// last move marked, the evaluation chart with mistakes marked, records and share links.
// The server is stateless and holds the game logic: each step is one /api/play call with the
// coins, the rules, the moves, the move shown (ply), your seat and the opponent; it answers
// with the position, the computer's replies, the legal moves and their words, the best moves,
// the totals, every move's review, the evaluation after every move and the library's SVG.
import { approx, fmt, get, moveWords, post } from "./api.js";
import { coinButtons, owners as ownersOf, seatClass, shownCoins, singleMoves as singleMovesOf } from "./coins.js";
import { mountRing } from "./picture.js";
import { mountTriangle } from "./triangle.js";

const FRIEND = "friend";
const BOARD_ALL = 24; // longer rows show the two ends of what is left, not every coin
const BOARD_END = 6;
const BOARD_PITCH = 32; // px a coin needs on one line (narrow screens show fewer coins)
let ctx;
const $ = (id) => document.getElementById(id);
const game = {
  key: null, moves: [], line: null, ply: 0, seat: 0, opponent: null, seed: 0, data: null, token: 0,
  revealed: false, hinted: [], pictured: true, text: "", rules: "", touched: false, onScreen: false,
};
const about = new Map();
let levelsFor = null; // the rules whose levels fill the opponent list
let middle = null; // the middle level of that list: a first game's opponent
const SAVED_KEY = "coinrow.games";
const SAVED_MOST = 30; // games kept in this browser, newest first
const SAVED_CHARS = 4000; // longer rows are not kept (the address holds them while open)
let resuming = null; // the saved game a Resume opens: it keeps its entry
let released = null; // the game the player agreed to end

export function init(context) {
  ctx = context;
  $("play-new").addEventListener("click", () => restart("A new game"));
  $("play-invite").addEventListener("click", () => invite());
  $("play-seat").addEventListener("change", () => restart("Changing your seat", () => {
    $("play-seat").value = String(game.seat);
  }));
  $("play-strategy").addEventListener("change", () => restart("Changing the opponent", () => {
    setOpponent(game.opponent);
  }));
  $("play-saved").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-game]");
    if (button && button.classList.contains("resume")) resume(button.dataset.game);
    if (button && button.classList.contains("delete")) forget(button.dataset.game);
  });
  listSaved();
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

// --- a game in progress is discarded only when the player says so ---------------------------

// A game in progress: not over, played in this browser (moved in here, or kept in Your
// games: a reloaded game), with a person's move; not one the player already let go.
function inProgress() {
  const data = game.data;
  if (!data || data.over || !game.moves.length || $("view-play").hidden || released === gameId()) return false;
  if (!game.touched && !savedGames().some((saved) => saved.id === gameId())) return false; // a link's game
  return friend() || data.played.some((row) => row.seat === game.seat);
}

// Resolves true when nothing is lost or the player chose a new game (`what` says what starts
// it), false when they keep this one (Cancel, Esc).
export function mayDiscard(what) {
  if (!inProgress()) return Promise.resolve(true);
  const dialog = $("play-confirm");
  const kept = savedGames().some((saved) => saved.id === gameId());
  $("play-confirm-text").textContent = `${what} ends the game in progress (moves played: `
    + `${game.moves.length}).${kept ? " It stays under “Your games” below, and" : ""} Back brings it back.`;
  return new Promise((resolve) => {
    const done = (answer) => {
      if (answer) released = gameId(); // asked once: the change that follows does not ask again
      dialog.oncancel = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    $("play-confirm-keep").onclick = () => done(false);
    $("play-confirm-new").onclick = () => done(true);
    dialog.oncancel = (event) => {
      event.preventDefault();
      done(false);
    };
    dialog.showModal();
    $("play-confirm-keep").focus();
  });
}

// The row and rules of the game on the board (a refused change of row puts them back).
export function playing() {
  return { text: game.text, rules: game.rules };
}

// A new game with the setup's opponent and seat, as a new entry of the history (Back returns
// to the game it replaced).
async function restart(what, keep = () => {}) {
  if (!(await mayDiscard(what))) {
    keep();
    return;
  }
  const state = { opponent: $("play-strategy").value, seat: $("play-seat").value, seed: String(newSeed()) };
  if (!$("play-hide-eval").checked) state.hide = "0";
  ctx.go("play", state);
}

function newSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

// --- past games, kept in this browser (localStorage) ------------------------------------------

function gameId() {
  return `${game.rules}|${game.text}|${game.opponent}|${game.seat}|${game.seed}`;
}

function savedGames() {
  try {
    const list = JSON.parse(localStorage.getItem(SAVED_KEY) || "[]");
    return Array.isArray(list) ? list.filter(wellFormed) : [];
  } catch {
    return []; // storage refused (private mode) or spoilt: nothing kept
  }
}

// Storage is data from outside the page: an entry is used only when every field has its
// type (the server checks the row, rules and moves as it checks a link's).
function wellFormed(item) {
  const texts = ["id", "coins", "rules", "opponent", "opponentName", "moves", "when", "result"];
  const counts = ["seat", "seed", "ply", "played"];
  return Boolean(item) && typeof item === "object"
    && texts.every((key) => typeof item[key] === "string")
    && counts.every((key) => Number.isInteger(item[key]) && item[key] >= 0)
    && typeof item.over === "boolean" && typeof item.hide === "boolean";
}

function storeGames(list) {
  try {
    localStorage.setItem(SAVED_KEY, JSON.stringify(list.slice(0, SAVED_MOST)));
  } catch {
    // storage refused or full: the game lives in the address only
  }
  listSaved();
}

// After each answer: a game a person moved in is kept (newest first), with its place.
function save() {
  const data = game.data;
  const id = gameId();
  const list = savedGames();
  const known = list.findIndex((item) => item.id === id);
  if ((!game.touched && known < 0) || !game.moves.length || game.text.length > SAVED_CHARS) return;
  const opponent = friend() ? "friends on this device" : $("play-strategy").selectedOptions[0]?.textContent || game.opponent;
  const entry = {
    id, coins: game.text, rules: game.rules, opponent: game.opponent, opponentName: opponent,
    seat: game.seat, seed: game.seed, moves: line(), ply: game.ply, hide: $("play-hide-eval").checked,
    over: data.over, played: data.moves.length, when: new Date().toISOString(),
    result: data.over ? $("play-status").textContent.replace(/^.*Game over: /, "") : "",
  };
  if (known >= 0) list.splice(known, 1);
  storeGames([entry, ...list]);
}

function listSaved() {
  const list = savedGames();
  $("play-saved-count").textContent = String(list.length);
  $("play-saved-none").hidden = list.length > 0;
  const items = list.map((saved) => {
    const item = document.createElement("li");
    const words = document.createElement("span");
    const when = new Date(saved.when);
    const coins = String(saved.coins).length > 40 ? `${String(saved.coins).slice(0, 40)}…` : String(saved.coins);
    const seat = saved.opponent === FRIEND ? "" : `, you ${["first", "second"][saved.seat] || `player ${saved.seat + 1}`}`;
    words.textContent = `${coins} · ${saved.opponentName}${seat} · `
      + `${saved.over ? saved.result || "over" : `moves played: ${saved.played}`} · ${when.toLocaleString()}`;
    const open = document.createElement("button");
    open.type = "button";
    open.className = "resume";
    open.dataset.game = saved.id;
    open.textContent = saved.over ? "Review" : "Resume";
    open.setAttribute("aria-label", `${open.textContent} the game on ${coins}, ${when.toLocaleString()}`);
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "delete";
    drop.dataset.game = saved.id;
    drop.textContent = "Delete";
    drop.setAttribute("aria-label", `Delete the game on ${coins}, ${when.toLocaleString()}`);
    item.append(words, " ", open, " ", drop);
    return item;
  });
  $("play-saved").replaceChildren(...items);
}

async function resume(id) {
  const saved = savedGames().find((item) => item.id === id);
  if (!saved || saved.id === gameId()) return;
  if (!(await mayDiscard("Opening another game"))) return;
  const state = { opponent: saved.opponent, seat: String(saved.seat), seed: String(saved.seed), moves: saved.moves };
  if (saved.ply !== saved.played) state.ply = String(saved.ply);
  if (!saved.hide) state.hide = "0";
  resuming = saved.id;
  ctx.load(saved.coins, "play", state, saved.rules);
}

function forget(id) {
  storeGames(savedGames().filter((item) => item.id !== id));
  const next = $("play-saved").querySelector("button");
  if (next) next.focus();
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
    middle = data.levels.length ? data.levels[Math.floor((data.levels.length - 1) / 2)].strategy : null;
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

// The opponent `name`, or (null, or not offered for these rules) the middle level.
function setOpponent(name) {
  const select = $("play-strategy");
  select.value = name || "";
  if (!name || select.value !== name) select.value = middle || select.options[0]?.value || FRIEND;
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
  if (!$("play-hide-eval").checked) state.hide = "0"; // hidden by default
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
  // Back in Play with another row or rules (chosen in another view): asked, as in Play.
  if (!restore && key !== game.key && !(await mayDiscard("The row or rules above"))) {
    ctx.keepRow(game.text, game.rules);
    ctx.update("play");
    render();
    return;
  }
  await loadLevels(ctx.rules());
  seatOptions(info ? info.players : 2);
  game.onScreen = true; // the first answer brings the board on screen
  if (restore) {
    game.key = key;
    game.text = text;
    game.rules = ctx.rules();
    game.seat = seatOf(restore.seat);
    seatOptions(info ? info.players : 2);
    setOpponent(restore.opponent || null);
    $("play-hide-eval").checked = restore.hide !== "0";
    game.moves = (restore.moves || "").split(/\s+/).filter(Boolean); // the server reads the line
    game.line = restore.moves || "";
    game.ply = restore.ply === undefined ? null : Number(restore.ply); // null: the whole line
    game.seed = Number(restore.seed) || newSeed();
    game.revealed = false;
    game.touched = resuming !== null && resuming === gameId();
    resuming = null;
    $("play-record").hidden = true;
    refresh();
    return;
  }
  if (key !== game.key) newGame();
  else if (game.data) render();
}

// An online game of this row and these rules against a friend: the server keeps the game and
// gives this browser its seat's secret token (kept here, never in the link to share).
async function invite() {
  if (!(await mayDiscard("Inviting a friend to this row"))) return;
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
  game.text = ctx.text();
  game.rules = ctx.rules();
  game.moves = [];
  game.line = null;
  game.ply = 0;
  game.seat = Number($("play-seat").value) || 0;
  game.opponent = $("play-strategy").value || middle;
  game.seed = newSeed();
  game.revealed = false;
  game.touched = false;
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
  save();
  if (game.onScreen) {
    game.onScreen = false;
    bringOnScreen();
  }
}

// On a phone the row form and the setup push the board below the window: scroll the view up
// so the board is on screen (once per visit, never while playing).
function bringOnScreen() {
  const board = (!$("play-ring").hidden ? $("play-ring") : $("play-board")).getBoundingClientRect();
  if (board.bottom <= window.innerHeight && board.top >= 0) return;
  const view = $("view-play").getBoundingClientRect();
  window.scrollBy(0, Math.min(view.top, board.top - 8));
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

// Hidden on request until the game ends (then the whole review shows, at every move).
function evalHidden() {
  const data = game.data;
  return $("play-hide-eval").checked && !game.revealed && !(data && data.over);
}

function applyEval() {
  const hidden = evalHidden();
  document.body.classList.toggle("hide-eval", hidden);
  $("play-show-eval").hidden = !hidden;
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

// Who took each coin up to the move shown, and the coins a click takes (on your turn only).
function owners() {
  return ownersOf(game.data.played, game.ply);
}

function singleMoves() {
  return yours() ? singleMovesOf(game.data.legal) : new Map();
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
  // The row stays on one line: as many coins as the board's width holds.
  const fit = Math.max(10, Math.min(BOARD_ALL, Math.floor(($("play-board").clientWidth + 4) / BOARD_PITCH)));
  const ends = Math.max(2, Math.min(BOARD_END, Math.floor((fit - 4) / 2)));
  const { shown, gap } = shownCoins(data.coins.length, data.remaining, { fit, ends });
  const hinted = (move) => game.hinted.includes(move);
  const buttons = coinButtons(data, { shown, gap, owner, single, last, hinted, named: name });
  $("play-board").replaceChildren(...buttons);
}

function renderRing(owner, single, last) {
  const ring = mountRing($("play-ring"), game.data.svg, (slice) => human(single.get(slice)));
  const hidden = evalHidden();
  if (hidden) { // the ring's title, legend and each slice's words give the margins: left out
    for (const element of ring.svg.querySelectorAll(":scope > title, :scope > desc, g.legend")) element.remove();
    ring.svg.setAttribute("aria-label", "The pizza");
  }
  const words = (slice) => (hidden ? ring.words(slice).split(";")[0] : ring.words(slice));
  for (const slice of ring.slices) {
    const group = ring.group(slice);
    const taken = owner.get(slice);
    group.classList.remove("best"); // the ring's outlines are the evaluation: shown below
    if (hidden) {
      group.setAttribute("aria-label", words(slice));
      group.querySelector("title")?.remove();
    }
    if (taken) {
      group.classList.add("eaten", seatClass(taken[0]));
      group.setAttribute("aria-label", `${words(slice)}; eaten by ${name(taken[0]).toLowerCase()} at move ${taken[1]}`);
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
  const hidden = evalHidden(); // the triangle's title and cells give the result away
  box.hidden = !data.svg || ring || hidden;
  if (!data.svg || ring || hidden) {
    box.replaceChildren();
    const legend = box.previousElementSibling;
    if (legend && legend.classList.contains("triangle-legend")) legend.remove();
    note.textContent = ring || hidden ? "" : data.picture_note;
    note.hidden = ring || hidden || !data.picture_note;
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
  game.touched = true; // a person moved: the game is kept in this browser
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
  // The chart is the page's own plot of the server's numbers (not a picture of the game):
  // the margin axis spans the margins seen and 0, labelled; the move axis its move numbers.
  const values = series.map(approx);
  const width = Math.max(300, Math.min(900, box.clientWidth || 600));
  const height = 170;
  const [left, right, top, bottom] = [44, 14, 22, 34];
  const highest = values.indexOf(Math.max(...values));
  const lowest = values.indexOf(Math.min(...values));
  const hi = Math.max(0, values[highest]);
  const lo = Math.min(0, values[lowest]);
  const span = hi - lo || 1;
  const x = (ply) => left + (ply * (width - left - right)) / Math.max(1, values.length - 1);
  const y = (value) => top + ((hi - value) / span) * (height - top - bottom);
  const ticks = [[hi, values[highest] > 0 ? fmt(series[highest]) : "0"], [0, "0"], [lo, values[lowest] < 0 ? fmt(series[lowest]) : "0"]]
    .filter(([value], k, all) => all.findIndex(([other]) => other === value) === k);
  const axis = ticks.map(([value, text]) => `<line x1="${left}" x2="${width - right}" y1="${y(value)}" y2="${y(value)}" class="${value === 0 ? "axis" : "grid"}"/>`
    + `<text x="${left - 6}" y="${y(value) + 4}" text-anchor="end">${text}</text>`).join("");
  const every = Math.max(1, Math.ceil((values.length - 1) / Math.max(1, Math.floor((width - left - right) / 36))));
  const moves = values.map((_, ply) => ply).filter((ply) => ply % every === 0 || ply === values.length - 1)
    .map((ply) => `<text x="${x(ply)}" y="${height - bottom + 16}" text-anchor="middle">${ply}</text>`).join("");
  const reach = Math.max(6, Math.min(22, (width - left - right) / Math.max(1, values.length - 1) / 2));
  const points = values.map((value, ply) => {
    const judged = ply > 0 ? data.review[ply - 1] : null;
    const bad = judged && (judged.label === "mistake" || judged.label === "blunder") ? ` ${judged.label}` : "";
    return `<circle cx="${x(ply)}" cy="${y(value)}" r="9" class="bad${bad}"${bad ? "" : ' visibility="hidden"'}/>`
      + `<circle cx="${x(ply)}" cy="${y(value)}" r="5" class="point${ply === game.ply ? " now" : ""}" data-ply="${ply}">`
      + `<title>after move ${ply}: margin ${fmt(series[ply])}${judged ? ` (${judged.label})` : ""}</title></circle>`;
  });
  // A finger's reach around each point, under the points.
  const reaches = values.map((value, ply) => `<circle cx="${x(ply)}" cy="${y(value)}" r="${reach}" class="reach" data-ply="${ply}"/>`);
  const label = `Evaluation after each move: margins ${series.map(fmt).join(", ")}`;
  // who is ahead, outside the plot: above it, and beside the move axis's name
  const ahead = [hi > 0 ? `<text x="${left}" y="12" class="side">↑ first ahead</text>` : "",
    lo < 0 ? `<text x="${left}" y="${height - 2}" class="side">↓ second ahead</text>` : ""].join("");
  box.innerHTML = `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">`
    + `${axis}<text x="${(left + width - right) / 2}" y="${height - 2}" text-anchor="middle" class="side">move</text>`
    + `${moves}${ahead}`
    + `${reaches.join("")}<polyline class="curve" points="${values.map((v, k) => `${x(k)},${y(v)}`).join(" ")}"/>`
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
  // The library's words (the server's summary_words): who played perfectly, plural rules.
  const words = data.summary_words;
  const text = friend() ? words.join(" ") : words[game.seat] || "";
  $("play-summary").textContent = text.replace(/-(?=\d)/g, "−"); // the page's minus sign
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
  if (!(await mayDiscard("Reviewing a record"))) return;
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
