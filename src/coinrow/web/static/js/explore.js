// Explore: the triangle of every subgame, drawn by the library (/api/table's SVG) under any
// rules whose subgames are intervals of the row; click a cell to read its subgame (the
// library's own words, the cell's <title>), switch what cells show (the plain game), highlight
// the optimal line, download the picture. Nothing is drawn here.
import { post } from "./api.js";
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
  const state = {};
  if (ctx.defaultRules()) state.show = viewChoice();
  if ($("explore-best").checked) state.best = "1";
  if (selected) state.cell = selected.join(",");
  return state;
}

function viewChoice() {
  return document.querySelector('input[name="explore-view"]:checked').value;
}

export function show(text, restore = null) {
  const key = `${ctx.rules()}|${text}`;
  if (restore) {
    const radio = document.querySelector(`input[name="explore-view"][value="${restore.show}"]`);
    if (radio) radio.checked = true;
    $("explore-best").checked = restore.best === "1";
    selected = /^\d+,\d+$/.test(restore.cell || "") ? restore.cell.split(",") : null;
    render(text);
    return;
  }
  if (key !== shown) {
    selected = null;
    render(text);
  }
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

function clear(message) {
  svgText = null;
  $("explore-triangle").replaceChildren();
  const legend = $("explore-triangle").previousElementSibling;
  if (legend && legend.classList.contains("triangle-legend")) legend.remove();
  $("explore-info").textContent = message;
  $("explore-svg").disabled = $("explore-png").disabled = true;
}

async function render(text) {
  const key = `${ctx.rules()}|${text}`;
  const info = ctx.rulesInfo();
  $("explore-views").hidden = !ctx.defaultRules();
  if (info && !info.interval) { // the library says which rules have a table of subgames
    shown = key;
    clear(`${info.title} has no triangle of subgames: only two players alternating on an `
      + "interval of the row have one. Solve shows what the rules give each player.");
    ctx.update("explore");
    return;
  }
  let data;
  try {
    data = await post("table", {
      coins: text,
      rules: ctx.rules(),
      view: viewChoice(),
      highlight: $("explore-best").checked ? "best" : null,
    });
  } catch (error) {
    shown = null;
    clear("");
    const note = document.createElement("p");
    note.className = "missing";
    note.textContent = `No triangle for this row: ${error.message}. `;
    note.append(...wayOn(text));
    $("explore-triangle").append(note);
    ctx.error(error.message);
    return;
  }
  if (`${ctx.rules()}|${ctx.text()}` !== key) return; // changed while this answer was on its way
  shown = key;
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
