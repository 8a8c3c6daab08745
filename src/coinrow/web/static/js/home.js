// The first screen: what the page offers (play, learn, solve a row), one sentence each, and
// the light/dark switch beside the system's setting (kept in this browser).
let ctx;
const THEME_KEY = "coinrow.theme";

export function init(context) {
  ctx = context;
  for (const button of document.querySelectorAll("#view-home button[data-go]")) {
    button.addEventListener("click", () => ctx.go(button.dataset.go));
  }
  const choice = document.getElementById("theme");
  choice.value = savedTheme();
  applyTheme(choice.value);
  choice.addEventListener("change", () => {
    try {
      if (choice.value === "system") localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, choice.value);
    } catch {
      // storage refused (private mode): the choice lasts for this page only
    }
    applyTheme(choice.value);
  });
}

export function params() {
  return {};
}

export function show() {}

function savedTheme() {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    return saved === "light" || saved === "dark" ? saved : "system";
  } catch {
    return "system";
  }
}

// "light" or "dark" overrides prefers-color-scheme; "system" follows it.
function applyTheme(value) {
  if (value === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = value;
}
