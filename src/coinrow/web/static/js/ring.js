// The pizza drawn as a ring (SVG built from the API's JSON): one wedge per slice with its
// value, a label outside each (Solve: each first slice's margin; Play: who ate it), marked
// slices ringed; slices are focusable and read out. Drawing only: every number comes from
// the server.
import { fmt } from "./api.js";

const NS = "http://www.w3.org/2000/svg";
//: Most slices drawn with their labels (beyond, the ring would be unreadable).
export const RING_LIMIT = 48;

function node(name, attributes = {}, text = null) {
  const element = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

function point(radius, angle) {
  return [200 + radius * Math.cos(angle), 200 + radius * Math.sin(angle)];
}

function wedge(start, end, outer, inner) {
  const large = end - start > Math.PI ? 1 : 0;
  const [x1, y1] = point(outer, start);
  const [x2, y2] = point(outer, end);
  const [x3, y3] = point(inner, end);
  const [x4, y4] = point(inner, start);
  return `M${x1.toFixed(2)} ${y1.toFixed(2)} A${outer} ${outer} 0 ${large} 1 ${x2.toFixed(2)} ${y2.toFixed(2)} `
    + `L${x3.toFixed(2)} ${y3.toFixed(2)} A${inner} ${inner} 0 ${large} 0 ${x4.toFixed(2)} ${y4.toFixed(2)} Z`;
}

// The ring of `coins` (slice 0 at the top, clockwise). Options: `outer[s]` the text outside
// slice s, `marked` the slices to ring, `classes[s]` extra classes, `labels[s]` what a screen
// reader says, `active(s)` whether slice s can be chosen (default: all), `caption` the centre's
// second line. `onSelect(slice)` runs on a click, Enter or Space on an active slice.
export function drawRing(container, coins, options, onSelect) {
  const { outer = [], marked = [], classes = [], labels = [], active = () => true, caption = "" } = options;
  const n = coins.length;
  const svg = node("svg", { viewBox: "0 0 400 400", class: "ring-svg", role: "group", "aria-label": options.title || `The pizza: ${n} slices in a ring` });
  const step = (2 * Math.PI) / n;
  const span = (s) => [-Math.PI / 2 + s * step, -Math.PI / 2 + (s + 1) * step - (n === 1 ? 1e-4 : 0)];
  const small = n > 16;
  const slices = [];
  for (let s = 0; s < n; s += 1) {
    const [start, end] = span(s);
    const on = active(s);
    const group = node("g", {
      class: ["slice", marked.includes(s) ? "best" : "", on ? "active" : "", classes[s] || ""].filter(Boolean).join(" "),
      "data-slice": s,
      "aria-label": labels[s] || `Slice ${s + 1}, value ${fmt(coins[s])}`,
    });
    if (on) {
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
    } else {
      group.setAttribute("role", "img");
    }
    group.append(node("path", { d: wedge(start, end, 150, 70), class: "wedge" }));
    const middle = (start + end) / 2;
    const [vx, vy] = point(110, middle);
    group.append(node("text", { x: vx.toFixed(1), y: vy.toFixed(1), class: `value${small ? " small" : ""}` }, fmt(coins[s])));
    if (outer[s] !== undefined && outer[s] !== null) {
      const [mx, my] = point(177, middle);
      group.append(node("text", { x: mx.toFixed(1), y: my.toFixed(1), class: `margin${small ? " small" : ""}` }, outer[s]));
    }
    if (on) {
      group.addEventListener("click", () => onSelect(s));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          onSelect(s);
        }
      });
    }
    slices.push(group);
    svg.append(group);
  }
  // Marks drawn over every wedge, so neighbours never cover them (pointer events pass through).
  const outline = (s, name) => node("path", { d: wedge(...span(s), 150, 70), class: name, "aria-hidden": "true" });
  for (const s of marked) svg.append(outline(s, "best-mark"));
  let mark = null;
  svg.append(node("text", { x: 200, y: caption ? 195 : 200, class: "centre" }, `${n} slice${n === 1 ? "" : "s"}`));
  if (caption) svg.append(node("text", { x: 200, y: 218, class: "centre small" }, caption));
  container.replaceChildren(svg);
  return {
    select(s) {
      for (const group of slices) group.classList.toggle("selected", Number(group.dataset.slice) === s);
      if (mark) mark.remove();
      mark = outline(s, "selected-mark");
      svg.append(mark);
    },
  };
}

export function signed(value) {
  const text = fmt(value);
  return text.startsWith("−") || text === "0" ? text : `+${text}`;
}

export function label(s, coins, starts, isBest) {
  return `Slice ${s + 1} of ${coins.length}, value ${fmt(coins[s])}: eaten first, the first player ends `
    + `${signed(starts[s])} against the second with best play${isBest ? ", a best first slice" : ""}`;
}
