// Reactions at the table (issue 37): the fixed set's bar for a seated player, each reaction
// shown beside its sender's seat for a few seconds (timed here, on the page), and the mute
// toggle. The server sends a `reaction` frame (the seat's index and the reaction's value, nothing
// else); a muted page shows none. The choice is kept by this browser (localStorage).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The set, in the order the bar shows it (bot/core/reactions.py). */
export const REACTIONS = ["gg", "nice", "hurry", "wp", "laugh", "clap", "wow", "fire"];
const SHOW_MS = 4000;
const KEY = "ttb.reactions";

const active = new Map(); // seat index -> { reaction, until }
let muted = readMuted();

function readMuted() {
  try {
    return window.localStorage.getItem(KEY) === "off";
  } catch {
    return false; // storage refused (a private window, a sandbox): reactions show
  }
}

/** True when this page shows no reactions. */
export function reactionsMuted() {
  return muted;
}

/** Mute (or show again) the reactions on this page, kept by this browser. */
export function setMuted(on) {
  muted = on;
  if (on) {
    active.clear();
    for (const node of document.querySelectorAll(".reaction-bubble")) node.remove();
  }
  try {
    window.localStorage.setItem(KEY, on ? "off" : "on");
  } catch {
    // kept for this page only
  }
}

/** The bubble of seat `i` while its reaction shows (namePlate draws it on every redraw). */
export function bubble(i) {
  const shown = active.get(i);
  if (muted || !shown || shown.until <= Date.now()) return null;
  return h("span.reaction-bubble", { dataset: { reaction: shown.reaction }, role: "status" }, t(`reaction.${shown.reaction}`));
}

/** A `reaction` frame: show it beside seat `seat` for a few seconds (unless muted). */
export function showReaction(seat, reaction) {
  if (muted || !REACTIONS.includes(reaction) || !Number.isInteger(seat)) return;
  const shown = { reaction, until: Date.now() + SHOW_MS };
  active.set(seat, shown);
  const plate = document.querySelector(`[data-seat="${seat}"] .plate`);
  if (plate) {
    plate.querySelector(".reaction-bubble")?.remove();
    const node = bubble(seat);
    if (node) plate.append(node);
  }
  setTimeout(() => {
    if (active.get(seat) !== shown) return; // a newer one shows
    active.delete(seat);
    document.querySelector(`[data-seat="${seat}"] .plate .reaction-bubble`)?.remove();
  }, SHOW_MS);
}

/** The bar of reactions for a seated player; `send(reaction)` sends one. */
export function reactionBar(view, send) {
  if (view.me === null || view.me === undefined || view.phase === "closed") return null;
  return h(
    "section.reactions",
    { "aria-label": t("web.reactions") },
    REACTIONS.map((reaction) =>
      h(
        "button.reaction",
        { type: "button", dataset: { reaction, key: `react-${reaction}` }, onclick: () => send(reaction) },
        t(`reaction.${reaction}`),
      ),
    ),
  );
}

/** The bar's toggle: mute the reactions on this page, or show them again. */
export function reactionsToggle(change) {
  return h(
    "button.toggle.reactions-toggle",
    {
      type: "button",
      "aria-pressed": String(muted),
      title: t("web.reactions_hint"),
      "aria-label": t("web.reactions_hint"),
      onclick: () => change(!muted),
    },
    muted ? t("web.reactions_muted") : t("web.reactions_mute"),
  );
}
