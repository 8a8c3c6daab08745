// The library's pictures on the page: the pizza's ring from the server's SVG (coinrow.svg.ring)
// made interactive. Nothing is drawn here: the page inserts the SVG and toggles classes and
// focus on the elements the library marks (g.slice with data-slice, data-best).

// Insert `svgText` into `container`; `onSelect(slice)` runs on a click, Enter or Space on a
// slice made active with `activate`.
export function mountRing(container, svgText, onSelect) {
  container.innerHTML = svgText;
  const svg = container.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "group");
  // The page writes minus as U+2212 everywhere; so does the picture.
  for (const text of svg.querySelectorAll("text, title")) {
    if (text.textContent.includes("-")) text.textContent = text.textContent.replace(/-(?=\d)/g, "−");
  }
  const groups = new Map();
  for (const group of svg.querySelectorAll("g.slice")) {
    const slice = Number(group.dataset.slice);
    groups.set(slice, group);
    group.classList.toggle("best", group.dataset.best === "1");
    group.setAttribute("role", "img");
    group.setAttribute("aria-label", words(group));
  }
  const pick = (event) => {
    const group = event.target.closest("g.slice.active");
    if (!group) return;
    if (event.type === "keydown") {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
    }
    onSelect(Number(group.dataset.slice));
  };
  svg.addEventListener("click", pick);
  svg.addEventListener("keydown", pick);
  return {
    svg,
    slices: [...groups.keys()],
    group: (slice) => groups.get(slice) || null,
    words: (slice) => words(groups.get(slice)),
    activate(slice, on = true) {
      const group = groups.get(slice);
      group.classList.toggle("active", on);
      if (on) {
        group.setAttribute("tabindex", "0");
        group.setAttribute("role", "button");
      } else {
        group.removeAttribute("tabindex");
        group.setAttribute("role", "img");
      }
    },
    select(slice) {
      for (const [key, group] of groups) group.classList.toggle("selected", key === slice);
    },
  };
}

// What the library says of a slice (its <title>), with the page's minus sign.
function words(group) {
  const title = group.querySelector("title");
  return title ? title.textContent : "";
}
