// The online game page: shows what the server sends (the board is the server's SVG, the
// legal moves and their words are the server's) and sends the player's requests. No game
// logic lives here: the server is the referee.

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const apiBase = new URL("../api/online/", location.href);
const tokenKey = (id) => `coinrow-online:${id}`;

const $ = (id) => document.getElementById(id);
let token = localStorage.getItem(tokenKey(gameId));
let socket = null;
let state = null;
let mySeat = null;
let lastSeq = -1;
let pending = null; // the move frame sent and not yet answered: sent again after a reconnect
let retry = 0;
let presets = [];

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

async function api(path, options = {}) {
  const response = await fetch(new URL(path, apiBase), options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.detail || response.statusText), data);
  return data;
}

async function takeSeatIfFree() {
  if (token) return;
  const { state: current } = await api(`games/${gameId}?board=false`);
  if (current.status === "over" || !current.seats.some((seat) => !seat.taken)) return;
  try {
    const joined = await api(`games/${gameId}/join`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    token = joined.token;
    localStorage.setItem(tokenKey(gameId), token);
  } catch (error) {
    if (error.code !== "full") throw error; // taken meanwhile: watch
  }
}

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

function connect() {
  const url = new URL(`games/${gameId}/ws`, apiBase);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  $("connection").textContent = "Connecting…";
  socket.addEventListener("open", () => {
    retry = 0;
    send({ type: "hello", token, since: lastSeq + 1, board: true });
  });
  socket.addEventListener("message", (message) => receive(JSON.parse(message.data)));
  socket.addEventListener("close", () => {
    $("connection").textContent = "Connection lost: reconnecting…";
    document.body.dataset.connected = "false";
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 300 * retry);
  });
}

function receive(frame) {
  if (frame.type === "welcome") {
    mySeat = frame.seat;
    presets = frame.presets;
    for (const event of frame.events) lastSeq = Math.max(lastSeq, event.seq);
    document.body.dataset.connected = "true";
    $("connection").textContent = mySeat === null ? "Watching." : "Connected.";
    render(frame.state);
    if (pending) send(pending); // a move sent just before the connection dropped
  } else if (frame.type === "event") {
    lastSeq = Math.max(lastSeq, frame.event.seq);
    render(frame.state);
  } else if (frame.type === "ack") {
    pending = null;
  } else if (frame.type === "error") {
    if (pending && frame.code === "stale" && frame.played === pending.move) {
      pending = null; // it was played before the connection dropped: counted once
      return;
    }
    pending = null;
    if (frame.code !== "token") showError(frame.detail);
    else showError("This browser holds no seat of this game: you are watching.");
  }
}

function seatWords(seat) {
  return state.players === 2 ? ["First player", "Second player"][seat] : `Player ${seat + 1}`;
}

function statusText() {
  const result = state.result;
  if (result) {
    const winners = result.winners.map(seatWords).join(" and ");
    const reasons = {
      finished: "Game over",
      resigned: "Resigned",
      timeout: "Out of time",
      drawn: "Drawn by agreement",
      idle: "Closed: nobody moved for too long",
      abandoned: "Closed: the players left",
    };
    return `${reasons[result.reason] || result.reason}.${winners ? ` Winner: ${winners}.` : ""}`;
  }
  if (state.status === "waiting") return "Waiting for players: send the link.";
  if (state.mover === mySeat) return "Your move.";
  return `${seatWords(state.mover)} to move.`;
}

function render(next) {
  state = next;
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.status;
  document.body.dataset.moves = state.line;
  $("rules-line").textContent = `${state.rules_title} (${state.rules}), ${state.coins.length} coins`;
  $("status").textContent = statusText();
  $("invite-link").value = new URL(`../game/${state.game}`, location.href).href;
  const qr = new URL(`games/${state.game}/invite.svg`, apiBase).href;
  if ($("invite-qr").src !== qr) $("invite-qr").src = qr; // the server draws it
  $("invite").hidden = state.status === "over"; // an archived game invites nobody
  $("board").innerHTML = state.board;
  $("line").textContent = state.line || "none yet";
  const moves = $("moves");
  moves.replaceChildren();
  if (state.mover !== null && state.mover === mySeat) {
    for (const legal of state.legal) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.move = legal.move;
      button.textContent = `${legal.move}: ${legal.words}`;
      button.addEventListener("click", () => {
        pending = { type: "move", number: state.number, move: legal.move };
        showError("");
        send(pending);
      });
      moves.append(button);
    }
  }
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of state.seats) {
    const item = document.createElement("li");
    item.className = "score";
    const who = seat.computer ? `computer (${seat.computer})` : seat.taken ? "a player" : "free";
    const you = seat.seat === mySeat ? " — you" : "";
    const left = state.clock_left ? ` · ${Math.ceil(state.clock_left[seat.seat])} s` : "";
    item.textContent = `${seat.name}: ${who}${you} · total ${state.totals[seat.seat]}${left}`;
    if (seat.seat === state.mover) item.setAttribute("aria-current", "true");
    seats.append(item);
  }
  const seated = mySeat !== null;
  const playing = state.status === "playing";
  const offered = state.draw_offer.length > 0;
  const mine = state.draw_offer.includes(mySeat);
  $("resign").hidden = !(seated && playing);
  $("draw-offer").hidden = !(seated && playing && state.draws_allowed && !offered);
  $("draw-accept").hidden = !(seated && playing && offered && !mine);
  $("draw-decline").hidden = !(seated && playing && offered && !mine);
  for (const id of ["preset", "preset-label", "say"]) $(id).hidden = !seated || state.status === "over";
  if ($("preset").options.length !== presets.length) {
    $("preset").replaceChildren(...presets.map((text, index) => new Option(text, String(index))));
  }
  $("said").replaceChildren(
    ...state.said.slice(-8).map((said) => {
      const item = document.createElement("li");
      item.textContent = `${seatWords(said.seat)}: ${presets[said.message] || ""}`;
      return item;
    }),
  );
  $("rematch").hidden = !(seated && state.status === "over" && !state.rematch);
  const link = $("rematch-link");
  link.hidden = !state.rematch;
  if (state.rematch) {
    link.href = `../game/${state.rematch}`;
    if (token) localStorage.setItem(tokenKey(state.rematch), token); // same token, next seat
  }
  $("record").href = new URL(`games/${gameId}/record`, apiBase).href;
  if (state.status === "over") showReview();
}

let reviewShown = false;
async function showReview() {
  if (reviewShown) return;
  reviewShown = true;
  const review = await api(`games/${gameId}/review`);
  const body = $("review-table").querySelector("tbody");
  body.replaceChildren(
    ...review.analysis.moves.map((move) => {
      const row = document.createElement("tr");
      for (const value of [move.step, move.player, move.move, move.best_moves.join(" "), move.loss, move.label]) {
        const cell = document.createElement("td");
        cell.textContent = String(value);
        row.append(cell);
      }
      return row;
    }),
  );
  $("accuracy").replaceChildren(
    ...Object.values(review.analysis.summary).map((player) => {
      const item = document.createElement("li");
      item.textContent = `${player.player}: accuracy ${Number(player.accuracy).toFixed(1)}% (${player.moves} moves, lost ${player.total_loss})`;
      return item;
    }),
  );
  $("review").hidden = false;
}

$("copy-invite").addEventListener("click", () => navigator.clipboard?.writeText($("invite-link").value));
$("resign").addEventListener("click", () => send({ type: "resign" }));
$("draw-offer").addEventListener("click", () => send({ type: "draw", action: "offer" }));
$("draw-accept").addEventListener("click", () => send({ type: "draw", action: "accept" }));
$("draw-decline").addEventListener("click", () => send({ type: "draw", action: "decline" }));
$("say").addEventListener("click", () => send({ type: "say", message: Number($("preset").value) }));
$("rematch").addEventListener("click", () => send({ type: "rematch" }));

takeSeatIfFree()
  .catch((error) => showError(error.message))
  .finally(connect);
