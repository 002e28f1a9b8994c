// 101 Okey: the classic Okey page (okey.js: the piles, the stock, the rack and its arranging,
// discard and finish) plus what 101 adds: the melds lying on the table grouped by who laid them
// (how each player opened, the threshold), each seat's opening and penalty, the one-press
// openings, a meld built from tiles picked in the rack and laid, a rack tile added to a meld
// (işleme) by dragging it onto the meld or by tapping it and then the meld, and the +101
// warning as a confirm before such a discard is made.
//
// The previous player's discard is never taken alone (it is used in the same move): dragged
// (or tapped) from their pile onto the rack it goes into the meld being built, and the meld is
// laid with it (`source: "discard"`); onto a meld it is added there; onto the table anywhere
// else it is taken with the one-press move offered (open, or use it). A drop the page knows
// the move is not open for is marked while the tile is over it; every drop that names a move
// is sent as that move and the server refuses it, with the reason, when it is not legal.
//
// Before the player opens, the discard serves only an opening and nothing is added to a meld:
// the hints say so, and a meld tapped with a tile (or the discard) in hand says "Open first"
// here, in the words the server refuses such a drop with.

import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { tile, tileName } from "./cards.js";
import { follow } from "./drag.js";
import { clearSelection, neighbours, renderOkey, selectedTile } from "./okey.js";

// the server's one-press moves (TableView actions), in the order the chat offers them
const ONE_PRESS = ["take_open_best", "take_open_pairs", "take_use", "open_best", "open_pairs", "lay_best"];

// the one-press moves that take the previous discard, the first offered one is made by a drop
// of the discard on the table
const TAKE_PRESS = ["take_open_best", "take_open_pairs", "take_use"];

// the meld being built (tiles, "/" between melds), the tile a +101 warning is about, the hand;
// the previous discard tapped (waiting for a place) or taken into the meld being built, and
// the turn (nonce) they belong to; whether the warning just came (its "Keep it" takes the focus)
const local = { hand: null, build: [], warn: null, picked: false, taken: null, nonce: null, warned: false };

/** A +101 warning from the server (an `ack` with `warn`): ask before discarding `code`. */
export function setWarning(code) {
  local.warn = code || null;
  local.warned = local.warn !== null;
}

/** The whole 101 Okey page for one state. */
export function renderOkey101(view, ctx, kept = null) {
  if (local.hand !== view.hand_id) {
    local.hand = view.hand_id;
    local.build = [];
    local.warn = null;
  }
  if (local.nonce !== view.nonce || view.stage !== "take") {
    if (local.taken) local.build = [];
    local.nonce = view.nonce;
    local.picked = false;
    local.taken = null;
  }
  const kinds = new Map((view.actions || []).map((a) => [a.kind, a]));
  const page = renderOkey(view, ctx, kept, hooks(view, kinds, ctx));
  page.classList.add("okey101");
  const discard = previousDiscard(view);
  const pileBox = discard && page.querySelector(`.centre-row [data-seat-pile="${discard.seat}"]`);
  if (pileBox && kinds.has("take")) pileBox.replaceWith(takeable(pileBox, discard.code, view, kinds, ctx));
  // 101's totals are the match's scores so far, the round's penalties added at its end
  const standings = page.querySelector(".standings");
  if (standings) {
    standings.setAttribute("aria-label", t("web.okey101.standings"));
    standings.querySelector("caption")?.replaceChildren(t("web.okey101.standings"));
  }
  for (const box of page.querySelectorAll(".player[data-seat]")) {
    box.querySelector(".facts")?.append(...seatFacts(view, Number(box.dataset.seat)));
  }
  // the melds lie on the table only while a round runs
  const table = view.hand_id ? meldsOnTable(view, kinds, ctx) : null;
  const middle = page.querySelector(".middle");
  if (table && middle) middle.after(table);
  else if (table) page.prepend(table);
  const tools = moves(view, kinds, ctx);
  const rack = page.querySelector(".rack-box");
  if (tools && rack) rack.after(tools);
  else if (tools) page.append(tools);
  return page;
}

/** The previous player's last discard (the tile the viewer may take), or null. */
function previousDiscard(view) {
  if (view.me === null || view.me === undefined) return null;
  const { previous } = neighbours(view);
  const pile = previous === null || previous === undefined ? [] : view.seats[previous].discards || [];
  return pile.length ? { seat: previous, code: pile[pile.length - 1] } : null;
}

/** The previous player's pile in the take phase, as a button: its last tile is dragged onto
 * the rack, a meld or the table, or tapped and then tapped there (Enter from the keyboard). */
function takeable(box, code, view, kinds, ctx) {
  const button = h(
    `button.pile.take101${local.picked || local.taken ? ".selected" : ""}`,
    {
      type: "button",
      dataset: { key: "take-discard", seatPile: box.dataset.seatPile },
      disabled: ctx.pending,
      "aria-pressed": local.picked ? "true" : "false",
      "aria-label": hasOpened(view)
        ? t("web.okey101.pile_take", { tile: tileName(code) })
        : t("web.okey101.pile_take_unopened", { tile: tileName(code) }),
      onpointerdown: (event) =>
        follow(event, button, {
          face: button.querySelector(".pile-tiles > .tile:last-child"),
          accepts: (where) => acceptsDiscard(where, kinds),
          onTap: () => pickDiscard(ctx),
          onCancel: () => ctx.redraw(),
          onDrop: (where) => {
            local.picked = false;
            dropDiscard(where, code, kinds, ctx);
          },
        }),
      onclick: (event) => {
        if (event.detail === 0) pickDiscard(ctx);
      },
    },
    [...box.childNodes],
  );
  return button;
}

function pickDiscard(ctx) {
  local.picked = !local.picked;
  clearSelection();
  ctx.redraw();
}

/** Whether the discard dropped on `where` makes a move that is open now (else the target is
 * marked refused while the tile is over it). */
function acceptsDiscard(where, kinds) {
  if (where?.startsWith("slot:")) return kinds.has("open") || kinds.has("lay");
  if (where?.startsWith("meld:")) return kinds.has("add");
  if (where === "table") return TAKE_PRESS.some((kind) => kinds.has(kind));
  return false;
}

/** The discard dropped (or, picked, tapped) on `where`: into the meld being built (a place of
 * the rack), added to meld k (`meld:k`), or taken with the one-press move (`table`). */
function dropDiscard(where, code, kinds, ctx) {
  if (where?.startsWith("slot:")) takeIntoBuild(code, kinds, ctx);
  else if (where?.startsWith("meld:")) ctx.act("add", { cards: [code], amount: Number(where.slice(5)), source: "discard" });
  else if (where === "table") ctx.act(TAKE_PRESS.find((kind) => kinds.has(kind)) ?? "take_use", {});
  else ctx.redraw();
}

/** The discard into the meld being built, laid with it; when no meld can take it now, the
 * server is asked to use it anyway and answers why not. */
function takeIntoBuild(code, kinds, ctx) {
  local.picked = false;
  if (!kinds.has("open") && !kinds.has("lay")) {
    ctx.act("take_use", {});
    return;
  }
  local.taken = code;
  local.build = [code];
  ctx.redraw();
}

/** okey.js's hooks: a tap on the rack with the discard picked takes it into the meld being
 * built; a rack tile dragged onto a meld is added to it (or put in the place of its okey). */
function hooks(view, kinds, ctx) {
  const verb = meldVerb(kinds);
  return {
    hints: hints(view, kinds),
    tap() {
      const discard = previousDiscard(view);
      if (!local.picked || !discard) return false;
      takeIntoBuild(discard.code, kinds, ctx);
      return true;
    },
    accepts: (where) => where?.startsWith("meld:") && view.stage !== "take" && verb !== null,
    drop(where, code) {
      if (where.startsWith("meld:")) {
        addTo(view, verb ?? "add", code, Number(where.slice(5)), ctx);
        return true;
      }
      if (where === "table") {
        toast(t("web.okey101.drop_on_meld"), "error");
        ctx.redraw();
        return true;
      }
      return false;
    },
  };
}

/** Whether the viewer has opened this round. */
function hasOpened(view) {
  return Boolean(view.seats[view.me]?.opened);
}

/** okey.js's take and discard hints in 101's words, by the player's state: the previous
 * discard is taken only to use it at once (before opening: only to open with it; when nothing
 * can use it, the stock alone is said), and a turn opens (when the rack can), lays or adds
 * before its discard. */
function hints(view, kinds) {
  const opened = hasOpened(view);
  const usable = ["open", "lay", "add", "swap"].some((kind) => kinds.has(kind));
  const take = !usable
    ? t("web.okey101.hint_take_stock")
    : opened
      ? t("web.okey101.hint_take")
      : t("web.okey101.hint_take_unopened");
  const discard = opened
    ? t("web.okey101.hint_play")
    : kinds.has("open")
      ? t("web.okey101.hint_play_open")
      : t("web.okey101.hint_play_unopened");
  return { take, discard };
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

/** The melds on the table, by owner; each is a drop target (`meld:k`) and the table around
 * them one too (`table`). With a tile picked and `add` (or `swap`) legal, or the previous
 * discard picked in the take phase, each meld is a button that adds the tile to it (or puts it
 * in the place of the meld's okey); before the player opens, a button that says why not. */
function meldsOnTable(view, kinds, ctx) {
  const melds = view.melds || [];
  const picked = selectedTile();
  // in the take phase the previous discard is what gets laid or added
  const play = view.stage !== "take";
  const verb = play ? meldVerb(kinds) : null;
  const held = !play && (local.picked || local.taken) ? previousDiscard(view) : null;
  const discard = kinds.has("add") ? held : null;
  const seated = view.me !== null && view.me !== undefined && Boolean(view.hand_id) && view.seats[view.me]?.in_play;
  const live = (verb !== null && picked !== null) || discard !== null;
  // the player's turn, a tile in hand, not opened: a meld tapped says why nothing is added
  const shut = !live && seated && !hasOpened(view) && kinds.size > 0 && ((play && picked !== null) || held !== null);
  const onMeld = (k) => {
    if (shut) return () => toast(t("web.okey101.open_first"), "error");
    if (discard) return () => ctx.act("add", { cards: [discard.code], amount: k, source: "discard" });
    return () => addTo(view, verb, picked, k, ctx);
  };
  const hint = held && local.picked
    ? hasOpened(view)
      ? t("web.okey101.pile_picked", { tile: held.code })
      : t("web.okey101.pile_picked_unopened", { tile: held.code })
    : live
      ? t("web.okey101.tap_meld", { tile: picked })
      : null;
  const owners = [...new Set(melds.map((m) => m.owner))];
  const groups = owners.map((owner) => {
    const seat = view.seats[owner];
    const name = seat ? (owner === view.me ? t("web.you", { name: seat.name }) : seat.name) : "?";
    const rows = melds
      .map((m, k) => [m, k])
      .filter(([m]) => m.owner === owner)
      .map(([m, k]) => meld(view, m, k, live || shut ? onMeld(k) : null, seated, ctx, live));
    return h(
      "div.meld-owner",
      { dataset: { owner: String(owner) } },
      h("p.meld-who", {}, name, seat ? h("span.opened", {}, " · ", openingText(seat)) : null),
      rows,
    );
  });
  return h(
    "section.melds101",
    { "aria-label": t("web.okey101.table"), dataset: seated ? { drop: "table" } : {} },
    h(
      "p.threshold",
      {},
      view.threshold ? t("web.okey101.threshold", { value: view.threshold }) : null,
      hint ? h("span.hint", {}, " ", hint) : null,
    ),
    melds.length ? groups : h("p.empty", {}, t("web.okey101.no_melds")),
  );
}

function meld(view, m, k, onclick, seated, ctx, live) {
  const tiles = m.tiles.map((code) => tile(code, { okey: view.okey, size: "sm" }));
  const label = t("web.okey101.meld", { n: k + 1, value: m.value });
  const dataset = seated ? { meld: String(k), drop: `meld:${k}` } : { meld: String(k) };
  if (onclick) {
    return h(
      live ? "button.meld.live" : "button.meld",
      { type: "button", dataset: { ...dataset, key: `meld-${k}` }, disabled: ctx.pending, "aria-label": label, onclick },
      h("span.meld-n", {}, `${k + 1}`),
      tiles,
    );
  }
  return h("div.meld", { dataset, role: "group", "aria-label": label }, h("span.meld-n", {}, `${k + 1}`), tiles);
}

/** How a rack tile goes onto a meld this turn: added to it, else put in the place of its
 * okey; null when neither is open. */
function meldVerb(kinds) {
  return kinds.has("add") ? "add" : kinds.has("swap") ? "swap" : null;
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
    const keep = h(
      "button.quiet",
      {
        type: "button",
        dataset: { key: "act-keep" },
        onclick: () => {
          local.warn = null;
          ctx.redraw();
          // the question gone, the keyboard goes back to the rack
          document.querySelector('.rack [data-slot][tabindex="0"]')?.focus();
        },
      },
      t("web.okey101.keep"),
    );
    if (local.warned) {
      // the question is asked where the keyboard is: once the page is swapped in, on "Keep it"
      local.warned = false;
      queueMicrotask(() => keep.focus());
    }
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
              ctx.act("discard", { cards: [code], confirm: true });
            },
          },
          t("web.okey101.discard_anyway", { tile: code }),
        ),
        keep,
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
  // in the take phase a meld is built only around the discard taken into it
  const play = view.stage !== "take" || local.taken !== null;
  const laying = !play ? null : kinds.has("open") ? "open" : kinds.has("lay") ? "lay" : null;
  const builder = laying ? build(view, laying, ctx) : null;
  if (!laying) local.build = [];
  if (!out.length && !quick.length && !builder) return null;
  return h("section.moves101", { "aria-label": t("web.okey101.moves") }, out, quick.length ? h("div.buttons", {}, quick) : null, builder);
}

/** The meld being built as a screen reader hears it: each group by number and its tiles by
 * name ("meld 1: red 5, red 6, red 7; meld 2: …"); the bar drawn between two is not read. */
function buildDescription() {
  const groups = [[]];
  for (const code of local.build) {
    if (code === "/") groups.push([]);
    else groups[groups.length - 1].push(code);
  }
  return groups
    .filter((g) => g.length)
    .map((g, k) => t("web.okey101.building_meld", { n: k + 1, tiles: g.map(tileName).join(", ") }))
    .join("; ");
}

/** Tiles picked one by one into new melds ("/" between two), then laid as one move. */
function build(view, laying, ctx) {
  const picked = selectedTile();
  const shown = local.build.map((code) =>
    code === "/" ? h("span.sep", {}, "|") : tile(code, { okey: view.okey, size: "xs" }),
  );
  const redraw = () => ctx.redraw();
  const button = (key, label, onclick, disabled = false, cls = "quiet") =>
    h(`button.${cls}`, { type: "button", dataset: { key }, disabled: disabled || ctx.pending, onclick }, label);
  const count = (code) => local.build.filter((c) => c === code).length;
  const held = (code) => (view.mine || []).filter((c) => c === code).length + (code === local.taken ? 1 : 0);
  const fresh = () => (local.taken ? [local.taken] : []);
  const cards = local.build.filter((c, i, all) => !(c === "/" && (i === 0 || i === all.length - 1 || all[i - 1] === "/")));
  return h(
    "div.build101",
    {},
    h(
      "p.hint",
      {},
      local.taken ? t("web.okey101.taken", { tile: local.taken }) : t("web.okey101.build_hint"),
      " ",
      shown.length
        ? h(
            "span.building",
            {},
            h("span.sr-only", {}, buildDescription()),
            h("span.drawn", { "aria-hidden": "true" }, shown),
          )
        : null,
    ),
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
      button("build-clear", t("web.okey101.build_clear"), () => { local.build = fresh(); redraw(); }, local.build.length <= fresh().length),
      local.taken
        ? button("put-back", t("web.okey101.put_back", { tile: local.taken }), () => {
            local.taken = null;
            local.build = [];
            redraw();
          })
        : null,
      button(
        "act-lay",
        t(laying === "open" ? "web.okey101.open_these" : "web.okey101.lay_these"),
        () => {
          const sent = cards;
          const source = local.taken ? "discard" : null;
          local.build = fresh();
          ctx.act(laying, { cards: sent, source });
        },
        cards.filter((c) => c !== "/").length < 2,
        "act.primary",
      ),
    ),
  );
}
