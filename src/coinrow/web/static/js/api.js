// The JSON API, with relative URLs so the page works behind any proxy path.

async function answer(response) {
  let data = null;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} ${response.statusText}`);
  }
  if (!response.ok) {
    const detail = data && data.detail;
    throw new Error(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
  return data;
}

export async function post(path, body) {
  const response = await fetch(`api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return answer(response);
}

export async function get(path, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== "" && value !== null && value !== undefined) query.set(key, value);
  }
  const text = query.toString();
  return answer(await fetch(`api/${path}${text ? `?${text}` : ""}`));
}

// When the user typed decimals, exact fractions whose denominators divide a power of ten are
// shown as decimals (1/10 as 0.1, 51/10 as 5.1), so every value can be typed back.
let decimals = false;
export function showDecimals(on) {
  decimals = on;
}

function asDecimal(text) {
  const match = /^(-?)(\d+)\/(\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, p, q] = match;
  let rest = BigInt(q);
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) { rest /= 2n; twos += 1; }
  while (rest % 5n === 0n) { rest /= 5n; fives += 1; }
  if (rest !== 1n) return text;
  const places = Math.max(twos, fives);
  const scaled = (BigInt(p) * 10n ** BigInt(places)) / BigInt(q);
  const digits = scaled.toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const frac = digits.slice(digits.length - places).replace(/0+$/, "");
  return `${sign}${whole}${frac ? `.${frac}` : ""}`;
}

// Exact values arrive as JSON numbers (ints) or exact strings ("0.4", "1/3"): shown as text,
// minus as U+2212 (the input field accepts it back).
export function fmt(value) {
  const text = decimals ? asDecimal(String(value)) : String(value);
  return text.replace(/^-/, "−");
}

// A value inside a formula: negative values in parentheses.
export function term(value) {
  const text = fmt(value);
  return text.startsWith("−") ? `(${text})` : text;
}

// An exact value as a float, for drawing only (charts).
export function approx(value) {
  const text = String(value);
  const slash = text.indexOf("/");
  return slash < 0 ? Number(text) : Number(text.slice(0, slash)) / Number(text.slice(slash + 1));
}

// A move in words as the server describes it (the rules' words and the values of the coins it
// takes: /api/solve's first_move_info, /api/play's legal moves), e.g. "take 2 coins from the
// left (4 9)". Long runs of coins are shortened.
export function moveWords(words, coins) {
  const values = coins.length > 6
    ? [...coins.slice(0, 3).map(fmt), "…", ...coins.slice(-2).map(fmt)]
    : coins.map(fmt);
  return `${words} (${values.join(" ")})`;
}

const RULES = new Map();

// The rules for people, from the library (GET /api/rules, Rules.to_dict()): title, description,
// the moves' notation in words, lowest_wins, circle...; asked once per rules text.
export function rulesInfo(text) {
  if (!RULES.has(text)) {
    const asked = get("rules", { rules: text }).then((data) => data.rules[0]);
    asked.catch(() => RULES.delete(text)); // asked again next time
    RULES.set(text, asked);
  }
  return RULES.get(text);
}
