// The analysis board, separate from the game (as on lichess): a main line (a game handed over
// from Play, a record, a "why not" row, or moves tried from the start) and variations beside
// it. Stepping (buttons, ← → Home End, a click in the move list) only changes the move shown;
// trying another move anywhere starts or extends a variation; nothing here plays for anyone.
// Each position shown is one /api/analysis call, which answers with the whole line's review,
// its summary and the library's lessons (the words are the library's, never made here).
import { fmt, moveWords, post } from "./api.js";
import { coinButtons, owners as ownersOf, seatClass, shownCoins, singleMoves as singleMovesOf } from "./coins.js";
import { mountRing } from "./picture.js";
import * as play from "./play.js";
import { mountTriangle } from "./triangle.js";

const BOARD_ALL = 24; // longer rows show the two ends of what is left
const BOARD_END = 6;
const CACHE_MOST = 200; // answers kept for stepping back and forth (this view's, per row)
let ctx;
const $ = (id) => document.getElementById(id);
// lines[0] is the main line; lines[v] (v > 0) a variation: the main line's first k moves,
// then its own moves. `info` holds the last answer's review of the whole line.
const board = {
  key: null, lines: [{ k: 0, moves: null, text: "", info: null }], cur: 0, ply: 0,
  seat: null, opponent: null, data: null, token: 0, symbols: {}, names: [], puzzle: null,
  refocus: false,
};
const answers = new Map();

export function init(context) {
  ctx = context;
  $("an-start").addEventListener("click", () => step(0));
  $("an-prev").addEventListener("click", () => step(board.ply - 1));
  $("an-next").addEventListener("click", () => step(board.ply + 1));
  $("an-end").addEventListener("click", () => step(full(board.cur).length));
  for (const id of ["an-board", "an-choices"]) {
    $(id).addEventListener("click", (event) => {
      const button = event.target.closest("button[data-move]");
      if (button && !button.disabled) tryMove(button.dataset.move);
    });
  }
  $("an-moves").addEventListener("click", (event) => {
    const remove = event.target.closest("button[data-delete]");
    if (remove) {
      deleteLine(Number(remove.dataset.delete));
      return;
    }
    const button = event.target.closest("button[data-ply]");
    if (button && !board.puzzle) go(Number(button.dataset.line), Number(button.dataset.ply));
  });
  $("an-best-line").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-best]");
    if (button) showBestLine(Number(button.dataset.best));
  });
  $("an-retry").addEventListener("click", retry);
  $("an-learn").addEventListener("click", startPuzzles);
  $("an-puzzle-answer").addEventListener("click", () => answerPuzzle(null));
  $("an-puzzle-next").addEventListener("click", () => nextPuzzle(1));
  $("an-puzzle-stop").addEventListener("click", stopPuzzles);
  // Play's review hand-off: the game opens here, where stepping never changes it.
  $("play-analyse").addEventListener("click", (event) => {
    event.preventDefault();
    const state = play.params();
    const people = state.opponent === "friend";
    ctx.go("analysis", {
      moves: state.moves || "",
      ...(state.ply !== undefined ? { ply: state.ply } : {}),
      ...(people ? {} : { seat: state.seat, opponent: state.opponent }),
    });
  });
}

// Every line's moves from the start (the main line's, then a variation's own).
function full(v) {
  const main = board.lines[0].moves || [];
  if (v === 0) return main;
  const line = board.lines[v];
  return main.slice(0, line.k).concat(line.moves);
}

function lineText(v) {
  return v === 0 && board.lines[0].moves === null ? board.lines[0].text : full(v).join(" ");
}

export function params() {
  const state = { moves: lineText(0) };
  const vars = board.lines.slice(1).map((line) => `${line.k}:${line.moves.join(" ")}`);
  if (vars.length) state.vars = vars.join(";");
  if (board.cur) state.var = String(board.cur);
  state.ply = String(board.ply);
  if (board.seat !== null) state.seat = String(board.seat);
  if (board.opponent) state.opponent = board.opponent;
  return state;
}

export function show(text, restore = null) {
  const key = `${ctx.rules()}|${text}`;
  if (!restore && key === board.key && board.lines[0].moves !== null) {
    refresh(); // back on the board: the same line and move (an answer dropped on leaving too)
    return;
  }
  if (key !== board.key) answers.clear();
  board.key = key;
  const given = restore || {};
  board.lines = [{ k: 0, moves: null, text: given.moves || "", info: null }];
  for (const part of (given.vars || "").split(";").filter(Boolean)) {
    const [k, rest] = part.split(":");
    board.lines.push({ k: Number(k), moves: rest.split(/\s+/).filter(Boolean), info: null });
  }
  board.cur = Math.min(Number(given.var) || 0, board.lines.length - 1);
  board.ply = given.ply === undefined ? null : Number(given.ply); // null: the end of the line
  board.seat = given.seat === undefined ? null : Number(given.seat === "second" ? 1 : given.seat === "first" ? 0 : given.seat);
  board.opponent = given.opponent || null;
  board.puzzle = null;
  $("an-puzzle").hidden = true;
  refresh();
}

export function hide() {
  board.token += 1; // drop answers on their way
}

async function ask(v, ply) {
  const body = {
    coins: ctx.text(), rules: ctx.rules(), moves: lineText(v), ply,
    seat: board.seat, picture: true,
  };
  const key = JSON.stringify(body);
  if (!answers.has(key)) {
    if (answers.size >= CACHE_MOST) answers.delete(answers.keys().next().value);
    const asked = post("analysis", body);
    asked.catch(() => answers.delete(key));
    answers.set(key, asked);
  }
  return answers.get(key);
}

// One call: the line shown after board.ply moves (the main line's moves are learnt first
// when the address gave them as text).
async function refresh() {
  const token = ++board.token;
  $("view-analysis").dataset.state = "loading";
  try {
    if (board.lines[0].moves === null) {
      const main = await ask(0, board.cur === 0 ? board.ply : 0);
      if (token !== board.token) return;
      board.lines[0].moves = main.moves;
      learn(0, main);
      if (board.cur === 0) {
        done(main);
        return;
      }
    }
    const data = await ask(board.cur, board.ply);
    if (token !== board.token) return;
    done(data);
  } catch (error) {
    if (token !== board.token) return;
    ctx.error(error.message);
    $("view-analysis").dataset.state = "error";
  }
}

function learn(v, data) {
  board.lines[v].info = { played: data.played, review: data.review, lessons: data.lessons, summary: data.summary };
  board.symbols = data.symbols;
  board.names = data.names;
}

function done(data) {
  ctx.clearError();
  learn(board.cur, data);
  board.data = data;
  board.ply = data.ply;
  ctx.update("analysis");
  render();
  reviewOthers(board.token);
}

// The review of every variation not yet shown (from the address, a line just cut), so the
// move list gives its coins and labels: one call each, in the background.
async function reviewOthers(token) {
  for (let v = 1; v < board.lines.length; v += 1) {
    if (board.lines[v].info) continue;
    const line = board.lines[v];
    try {
      const data = await ask(v, 0);
      if (token !== board.token || board.lines[v] !== line) return;
      learn(v, data);
      renderMoves();
    } catch {
      return; // the move list keeps the move texts
    }
  }
}

function go(v, ply) {
  if (v < 0 || v >= board.lines.length) return;
  const target = Math.max(0, Math.min(full(v).length, ply));
  if (v === board.cur && target === board.ply && board.data) return;
  board.cur = v;
  board.ply = target;
  refresh();
}

function step(ply) {
  if (board.puzzle || board.lines[0].moves === null) return;
  go(board.cur, ply);
}

// A move tried at the position shown: the line's own next move steps on; a move some line
// already has from here goes there; at a line's end it extends the line; else a variation.
function tryMove(move) {
  const data = board.data;
  if (!data || !data.legal.some((legal) => legal.move === move)) return;
  if (board.puzzle) {
    answerPuzzle(move);
    return;
  }
  // the coin pressed is redrawn: keep a keyboard's focus on the board
  board.refocus = ["an-board", "an-choices", "an-ring"].some((id) => $(id).contains(document.activeElement));
  const p = board.ply;
  const here = full(board.cur);
  const prefix = here.slice(0, p);
  for (let v = 0; v < board.lines.length; v += 1) {
    const line = full(v);
    if (line.length > p && line[p] === move && prefix.every((m, k) => line[k] === m)) {
      go(v, p + 1);
      return;
    }
  }
  if (p === here.length) {
    board.lines[board.cur].moves.push(move);
    go(board.cur, p + 1);
    return;
  }
  const made = prefix.concat([move]);
  const main = full(0);
  let k = 0;
  while (k < made.length && k < main.length && made[k] === main[k]) k += 1;
  board.lines.push({ k, moves: made.slice(k), info: null });
  go(board.lines.length - 1, p + 1);
}

function deleteLine(v) {
  if (v <= 0 || v >= board.lines.length) return;
  const { k } = board.lines[v];
  board.lines.splice(v, 1);
  if (board.cur === v) {
    board.cur = 0;
    board.ply = Math.min(board.ply, k);
    refresh();
  } else {
    if (board.cur > v) board.cur -= 1;
    ctx.update("analysis");
    renderMoves();
  }
  $("an-moves").focus(); // the × pressed is gone: focus stays in the move list
}

// The lesson's best line as a variation beside the main line, shown from its first move.
function showBestLine(index) {
  const lesson = board.data.lessons[index];
  const start = lesson.step - 1;
  const made = full(board.cur).slice(0, start).concat(lesson.best_line.map((move) => move.move));
  const existing = board.lines.findIndex((_, v) => {
    const line = full(v);
    return made.every((m, k) => line[k] === m);
  });
  if (existing >= 0) {
    go(existing, start + 1);
    return;
  }
  const main = full(0);
  let k = 0;
  while (k < made.length && k < main.length && made[k] === main[k]) k += 1;
  board.lines.push({ k, moves: made.slice(k), info: null });
  go(board.lines.length - 1, start + 1);
}

function retry() {
  const data = board.data;
  if (!data || data.finished) return;
  const seat = board.seat !== null ? board.seat : data.seat;
  ctx.go("play", {
    moves: full(board.cur).slice(0, board.ply).join(" "),
    seat: String(seat),
    ...(board.opponent ? { opponent: board.opponent } : {}),
  });
}

// "Learn from your mistakes": each of the person's moves that was not the best (every seat's
// when no seat is the person's), from the position before it, to be answered with a best move.
function mistakes() {
  const info = board.lines[0].info;
  if (!info) return [];
  return info.lessons.filter((lesson) => board.seat === null || lesson.seat === board.seat);
}

function startPuzzles() {
  const found = mistakes();
  $("an-puzzle").hidden = false;
  if (!found.length) {
    board.puzzle = null;
    $("an-puzzle-task").textContent = "No mistakes to learn from: every move was the best.";
    $("an-puzzle-result").textContent = "";
    $("an-puzzle-answer").hidden = true;
    $("an-puzzle-next").hidden = true;
    return;
  }
  board.puzzle = { list: found, index: 0, solved: false, tries: 0 };
  showPuzzle();
}

function showPuzzle() {
  const puzzle = board.puzzle;
  const lesson = puzzle.list[puzzle.index];
  puzzle.solved = false;
  puzzle.tries = 0;
  $("an-puzzle-task").textContent = `Mistake ${puzzle.index + 1} of ${puzzle.list.length}: `
    + `move ${lesson.step} was ${lesson.move} ${lesson.symbol}. Find the best move here.`;
  $("an-puzzle-result").textContent = "";
  $("an-puzzle-answer").hidden = false;
  $("an-puzzle-next").hidden = true;
  board.cur = 0;
  board.ply = lesson.step - 1;
  refresh();
}

function answerPuzzle(move) {
  const puzzle = board.puzzle;
  if (!puzzle || puzzle.solved) return;
  const lesson = puzzle.list[puzzle.index];
  const best = board.lines[0].info.review[lesson.step - 1].best_moves;
  if (move !== null && !best.includes(move)) {
    puzzle.tries += 1;
    $("an-puzzle-result").textContent = `${move} is not the best move here: try again.`;
    return;
  }
  puzzle.solved = true;
  const found = move !== null ? `Right: ${move} is the best move.` : `The best: ${best.join(" or ")}.`;
  $("an-puzzle-result").textContent = `${found} ${lesson.words}`;
  $("an-puzzle-answer").hidden = true;
  $("an-puzzle-next").hidden = puzzle.index + 1 >= puzzle.list.length;
  if (puzzle.index + 1 >= puzzle.list.length) {
    $("an-puzzle-result").textContent += " That was the last one.";
  }
  renderBoard();
}

function nextPuzzle(by) {
  const puzzle = board.puzzle;
  if (!puzzle) return;
  puzzle.index = Math.min(puzzle.list.length - 1, puzzle.index + by);
  showPuzzle();
}

function stopPuzzles() {
  board.puzzle = null;
  $("an-puzzle").hidden = true;
  render();
}

// Keys: ← → step back and forward, Home and End go to the line's start and end.
export function key(name) {
  const actions = {
    ArrowLeft: () => step(board.ply - 1),
    ArrowRight: () => step(board.ply + 1),
    Home: () => step(0),
    End: () => step(full(board.cur).length),
  };
  if (!(name in actions) || !board.data) return false;
  actions[name]();
  return true;
}

function named(seat) {
  const text = board.names[seat] || `player ${seat + 1}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function render() {
  const data = board.data;
  if (!data) return;
  const length = full(board.cur).length;
  const puzzling = Boolean(board.puzzle);
  $("view-analysis").dataset.state = puzzling ? "puzzle" : "ready";
  $("an-start").disabled = puzzling || board.ply === 0;
  $("an-prev").disabled = puzzling || board.ply === 0;
  $("an-next").disabled = puzzling || board.ply >= length;
  $("an-end").disabled = puzzling || board.ply >= length;
  $("an-retry").disabled = data.finished;
  renderSummary();
  renderStatus();
  renderBoard();
  renderLesson();
  renderMoves();
  renderPicture();
  const link = ctx.link("analysis");
  $("an-link").hidden = !link;
  if (link) $("an-link").href = link;
  if (board.refocus) {
    board.refocus = false;
    const next = $("an-board").querySelector("button.end") || $("an-choices").querySelector("button");
    if (next) next.focus();
  }
}

function renderSummary() {
  const info = board.lines[0].info;
  const table = $("an-summary");
  const body = table.tBodies[0];
  const summary = info ? Object.values(info.summary) : [];
  table.hidden = !full(0).length;
  body.replaceChildren(...summary.map((side, seat) => {
    const row = document.createElement("tr");
    row.className = seatClass(seat);
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = named(seat);
    const cells = [`${Math.round(side.accuracy)}%`, side.labels.inaccuracy, side.labels.mistake, side.labels.blunder];
    row.append(head, ...cells.map((value) => {
      const cell = document.createElement("td");
      cell.textContent = String(value);
      return cell;
    }));
    return row;
  }));
}

function renderStatus() {
  const data = board.data;
  const where = board.cur ? `Variation ${board.cur}, ` : "Main line, ";
  let text = `${where}move ${board.ply} of ${full(board.cur).length}.`;
  if (board.ply > 0) {
    const row = data.played[board.ply - 1];
    const coins = row.indices.map((index) => data.coins[index]);
    text += ` ${named(row.seat)}: ${moveWords(row.words, coins)}.`;
  }
  if (data.finished) text += " The game is over.";
  else text += ` ${named(data.seat)} to move: take a coin to try a move.`;
  $("an-status").textContent = text;
}

// Who took each coin up to the move shown, and the coins a click takes.
function owners() {
  return ownersOf(board.data.played, board.ply);
}

function singleMoves() {
  return singleMovesOf(board.data.legal);
}

function puzzleMarks() {
  const puzzle = board.puzzle;
  if (!puzzle || !puzzle.solved) return new Set();
  const lesson = puzzle.list[puzzle.index];
  return new Set(board.lines[0].info.review[lesson.step - 1].best_moves);
}

function renderBoard() {
  const data = board.data;
  const circle = Boolean(data.svg) && data.cell === null && ctx.rulesInfo() && ctx.rulesInfo().circle;
  $("an-board").hidden = circle;
  $("an-ring").hidden = !circle;
  const owner = owners();
  const single = singleMoves();
  const marked = puzzleMarks();
  const last = board.ply > 0 ? data.played[board.ply - 1].indices : [];
  if (circle) {
    const ring = mountRing($("an-ring"), data.svg, (slice) => tryMove(single.get(slice)));
    for (const slice of ring.slices) {
      const group = ring.group(slice);
      const taken = owner.get(slice);
      if (taken) {
        group.classList.add("eaten", seatClass(taken[0]));
        group.setAttribute("aria-label", `${ring.words(slice)}; eaten by ${named(taken[0]).toLowerCase()} at move ${taken[1]}`);
      }
      if (last.includes(slice)) group.classList.add("last");
      const move = single.get(slice);
      if (move) {
        ring.activate(slice);
        group.dataset.move = move;
        if (marked.has(move)) group.classList.add("hinted");
      }
    }
    renderChoices(marked);
    return;
  }
  const { shown, gap } = shownCoins(data.coins.length, data.remaining, { fit: BOARD_ALL, ends: BOARD_END });
  const hinted = (move) => marked.has(move);
  const buttons = coinButtons(data, { shown, gap, owner, single, last, hinted, named });
  $("an-board").replaceChildren(...buttons);
  renderChoices(marked);
}

// Every legal move with the library's words (moves of several coins, both ends, slices).
function renderChoices(marked) {
  const data = board.data;
  $("an-choices").replaceChildren(...data.legal.map((legal) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = legal.move;
    button.textContent = moveWords(legal.words, legal.indices.map((index) => data.coins[index]));
    button.setAttribute("aria-label", `try ${legal.move}: ${button.textContent}`);
    if (marked.has(legal.move)) button.classList.add("hinted");
    return button;
  }));
}

// After a move that was not the best: the library's lesson and its best line.
function renderLesson() {
  const data = board.data;
  const index = board.puzzle ? -1 : data.lessons.findIndex((lesson) => lesson.step === board.ply);
  $("an-lesson").hidden = index < 0;
  if (index < 0) return;
  const lesson = data.lessons[index];
  $("an-lesson-text").textContent = lesson.words;
  const items = lesson.best_line.map((move, k) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.best = String(index);
    button.className = seatClass(move.seat);
    button.textContent = `${lesson.step + k}. ${move.move} ${move.coins.map(fmt).join(" ")}`;
    item.append(button);
    return item;
  });
  $("an-best-line").replaceChildren(...items);
  $("an-best-line").dataset.moves = lesson.best_line.map((move) => move.move).join(" ");
}

function moveButton(v, ply) {
  const line = full(v);
  const info = board.lines[v].info;
  const played = info && info.played.length >= ply ? info.played[ply - 1] : null;
  const judged = info && info.review.length >= ply ? info.review[ply - 1] : null;
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.line = String(v);
  button.dataset.ply = String(ply);
  const coins = played && played.move === line[ply - 1] ? played.indices.map((k) => fmt(board.data.coins[k])).join(" ") : "";
  const label = judged && judged.move === line[ply - 1] ? judged.label : "";
  const symbol = label ? board.symbols[label] || "" : "";
  button.textContent = `${ply}. ${line[ply - 1]}${coins ? ` ${coins}` : ""}${symbol ? ` ${symbol}` : ""}`;
  if (played) button.classList.add(seatClass(played.seat));
  if (label) button.classList.add(label);
  const who = played ? `${named(played.seat)}, ${moveWords(played.words, played.indices.map((k) => board.data.coins[k]))}` : line[ply - 1];
  button.setAttribute("aria-label", `move ${ply}${v ? ` of variation ${v}` : ""}: ${who}${label && label !== "best" ? `, ${label}` : ""}`);
  // the move shown; on a variation's moves shared with the main line, the main line's button
  const shared = v === 0 && board.cur > 0 && ply <= board.lines[board.cur].k;
  if (ply === board.ply && (v === board.cur || shared)) button.setAttribute("aria-current", "step");
  return button;
}

function renderMoves() {
  const main = full(0);
  $("an-moves-none").hidden = main.length > 0 || board.lines.length > 1;
  const items = [];
  const start = document.createElement("li");
  const first = document.createElement("button");
  first.type = "button";
  first.dataset.line = String(board.cur);
  first.dataset.ply = "0";
  first.textContent = "Start";
  if (board.ply === 0) first.setAttribute("aria-current", "step");
  start.append(first);
  items.push(start);
  const variationsAt = (k) => board.lines.map((line, v) => [line, v]).filter(([line, v]) => v > 0 && line.k === k);
  for (let ply = 1; ply <= Math.max(main.length, 1); ply += 1) {
    if (ply <= main.length) {
      const item = document.createElement("li");
      item.append(moveButton(0, ply));
      items.push(item);
    }
    for (const [line, v] of variationsAt(ply - 1)) {
      const item = document.createElement("li");
      item.className = "an-variation";
      const list = document.createElement("ol");
      list.className = "moves";
      list.setAttribute("aria-label", `Variation ${v}`);
      for (let k = 1; k <= line.moves.length; k += 1) {
        const entry = document.createElement("li");
        entry.append(moveButton(v, line.k + k));
        list.append(entry);
      }
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "an-delete";
      remove.dataset.delete = String(v);
      remove.textContent = "×";
      remove.setAttribute("aria-label", `Delete variation ${v}`);
      item.append(list, remove);
      items.push(item);
    }
  }
  $("an-moves").replaceChildren(...items);
}

function renderPicture() {
  const data = board.data;
  const box = $("an-triangle");
  const ring = !$("an-ring").hidden;
  box.hidden = !data.svg || ring;
  $("an-picture-note").textContent = ring ? "" : data.picture_note;
  $("an-picture-note").hidden = ring || Boolean(data.svg) || !data.picture_note;
  if (!data.svg || ring) {
    box.replaceChildren();
    const legend = box.previousElementSibling;
    if (legend && legend.classList.contains("triangle-legend")) legend.remove();
    return;
  }
  const triangle = mountTriangle(box, data.svg);
  if (data.cell) {
    const cell = triangle.cell(...data.cell);
    if (cell) cell.classList.add("current");
  }
}
