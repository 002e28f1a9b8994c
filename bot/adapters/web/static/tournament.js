// A tournament table's own box (the server's `view.tournament`, docs/web.md): the tournament
// and, at a knockout's match, the table's number and the round; at a sit-and-go, the ante level
// and the next one counted down on the server's clock; then the standing, best first.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** "m:ss" left until `end` (ms) at `now` (ms). */
function clock(end, now) {
  const secs = Math.max(0, Math.ceil((end - now) / 1000));
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
}

/** The next level's words at `now` (ms, the server's clock): "next 25 in 2:41", or, once it
 * is due, "25 from the next hand". */
export function nextLevel(info, now) {
  const end = info.next_level ? Date.parse(info.next_level) : null;
  if (end === null || end <= now) return t("web.tournament.next_due", { ante: info.next_ante });
  return t("web.tournament.next", { ante: info.next_ante, time: clock(end, now) });
}

/** Every sit-and-go level countdown on the page, told the server's time now (ms). */
export function tickLevels(now) {
  for (const node of document.querySelectorAll(".tournament [data-next-level]")) {
    const info = JSON.parse(node.dataset.nextLevel);
    node.textContent = nextLevel(info, now);
  }
}

function standingRow(view, entry, knockout) {
  const notes = [];
  if (entry.forfeit) notes.push(t("web.tournament.forfeit"));
  else if (entry.place !== null && entry.place !== undefined) notes.push(t("web.tournament.out", { place: entry.place }));
  if (entry.advancing) notes.push(t("web.tournament.advancing"));
  const mine = entry.seat !== null && entry.seat !== undefined && entry.seat === view.me;
  const classes = [entry.seat === null || entry.seat === undefined ? ".gone" : "", entry.advancing ? ".on" : "", mine ? ".mine" : ""];
  const value = t(knockout ? "web.tournament.value_points" : "web.tournament.value_chips", { value: entry.value });
  return h(
    `li${classes.join("")}`,
    {},
    h("span.name", {}, entry.name),
    h("span.value", {}, value),
    notes.length ? h("span.note", {}, notes.join(" · ")) : null,
  );
}

/** The box, or null at a table outside any tournament. `now` is the server's time (ms). */
export function tournamentBox(view, now) {
  const info = view.tournament;
  if (!info) return null;
  const knockout = info.kind === "knockout";
  const head = [t("web.tournament.title", { id: info.id })];
  if (knockout && info.table !== null && info.table !== undefined) head.push(t("web.tournament.table", { table: info.table }));
  if (knockout && info.rounds) {
    head.push(info.round ? t("web.tournament.round", { round: info.round, rounds: info.rounds }) : t("web.tournament.rounds", { rounds: info.rounds }));
  }
  const lines = [];
  if (!knockout && info.level) {
    lines.push(
      h(
        "p.level",
        {},
        h("span", {}, t("web.tournament.level", { level: info.level, ante: info.ante })),
        " · ",
        h("span.next", { dataset: { nextLevel: JSON.stringify({ next_level: info.next_level, next_ante: info.next_ante }) } }, nextLevel(info, now)),
      ),
    );
  }
  if (!knockout && info.chips) lines.push(h("p.hint", {}, t("web.tournament.chips", { count: info.entrants, chips: info.chips })));
  if (knockout && info.entrants) lines.push(h("p.hint", {}, t("web.tournament.goes_on", { count: Math.ceil(info.entrants / 2) })));
  return h(
    "section.tournament",
    { "aria-label": head[0], dataset: { kind: info.kind } },
    h("h2", {}, head.join(" · ")),
    lines,
    h("h3", {}, t("web.tournament.standing")),
    h("ol.standing", {}, (info.standing || []).map((entry) => standingRow(view, entry, knockout))),
  );
}
