// What both games show the same way: a seat's name plate, the countdown of the seat to act,
// the last moves.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Seats in the order they sit, turned so that the viewer (or the first seat) comes first. */
export function fromViewer(view) {
  const n = view.seats.length;
  const base = view.me ?? 0;
  return Array.from({ length: n }, (_, k) => (base + k) % n);
}

/** The plate of seat `i`: its name, a computer or away mark, the countdown when it acts. */
export function namePlate(view, i) {
  const seat = view.seats[i];
  const marks = [];
  if (seat.bot) marks.push(h("span.mark.bot", { title: t("web.bot"), role: "img", "aria-label": t("web.bot") }, "⚙"));
  if (seat.away) marks.push(h("span.mark.away", {}, t("web.away")));
  return h(
    "div.plate",
    {},
    i === view.me
      ? h("span.name", { "aria-label": t("web.you", { name: seat.name }) }, seat.name)
      : h("span.name", {}, seat.name),
    marks,
    seat.acting ? countdown(view) : null,
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
