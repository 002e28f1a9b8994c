// 101 Okey: the classic Okey page (okey.js: the piles, the stock, the rack and its arranging,
// discard and finish) plus what 101 adds: the melds lying on the table grouped by who laid them
// (how each player opened, the threshold), each seat's opening and penalty, the one-press
// openings, a meld built from tiles picked in the rack and laid, a picked tile added to a meld
// by tapping the meld, and the +101 warning as a confirm before such a discard is made.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { tile } from "./cards.js";
import { clearSelection, renderOkey, selectedTile } from "./okey.js";

// the server's one-press moves (TableView actions), in the order the chat offers them
const ONE_PRESS = ["take_open_best", "take_open_pairs", "take_use", "open_best", "open_pairs", "lay_best"];

// the meld being built (tiles, "/" between melds), the tile a +101 warning is about, the hand
const local = { hand: null, build: [], warn: null };

/** A +101 warning from the server (an `ack` with `warn`): ask before discarding `code`. */
export function setWarning(code) {
  local.warn = code || null;
}

/** The whole 101 Okey page for one state. */
export function renderOkey101(view, ctx, kept = null) {
  if (local.hand !== view.hand_id) {
    local.hand = view.hand_id;
    local.build = [];
    local.warn = null;
  }
  const page = renderOkey(view, ctx, kept);
  page.classList.add("okey101");
  for (const box of page.querySelectorAll(".player[data-seat]")) {
    box.querySelector(".facts")?.append(...seatFacts(view, Number(box.dataset.seat)));
  }
  const kinds = new Map((view.actions || []).map((a) => [a.kind, a]));
  const table = meldsOnTable(view, kinds, ctx);
  const middle = page.querySelector(".middle");
  if (middle) middle.after(table);
  else page.prepend(table);
  const tools = moves(view, kinds, ctx);
  const rack = page.querySelector(".rack-box");
  if (tools && rack) rack.after(tools);
  else if (tools) page.append(tools);
  return page;
}

/** How a seat opened (series and its value, pairs and how many), and its penalty points. */
function seatFacts(view, i) {
  const seat = view.seats[i];
  if (!seat.in_play || !view.hand_id) return [];
  const out = [h("span.opened", { dataset: { opened: seat.opened || "" } }, openingText(seat))];
  if (seat.penalty) out.push(h("span.penalty", {}, t("web.okey101.penalty", { points: seat.penalty })));
  return out;
}

function openingText(seat) {
  if (seat.opened === "series") return t("web.okey101.opened_series", { value: seat.opening ?? 0 });
  if (seat.opened === "pairs") return t("web.okey101.opened_pairs", { pairs: seat.opening ?? 0 });
  return t("web.okey101.not_opened");
}

/** The melds on the table, by owner; with a tile picked and `add` (or `swap`) legal, each meld
 * is a button that adds the tile to it (or puts it in the place of the meld's okey). */
function meldsOnTable(view, kinds, ctx) {
  const melds = view.melds || [];
  const picked = selectedTile();
  // in the take phase the previous discard is what gets laid or added: the one-press moves do it
  const play = view.stage !== "take";
  const verb = !play ? null : kinds.has("add") ? "add" : kinds.has("swap") ? "swap" : null;
  const live = verb !== null && picked !== null;
  const owners = [...new Set(melds.map((m) => m.owner))];
  const groups = owners.map((owner) => {
    const seat = view.seats[owner];
    const name = seat ? (owner === view.me ? t("web.you", { name: seat.name }) : seat.name) : "?";
    const rows = melds
      .map((m, k) => [m, k])
      .filter(([m]) => m.owner === owner)
      .map(([m, k]) => meld(view, m, k, live ? () => addTo(view, verb, picked, k, ctx) : null, ctx));
    return h(
      "div.meld-owner",
      { dataset: { owner: String(owner) } },
      h("p.meld-who", {}, name, seat ? h("span.opened", {}, " · ", openingText(seat)) : null),
      rows,
    );
  });
  return h(
    "section.melds101",
    { "aria-label": t("web.okey101.table") },
    h(
      "p.threshold",
      {},
      view.threshold ? t("web.okey101.threshold", { value: view.threshold }) : null,
      live ? h("span.hint", {}, " ", t("web.okey101.tap_meld", { tile: picked })) : null,
    ),
    melds.length ? groups : h("p.empty", {}, t("web.okey101.no_melds")),
  );
}

function meld(view, m, k, onclick, ctx) {
  const tiles = m.tiles.map((code) => tile(code, { okey: view.okey, size: "sm" }));
  const label = t("web.okey101.meld", { n: k + 1, value: m.value });
  if (onclick) {
    return h(
      "button.meld.live",
      { type: "button", dataset: { meld: String(k) }, disabled: ctx.pending, "aria-label": label, onclick },
      h("span.meld-n", {}, `${k + 1}`),
      tiles,
    );
  }
  return h("div.meld", { dataset: { meld: String(k) }, role: "group", "aria-label": label }, h("span.meld-n", {}, `${k + 1}`), tiles);
}

function addTo(view, verb, code, k, ctx) {
  ctx.act(verb, { cards: [code], amount: k });
}

/** The 101 moves under the rack: the +101 confirm, the one-press ones, the meld being built. */
function moves(view, kinds, ctx) {
  if (view.me === null || view.me === undefined) return null;
  const out = [];
  if (local.warn && kinds.has("discard")) {
    const code = local.warn;
    out.push(
      h(
        "div.warn101",
        { role: "alertdialog", "aria-label": t("web.okey101.warn", { tile: code }) },
        h("p", {}, t("web.okey101.warn", { tile: code })),
        h(
          "button.act.danger",
          {
            type: "button",
            dataset: { key: "act-discard-anyway", kind: "discard!" },
            disabled: ctx.pending,
            onclick: () => {
              local.warn = null;
              ctx.act("discard!", { cards: [code] });
            },
          },
          t("web.okey101.discard_anyway", { tile: code }),
        ),
        h(
          "button.quiet",
          { type: "button", dataset: { key: "act-keep" }, onclick: () => { local.warn = null; ctx.redraw(); } },
          t("web.okey101.keep"),
        ),
      ),
    );
  } else if (!kinds.has("discard")) {
    local.warn = null;
  }
  const quick = ONE_PRESS.filter((kind) => kinds.has(kind)).map((kind) =>
    h(
      "button.act.success",
      { type: "button", dataset: { key: `act-${kind}`, kind }, disabled: ctx.pending, onclick: () => ctx.act(kind, {}) },
      t(`web.okey101.${kind}`, { value: kinds.get(kind).min_amount ?? "" }),
    ),
  );
  const play = view.stage !== "take";
  const laying = !play ? null : kinds.has("open") ? "open" : kinds.has("lay") ? "lay" : null;
  const builder = laying ? build(view, laying, ctx) : null;
  if (!laying) local.build = [];
  if (!out.length && !quick.length && !builder) return null;
  return h("section.moves101", { "aria-label": t("web.okey101.moves") }, out, quick.length ? h("div.buttons", {}, quick) : null, builder);
}

/** Tiles picked one by one into new melds ("/" between two), then laid as one move. */
function build(view, laying, ctx) {
  const picked = selectedTile();
  const shown = local.build.map((code) => (code === "/" ? h("span.sep", {}, "|") : tile(code, { okey: view.okey, size: "xs" })));
  const redraw = () => ctx.redraw();
  const button = (key, label, onclick, disabled = false, cls = "quiet") =>
    h(`button.${cls}`, { type: "button", dataset: { key }, disabled: disabled || ctx.pending, onclick }, label);
  const count = (code) => local.build.filter((c) => c === code).length;
  const held = (code) => (view.mine || []).filter((c) => c === code).length;
  const cards = local.build.filter((c, i, all) => !(c === "/" && (i === 0 || i === all.length - 1 || all[i - 1] === "/")));
  return h(
    "div.build101",
    {},
    h("p.hint", {}, t("web.okey101.build_hint"), " ", shown.length ? h("span.building", {}, shown) : null),
    h(
      "div.buttons",
      {},
      button(
        "build-add",
        picked ? t("web.okey101.build_add", { tile: picked }) : t("web.okey101.build_pick"),
        () => {
          local.build.push(picked);
          clearSelection();
          redraw();
        },
        !picked || count(picked) >= held(picked),
      ),
      button("build-next", t("web.okey101.build_next"), () => { local.build.push("/"); redraw(); }, !local.build.length || local.build.at(-1) === "/"),
      button("build-clear", t("web.okey101.build_clear"), () => { local.build = []; redraw(); }, !local.build.length),
      button(
        "act-lay",
        t(laying === "open" ? "web.okey101.open_these" : "web.okey101.lay_these"),
        () => {
          const sent = cards;
          local.build = [];
          ctx.act(laying, { cards: sent });
        },
        cards.filter((c) => c !== "/").length < 2,
        "act.primary",
      ),
    ),
  );
}
