// Puzzles: rows where the tempting move (the larger end, or the odd/even rule) loses, found by
// the library (/api/puzzle). The daily puzzle is seeded by the UTC date; the solved count and
// the streak of days are kept in this browser (localStorage).
import { fmt, get } from "./api.js";

let ctx;
const $ = (id) => document.getElementById(id);
const STORE = "coinrow.puzzles";
const state = { puzzle: null, daily: false, answered: false, token: 0 };

export function init(context) {
  ctx = context;
  $("puzzle-daily").addEventListener("click", () => open({ daily: true }));
  $("puzzle-next").addEventListener("click", () => {
    const seed = state.puzzle && !state.daily ? state.puzzle.seed + 1 : Math.floor(Math.random() * 1e6);
    open({ seed });
  });
  $("puzzle-board").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-move]");
    if (button) answer(button.dataset.move);
  });
  $("puzzle-play").addEventListener("click", () => {
    const coins = state.puzzle.coins.map((coin) => String(coin)).join(" ");
    ctx.load(coins, "play", { opponent: "optimal", seat: "first" });
  });
  renderStats();
}

export function params() {
  if (!state.puzzle) return {};
  return state.daily ? { puzzle: "daily" } : { puzzle: String(state.puzzle.seed) };
}

export function show(text, restore = null) {
  if (restore && restore.puzzle && restore.puzzle !== "daily" && /^\d+$/.test(restore.puzzle)) {
    open({ seed: Number(restore.puzzle) });
  } else if (restore || !state.puzzle) {
    open({ daily: true });
  }
}

export function key(name) {
  if (!state.puzzle || state.answered) return false;
  if (name === "ArrowLeft") answer("L");
  else if (name === "ArrowRight") answer("R");
  else return false;
  return true;
}

function today() {
  return new Date().toISOString().slice(0, 10); // the UTC date
}

function stored() {
  try {
    return { solved: [], days: [], ...JSON.parse(localStorage.getItem(STORE) || "{}") };
  } catch {
    return { solved: [], days: [] };
  }
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

function renderStats() {
  const data = stored();
  $("puzzle-solved").textContent = String(data.solved.length);
  $("puzzle-streak").textContent = String(streak(data.days));
}

async function open({ daily = false, seed = null }) {
  const token = ++state.token;
  let puzzle;
  try {
    puzzle = await get("puzzle", daily ? { date: today() } : { seed });
  } catch (error) {
    if (token === state.token) ctx.error(error.message, { row: false });
    return;
  }
  if (token !== state.token) return;
  state.puzzle = puzzle;
  state.daily = daily;
  state.answered = false;
  $("puzzle-title").textContent = daily ? `Daily puzzle, ${today()}` : `Puzzle ${puzzle.seed}`;
  $("puzzle-task").textContent = `You move first. Find the best move: take the left or the right coin (← or →).`;
  const n = puzzle.coins.length;
  const buttons = puzzle.coins.map((coin, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "coin";
    button.textContent = fmt(coin);
    if (index === 0 || index === n - 1) {
      button.classList.add("end");
      button.dataset.move = index === 0 ? "L" : "R";
      button.title = index === 0 ? "take the left coin (←)" : "take the right coin (→)";
    } else {
      button.disabled = true;
    }
    return button;
  });
  $("puzzle-board").replaceChildren(...buttons);
  $("puzzle-result").textContent = "";
  $("puzzle-play").hidden = true;
  $("view-puzzles").dataset.state = "open";
  ctx.update("puzzles");
}

function answer(move) {
  const puzzle = state.puzzle;
  if (!puzzle || state.answered) return;
  state.answered = true;
  for (const button of $("puzzle-board").querySelectorAll("button")) button.disabled = true;
  const right = puzzle.best_moves.includes(move);
  const side = (m) => (m === "L" ? "left" : "right");
  const rule = `${puzzle.tempting === "greedy" ? "Greedy" : "The odd/even rule"} (${puzzle.tempting_rule})`;
  const cost = `loses ${fmt(puzzle.loss)} (a ${puzzle.grade})`;
  if (right) {
    const data = stored();
    const key = String(puzzle.seed);
    if (!data.solved.includes(key)) data.solved.push(key);
    if (state.daily && !data.days.includes(today())) data.days.push(today());
    localStorage.setItem(STORE, JSON.stringify(data));
    $("puzzle-result").textContent = `Right: the ${side(move)} coin. ${rule} takes the ${side(puzzle.tempting_move)} coin and ${cost}; best play gets ${fmt(puzzle.best_total)}.`;
  } else {
    $("puzzle-result").textContent = `Not this time: the ${side(move)} coin is the tempting move. ${rule} ${cost}. Best: the ${side(puzzle.best_moves[0])} coin, for ${fmt(puzzle.best_total)}.`;
  }
  $("view-puzzles").dataset.state = right ? "solved" : "missed";
  $("puzzle-play").hidden = false;
  renderStats();
}
