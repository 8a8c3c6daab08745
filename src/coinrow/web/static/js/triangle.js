// The SVG triangle from the server (the library's picture), made interactive: cells are focusable and selectable.


export function mountTriangle(container, svgText, onSelect = null) {
  container.innerHTML = svgText;
  const svg = container.querySelector("svg");
  // A triangle wider than the screen scrolls inside its own box, opening on its top cell.
  // The title and legend go above the box, as text that wraps and never shrinks.
  const width = Number(svg.getAttribute("width"));
  const [, , boxWidth, boxHeight] = svg.getAttribute("viewBox").split(" ").map(Number);
  const legend = svg.querySelector("g.legend");
  const previous = container.previousElementSibling;
  if (previous && previous.classList.contains("triangle-legend")) previous.remove();
  if (legend) {
    // The library's legend as text that wraps on a phone instead of shrinking with the picture.
    const elements = [...legend.querySelectorAll("text")];
    const texts = elements.map((text) => text.textContent.replace(/-(?=\d)/g, "−"));
    const bold = new Set(elements.filter((text) => text.getAttribute("font-weight") === "bold")
      .map((text) => text.textContent.replace(/-(?=\d)/g, "−")));
    const KEYS = ["first player to move", "second player to move", "take the left coin",
      "take the right coin", "highlighted cells and moves"];
    const keys = texts.filter((text) => KEYS.includes(text));
    const heads = texts.filter((text) => !KEYS.includes(text));
    const box = document.createElement("div");
    box.className = "triangle-legend";
    heads.forEach((text) => {
      const line = document.createElement("p");
      if (bold.has(text)) { // the library's headings stay headings
        const strong = document.createElement("strong");
        strong.textContent = text;
        line.append(strong);
      } else {
        line.textContent = text;
      }
      box.append(line);
    });
    const line = document.createElement("p");
    for (const text of keys) {
      const item = document.createElement("span");
      item.className = text.startsWith("first") ? "chip first" : text.startsWith("second") ? "chip second"
        : text.startsWith("highlighted") ? "chip lit" : "key";
      item.textContent = text === "take the left coin" ? "↘ take the left coin" : text === "take the right coin" ? "↙ take the right coin" : text;
      line.append(item, " ");
    }
    box.append(line);
    const tops = [...svg.querySelectorAll("g.cell rect")].map((rect) => Number(rect.getAttribute("y")));
    const bottom = tops.length ? Math.min(...tops) - 6 : boxHeight;
    legend.remove();
    container.before(box);
    svg.setAttribute("viewBox", `0 ${bottom} ${boxWidth} ${boxHeight - bottom}`);
  }
  // Never larger than the library's size; narrower screens shrink it down to 34 px per coin
  // (numbers stay readable), beyond which it scrolls in its box.
  const coins = Number(svg.dataset.coins);
  svg.style.maxWidth = `${width}px`;
  svg.style.minWidth = coins > 9 ? `${Math.min(width, coins * 34)}px` : "";
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  // The page writes minus as U+2212 everywhere; so does the picture.
  for (const text of svg.querySelectorAll("text, title")) {
    if (text.textContent.includes("-")) text.textContent = text.textContent.replace(/-(?=\d)/g, "−");
  }
  const cells = new Map();
  for (const cell of svg.querySelectorAll("g.cell")) {
    cells.set(`${cell.dataset.i},${cell.dataset.j}`, cell);
    if (onSelect) {
      // One Tab stop for the whole triangle (a roving tabindex): the arrow keys move
      // between cells, and focus announces the cell's words.
      cell.setAttribute("tabindex", "-1");
      cell.setAttribute("role", "button");
      cell.setAttribute("aria-label", cell.querySelector("title").textContent);
    }
  }
  const n = Number(svg.dataset.coins);
  const top = cells.get(`0,${n - 1}`);
  if (onSelect && top) top.setAttribute("tabindex", "0");
  if (top && container.scrollWidth > container.clientWidth) {
    const box = container.getBoundingClientRect();
    const rect = top.getBoundingClientRect();
    container.scrollLeft += rect.left + rect.width / 2 - (box.left + box.width / 2);
  }
  if (onSelect) {
    svg.setAttribute("role", "group"); // its cells are buttons: not one image
    svg.setAttribute("aria-label", "The triangle of subgames: the arrow keys move between cells, Enter or Space selects one");
    svg.setAttribute("tabindex", "-1"); // the picture is no Tab stop of its own: its one cell is
    svg.addEventListener("click", (event) => {
      const cell = event.target.closest("g.cell");
      if (cell) onSelect(cell);
    });
    svg.addEventListener("keydown", (event) => {
      const cell = event.target.closest("g.cell");
      if (!cell) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onSelect(cell);
        return;
      }
      const next = neighbour(cell, event.key);
      if (next === undefined) return;
      event.preventDefault();
      event.stopPropagation();
      if (next) rove(next);
    });
    svg.addEventListener("focusin", (event) => {
      const cell = event.target.closest("g.cell");
      if (cell) rove(cell, false);
    });
  }

  // The cell an arrow key leads to from `cell` (null at an edge; undefined for other keys):
  // left and right along the cell's row (subgames of one length), up to the longer subgame
  // above (its left parent, else its right one), down to the shorter one below.
  function neighbour(cell, key) {
    const i = Number(cell.dataset.i);
    const j = Number(cell.dataset.j);
    const at = (a, b) => cells.get(`${a},${b}`) || null;
    if (key === "ArrowLeft") return at(i - 1, j - 1);
    if (key === "ArrowRight") return at(i + 1, j + 1);
    if (key === "ArrowUp") return at(i - 1, j) || at(i, j + 1);
    if (key === "ArrowDown") return at(i, j - 1) || at(i + 1, j);
    if (key === "Home") return top;
    if (key === "End") return at(i, i);
    return undefined;
  }

  function rove(cell, focus = true) {
    for (const other of svg.querySelectorAll('g.cell[tabindex="0"]')) other.setAttribute("tabindex", "-1");
    cell.setAttribute("tabindex", "0");
    if (focus) cell.focus();
  }
  return {
    svg,
    cells,
    cell(i, j) {
      return cells.get(`${i},${j}`) || null;
    },
    clear(...classes) {
      for (const name of classes) {
        for (const element of svg.querySelectorAll(`g.cell.${name}`)) element.classList.remove(name);
      }
    },
    // Bring a cell into view inside the box, and the box into the window below the sticky bar.
    reveal(cell) {
      if (onSelect) rove(cell, false);
      const box = container.getBoundingClientRect();
      const rect = cell.getBoundingClientRect();
      if (rect.left < box.left || rect.right > box.right) {
        container.scrollLeft += rect.left + rect.width / 2 - (box.left + box.width / 2);
      }
      if (rect.top < box.top || rect.bottom > box.bottom) {
        container.scrollTop += rect.top + rect.height / 2 - (box.top + box.height / 2);
      }
      const after = cell.getBoundingClientRect();
      const bar = document.querySelector("#learn-stepper");
      const topLimit = bar && !bar.closest("[hidden]") ? bar.getBoundingClientRect().bottom + 8 : 8;
      if (after.top < topLimit) window.scrollBy(0, after.top - topLimit);
      else if (after.bottom > window.innerHeight - 8) window.scrollBy(0, after.bottom - window.innerHeight + 8);
    },
  };
}
