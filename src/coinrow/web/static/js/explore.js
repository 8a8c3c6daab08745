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
let current = null; // the mounted triangle
let bringClass = false;
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
  initClassroom();
}

// --- the classroom: large type, the triangle fitted below the bar (or fullscreen), zoom,
// i/j labels, a selected cell's arrows to the cells it reads, projector colours. The
// pictures' labels and arrows are the library's (drawn hidden); the page only shows them.
const ZOOMS = [1, 1.25, 1.5, 2, 2.5, 3, 4];
let zoom = 0;

function initClassroom() {
  const all = $("explore-all");
  const toggle = (id, name) => $(id).addEventListener("change", () => {
    all.classList.toggle(name, $(id).checked);
    if (name === "classroom") {
      fit(true);
      ctx.update("explore");
    }
    if (name === "reads") markReads();
  });
  toggle("explore-classroom", "classroom");
  toggle("explore-ij", "labels");
  toggle("explore-reads", "reads");
  toggle("explore-projector", "projector");
  $("explore-zoom-in").addEventListener("click", () => setZoom(zoom + 1));
  $("explore-zoom-out").addEventListener("click", () => setZoom(zoom - 1));
  $("explore-full").addEventListener("click", async () => {
    if (document.fullscreenElement) {
      await document.exitFullscreen();
      return;
    }
    $("explore-classroom").checked = true;
    $("explore-tools").open = true;
    all.classList.add("classroom");
    try {
      await all.requestFullscreen();
    } catch {
      // fullscreen refused (an embedding page): the classroom layout still fits the window
    }
    fit(true);
  });
  document.addEventListener("fullscreenchange", () => {
    $("explore-full").textContent = document.fullscreenElement ? "Exit fullscreen" : "Fullscreen";
    fit(false);
  });
  window.addEventListener("resize", () => fit(false));
  setZoom(0);
}

function setZoom(index) {
  zoom = Math.max(0, Math.min(ZOOMS.length - 1, index));
  $("explore-all").style.setProperty("--zoom", String(ZOOMS[zoom]));
  $("explore-zoom-out").disabled = zoom === 0;
  $("explore-zoom-in").disabled = zoom === ZOOMS.length - 1;
  fit(false);
  const cell = $("explore-triangle").querySelector("g.cell.selected");
  if (cell && current) current.reveal(cell);
}

// Classroom mode: the triangle's box takes the window's height below it, so the whole
// picture shows at zoom 1 (bring: scroll the bar to the top of the window first).
function fit(bring) {
  const all = $("explore-all");
  const box = $("explore-triangle");
  const svg = box.querySelector("svg");
  if (svg) { // zoom: the picture's size limits (set from the library's size) times the zoom
    if (!svg.dataset.maxWidth) {
      svg.dataset.maxWidth = svg.style.maxWidth;
      svg.dataset.minWidth = svg.style.minWidth;
    }
    const times = (length) => (length ? `${parseFloat(length) * ZOOMS[zoom]}px` : "");
    svg.style.maxWidth = times(svg.dataset.maxWidth);
    svg.style.minWidth = times(svg.dataset.minWidth);
  }
  const wide = window.matchMedia("(min-width: 760px)").matches; // as the style sheet's fit
  if (!all.classList.contains("classroom") || all.closest("[hidden]") || !wide) {
    box.style.height = "";
    return;
  }
  // the box's height once the tools are at the top of the window (where `bring` puts them)
  const tools = document.fullscreenElement ? all : $("explore-tools");
  if (bring && !document.fullscreenElement) tools.scrollIntoView({ block: "start" });
  const top = box.getBoundingClientRect().top - tools.getBoundingClientRect().top;
  box.style.height = `${Math.max(200, window.innerHeight - top - 12)}px`;
}

// With "Arrows to the cells it reads" on, the selected cell's two children are marked too.
function markReads() {
  if (!current) return;
  current.clear("read");
  const cell = current.svg.querySelector("g.cell.selected");
  if (!cell || !$("explore-reads").checked) return;
  const i = Number(cell.dataset.i);
  const j = Number(cell.dataset.j);
  for (const child of [current.cell(i + 1, j), current.cell(i, j - 1)]) {
    if (child && i < j) child.classList.add("read");
  }
}

export function params() {
  const state = {};
  if (ctx.defaultRules()) state.show = viewChoice();
  if ($("explore-best").checked) state.best = "1";
  if (selected) state.cell = selected.join(",");
  if ($("explore-classroom").checked) state.classroom = "1";
  return state;
}

function viewChoice() {
  return document.querySelector('input[name="explore-view"]:checked').value;
}

export function show(text, restore = null) {
  requestAnimationFrame(() => fit(false)); // the box is laid out once the view shows
  const key = `${ctx.rules()}|${text}`;
  if (restore) {
    const radio = document.querySelector(`input[name="explore-view"][value="${restore.show}"]`);
    if (radio) radio.checked = true;
    $("explore-best").checked = restore.best === "1";
    selected = /^\d+,\d+$/.test(restore.cell || "") ? restore.cell.split(",") : null;
    $("explore-classroom").checked = restore.classroom === "1";
    if (restore.classroom === "1") $("explore-tools").open = true;
    $("explore-all").classList.toggle("classroom", restore.classroom === "1");
    bringClass = restore.classroom === "1"; // a link to the classroom opens on the picture
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
  markReads();
  ctx.update("explore");
}

function clear(message) {
  svgText = null;
  current = null;
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
  current = triangle;
  fit(bringClass);
  bringClass = false;
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
