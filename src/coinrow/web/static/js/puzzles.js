// Puzzles of several moves, found by the library (/api/puzzles/puzzle): you move first and
// must find the only best move, the computer answers, and you must find the next one too.
// Themes (greedy trap, parity trap, endgame, misère), retry, "show solution", why a wrong
// move loses (the library's words), a rating computed by the library (Glicko-2,
// /api/puzzles/rate), and the history of attempts, kept in this browser (localStorage). The
// daily puzzle has one try: after it, today's answer stays on screen.
import { fmt, get, post } from "./api.js";

let ctx;
const $ = (id) => document.getElementById(id);
const STORE = "coinrow.puzzles";
// The computer's answer comes after a short pause, so a person sees their move land first.
const ANSWER_MS = 450;
const state = {
  puzzle: null, daily: false, token: 0, step: 0, lo: 0, hi: 0, taken: [], status: "open",
  first: true, timer: null,
};

export function init(context) {
  ctx = context;
  $("puzzle-daily").addEventListener("click", () => open({ daily: true }));
  $("puzzle-next").addEventListener("click", () => open(nextChoice()));
  $("puzzle-board").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-move]");
    if (button && !button.disabled) play(button.dataset.move);
  });
  $("puzzle-retry").addEventListener("click", retry);
  $("puzzle-solution").addEventListener("click", showSolution);
  $("puzzle-play").addEventListener("click", () => {
    const coins = state.puzzle.coins.map((coin) => String(coin)).join(" ");
    ctx.load(coins, "play", { opponent: "optimal", seat: "first" });
  });
  renderStats();
}

export function params() {
  if (!state.puzzle) return {};
  return { puzzle: state.daily ? "daily" : state.puzzle.id };
}

export function show(text, restore = null) {
  const wanted = restore && restore.puzzle;
  if (wanted && wanted !== "daily") {
    const [theme, seed] = /^\d+$/.test(wanted) ? ["greedy-trap", wanted] : wanted.split(":");
    if (!state.puzzle || state.daily || state.puzzle.id !== `${theme}:${seed}`) open({ theme, seed: Number(seed) });
  } else if (restore || !state.puzzle) {
    open({ daily: true });
  }
}

export function hide() {
  clearTimeout(state.timer);
}

export function key(name) {
  if (!state.puzzle || state.status !== "open" || !yourTurn()) return false;
  if (name === "ArrowLeft") play("L");
  else if (name === "ArrowRight") play("R");
  else return false;
  return true;
}

function today() {
  return new Date().toISOString().slice(0, 10); // the UTC date
}

function stored() {
  const empty = { solved: [], days: [], dailies: {}, history: [], tried: [], rating: null };
  try {
    return { ...empty, ...JSON.parse(localStorage.getItem(STORE) || "{}") };
  } catch {
    return empty;
  }
}

function save(data) {
  localStorage.setItem(STORE, JSON.stringify(data));
}

function streak(days) {
  // Consecutive UTC days, ending today or yesterday, on which the daily puzzle was solved.
  const set = new Set(days);
  let day = new Date(`${today()}T00:00:00Z`);
  if (!set.has(today())) day = new Date(day.getTime() - 86400000);
  let count = 0;
  while (set.has(day.toISOString().slice(0, 10))) {
    count += 1;
    day = new Date(day.getTime() - 86400000);
  }
  return count;
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

function renderStats() {
  const data = stored();
  const rating = data.rating || { rating: 1500, rd: 350 };
  $("puzzle-rating").textContent = String(Math.round(rating.rating));
  $("puzzle-rd").textContent = `(± ${Math.round(2 * rating.rd)}${data.rating ? "" : ", not rated yet"})`;
  $("puzzle-solved").textContent = String(data.solved.length);
  $("puzzle-streak").textContent = plural(streak(data.days), "day");
  const items = data.history.slice(-12).reverse().map((entry) => {
    const item = document.createElement("li");
    const change = entry.change === null ? "" : `, rating ${Math.round(entry.rating)} (${entry.change >= 0 ? "+" : "−"}${Math.abs(Math.round(entry.change))})`;
    item.textContent = `${entry.day} · ${entry.title}: ${entry.result}${change}`;
    return item;
  });
  $("puzzle-history").replaceChildren(...items);
  $("puzzle-history-none").hidden = items.length > 0;
}

function nextChoice() {
  const choice = $("puzzle-theme").value;
  const themes = [...$("puzzle-theme").options].map((option) => option.value).filter((value) => value !== "any");
  const theme = choice === "any" ? themes[Math.floor(Math.random() * themes.length)] : choice;
  if (state.puzzle && !state.daily && state.puzzle.theme === theme) return { theme, seed: state.puzzle.seed + 1 };
  return { theme, seed: Math.floor(Math.random() * 1e6) };
}

async function open({ daily = false, theme = null, seed = null }) {
  const token = ++state.token;
  clearTimeout(state.timer);
  let puzzle;
  try {
    puzzle = await get("puzzles/puzzle", daily ? { date: today() } : { theme, seed });
  } catch (error) {
    if (token === state.token) ctx.error(error.message, { row: false });
    return;
  }
  if (token !== state.token) return;
  state.puzzle = puzzle;
  state.daily = daily;
  state.first = true;
  $("puzzle-title").textContent = daily ? `Daily puzzle, ${today()}: ${puzzle.theme_title}` : `${puzzle.theme_title} ${puzzle.seed}`;
  const moves = puzzle.steps.length;
  $("puzzle-about").textContent = `${puzzle.theme_about} Rated ${puzzle.rating}.`;
  $("puzzle-task").textContent = `${puzzle.rules_words ? `${puzzle.rules_words} ` : ""}You move first. `
    + `Find ${moves > 1 ? `${moves} best moves in a row` : "the best move"}: take the left or the right coin (← or →).`;
  const done = daily ? stored().dailies[today()] : null;
  if (done) {
    // one try a day: the answer stays
    reset();
    state.status = done;
    showLine(puzzle.line, `You have tried today's puzzle: ${done === "solved" ? "solved" : "not solved"}. A new one comes tomorrow (UTC). The solution:`);
    ctx.update("puzzles");
    return;
  }
  reset();
  render();
  ctx.update("puzzles");
}

function reset() {
  const n = state.puzzle.coins.length;
  state.step = 0;
  state.lo = 0;
  state.hi = n - 1;
  state.taken = Array(n).fill(null); // [who, ply] of each taken coin
  state.status = "open";
  $("puzzle-result").textContent = "";
  $("puzzle-why").textContent = "";
}

function yourTurn() {
  const step = state.puzzle.steps[state.step];
  return step && state.taken.filter(Boolean).length === step.ply;
}

function coinAt(move) {
  return move === "L" ? state.lo : state.hi;
}

function take(move, who) {
  const index = coinAt(move);
  state.taken[index] = [who, state.taken.filter(Boolean).length + 1];
  if (move === "L") state.lo += 1;
  else state.hi -= 1;
  return index;
}

function words(index, move) {
  return `the ${fmt(state.puzzle.coins[index])} (${move === "L" ? "left" : "right"})`;
}

function play(move) {
  if (state.status !== "open" || !yourTurn()) return;
  const step = state.puzzle.steps[state.step];
  const index = coinAt(move);
  if (move !== step.best) {
    const best = coinAt(step.best);
    render({ wrong: index, best });
    const tempted = step.tempting === move;
    fail(`Not this time: taking ${words(index, move)} is ${tempted ? "the tempting move" : "not the best"}.`, step.why[move], tempted);
    return;
  }
  take(move, "you");
  state.step += 1;
  if (!step.reply) {
    render();
    finish("solved", `Solved: ${describe(state.puzzle.line)}`);
    return;
  }
  render();
  $("puzzle-result").textContent = `Right: ${words(index, move)}. The computer answers…`;
  state.timer = setTimeout(() => {
    const reply = take(step.reply, "computer");
    render();
    $("puzzle-result").textContent = `Right. The computer took ${words(reply, step.reply)}. Your move: find the best again.`;
  }, ANSWER_MS);
}

function describe(line) {
  // the solution in words, from the start
  let lo = 0;
  let hi = state.puzzle.coins.length - 1;
  const parts = line.map((move, ply) => {
    const index = move === "L" ? lo++ : hi--;
    return `${ply % 2 === 0 ? "you take" : "the computer takes"} the ${fmt(state.puzzle.coins[index])}`;
  });
  return `${parts.join(", ")}; with best play you finish with ${fmt(state.puzzle.best_total)}.`;
}

function fail(message, why, tempted) {
  finish("failed", message, tempted);
  $("puzzle-why").textContent = why;
}

async function finish(status, message, tempted = true) {
  state.status = status;
  const puzzle = state.puzzle;
  // the trap's size, said when it was avoided or fallen into
  const grade = tempted ? ` The tempting move (${puzzle.tempting_rule}) loses ${fmt(puzzle.loss)}, ${article(puzzle.grade)}.` : "";
  $("puzzle-result").textContent = `${message}${grade}`;
  $("view-puzzles").dataset.state = status;
  $("puzzle-retry").hidden = state.daily;
  $("puzzle-solution").hidden = status === "solved";
  $("puzzle-play").hidden = !puzzle.plain;
  for (const button of $("puzzle-board").querySelectorAll("button")) button.disabled = true;
  if (!state.first) return; // a retry is practice: it does not count
  state.first = false;
  const data = stored();
  const solved = status === "solved";
  if (solved && !data.solved.includes(puzzle.id)) data.solved.push(puzzle.id);
  if (state.daily) {
    data.dailies[today()] = status;
    if (solved && !data.days.includes(today())) data.days.push(today());
  }
  const entry = { day: today(), id: puzzle.id, title: `${state.daily ? "daily, " : ""}${puzzle.theme_title} ${puzzle.seed}`, result: solved ? "solved" : "missed", rating: null, change: null };
  try {
    const before = data.rating || {};
    const rated = await post("puzzles/rate", { ...before, puzzle: puzzle.rating, solved });
    data.rating = { rating: rated.rating, rd: rated.rd, volatility: rated.volatility };
    entry.rating = rated.rating;
    entry.change = rated.change;
  } catch (error) {
    ctx.error(`The rating could not be updated: ${error.message}`, { row: false });
  }
  data.history = [...data.history, entry].slice(-100);
  save(data);
  renderStats();
}

function retry() {
  clearTimeout(state.timer);
  reset();
  render();
  $("puzzle-result").textContent = "Again, for practice (it does not change your rating).";
}

function showSolution() {
  clearTimeout(state.timer);
  if (state.status === "open") {
    render();
    finish("failed", "The solution:", false);
  }
  showLine(state.puzzle.line, "The solution:");
}

// The board after a whole line, each taken coin numbered by its move.
function showLine(line, heading) {
  state.lo = 0;
  state.hi = state.puzzle.coins.length - 1;
  state.taken = Array(state.puzzle.coins.length).fill(null);
  line.forEach((move, ply) => take(move, ply % 2 === 0 ? "you" : "computer"));
  state.step = state.puzzle.steps.length;
  render({ numbered: true });
  $("puzzle-result").textContent = `${heading} ${describe(line)}`;
  $("puzzle-why").textContent = state.puzzle.explanation ? `Why the tempting move loses: ${state.puzzle.explanation}` : "";
  $("view-puzzles").dataset.state = state.status;
  $("puzzle-retry").hidden = state.daily;
  $("puzzle-solution").hidden = true;
  $("puzzle-play").hidden = !state.puzzle.plain;
}

function render({ wrong = null, best = null, numbered = false } = {}) {
  const puzzle = state.puzzle;
  const open = state.status === "open" && wrong === null && yourTurn();
  const buttons = puzzle.coins.map((coin, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "coin";
    button.textContent = fmt(coin);
    const taken = state.taken[index];
    const end = index === state.lo || index === state.hi;
    if (taken) {
      button.classList.add("taken", taken[0] === "you" ? "first" : "second");
      button.setAttribute("aria-label", `${fmt(coin)}, taken by ${taken[0] === "you" ? "you" : "the computer"} at move ${taken[1]}`);
      if (numbered) {
        const small = document.createElement("small");
        small.textContent = ` ${taken[1]}`;
        button.append(small);
      }
      button.disabled = true;
    } else if (end && open) {
      button.classList.add("end");
      button.dataset.move = index === state.lo ? "L" : "R";
      button.title = index === state.lo ? "take the left coin (←)" : "take the right coin (→)";
    } else {
      button.disabled = true;
    }
    if (index === wrong) {
      button.classList.add("chosen");
      button.append(" ✗");
      button.setAttribute("aria-label", `${fmt(coin)}: your move, not the best`);
    }
    if (index === best) {
      button.classList.add("best");
      button.append(" ✓");
      button.setAttribute("aria-label", `${fmt(coin)}: the best move`);
    }
    return button;
  });
  $("puzzle-board").replaceChildren(...buttons);
  $("view-puzzles").dataset.state = state.status === "open" ? (yourTurn() ? "open" : "answering") : state.status;
  $("view-puzzles").dataset.step = String(state.step);
  if (state.status === "open") {
    $("puzzle-retry").hidden = true;
    $("puzzle-solution").hidden = false;
    $("puzzle-play").hidden = true;
  }
}
