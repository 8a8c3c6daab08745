// Explore: the triangle of every subgame; click a cell to read its subgame, value and best
// moves; switch what cells show; highlight the optimal line; download the picture.
import { fmt, post } from "./api.js";
import { INTERVAL } from "./rules.js";
import { mountTriangle } from "./triangle.js";

let ctx;
let shown = null;
let selected = null;
let svgText = null;
const $ = (id) => document.getElementById(id);

export function init(context) {
  ctx = context;
  for (const radio of document.querySelectorAll('input[name="explore-view"]')) {
    radio.addEventListener("change", () => render(ctx.text()));
  }
  $("explore-best").addEventListener("change", () => render(ctx.text()));
  $("explore-svg").addEventListener("click", () => {
    if (svgText) download(new Blob([svgText], { type: "image/svg+xml" }), "coinrow-triangle.svg");
  });
  $("explore-png").addEventListener("click", downloadPng);
}

export function params() {
  if (ctx.rules() !== "plain") return selected ? { cell: selected.join(",") } : {};
  const state = { show: viewChoice() };
  if ($("explore-best").checked) state.best = "1";
  if (selected) state.cell = selected.join(",");
  return state;
}

function viewChoice() {
  return document.querySelector('input[name="explore-view"]:checked').value;
}

export function show(text, restore = null) {
  const plain = ctx.rules() === "plain";
  $("explore-plain").hidden = !plain;
  $("explore-variant").hidden = plain;
  if (!plain) {
    const key = `${ctx.rules()}|${text}`;
    if (key !== shown || restore) {
      selected = restore && /^\d+,\d+$/.test(restore.cell || "") ? restore.cell.split(",") : null;
      renderVariant(text, key);
    }
    return;
  }
  if (restore) {
    const radio = document.querySelector(`input[name="explore-view"][value="${restore.show}"]`);
    if (radio) radio.checked = true;
    $("explore-best").checked = restore.best === "1";
    selected = /^\d+,\d+$/.test(restore.cell || "") ? restore.cell.split(",") : null;
    render(text);
    return;
  }
  if (text !== shown) {
    selected = null;
    render(text);
  }
}

// Why the rules have no triangle of subgames.
const NO_TRIANGLE = {
  circular: "The pizza has no triangle of subgames: after the first slice the rest is a row, "
    + "but a different row for each first slice. Solve draws the ring, with what each first slice is worth.",
  reply: "Best reply to greedy has no triangle here: the two players are not alike (one is a fixed "
    + "strategy), so a subgame's value depends on who moves there, and the library keeps no table of it.",
  players: "With more than two players a subgame has no single value: it is one total per player "
    + "(a vector), so there is no triangle of numbers to draw. Solve shows every player's total.",
};

const CELL = 56; // the drawn cell's width and height, in SVG units

function svgNode(name, attributes = {}, text = null) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

function cellLabel(cell, coins) {
  const part = coins.slice(cell.i, cell.j + 1).map(fmt).join(" ");
  const who = cell.player ? `${cell.player} player to move, ` : "";
  const value = cell.value === null ? "" : `, takes ${fmt(cell.value)}`;
  return `coins ${cell.i + 1}..${cell.j + 1} (${part}): ${who}the mover's margin ${fmt(cell.margin)}${value}; best moves ${cell.moves.join(" ")}`;
}

async function renderVariant(text, key) {
  const kind = ctx.rulesKind();
  const box = $("explore-v-triangle");
  const info = $("explore-v-info");
  if (!INTERVAL.includes(kind)) {
    shown = key;
    box.replaceChildren();
    $("explore-v-about").textContent = "";
    info.textContent = NO_TRIANGLE[kind];
    ctx.update("explore");
    return;
  }
  let data;
  try {
    data = await post("table", { coins: text, rules: ctx.rules() });
  } catch (error) {
    shown = null;
    box.replaceChildren();
    info.textContent = "";
    ctx.error(error.message);
    return;
  }
  if (`${ctx.rules()}|${ctx.text()}` !== key) return; // changed while this answer was on its way
  shown = key;
  ctx.clearError();
  const n = data.coins.length;
  $("explore-v-about").textContent = `Every subgame under ${data.rules}: each cell stands above its coins `
    + "(the top cell is the whole row) and shows the mover's margin (what the rules make them "
    + `maximise, against the other) and, below it, the optimal moves. The whole row: margin ${fmt(data.margin)}, `
    + `line ${data.line}.`;
  const width = n * CELL + 8;
  const height = n * CELL + CELL + 8;
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${height}`, class: "vtriangle-svg", role: "group", "aria-label": `The triangle of subgames under ${data.rules}` });
  svg.style.maxWidth = `${Math.max(width, 320)}px`;
  svg.style.minWidth = n > 9 ? `${n * 34}px` : "";
  const cells = new Map();
  for (const cell of data.cells) {
    const width_ = cell.j - cell.i;
    const x = 4 + (cell.i + width_ / 2) * CELL;
    const y = 4 + (n - 1 - width_) * CELL;
    const group = svgNode("g", {
      class: `vcell${cell.player ? ` ${cell.player}` : ""}`, tabindex: 0, role: "button",
      "data-i": cell.i, "data-j": cell.j, "aria-label": cellLabel(cell, data.coins),
    });
    group.append(svgNode("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6 }));
    group.append(svgNode("text", { x: x + CELL / 2, y: y + 25, class: "margin" }, fmt(cell.margin)));
    group.append(svgNode("text", { x: x + CELL / 2, y: y + 44, class: "moves" }, cell.moves.join(" ")));
    cells.set(`${cell.i},${cell.j}`, group);
    svg.append(group);
  }
  data.coins.forEach((coin, index) => {
    svg.append(svgNode("text", { x: 4 + index * CELL + CELL / 2, y: n * CELL + 34, class: "coin" }, fmt(coin)));
  });
  box.replaceChildren(svg);
  const choose = (group) => {
    for (const other of svg.querySelectorAll("g.vcell.selected")) other.classList.remove("selected");
    group.classList.add("selected");
    selected = [group.dataset.i, group.dataset.j];
    info.textContent = `Selected: ${group.getAttribute("aria-label")}`;
    ctx.update("explore");
  };
  svg.addEventListener("click", (event) => {
    const group = event.target.closest("g.vcell");
    if (group) choose(group);
  });
  svg.addEventListener("keydown", (event) => {
    const group = event.target.closest("g.vcell");
    if (group && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(group);
    }
  });
  const again = selected && cells.get(selected.join(","));
  if (again) choose(again);
  else info.textContent = "Click or tap a cell (or Tab to it and press Enter) to see its subgame.";
  ctx.update("explore");
}

function describe(cell) {
  return cell.querySelector("title").textContent.replace(/-(?=\d)/g, "−");
}

function select(triangle, cell) {
  triangle.clear("selected");
  cell.classList.add("selected");
  selected = [cell.dataset.i, cell.dataset.j];
  $("explore-info").textContent = `Selected: ${describe(cell)}`;
  ctx.update("explore");
}

async function render(text) {
  let data;
  try {
    data = await post("table", {
      coins: text,
      view: viewChoice(),
      highlight: $("explore-best").checked ? "best" : null,
    });
  } catch (error) {
    shown = null;
    svgText = null;
    const box = $("explore-triangle");
    box.innerHTML = "";
    const note = document.createElement("p");
    note.className = "missing";
    note.textContent = `No triangle for this row: ${error.message}. `;
    note.append(...wayOn(text));
    box.append(note);
    $("explore-info").textContent = "";
    $("explore-svg").disabled = $("explore-png").disabled = true;
    ctx.error(error.message);
    return;
  }
  shown = text;
  svgText = data.svg;
  ctx.clearError();
  $("explore-svg").disabled = $("explore-png").disabled = false;
  const triangle = mountTriangle($("explore-triangle"), data.svg, (cell) => select(triangle, cell));
  const again = selected && triangle.cell(...selected);
  if (again) {
    select(triangle, again);
    triangle.reveal(again);
  } else {
    $("explore-info").textContent = "Click or tap a cell (or Tab to it and press Enter) to see its subgame.";
  }
  const link = ctx.link("explore");
  $("explore-link").hidden = !link;
  if (link) $("explore-link").href = link;
  ctx.update("explore");
}

// Links to the views that take any row, for a row the picture cannot show.
export function wayOn(text) {
  const parts = [];
  for (const [view, words] of [["solve", "Solve it"], ["play", "play it"]]) {
    const anchor = document.createElement("a");
    anchor.href = `#${view}`;
    anchor.textContent = words;
    anchor.addEventListener("click", (event) => {
      event.preventDefault();
      ctx.go(view);
    });
    parts.push(anchor);
  }
  return [parts[0], " or ", parts[1], " instead."];
}

function download(blob, name) {
  const anchor = document.createElement("a");
  anchor.href = URL.createObjectURL(blob);
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(anchor.href), 1000);
}

function downloadPng() {
  if (!svgText) return;
  const image = new Image();
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  image.onload = () => {
    const scale = 2;
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth * scale;
    canvas.height = image.naturalHeight * scale;
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    URL.revokeObjectURL(url);
    canvas.toBlob((blob) => download(blob, "coinrow-triangle.png"), "image/png");
  };
  image.src = url;
}
