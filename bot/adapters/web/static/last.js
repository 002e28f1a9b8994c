// The end of the previous hand or round (the server's `view.last`, kept until the next one
// ends): poker, the cards shown at the showdown beside each name and the chips won or lost;
// Okey, the finisher's laid-down rack as tiles and each player's penalty and total; then the
// result lines as the table message wrote them. Without `view.last` (an older server), the moves
// this page last saw of the previous hand (`kept`).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const ROW = 15; // a rack row: the finishing rack is laid out in two rows of 15 slots

function signed(amount) {
  return amount > 0 ? `+${amount}` : amount < 0 ? `\u2212${-amount}` : "0";
}

function pokerPlayers(last, drawCard) {
  return h(
    "ul.shown",
    {},
    last.players.map((p) =>
      h(
        p.winner ? "li.winner" : "li",
        { dataset: { user: p.user_id } },
        h("span.name", {}, p.name),
        p.shown?.length
          ? h("span.cards", { dataset: { shown: p.shown.join(" ") } }, p.shown.map((c) => drawCard(c)))
          : h("span.hint", {}, t("web.last.not_shown")),
        p.delta !== null && p.delta !== undefined
          ? h("span.delta", { "aria-label": t("web.last.chips", { amount: signed(p.delta) }) }, signed(p.delta))
          : null,
      ),
    ),
  );
}

function okeyPlayers(last) {
  return h(
    "ul.shown",
    {},
    last.players.map((p) =>
      h(
        p.winner ? "li.winner" : "li",
        { dataset: { user: p.user_id } },
        h("span.name", {}, p.winner ? `${p.name} \u2605` : p.name),
        p.penalty !== null && p.penalty !== undefined
          ? h("span.delta", {}, t("web.last.penalty", { points: p.penalty }))
          : null,
        p.points !== null && p.points !== undefined
          ? h("span.hint", {}, t("web.last.total", { points: p.points }))
          : null,
      ),
    ),
  );
}

function finishingRack(last, drawTile) {
  if (!last.rack || !drawTile) return null;
  const row = (slots) => h("div.finished-rack", {}, slots.map((c) => (c ? drawTile(c, last.okey) : h("span.gap"))));
  const top = last.rack.slice(0, ROW);
  const bottom = last.rack.slice(ROW);
  return h(
    "div.last-rack",
    { "aria-label": t("web.last.rack") },
    h("p.hint", {}, t("web.last.rack")),
    row(top),
    bottom.some((c) => c) ? row(bottom) : null,
  );
}

/** The previous hand or round as a collapsible box, or null when there is none yet.
 * `drawCard(code)` draws a poker card; `drawTile(code, okey)` an Okey tile (Okey only). */
export function lastHand(view, kept, drawCard, drawTile = null) {
  const last = view.last || kept;
  if (!last) return null;
  const players = view.last?.players || [];
  const okey = view.group === "okey";
  if (!players.length && !last.lines?.length) return null;
  return h(
    "details.previous",
    { open: true, dataset: { hand: last.hand_id || "" } },
    h("summary", {}, t(okey ? "web.last.round" : "web.previous")),
    view.last?.over ? h("p.hint", {}, t("web.last.match_over")) : null,
    players.length ? (okey ? okeyPlayers(last) : pokerPlayers(last, drawCard)) : null,
    okey ? finishingRack(last, drawTile) : null,
    last.lines?.length ? h("ol", {}, last.lines.map((line) => h("li", {}, line))) : null,
  );
}
