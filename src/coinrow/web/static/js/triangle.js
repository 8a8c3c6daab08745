// The SVG triangle from /api/table, made interactive: cells are focusable and selectable.

export function mountTriangle(container, svgText, onSelect = null) {
  container.innerHTML = svgText;
  const svg = container.querySelector("svg");
  // Never larger than the library's chosen size; narrower screens shrink it.
  svg.style.maxWidth = `${svg.getAttribute("width")}px`;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const n = Number(svg.dataset.coins);
  // Long rows keep at least 34 px per coin and scroll inside their box, not the page.
  svg.style.minWidth = n > 9 ? `${n * 34}px` : "";
  const cells = new Map();
  for (const cell of svg.querySelectorAll("g.cell")) {
    cells.set(`${cell.dataset.i},${cell.dataset.j}`, cell);
    if (onSelect) {
      cell.setAttribute("tabindex", "0");
      cell.setAttribute("role", "button");
      cell.setAttribute("aria-label", cell.querySelector("title").textContent);
    }
  }
  if (onSelect) {
    svg.addEventListener("click", (event) => {
      const cell = event.target.closest("g.cell");
      if (cell) onSelect(cell);
    });
    svg.addEventListener("keydown", (event) => {
      const cell = event.target.closest("g.cell");
      if (cell && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        onSelect(cell);
      }
    });
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
  };
}
