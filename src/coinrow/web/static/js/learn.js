// Learn: step through the bottom-up fill of the table (each step highlights the two cells it
// reads and shows both forms of the recurrence with its numbers), or through the memoised
// recursion as a growing call tree whose cache hits are marked and not expanded.
import { fmt, post, term } from "./api.js";
import { wayOn } from "./explore.js";
import { mountTriangle } from "./triangle.js";

let ctx;
const $ = (id) => document.getElementById(id);
const state = { text: null, data: null, svg: null, mode: "fill", step: 0, timer: null, token: 0, triangle: null, pending: null };
const CONTROLS = ["learn-start", "learn-prev", "learn-play", "learn-next", "learn-end", "learn-slider"];

// Pseudocode of both methods; each step highlights the line it runs.
const CODE = {
  fill: [
    "for len = 1 to n:",
    "  for i = 1 to n − len + 1:",
    "    j = i + len − 1",
    "    if i = j: M(i, i) = a[i]",
    "    else: M(i, j) = max(a[i] − M(i+1, j),",
    "                        a[j] − M(i, j−1))",
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
  $("learn-speed").addEventListener("change", () => {
    if (state.timer) {
      stop();
      start();
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
  buildTree();
  const restore = state.pending;
  state.pending = null;
  if (restore && (restore.method === "fill" || restore.method === "memo")) {
    document.querySelector(`input[name="learn-mode"][value="${restore.method}"]`).checked = true;
  }
  setMode(document.querySelector('input[name="learn-mode"]:checked').value, false);
  if (restore && restore.step) go(Number(restore.step) - 1);
}

function length() {
  if (!state.data) return 0;
  return state.mode === "fill" ? state.data.fill.length : state.data.memo.calls.length;
}

function setMode(mode, reveal = true) {
  stop();
  state.mode = mode;
  if (!state.data) return;
  state.step = 0;
  state.triangle = mountTriangle($("learn-triangle"), state.svg[mode]);
  $("learn-tree").hidden = mode !== "memo";
  $("learn-triangle").parentElement.classList.toggle("memo", mode === "memo");
  $("learn-caption").textContent = mode === "fill"
    ? "Cells show F(i, j), the most the player to move can get from coins i..j (coins are "
      + "numbered from 1). Blank cells are not filled yet; the dashed cells are the two this step reads."
    : "Cells show M(i, j), the mover's total minus the other player's on coins i..j. A cell "
      + "fills in when its call returns; a cache hit (yellow) returns a value computed before.";
  render(reveal);
}

function go(step) {
  const last = length() - 1;
  state.step = Math.max(0, Math.min(last, step));
  if (state.step === last) stop();
  render();
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

function render(reveal = true) {
  const last = length() - 1;
  $("learn-play").disabled = false;
  $("learn-slider").disabled = false;
  $("learn-start").disabled = $("learn-prev").disabled = state.step <= 0;
  $("learn-next").disabled = $("learn-end").disabled = state.step >= last;
  $("learn-slider").max = String(last + 1);
  $("learn-slider").value = String(state.step + 1);
  $("learn-slider").setAttribute("aria-valuetext", `step ${state.step + 1} of ${last + 1}`);
  $("view-learn").dataset.step = String(state.step);
  $("view-learn").dataset.last = String(last);
  if (state.mode === "fill") renderFill();
  else renderMemo();
  renderCode();
  const current = state.triangle.svg.querySelector("g.cell.current");
  if (current && reveal) state.triangle.reveal(current);
  ctx.update("learn");
}

function codeLines() {
  if (state.mode === "fill") {
    const step = state.data.fill[state.step];
    return step.i === step.j ? [3] : [4, 5];
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

function coinsOf(i, j) {
  const coins = state.data.coins.slice(i, j + 1).map(fmt);
  return coins.length > 12 ? [...coins.slice(0, 5), "…", ...coins.slice(-5)].join(" ") : coins.join(" ");
}

function bestMove(moves, i, j) {
  if (i === j) return "take the last coin";
  if (moves.length === 2) return "either end is as good";
  return moves[0] === "L" ? `take the left coin (${esc(fmt(state.data.coins[i]))})` : `take the right coin (${esc(fmt(state.data.coins[j]))})`;
}

function renderFill() {
  const fill = state.data.fill;
  const current = fill[state.step];
  const triangle = state.triangle;
  triangle.clear("current", "read");
  for (const step of fill) {
    triangle.cell(step.i, step.j).classList.toggle("pending", step.step - 1 > state.step);
  }
  triangle.cell(current.i, current.j).classList.add("current");
  for (const [i, j] of current.reads) triangle.cell(i, j).classList.add("read");
  const { i, j } = current;
  $("learn-counter").textContent = `Step ${state.step + 1} of ${fill.length}: the subgame of coins ${i + 1}..${j + 1}`;
  let html = `<p><strong>Coins ${i + 1}..${j + 1}:</strong> ${esc(coinsOf(i, j))}</p>`;
  if (i === j) {
    html += `<p class="math">One coin: ${cellName("M", i, j)} = ${cellName("F", i, j)} = ${a(i)} = ${esc(fmt(current.value))}</p>`;
  } else {
    const [r1, r2] = current.reads;
    const emptyNote = current.inner_reads.some((cell) => cell === null) ? " (F of no coins is 0)" : "";
    const inner = current.inner_reads.map((cell, k) => (cell ? cellName("F", ...cell) : "0"));
    html += `<p>Margin form: the coin taken minus the margin of what is left to the opponent.</p>
<p class="math">${cellName("M", i, j)} = max(${a(i)} − <span class="read">${cellName("M", ...r1)}</span>, ${a(j)} − <span class="read">${cellName("M", ...r2)}</span>)
 = max(${num(current.left_coin)} − ${num(current.after_left)}, ${num(current.right_coin)} − ${num(current.after_right)})
 = max(${num(current.take_left)}, ${num(current.take_right)}) = <strong>${esc(fmt(current.margin))}</strong></p>
<p>Max-min form: the coin taken plus the smaller of what the opponent's two replies leave${emptyNote}.</p>
<p class="math">${cellName("F", i, j)} = max(${a(i)} + min(${inner[0]}, ${inner[1]}), ${a(j)} + min(${inner[1]}, ${inner[2]}))
 = max(${num(current.left_coin)} + min(${num(current.inner[0])}, ${num(current.inner[1])}), ${num(current.right_coin)} + min(${num(current.inner[1])}, ${num(current.inner[2])}))
 = max(${num(current.left_value)}, ${num(current.right_value)}) = <strong>${esc(fmt(current.value))}</strong></p>`;
  }
  html += `<p>Best move: ${bestMove(current.moves, i, j)}.</p>`;
  $("learn-formula").innerHTML = html;
}

function buildTree() {
  const items = state.data.memo.calls.map((call) => {
    const item = document.createElement("li");
    item.style.paddingLeft = `${0.3 + call.depth * 0.9}em`;
    item.dataset.index = call.index;
    if (call.hit) item.classList.add("hit");
    return item;
  });
  $("learn-tree").replaceChildren(...items);
}

function renderMemo() {
  const memo = state.data.memo;
  const k = state.step;
  const call = memo.calls[k];
  const triangle = state.triangle;
  triangle.clear("current", "read", "hit");
  const known = new Set();
  let hits = 0;
  for (const c of memo.calls.slice(0, k + 1)) {
    if (c.hit) hits += 1;
    else if (c.last <= k) known.add(`${c.i},${c.j}`);
  }
  for (const [key, cell] of triangle.cells) cell.classList.toggle("pending", !known.has(key));
  const cell = triangle.cell(call.i, call.j);
  cell.classList.add("current");
  if (call.hit) cell.classList.add("hit");
  const tree = $("learn-tree");
  for (const [index, item] of [...tree.children].entries()) {
    const c = memo.calls[index];
    item.classList.toggle("later", index > k);
    item.classList.toggle("current", index === k);
    if (index <= k) item.textContent = `${cellName("M", c.i, c.j)} = ${c.hit || c.last <= k ? fmt(c.margin) : "…"}`;
  }
  const item = tree.children[k];
  tree.scrollTop = Math.max(0, item.offsetTop - tree.offsetTop - tree.clientHeight / 2);
  const n = state.data.coins.length;
  $("learn-counter").textContent = `Call ${k + 1} of ${memo.count} · cache hits ${hits} of ${memo.hits} · `
    + `subgames computed ${known.size} of ${memo.computed} · without the cache: 2^${n} − 1 = ${memo.plain.toLocaleString()} calls`;
  const name = cellName("M", call.i, call.j);
  const parent = call.parent === null ? "the first call" : `called by ${cellName("M", memo.calls[call.parent].i, memo.calls[call.parent].j)}`;
  let html = `<p><strong>${name}</strong>, ${parent}: coins ${call.i + 1}..${call.j + 1} (${esc(coinsOf(call.i, call.j))})</p>`;
  if (call.hit) {
    html += `<p>Found in the cache: ${name} = <strong>${esc(fmt(call.margin))}</strong> was computed before, so this call returns at once and is not expanded.</p>`;
  } else if (call.i === call.j) {
    html += `<p class="math">One coin: ${name} = ${a(call.i)} = <strong>${esc(fmt(call.margin))}</strong> (stored in the cache)</p>`;
  } else {
    const [left, right] = memo.calls.filter((c) => c.parent === call.index);
    html += `<p>Not in the cache: it calls ${cellName("M", left.i, left.j)}, then ${cellName("M", right.i, right.j)}, and when both return:</p>
<p class="math">${name} = max(${a(call.i)} − ${cellName("M", left.i, left.j)}, ${a(call.j)} − ${cellName("M", right.i, right.j)})
 = max(${num(state.data.coins[call.i])} − ${num(left.margin)}, ${num(state.data.coins[call.j])} − ${num(right.margin)}) = <strong>${esc(fmt(call.margin))}</strong></p>`;
  }
  const returned = memo.calls.filter((c) => c.last === k && !c.hit && c.i !== c.j && c.index !== k);
  if (returned.length) {
    html += `<p>Returning now: ${returned.map((c) => `${cellName("M", c.i, c.j)} = ${esc(fmt(c.margin))}`).join(", ")}.</p>`;
  }
  $("learn-formula").innerHTML = html;
}
