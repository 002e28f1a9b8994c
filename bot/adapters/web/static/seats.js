// What both games show the same way: a seat's name plate, the countdown of the seat to act,
// the last moves.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { bubble } from "./reactions.js";

/** Seats in the order they sit, turned so that the viewer (or the first seat) comes first. */
export function fromViewer(view) {
  const n = view.seats.length;
  const base = view.me ?? 0;
  return Array.from({ length: n }, (_, k) => (base + k) % n);
}

/** The player's picture (their Telegram photo or Discord avatar, by URL from the server; the
 * browser caches it), or null. A picture that does not load is taken away. */
export function avatar(seat) {
  if (!seat.avatar) return null;
  return h("img.avatar", {
    src: seat.avatar,
    alt: "",
    width: 24,
    height: 24,
    loading: "lazy",
    decoding: "async",
    referrerpolicy: "no-referrer",
    draggable: "false",
    onerror: (event) => event.target.remove(),
  });
}

/** The plate of seat `i`: its picture, name, a computer or away mark, the rating badge (a `?`
 * while provisional), the countdown when it acts, its player's reaction while it shows
 * (reactions.js). */
export function namePlate(view, i) {
  const seat = view.seats[i];
  const marks = [];
  if (seat.bot) marks.push(h("span.mark.bot", { title: t("web.bot"), role: "img", "aria-label": t("web.bot") }, "⚙"));
  if (seat.away) marks.push(h("span.mark.away", {}, seat.kept ? t("web.kept", { name: seat.name }) : t("web.away")));
  if (seat.rating !== null && seat.rating !== undefined) {
    const label = t(seat.provisional ? "web.rating_provisional" : "web.rating");
    const cls = seat.provisional ? "span.rating.provisional" : "span.rating";
    marks.push(h(cls, { title: label, "aria-label": `${label}: ${seat.rating}` }, `${seat.rating}${seat.provisional ? "?" : ""}`));
  }
  return h(
    "div.plate",
    {},
    avatar(seat),
    i === view.me
      ? h("span.name", { "aria-label": t("web.you", { name: seat.name }) }, seat.name)
      : h("span.name", {}, seat.name),
    marks,
    seat.acting ? countdown(view) : null,
    bubble(i),
  );
}

/** A bar and a number of seconds counting down to the turn's deadline (app.js ticks them). */
export function countdown(view) {
  if (!view.deadline) return null;
  return h(
    "span.countdown",
    { dataset: { deadline: view.deadline }, role: "timer", "aria-live": "off" },
    h("span.meter", {}, h("span.fill")),
    h("span.secs"),
  );
}

/** Who acts now, for the top of the table: "Your turn" or "Ayşe to act". */
export function turnLine(view) {
  if (view.acting === null || view.acting === undefined) return null;
  const mine = view.acting === view.me;
  const text = mine ? t("web.your_turn") : t("web.turn_of", { name: view.seats[view.acting].name });
  return h(`div.turn${mine ? ".mine" : ""}`, { role: "status" }, text, " ", countdown(view));
}

/** The last moves as the table message shows them, newest last. */
export function movesList(view) {
  const moves = view.moves || [];
  return h(
    "section.moves",
    { "aria-label": t("web.moves") },
    h("h2", {}, t("web.moves")),
    moves.length
      ? h("ol", { "aria-live": "polite" }, moves.slice(-12).map((line) => h("li", {}, line)))
      : h("p.hint", {}, "—"),
  );
}

/** The end of the previous hand or round: the server's `last` when it sends one (the lines of
 * its result, the cards shown, Okey's finishing rack), else the moves this page last saw of it. */
export function previousHand(view, kept, drawCard, drawTile) {
  const last = view.last || kept;
  if (!last || !last.lines?.length) return null;
  const shown = Object.entries(last.shown || {}).filter(([, cards]) => cards?.length);
  return h(
    "details.previous",
    { open: true, dataset: { hand: last.hand_id || "" } },
    h("summary", {}, t("web.previous")),
    shown.length
      ? h(
          "ul.shown",
          {},
          shown.map(([seat, cards]) =>
            h("li", {}, h("span.name", {}, view.seats[Number(seat)]?.name ?? ""), h("span.cards", {}, cards.map((c) => drawCard(c)))),
          ),
        )
      : null,
    last.rack?.length && drawTile
      ? h("div.finished-rack", {}, last.rack.map((c) => (c ? drawTile(c) : h("span.gap"))))
      : null,
    h("ol", {}, last.lines.map((line) => h("li", {}, line))),
  );
}
