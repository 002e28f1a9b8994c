// The live table page: get a session, open the socket, draw each state the server sends (the
// same page for Türk pokeri, Açık poker and Okey), send the player's moves.

import { getSession, rematchSession } from "./auth.js";
import { Connection } from "./net.js";
import { h, swap, toast } from "./dom.js";
import { setTexts, t } from "./i18n.js";
import { renderPoker } from "./poker.js";
import { busy, renderOkey, resetWaiting } from "./okey.js";
import { renderOkey101, setWarning } from "./okey101.js";
import { setTiles, symbols, tilesToggle } from "./prefs.js";
import { haptic } from "./telegram.js";
import { activityBar, presence, startActivity } from "./activity.js";
import { tickLevels, tournamentBox } from "./tournament.js";
import { reactionBar, reactionsToggle, setMuted, showReaction } from "./reactions.js";
import { backBar } from "./back.js";

const main = document.getElementById("main");
const title = document.getElementById("title");
const status = document.getElementById("status");
const prefs = document.getElementById("prefs");
const live = document.getElementById("live");

let connection = null;
let view = null;
let skew = 0; // server clock minus this clock, in ms (the deadline is on the server's clock)
let pending = null; // the ref of the move on its way
const waiting = new Map(); // ref -> called on ack or refusal (arrangements)
let redrawLater = false;
let kept = null; // the previous hand's moves as this page last saw them
let tilesAsked = null; // [ref, the choice before] of a tile style change on its way
let myTurn = false; // whether the last state was the viewer's turn (a haptic tap when it comes)

/** The moves of a hand that just ended, kept to show under the next one. */
function keep(previous, next) {
  if (previous && previous.hand_id && previous.hand_id !== next.hand_id && previous.moves?.length) {
    kept = { hand_id: previous.hand_id, lines: [...previous.moves] };
  }
}

function message(text, retry = false) {
  swap(
    main,
    h(
      "section.message",
      {},
      h("p", {}, text),
      retry ? h("button.act", { type: "button", onclick: () => connection.retry() }, t("web.retry")) : null,
    ),
  );
}

const PENDING_MS = 8000; // a move neither acknowledged nor refused by then frees the buttons

const ctx = {
  get pending() {
    return pending !== null;
  },
  // a move as JSON (docs/web.md, "Moves"): the server reads it as the core's typed Move
  act(kind, fields) {
    if (!view || pending !== null) return;
    const ref = connection.request({
      type: "act",
      kind,
      amount: null,
      cards: [],
      source: null,
      nonce: view.nonce,
      ...fields,
    });
    if (ref === null) toast(t("web.offline"), "error");
    else {
      pending = ref;
      setTimeout(() => {
        if (pending === ref) {
          pending = null;
          draw();
        }
      }, PENDING_MS);
    }
    draw();
  },
  arrange(tiles, done) {
    const ref = connection.request({ type: "arrange", tiles });
    if (ref === null) done();
    else waiting.set(ref, done);
  },
  sort(by, done) {
    const ref = connection.request({ type: "sort", by });
    if (ref === null) {
      toast(t("web.offline"), "error");
      done();
    } else waiting.set(ref, done);
  },
  redraw() {
    draw();
  },
};

function draw() {
  if (!view) return;
  if (busy()) {
    redrawLater = true;
    return;
  }
  redrawLater = false;
  const game = t(`web.game.${view.game}`);
  title.replaceChildren(game);
  if (view.me === null || view.me === undefined) title.append(h("span.badge", {}, t("web.spectator")));
  if (view.private) title.append(h("span.badge.private", {}, t("web.private")));
  document.title = `${game} · ${t("web.title")}`;
  if (view.phase === "closed") {
    message(t("web.closed"));
    return;
  }
  main.dataset.nonce = view.nonce || "";
  main.dataset.hand = view.hand_id || "";
  // a tournament's table: the tournament's own box above the table (level, standing)
  swap(main, tournamentBox(view, Date.now() + skew), render(view)(view, ctx, kept), reactionBar(view, react));
  const back = backBar(view, ctx); // the viewer's seat kept for them: "I'm back"
  prefs.replaceChildren(
    ...(back ? [back] : []),
    ...(view.group === "okey" ? [tilesToggle(changeTiles)] : []),
    reactionsToggle((on) => {
      setMuted(on);
      draw();
    }),
  );
  drawLive();
  presence(view);
  tick();
}

/** The Discord Activity's part of the bar (invite, who is in it); empty elsewhere. */
function drawLive() {
  live.replaceChildren(...(activityBar() || []).filter(Boolean));
}

/** The bar's toggle: draw the tiles so at once, and ask the server to keep the choice with the
 * player (a refusal puts the old choice back). */
function changeTiles(choice) {
  const before = symbols() ? "symbols" : "colours";
  const ref = connection.request({ type: "prefs", tiles: choice });
  if (ref === null) {
    toast(t("web.offline"), "error");
    return;
  }
  tilesAsked = [ref, before];
  waiting.set(ref, () => {
    prefs.dataset.tiles = symbols() ? "symbols" : "colours"; // as the server keeps it
  });
  setTiles(choice);
  draw();
}

/** Send a reaction (not a move: it never waits on or blocks the turn's buttons); a refusal
 * (a flood, not seated) is said as a toast. */
function react(reaction) {
  if (!view) return;
  const ref = connection.request({ type: "act", kind: "react", reaction, nonce: view.nonce || "-" });
  if (ref === null) toast(t("web.offline"), "error");
}

/** The game's renderer. */
function render(v) {
  if (v.game === "okey101") return renderOkey101;
  return v.group === "okey" ? renderOkey : renderPoker;
}

function finished(ref) {
  const done = waiting.get(ref);
  if (done) {
    waiting.delete(ref);
    done();
  }
}

const handlers = {
  onState(next, texts, chosen) {
    setTexts(texts, null);
    if (chosen?.tiles) {
      setTiles(chosen.tiles); // the player's choice, with the first state
      prefs.dataset.tiles = chosen.tiles;
    }
    if (next.now) skew = Date.parse(next.now) - Date.now();
    if (pending !== null && view && next.nonce !== view.nonce) pending = null;
    keep(view, next);
    const mine = next.me !== null && next.me !== undefined && next.acting === next.me;
    if (mine && !myTurn) haptic("turn"); // inside Telegram only
    myTurn = mine;
    view = next;
    draw();
  },
  onReaction(seat, reaction) {
    showReaction(seat, reaction);
  },
  onAck(ref, warn) {
    finished(ref);
    if (warn) setWarning(warn); // 101 Okey: a +101 discard waits for the player's confirm
    if (ref === pending) {
      pending = null;
      draw();
    }
  },
  onRefused(ref, text) {
    if (tilesAsked && tilesAsked[0] === ref) {
      setTiles(tilesAsked[1]); // (before `finished` notes the choice kept)
      tilesAsked = null;
    }
    finished(ref);
    toast(text, "error");
    if (ref === pending) {
      pending = null;
      haptic("refused"); // a move refused (inside Telegram only)
    }
    draw();
  },
  onError(text) {
    // a bad or expired session, a full table, a flood: said, and tried again only on a tap
    message(text, true);
    status.textContent = "";
  },
  onClosed(text, offer) {
    view = null;
    message(text || t("web.closed"));
    status.textContent = "";
    if (offer) main.querySelector("section.message").append(playAgain(offer));
  },
  onStatus(kind, seconds) {
    document.body.classList.toggle("offline", kind !== "open");
    if (kind === "open") status.textContent = "";
    else if (kind === "connecting") status.textContent = t("web.connecting");
    else {
      status.textContent = t("web.reconnecting", { seconds });
      pending = null;
      for (const ref of [...waiting.keys()]) finished(ref);
      resetWaiting();
    }
  },
};

/** A closed table's "Play again" for a player of its offer (the label in the page's language,
 * from the server): pressed, the page moves to the new table with its new session; a refusal
 * is a toast. After their press, how many are in. */
function playAgain(offer) {
  if (offer.done) return h("p.hint.rematch", {}, offer.label);
  const button = h("button.act.rematch", { type: "button", dataset: { key: "act-rematch", kind: "rematch" } }, offer.label);
  button.onclick = async () => {
    button.disabled = true;
    try {
      const next = await rematchSession(connection.session);
      setTexts(null, next.locale);
      connection = new Connection(next.session, handlers);
      connection.connect();
    } catch (error) {
      toast(error.message || t("web.offline"), "error");
      haptic("refused");
      button.disabled = false;
    }
  };
  return button;
}

const totals = new Map(); // deadline -> the time it had left when first seen

/** Count the turn down: every [data-deadline] shows the seconds left and a shrinking bar. */
function tick() {
  const now = Date.now() + skew;
  for (const node of document.querySelectorAll("[data-deadline]")) {
    const end = Date.parse(node.dataset.deadline);
    const left = Math.max(0, end - now);
    const key = node.dataset.deadline;
    if (!totals.has(key)) {
      if (totals.size > 20) totals.clear();
      totals.set(key, Math.max(left, 1000));
    }
    const share = Math.min(1, left / totals.get(key));
    node.querySelector(".fill")?.style.setProperty("width", `${(share * 100).toFixed(1)}%`);
    const secs = node.querySelector(".secs");
    if (secs) secs.textContent = t("web.seconds", { seconds: Math.ceil(left / 1000) });
    node.classList.toggle("late", left < 10000);
  }
  tickLevels(now);
}

setInterval(tick, 250);
setInterval(() => {
  if (redrawLater && !busy()) draw();
}, 100);

async function boot() {
  status.textContent = t("web.connecting");
  let session;
  try {
    session = await getSession();
  } catch (error) {
    status.textContent = "";
    message(error.message || t("web.no_session"));
    return;
  }
  if (!session) {
    status.textContent = "";
    message(t("web.no_session"));
    return;
  }
  setTexts(null, session.locale);
  connection = new Connection(session.session, handlers);
  connection.connect();
  startActivity(drawLive); // inside Discord only
  window.addEventListener("online", () => connection.retry());
}

boot();
