// Learn: step through the bottom-up fill of the table (each step highlights the two cells it
// reads and shows the recurrence with its numbers), or through the memoised recursion as a
// growing call list whose cache hits are marked and not expanded.
//
// The step bar, the recurrence, the pseudocode line and the table (zoomed to the current
// cell) form one stage no taller than the window, brought on screen at every step, so a
// phone shows a whole step at once. The pseudocode computes what the cells show: totals F
// (the sum form) for the table, margins M for the recursion. A quiz mode hides each cell
// until the learner has typed its value.
import { fmt, post, term } from "./api.js";
import { wayOn } from "./explore.js";
import { mountTriangle } from "./triangle.js";

let ctx;
const $ = (id) => document.getElementById(id);
const state = {
  text: null, data: null, svg: null, mode: "fill", step: 0, timer: null, token: 0,
  triangle: null, pending: null, drawn: -1, zoom: null, answered: new Set(), score: [0, 0],
  marked: [], addressed: 0, addressTimer: null,
};
const CONTROLS = ["learn-start", "learn-prev", "learn-play", "learn-next", "learn-end", "learn-slider", "learn-step"];
// The call list shows the latest calls only (a long list would be laid out again at each step).
const TREE_SHOWN = 60;
// Cell widths (CSS px per coin) the zoom buttons step through.
const ZOOMS = [16, 22, 28, 34, 40, 48, 60, 75, 90];

// Pseudocode of both methods, in the quantity the cells show; each step highlights its line.
const CODE = {
  fill: [
    "for len = 1 to n:",
    "  for i = 1 to n − len + 1:",
    "    j = i + len − 1",
    "    S = a[i] + … + a[j]",
    "    if i = j: F(i, i) = a[i]",
    "    else: F(i, j) = S − min(F(i+1, j), F(i, j−1))",
  ],
  memo: [
    "M(i, j):",
    "  if (i, j) in cache: return cache[i, j]",
    "  if i = j: value = a[i]",
    "  else: value = max(a[i] − M(i+1, j),",
    "                    a[j] − M(i, j−1))",
    "  cache[i, j] = value; return value",
  ],
};

export function init(context) {
  ctx = context;
  for (const radio of document.querySelectorAll('input[name="learn-mode"]')) {
    radio.addEventListener("change", () => setMode(radio.value));
  }
  $("learn-start").addEventListener("click", () => go(0));
  $("learn-prev").addEventListener("click", () => go(state.step - 1));
  $("learn-next").addEventListener("click", () => go(state.step + 1));
  $("learn-end").addEventListener("click", () => go(length() - 1));
  $("learn-play").addEventListener("click", () => (state.timer ? stop() : start()));
  $("learn-slider").addEventListener("input", () => go(Number($("learn-slider").value) - 1));
  $("learn-step").addEventListener("change", jump);
  $("learn-step").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    jump();
  });
  $("learn-speed").addEventListener("change", () => {
    if (state.timer) {
      stop();
      start();
    }
  });
  $("learn-quiz").addEventListener("change", () => {
    stop();
    state.score = [0, 0];
    if (state.data) render();
  });
  $("learn-check").addEventListener("click", check);
  $("learn-reveal").addEventListener("click", () => reveal(null));
  $("learn-guess").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault(); // else the Enter would also press Next, which takes the focus
    check();
  });
  $("learn-zoom-in").addEventListener("click", () => zoom(+1));
  $("learn-zoom-out").addEventListener("click", () => zoom(-1));
  window.addEventListener("resize", () => {
    if (state.data && !$("view-learn").hidden) {
      fitTriangle();
      focusCell();
    }
  });
}

export function params() {
  return { method: state.mode, step: String(state.step + 1) };
}

export function show(text, restore = null) {
  if (restore) {
    state.pending = restore;
    load(text);
    return;
  }
  if (text !== state.text) load(text);
}

export function hide() {
  stop();
}

export function key(name) {
  if (!state.data) return false;
  if (name === "ArrowLeft") go(state.step - 1);
  else if (name === "ArrowRight") go(state.step + 1);
  else if (name === "Home") go(0);
  else if (name === "End") go(length() - 1);
  else return false;
  return true;
}

async function load(text) {
  stop();
  const token = ++state.token;
  let answers;
  try {
    answers = await Promise.all([
      post("steps", { coins: text }),
      post("table", { coins: text, view: "total" }),
      post("table", { coins: text, view: "margin" }),
    ]);
  } catch (error) {
    if (token !== state.token) return;
    state.text = null;
    state.data = null;
    state.pending = null;
    const note = document.createElement("p");
    note.className = "missing";
    note.textContent = `Nothing to step through: ${error.message}. Fix the row above, or `;
    const [solveLink, , playLink] = wayOn(text);
    note.append(solveLink, " or ", playLink, " instead.");
    $("learn-triangle").replaceChildren(note);
    $("learn-tree").replaceChildren();
    $("learn-tree").hidden = true;
    $("learn-formula").replaceChildren();
    $("learn-code").replaceChildren();
    $("learn-counter").textContent = "";
    for (const id of CONTROLS) $(id).disabled = true;
    ctx.error(error.message);
    return;
  }
  if (token !== state.token) return;
  ctx.clearError();
  const [steps, total, margin] = answers;
  state.text = text;
  state.data = steps;
  state.svg = { fill: total.svg, memo: margin.svg };
  state.zoom = null;
  buildTree();
  const restore = state.pending;
  state.pending = null;
  if (restore && (restore.method === "fill" || restore.method === "memo")) {
    document.querySelector(`input[name="learn-mode"][value="${restore.method}"]`).checked = true;
  }
  setMode(document.querySelector('input[name="learn-mode"]:checked').value, false);
  if (restore && restore.step) go(Number(restore.step) - 1, false);
}

function length() {
  if (!state.data) return 0;
  return state.mode === "fill" ? state.data.fill.length : state.data.memo.calls.length;
}

function setMode(mode, bring = true) {
  stop();
  state.mode = mode;
  if (!state.data) return;
  state.step = 0;
  state.drawn = -1;
  state.answered = new Set();
  state.score = [0, 0];
  const legendBox = $("learn-legend");
  for (const old of legendBox.querySelectorAll(".triangle-legend")) old.remove();
  state.marked = [];
  state.triangle = mountTriangle($("learn-triangle"), state.svg[mode]);
  // The library's legend goes below the stage, folded, so the stage keeps its height.
  const legend = $("learn-triangle").previousElementSibling;
  if (legend && legend.classList.contains("triangle-legend")) legendBox.append(legend);
  fitTriangle();
  $("learn-tree").hidden = mode !== "memo";
  $("learn-stage").classList.toggle("memo", mode === "memo");
  $("learn-step-label").textContent = mode === "fill" ? "Step" : "Call";
  $("learn-caption").textContent = mode === "fill"
    ? "Cells show F(i, j), the most the player to move can get from coins i..j (coins are "
      + "numbered from 1); S is the sum of those coins. Blank cells are not filled yet; the "
      + "dashed cells are the two this step reads."
    : "Cells show M(i, j), the mover's total minus the other player's on coins i..j, the "
      + "value the recursion returns. A cell fills in when its call returns; the dashed cells "
      + "are the two calls it makes; a cache hit (yellow) returns a value computed before.";
  render(bring);
}

function jump() {
  const value = Number($("learn-step").value);
  if (Number.isInteger(value)) go(value - 1);
  else $("learn-step").value = String(state.step + 1);
}

function go(step, bring = true) {
  const last = length() - 1;
  state.step = Math.max(0, Math.min(last, step));
  if (state.step === last) stop();
  render(bring);
}

function start() {
  if (!state.data) return;
  if (state.step >= length() - 1) state.step = -1;
  $("learn-play").textContent = "Pause";
  const tick = () => go(state.step + 1);
  tick();
  state.timer = setInterval(tick, Number($("learn-speed").value));
}

function stop() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  $("learn-play").textContent = "▶ Play";
}

// The cell widths: as wide as the box allows, between 40 and 60 px a coin (numbers of about
// 15-22 px), unless the learner zoomed; a wider table scrolls inside its box.
function fitTriangle() {
  const svg = state.triangle && state.triangle.svg;
  if (!svg) return;
  const n = state.data.coins.length;
  const box = $("learn-triangle").clientWidth || 320;
  const perCoin = state.zoom || Math.max(40, Math.min(60, Math.floor(box / n)));
  svg.style.width = `${perCoin * n}px`;
  svg.style.minWidth = "";
  svg.style.maxWidth = "none";
  $("learn-zoom-in").disabled = perCoin >= ZOOMS[ZOOMS.length - 1];
  $("learn-zoom-out").disabled = perCoin <= ZOOMS[0];
}

function zoom(direction) {
  if (!state.triangle) return;
  const n = state.data.coins.length;
  const now = parseFloat(state.triangle.svg.style.width) / n;
  const next = direction > 0 ? ZOOMS.find((z) => z > now) : [...ZOOMS].reverse().find((z) => z < now);
  if (!next) return;
  state.zoom = next;
  fitTriangle();
  focusCell();
}

function quizzing() {
  return $("learn-quiz").checked;
}

function stepKey() {
  return `${state.mode}:${state.step}`;
}

function masked() {
  return quizzing() && !state.answered.has(stepKey());
}

function render(bring = true) {
  const last = length() - 1;
  const quiz = quizzing();
  $("learn-play").disabled = quiz;
  $("learn-slider").disabled = false;
  $("learn-step").disabled = false;
  $("learn-start").disabled = $("learn-prev").disabled = state.step <= 0;
  $("learn-next").disabled = $("learn-end").disabled = state.step >= last;
  $("learn-slider").max = String(last + 1);
  $("learn-slider").value = String(state.step + 1);
  $("learn-slider").setAttribute("aria-valuetext", `step ${state.step + 1} of ${last + 1}`);
  $("learn-step").max = String(last + 1);
  $("learn-step").value = String(state.step + 1);
  $("view-learn").dataset.step = String(state.step);
  $("view-learn").dataset.last = String(last);
  if (state.mode === "fill") renderFill();
  else renderMemo();
  state.drawn = state.step;
  renderCode();
  renderQuiz();
  focusCell();
  if (state.mode === "memo") scrollTree();
  if (bring) bringStage();
  address();
}

// The address follows the step; while steps come fast (playing, a held key) it is written at
// most every quarter second, and once more after the last.
function address() {
  const now = performance.now();
  clearTimeout(state.addressTimer);
  if (now - state.addressed > 250) {
    state.addressed = now;
    ctx.update("learn");
  } else {
    state.addressTimer = setTimeout(() => {
      state.addressed = performance.now();
      ctx.update("learn");
    }, 250);
  }
}

// The stage is at most the window's height: when any of it is off screen, the window scrolls
// to its top (instantly, so a step never lands mid-scroll).
function bringStage() {
  const stage = $("learn-stage").getBoundingClientRect();
  if (stage.top < 0 || stage.bottom > window.innerHeight) {
    window.scrollTo({ top: window.scrollY + stage.top, behavior: "instant" });
  }
}

// The call list keeps the current call in its middle.
function scrollTree() {
  const tree = $("learn-tree");
  const item = tree.children[state.step];
  tree.scrollTop = Math.max(0, item.offsetTop - tree.offsetTop - tree.clientHeight / 2);
}

// Zoom to the cell: scroll the table's box so the current cell and the cells it reads are in
// the middle of it.
function focusCell() {
  const triangle = state.triangle;
  if (!triangle) return;
  const marked = state.marked.map(([cell]) => cell);
  if (!marked.length) return;
  const container = $("learn-triangle");
  const rects = marked.map((cell) => cell.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left));
  const right = Math.max(...rects.map((r) => r.right));
  const top = Math.min(...rects.map((r) => r.top));
  const bottom = Math.max(...rects.map((r) => r.bottom));
  const box = container.getBoundingClientRect();
  if (left < box.left + 4 || right > box.right - 4) {
    container.scrollLeft += (left + right) / 2 - (box.left + container.clientWidth / 2);
  }
  if (top < box.top + 4 || bottom > box.top + container.clientHeight - 4) {
    container.scrollTop += (top + bottom) / 2 - (box.top + container.clientHeight / 2);
  }
}

function codeLines() {
  if (state.mode === "fill") {
    const step = state.data.fill[state.step];
    return step.i === step.j ? [4] : [5];
  }
  const call = state.data.memo.calls[state.step];
  if (call.hit) return [1];
  return call.i === call.j ? [2, 5] : [3, 4];
}

function renderCode() {
  const now = codeLines();
  const lines = CODE[state.mode].map((text, index) => {
    const line = document.createElement("span");
    line.textContent = text;
    if (now.includes(index)) {
      line.className = "now";
      line.setAttribute("aria-current", "true");
    }
    return line;
  });
  $("learn-code").replaceChildren(...lines);
}

const esc = (value) => String(value).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const num = (value) => esc(term(value));
const a = (i) => `a<sub>${i + 1}</sub>`;
const cellName = (letter, i, j) => `${letter}(${i + 1},${j + 1})`;
const read = (text) => `<span class="read">${text}</span>`;

function coinsOf(i, j) {
  const coins = state.data.coins.slice(i, j + 1).map(fmt);
  return coins.length > 12 ? [...coins.slice(0, 5), "…", ...coins.slice(-5)].join(" ") : coins.join(" ");
}

function bestMove(moves, i, j) {
  if (i === j) return "take the last coin";
  if (moves.length === 2) return "either end is as good";
  return moves[0] === "L" ? `take the left coin (${esc(fmt(state.data.coins[i]))})` : `take the right coin (${esc(fmt(state.data.coins[j]))})`;
}

// The answer of this step, or a question mark while the learner is asked for it.
function result(value) {
  return masked() ? '<strong class="asked">?</strong>' : `<strong>${esc(fmt(value))}</strong>`;
}

// The cells this step marks (current, read...), remembered so the next step unmarks only them.
function mark(cell, ...classes) {
  cell.classList.add(...classes);
  state.marked.push([cell, classes]);
}

function unmark() {
  for (const [cell, classes] of state.marked) cell.classList.remove(...classes);
  state.marked = [];
}

// Pending cells: a step forward only fills the cells it completes; other moves redraw all.
function markPending(filled) {
  const triangle = state.triangle;
  for (const [key, cell] of triangle.cells) cell.classList.toggle("pending", !filled(key));
}

function renderFill() {
  const fill = state.data.fill;
  const current = fill[state.step];
  const triangle = state.triangle;
  unmark();
  if (state.drawn >= 0 && state.step === state.drawn + 1) {
    triangle.cell(current.i, current.j).classList.remove("pending");
  } else {
    const filled = new Set(fill.slice(0, state.step + 1).map((s) => `${s.i},${s.j}`));
    markPending((key) => filled.has(key));
  }
  mark(triangle.cell(current.i, current.j), "current", ...(masked() ? ["masked"] : []));
  for (const [i, j] of current.reads) mark(triangle.cell(i, j), "read");
  const { i, j } = current;
  $("learn-counter").textContent = `of ${fill.length}: the subgame of coins ${i + 1}..${j + 1}`;
  let html;
  if (i === j) {
    html = `<p class="math">One coin: ${cellName("F", i, j)} = ${a(i)} = ${result(current.value)}</p>`;
  } else {
    const [r1, r2] = current.reads;
    html = `<p class="math">${cellName("F", i, j)} = S − min(${read(cellName("F", ...r1))}, ${read(cellName("F", ...r2))})
 = ${num(current.total)} − min(${num(current.rest_left)}, ${num(current.rest_right)}) = ${result(current.value)}</p>`;
  }
  html += `<p><strong>Coins ${i + 1}..${j + 1}:</strong> ${esc(coinsOf(i, j))}${i === j ? "" : `, S = ${esc(fmt(current.total))}`}.`;
  if (i !== j) {
    html += ` The mover gets every coin but what the opponent then gets, and leaves the opponent the smaller of ${read(cellName("F", ...current.reads[0]))} (after the left coin) and ${read(cellName("F", ...current.reads[1]))} (after the right).`;
  }
  html += masked() ? "</p>" : ` Best move: ${bestMove(current.moves, i, j)}.</p>`;
  if (i !== j && !masked()) {
    const emptyNote = current.inner_reads.some((c) => c === null) ? " (F of no coins is 0)" : "";
    const inner = current.inner_reads.map((c) => (c ? cellName("F", ...c) : "0"));
    const [r1, r2] = current.reads;
    html += `<details class="more"><summary>Two other ways to write it</summary>
<p>Margin form: the coin taken minus the margin of what is left to the opponent.</p>
<p class="math">${cellName("M", i, j)} = max(${a(i)} − ${cellName("M", ...r1)}, ${a(j)} − ${cellName("M", ...r2)})
 = max(${num(current.left_coin)} − ${num(current.after_left)}, ${num(current.right_coin)} − ${num(current.after_right)})
 = max(${num(current.take_left)}, ${num(current.take_right)}) = <strong>${esc(fmt(current.margin))}</strong></p>
<p>Max-min form: the coin taken plus the smaller of what the opponent's two replies leave${emptyNote}.</p>
<p class="math">${cellName("F", i, j)} = max(${a(i)} + min(${inner[0]}, ${inner[1]}), ${a(j)} + min(${inner[1]}, ${inner[2]}))
 = max(${num(current.left_coin)} + min(${num(current.inner[0])}, ${num(current.inner[1])}), ${num(current.right_coin)} + min(${num(current.inner[1])}, ${num(current.inner[2])}))
 = max(${num(current.left_value)}, ${num(current.right_value)}) = <strong>${esc(fmt(current.value))}</strong></p></details>`;
  }
  $("learn-formula").innerHTML = html;
}

// Per call, what the trace tells at its step: the calls returning then, its two children, and
// the counts of cache hits and computed subgames so far (each step then costs O(1)).
function indexCalls() {
  const calls = state.data.memo.calls;
  const returning = calls.map(() => []);
  const children = calls.map(() => []);
  const hits = [];
  const computed = calls.map(() => 0);
  let seen = 0;
  for (const c of calls) {
    if (!c.hit) returning[c.last].push(c);
    if (c.parent !== null) children[c.parent].push(c);
    seen += c.hit ? 1 : 0;
    hits.push(seen);
    if (!c.hit) computed[c.last] += 1;
  }
  for (let k = 1; k < computed.length; k++) computed[k] += computed[k - 1];
  state.calls = { returning, children, hits, computed };
}

function buildTree() {
  indexCalls();
  const items = state.data.memo.calls.map((call) => {
    const item = document.createElement("li");
    // indented by depth, up to 16 levels (a deeper call says its depth instead)
    item.style.paddingLeft = `${0.3 + Math.min(call.depth, 16) * 0.6}em`;
    if (call.depth > 16) item.dataset.depth = `${call.depth}`;
    item.dataset.index = call.index;
    if (call.hit) item.classList.add("hit");
    return item;
  });
  $("learn-tree").replaceChildren(...items);
}

function treeText(c, k) {
  return `${cellName("M", c.i, c.j)} = ${c.hit || c.last <= k ? fmt(c.margin) : "…"}`;
}

function renderMemo() {
  const memo = state.data.memo;
  const k = state.step;
  const call = memo.calls[k];
  const triangle = state.triangle;
  unmark();
  const tree = $("learn-tree");
  const items = tree.children;
  // while the learner is asked for this call's value, the calls returning now (whose values
  // would give it away) stay as they were
  const asked = masked();
  const upTo = asked ? k - 1 : k;
  const forward = state.drawn >= 0 && k === state.drawn + 1 && !state.drawnMasked;
  const returning = asked ? [] : state.calls.returning[k];
  if (forward) {
    // One step on: the new call appears, and the calls returning now get their values.
    items[state.drawn].classList.remove("current");
    items[k].classList.remove("later");
    if (k - TREE_SHOWN >= 0) items[k - TREE_SHOWN].classList.add("far");
    items[k].textContent = treeText(call, upTo);
    for (const c of returning) {
      items[c.index].textContent = treeText(c, k);
      triangle.cell(c.i, c.j).classList.remove("pending");
    }
  } else {
    const known = new Set();
    for (const c of memo.calls.slice(0, k + 1)) {
      if (!c.hit && c.last <= upTo) known.add(`${c.i},${c.j}`);
    }
    markPending((key) => known.has(key));
    for (const [index, item] of [...items].entries()) {
      item.classList.toggle("later", index > k);
      item.classList.toggle("far", index <= k - TREE_SHOWN);
      item.classList.remove("current");
      if (index <= k) item.textContent = treeText(memo.calls[index], upTo);
    }
  }
  if (masked()) items[k].textContent = `${cellName("M", call.i, call.j)} = ?`;
  items[k].classList.add("current");
  const extra = [...(call.hit ? ["hit"] : []), ...(masked() && !call.hit ? ["masked"] : [])];
  mark(triangle.cell(call.i, call.j), "current", ...extra);
  const children = call.hit || call.i === call.j ? [] : [[call.i + 1, call.j], [call.i, call.j - 1]];
  for (const [i, j] of children) mark(triangle.cell(i, j), "read");
  const hits = state.calls.hits[k];
  const computed = state.calls.computed[k];
  const n = state.data.coins.length;
  $("learn-counter").textContent = `of ${memo.count} · cache hits ${hits} of ${memo.hits} · `
    + `subgames computed ${computed} of ${memo.computed} · without the cache: 2^${n} − 1 = ${memo.plain.toLocaleString()} calls`;
  const name = cellName("M", call.i, call.j);
  const parent = call.parent === null ? "the first call" : `called by ${cellName("M", memo.calls[call.parent].i, memo.calls[call.parent].j)}`;
  let html;
  if (call.hit) {
    html = `<p class="math">${name} = cache[${call.i + 1}, ${call.j + 1}] = ${result(call.margin)}</p>
<p>${parent}, coins ${call.i + 1}..${call.j + 1} (${esc(coinsOf(call.i, call.j))}): found in the cache, computed before, so this call returns at once and is not expanded.</p>`;
  } else if (call.i === call.j) {
    html = `<p class="math">One coin: ${name} = ${a(call.i)} = ${result(call.margin)}</p>
<p>${parent}, coin ${call.i + 1}; stored in the cache.</p>`;
  } else {
    const [left, right] = state.calls.children[call.index];
    html = `<p class="math">${name} = max(${a(call.i)} − ${read(cellName("M", left.i, left.j))}, ${a(call.j)} − ${read(cellName("M", right.i, right.j))})
 = max(${num(state.data.coins[call.i])} − ${num(left.margin)}, ${num(state.data.coins[call.j])} − ${num(right.margin)}) = ${result(call.margin)}</p>
<p>${parent}, coins ${call.i + 1}..${call.j + 1} (${esc(coinsOf(call.i, call.j))}): not in the cache, so it calls ${cellName("M", left.i, left.j)}, then ${cellName("M", right.i, right.j)}, and takes the better when both return.</p>`;
  }
  state.drawnMasked = asked;
  const back = returning.filter((c) => c.index !== k);
  if (back.length) {
    const shown = back.slice(0, 6).map((c) => `${cellName("M", c.i, c.j)} = ${esc(fmt(c.margin))}`);
    html += `<p>Returning now: ${shown.join(", ")}${back.length > 6 ? `, and ${back.length - 6} more` : ""}.</p>`;
  }
  $("learn-formula").innerHTML = html;
}

// The quiz: the value of this step, asked before it is shown.
function stepValue() {
  if (state.mode === "fill") return state.data.fill[state.step].value;
  return state.data.memo.calls[state.step].margin;
}

function renderQuiz() {
  const box = $("learn-quiz-box");
  box.hidden = !quizzing();
  if (box.hidden) return;
  const { i, j } = state.mode === "fill" ? state.data.fill[state.step] : state.data.memo.calls[state.step];
  const name = cellName(state.mode === "fill" ? "F" : "M", i, j);
  const open = masked();
  $("learn-ask").textContent = open ? `Your value of ${name}:` : `${name} = ${fmt(stepValue())}`;
  $("learn-guess").hidden = $("learn-check").hidden = $("learn-reveal").hidden = !open;
  $("learn-guess").value = "";
  $("learn-verdict").textContent = state.score[1]
    ? `${open ? "" : `${$("learn-verdict").dataset.said || ""} `}Right first time: ${state.score[0]} of ${state.score[1]}.`
    : "";
  $("learn-verdict").dataset.said = "";
}

// An exact value typed by the learner (an integer, a decimal or a fraction, minus as "-" or
// "−") as [numerator, denominator] BigInts, or null.
function exact(text) {
  const clean = String(text).trim().replace(/[\u2212\u2013]/g, "-");
  let match = /^(-?)(\d+)\/(\d+)$/.exec(clean);
  if (match) {
    if (BigInt(match[3]) === 0n) return null;
    return [BigInt(match[1] + match[2]), BigInt(match[3])];
  }
  match = /^(-?)(\d*)(?:\.(\d+))?$/.exec(clean);
  if (!match || (match[2] === "" && !match[3])) return null;
  const places = (match[3] || "").length;
  return [BigInt(`${match[1]}${match[2] || "0"}${match[3] || ""}`), 10n ** BigInt(places)];
}

function check() {
  if (!masked()) return;
  const guess = exact($("learn-guess").value);
  const want = exact(String(stepValue()));
  if (!guess) {
    $("learn-verdict").textContent = "Type a number (such as 12, −3, 0.5 or 1/3).";
    return;
  }
  const key = stepKey();
  const first = !state.tried || state.tried !== key;
  state.tried = key;
  if (guess[0] * want[1] === want[0] * guess[1]) {
    if (first) state.score[0] += 1;
    state.score[1] += 1;
    reveal(`Right: ${fmt(stepValue())}.`);
  } else {
    $("learn-verdict").textContent = `Not ${$("learn-guess").value.trim()}: look at the dashed cells and try again, or Show.`;
  }
}

function reveal(said) {
  if (!masked()) return;
  if (said === null) state.score[1] += 1;
  state.answered.add(stepKey());
  $("learn-verdict").dataset.said = said || `It is ${fmt(stepValue())}.`;
  render();
  $("learn-next").focus();
}
