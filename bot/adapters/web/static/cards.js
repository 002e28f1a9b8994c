// Cards and tiles drawn with CSS: a card is `Ah` (rank 2-9 T J Q K A, suit c d h s), a tile `R5`
// (colour R Y B K, number 1-13) or `F` (a false okey).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { SHAPES, symbols } from "./prefs.js";

const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
const RANKS = { T: "10" };

/** The words for a card, for screen readers: "ace of hearts" / "kupa as". */
export function cardName(card) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  return t("web.card", { rank: t(`web.rank.${rank}`), suit: t(`web.suit.${suit}`) });
}

/** The face of a card (`tag` "span", or "button" for a card one can mark). */
export function card(code, { tag = "span", props = {}, size = "" } = {}) {
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  const colour = suit === "h" || suit === "d" ? "red" : "black";
  const label = cardName(code);
  return h(
    `${tag}.card.${colour}${size ? "." + size : ""}`,
    { "aria-label": label, role: tag === "span" ? "img" : undefined, dataset: { card: code }, ...props },
    h("span.corner", { "aria-hidden": "true" }, h("b", {}, RANKS[rank] || rank), h("i", {}, SUITS[suit])),
    h("span.pip", { "aria-hidden": "true" }, SUITS[suit]),
  );
}

/** The back of a card (a card hidden from this viewer). */
export function cardBack(size = "") {
  return h(`span.card.back${size ? "." + size : ""}`, { role: "img", "aria-label": t("web.hidden_card") });
}

/** The words for a tile: "red 5" / "kırmızı 5", "false okey" / "sahte okey". */
export function tileName(code) {
  if (code === "F") return t("web.tile.F");
  return t("web.tile", { colour: t(`web.colour.${code[0]}`), number: code.slice(1) });
}

/** The face of a tile; `okey` the okey (wild) tile of the round, marked with a star. With the
 * viewer's `symbols` choice (prefs.js) the dot under the number is the colour's shape. */
export function tile(code, { tag = "span", props = {}, okey = null, size = "" } = {}) {
  const fake = code === "F";
  const colour = fake ? "F" : code[0];
  const wild = okey && code === okey;
  const shape = !fake && symbols() ? SHAPES[colour] : null;
  return h(
    `${tag}.tile.c-${colour}${wild ? ".wild" : ""}${shape ? ".sym" : ""}${size ? "." + size : ""}`,
    {
      "aria-label": tileName(code) + (wild ? ` (${t("web.okey.okey")})` : ""),
      role: tag === "span" ? "img" : undefined,
      dataset: { tile: code },
      ...props,
    },
    h("span.num", { "aria-hidden": "true" }, fake ? "★" : code.slice(1)),
    shape ? h("span.shape", { "aria-hidden": "true" }, shape) : h("span.dot", { "aria-hidden": "true" }),
  );
}

/** The back of a tile (the stock). */
export function tileBack(size = "") {
  return h(`span.tile.back${size ? "." + size : ""}`, { "aria-hidden": "true" });
}
