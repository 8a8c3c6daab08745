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

// Exact values arrive as JSON numbers (ints) or exact strings ("0.4", "1/3"): shown as text.
export function fmt(value) {
  return String(value).replace(/^-/, "−");
}

// A value inside a formula: negative values in parentheses.
export function term(value) {
  const text = fmt(value);
  return text.startsWith("−") ? `(${text})` : text;
}
