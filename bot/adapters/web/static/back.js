// A kept seat (docs/web.md, "A kept seat"): while the computer plays the viewer's seat for them,
// the page says so and offers "I'm back", which takes the seat back in one press.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The "you are away" bar with its "I'm back" button, or null when the viewer's seat is not kept. */
export function backBar(view, ctx) {
  if (view.me === null || view.me === undefined) return null;
  const seat = view.seats[view.me];
  if (!seat || !seat.kept) return null;
  return h(
    "span.kept",
    { role: "status" },
    h("span.hint", {}, t("web.kept_you")),
    " ",
    h(
      "button.act.primary",
      { type: "button", dataset: { key: "act-back", kind: "back" }, disabled: ctx.pending, onclick: () => ctx.act("back", {}) },
      t("web.back"),
    ),
  );
}
