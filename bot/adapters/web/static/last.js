// The end of the previous hand or round (the server's `view.last`, kept until the next one
// ends): poker, the cards shown at the showdown beside each name and the chips won or lost;
// Okey (both games), who finished or that the stock ran out, the finisher's laid-down rack as
// tiles and each player's penalty (101: round score) and total; then the result lines as the
// chat announced them, in the page's language. Without `view.last` (an older server), the moves this page last saw
// of the previous hand (`kept`). Once an Okey match is over, its result (`matchResult`).

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

/** How the Okey round ended: who finished it, or that the stock ran out. */
function roundEnd(last) {
  const finisher = (last.players || []).find((p) => p.winner);
  if (last.reason === "finished" && finisher) return h("p.ended", {}, t("web.last.finished", { name: finisher.name }));
  if (last.reason === "stock_exhausted") return h("p.ended", {}, t("web.last.stock_out"));
  return null;
}

/** The Okey match that ended with the previous round, while no round is running: the
 * winner(s), each player's final total and the chips the match paid them (none in a
 * tournament), and how to play again ("Play again" while the table offers it, `rematch`);
 * null otherwise. */
export function matchResult(view, ctx = null) {
  const last = view.last;
  if (view.group !== "okey" || !last?.over || view.hand_id) return null;
  const players = last.players || [];
  const winners = players.filter((p) => p.match_winner).map((p) => p.name);
  const row = (p) =>
    h(
      `tr${p.match_winner ? ".winner" : ""}`,
      { dataset: { user: p.user_id } },
      h("th", { scope: "row" }, p.match_winner ? `${p.name} \u2605` : p.name),
      h("td", {}, t("web.okey.final_points", { points: p.points ?? 0 })),
      p.paid !== null && p.paid !== undefined ? h("td.paid", {}, t("web.okey.paid", { chips: p.paid })) : null,
    );
  return h(
    "section.match-end",
    { "aria-label": t("web.okey.match_result") },
    h("h2", {}, t("web.okey.match_result")),
    winners.length ? h("p.winners", {}, t("web.okey.match_winners", { names: winners.join(", ") })) : null,
    h("table.points", {}, h("tbody", {}, players.map(row))),
    // (a tournament's table plays one match: the tournament seats the next one)
    view.phase === "waiting" && !view.tournament ? h("p.hint.again", {}, t("web.okey.again")) : null,
    rematch(view, ctx),
  );
}

/** "Play again (k/n)" for a player of the table's offer who has not pressed yet (sent as the
 * move `{kind: "rematch"}`); for the others how many have pressed; null without an offer. */
export function rematch(view, ctx) {
  const offer = view.rematch;
  if (!offer) return null;
  const counts = { pressed: offer.pressed, total: offer.total };
  if (!offer.mine || offer.done || !ctx) return h("p.hint.rematch", {}, t("web.rematch.waiting", counts));
  return h(
    "button.act.rematch",
    { type: "button", dataset: { key: "act-rematch", kind: "rematch" }, disabled: ctx.pending, onclick: () => ctx.act("rematch", {}) },
    t("web.rematch.play", counts),
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
    okey ? roundEnd(last) : null,
    players.length ? (okey ? okeyPlayers(last) : pokerPlayers(last, drawCard)) : null,
    okey ? finishingRack(last, drawTile) : null,
    last.lines?.length ? h("ol", {}, last.lines.map((line) => h("li", {}, line))) : null,
  );
}
