// Explore: the triangle of every subgame; click a cell to read its subgame, value and best
// moves; switch what cells show; highlight the optimal line.
import { post } from "./api.js";
import { mountTriangle } from "./triangle.js";

let ctx;
let shown = null;
let selected = null;
const $ = (id) => document.getElementById(id);

export function init(context) {
  ctx = context;
  for (const radio of document.querySelectorAll('input[name="explore-view"]')) {
    radio.addEventListener("change", () => render(ctx.text()));
  }
  $("explore-best").addEventListener("change", () => render(ctx.text()));
}

export function show(text) {
  if (text !== shown) {
    selected = null;
    render(text);
  }
}

function describe(cell) {
  return cell.querySelector("title").textContent;
}

function select(triangle, cell) {
  triangle.clear("selected");
  cell.classList.add("selected");
  selected = [cell.dataset.i, cell.dataset.j];
  $("explore-info").textContent = describe(cell);
}

async function render(text) {
  const view = document.querySelector('input[name="explore-view"]:checked').value;
  let data;
  try {
    data = await post("table", {
      coins: text,
      view,
      highlight: $("explore-best").checked ? "best" : null,
    });
  } catch (error) {
    shown = null;
    $("explore-triangle").replaceChildren();
    $("explore-info").textContent = "";
    ctx.error(error.message);
    return;
  }
  shown = text;
  ctx.clearError();
  const triangle = mountTriangle($("explore-triangle"), data.svg, (cell) => select(triangle, cell));
  const again = selected && triangle.cell(...selected);
  if (again) select(triangle, again);
  else $("explore-info").textContent = "Click or tap a cell (or Tab to it and press Enter) to see its subgame.";
}
