// The viewer's own settings, kept with the player by the server: tiles marked with a shape per
// colour as well (`/tiles symbols` in the chat; the same shapes as the rack pictures). The first
// state frame says the choice (`prefs`); the toggle in the bar changes it and asks the server
// to keep it (a `prefs` frame), so it survives a reload and the chat's rack pictures follow it.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Each tile colour's shape: red ●, yellow ▲, blue ■, black ◆. */
export const SHAPES = { R: "●", Y: "▲", B: "■", K: "◆" };

let tiles = "colours";

/** True when tiles carry their colour's shape. */
export function symbols() {
  return tiles === "symbols";
}

/** Take the viewer's choice (`symbols` or `colours`; anything else reads as colours). */
export function setTiles(choice) {
  tiles = choice === "symbols" ? "symbols" : "colours";
  document.body.classList.toggle("tile-symbols", tiles === "symbols");
}

/** The bar's toggle; `change(choice)` is called with the new choice when it is pressed. */
export function tilesToggle(change) {
  const on = symbols();
  return h(
    "button.toggle.tiles-toggle",
    {
      type: "button",
      "aria-pressed": String(on),
      title: t("web.tiles_hint"),
      "aria-label": t("web.tiles_hint"),
      onclick: () => change(on ? "colours" : "symbols"),
    },
    t("web.tiles"),
  );
}
