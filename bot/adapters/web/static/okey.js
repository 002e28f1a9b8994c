// The Okey table: every player's discard pile, the indicator and the okey, the stock, penalty
// totals, and the viewer's rack in two rows, arranged by dragging a tile (mouse or touch) or by
// tapping a tile and then its new place (or with the keyboard: arrows, Enter). A tile dragged
// (or, selected, tapped) onto the viewer's own pile is discarded; onto the indicator, it
// finishes. The stock and the pile on the left are tapped to take.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { tile, tileBack, tileName } from "./cards.js";
import { fromViewer, movesList, namePlate, turnLine } from "./seats.js";
import { lastHand, matchResult } from "./last.js";
import { ROW, SLOTS, fromTiles, move, reconcile, tilesOf } from "./rack.js";
import { dragging, follow } from "./drag.js";

// The viewer's rack as shown, the selected place, the places that just got a tile, and the
// game page's own targets and taps (`renderOkey`'s `hooks`).
const local = {
  hand: null,
  rack: null,
  selected: null,
  fresh: new Set(),
  waiting: 0,
  focus: 0,
  hooks: null,
};

/** True while the player holds a tile down or drags it (a new state waits until the drop). */
export function busy() {
  return dragging();
}

/** The arrangement to show for this state: the server's, unless an arrangement of ours is
 * still on its way (then ours, brought up to the tiles held now). */
function sync(view) {
  if (view.me === null || view.me === undefined || !view.mine?.length) {
    local.rack = null;
    local.selected = null;
    return;
  }
  const server = Array.isArray(view.rack) && view.rack.length === SLOTS ? view.rack : null;
  const tiles = server ? tilesOf(server) : [...view.mine];
  if (local.hand !== view.hand_id || !local.rack) {
    local.hand = view.hand_id;
    local.rack = server ? [...server] : fromTiles(tiles);
    local.fresh = new Set();
    local.selected = null;
    return;
  }
  const old = local.rack;
  if (server && local.waiting === 0) local.rack = [...server];
  else [local.rack] = reconcile(local.rack, tiles);
  local.fresh = added(old, local.rack);
  if (local.selected !== null && local.rack[local.selected] !== old[local.selected]) local.selected = null;
}

/** The places of `now` holding a tile `before` did not hold (a tile just taken). */
function added(before, now) {
  const left = tilesOf(before);
  const out = new Set();
  now.forEach((code, i) => {
    if (code === null) return;
    const k = left.indexOf(code);
    if (k >= 0) left.splice(k, 1);
    else out.add(i);
  });
  return out;
}

/** The tile picked in the rack (tapped), or null: 101 Okey's page adds it to a meld. */
export function selectedTile() {
  return local.rack && local.selected !== null ? local.rack[local.selected] : null;
}

/** Put the picked tile down (it was used elsewhere: put in a meld being built). */
export function clearSelection() {
  local.selected = null;
}

/** Forget arrangements on their way (the socket dropped: the server's rack counts again). */
export function resetWaiting() {
  local.waiting = 0;
}

/** The whole Okey page for one state. A game built on it (101 Okey) passes `hooks`: `tap(i)`
 * takes a tap on rack place `i` first (true: handled), `accepts(where, tile)` and
 * `drop(where, tile)` a rack tile dragged onto a target of its own (`data-drop="where"`),
 * `hints.take` / `hints.discard` its own words for the take and the discard hints. */
export function renderOkey(view, ctx, kept = null, hooks = null) {
  local.hooks = hooks;
  sync(view);
  const kinds = new Map((view.actions || []).map((a) => [a.kind, a]));
  return h(
    "section.okey",
    {},
    opponents(view),
    middle(view, kinds, ctx),
    turnLine(view),
    rackGrid(view, kinds, ctx),
    buttons(view, kinds, ctx),
    standings(view),
    movesList(view),
    lastHand(view, kept, null, (c, okey) => tile(c, { okey, size: "sm" })),
  );
}

/** Seats by turn, the viewer last: `previous` is the seat whose pile the viewer takes from. */
export function neighbours(view) {
  const order = fromViewer(view).filter((i) => view.seats[i].in_play || view.phase !== "playing");
  const me = view.me;
  const playing = order.filter((i) => view.seats[i].in_play);
  const previous = me !== null && me !== undefined && playing.length > 1 ? playing[playing.length - 1] : null;
  return { order, previous };
}

function opponents(view) {
  const { order } = neighbours(view);
  const others = order.filter((i) => i !== view.me);
  // across the table reads left to right as: the seat before the viewer ... the seat after
  return h("div.opponents", {}, others.reverse().map((i) => playerBox(view, i)));
}

function playerBox(view, i) {
  const seat = view.seats[i];
  return h(
    `div.player${seat.acting ? ".acting" : ""}`,
    { dataset: { seat: String(i) }, "aria-current": seat.acting ? "true" : undefined },
    namePlate(view, i),
    h(
      "div.facts",
      {},
      seat.in_play ? h("span", {}, t("web.okey.tiles", { count: seat.down })) : null,
      seat.points !== null && seat.points !== undefined ? h("span", {}, t("web.okey.points", { points: seat.points })) : null,
      seat.dealer ? h("span.dealer", { title: t("web.okey.starter") }, "★") : null,
    ),
    view.hand_id ? pile(view, i, { size: "sm", label: false }) : null,
  );
}

/** A discard pile, newest on the right: its last `keep` tiles and how many there are. */
function pile(view, i, { size = "", drop = null, takes = null, ctx = null, keep = 5, label = true } = {}) {
  const tiles = view.seats[i].discards || [];
  const name = i === view.me ? t("web.okey.your_pile") : t("web.okey.pile", { name: view.seats[i].name });
  const shown = tiles.slice(-keep).map((code, k, list) =>
    tile(code, { okey: view.okey, size: k === list.length - 1 ? size : "xs" }),
  );
  const body = [
    label || tiles.length > keep
      ? h("span.pile-label", {}, label ? name : "", tiles.length > keep ? h("span.count", {}, ` +${tiles.length - keep}`) : null)
      : null,
    h("span.pile-tiles", {}, shown.length ? shown : h("span.empty", {}, t("web.okey.pile_empty"))),
  ];
  if (takes) {
    return h(
      "button.pile.take",
      {
        type: "button",
        dataset: { key: "take-discard", seatPile: String(i) },
        disabled: ctx.pending,
        "aria-label": t("web.okey.take_discard", { tile: tiles.length ? tileName(tiles[tiles.length - 1]) : "" }),
        onclick: () => ctx.act("take", { source: "discard" }),
      },
      body,
    );
  }
  if (drop) {
    return h(
      "button.pile.drop",
      {
        type: "button",
        dataset: { drop, key: `drop-${drop}`, seatPile: String(i) },
        "aria-label": name,
        onclick: () => dropSelected(drop, view, ctx),
      },
      body,
    );
  }
  return h("div.pile", { dataset: { seatPile: String(i) }, role: "group", "aria-label": name }, body);
}

function middle(view, kinds, ctx) {
  const take = kinds.get("take");
  const sources = take ? take.sources || ["stock", "discard"] : [];
  const { previous } = neighbours(view);
  const seated = view.me !== null && view.me !== undefined;
  const stock = h(
    sources.includes("stock") ? "button.stock.live" : "div.stock",
    {
      type: sources.includes("stock") ? "button" : undefined,
      dataset: { key: "take-stock" },
      disabled: sources.includes("stock") ? ctx.pending : undefined,
      "aria-label": t("web.okey.stock", { count: view.stock ?? 0 }),
      onclick: sources.includes("stock") ? () => ctx.act("take", { source: "stock" }) : undefined,
    },
    tileBack(),
    h("span.count", {}, view.stock ?? 0),
  );
  const finish = kinds.get("finish");
  const indicator = view.indicator
    ? h(
        finish ? "button.indicator.drop" : "div.indicator",
        {
          type: finish ? "button" : undefined,
          dataset: finish ? { drop: "finish", key: "drop-finish" } : {},
          "aria-label": `${t("web.okey.indicator")}: ${tileName(view.indicator)}${finish ? " — " + t("web.okey.finish_here") : ""}`,
          onclick: finish ? () => dropSelected("finish", view, ctx) : undefined,
        },
        h("span.pile-label", {}, t("web.okey.indicator")),
        tile(view.indicator, {}),
      )
    : null;
  const okey = view.okey
    ? h("div.okey-tile", {}, h("span.pile-label", {}, t("web.okey.okey")), tile(view.okey, { okey: view.okey, size: "sm" }))
    : null;
  const left = seated && previous !== null && previous !== undefined
    ? pile(view, previous, { size: "", takes: sources.includes("discard"), ctx, keep: 3 })
    : null;
  const mine = seated && view.seats[view.me].in_play
    ? pile(view, view.me, { size: "", drop: kinds.has("discard") ? "discard" : null, ctx, keep: 3 })
    : null;
  // no round running (before the first, after the match): no stock, indicator or piles
  const result = matchResult(view, ctx);
  if (result) return h("div.middle", {}, result);
  if (!view.hand_id || (!view.indicator && !seated)) return h("div.middle", {}, h("p.stage", {}, stageText(view)));
  return h(
    "div.middle",
    {},
    h("p.stage", {}, stageText(view)),
    h("div.centre-row", {}, left || h("span"), stock, indicator || h("span"), okey || h("span"), mine || h("span")),
    take ? h("p.hint", {}, local.hooks?.hints?.take ?? t("web.okey.hint_take")) : null,
    kinds.has("discard") ? h("p.hint", {}, local.hooks?.hints?.discard ?? t("web.okey.hint_discard")) : null,
  );
}

function stageText(view) {
  if (view.phase === "waiting") return t("web.waiting");
  if (view.phase === "closed") return t("web.closed");
  if (!view.hand_id) return t("web.between");
  return "";
}

function rackGrid(view, kinds, ctx) {
  if (!local.rack) return view.me === null || view.me === undefined ? h("p.spectating", {}, t("web.spectator")) : null;
  const cells = local.rack.map((code, i) => slot(view, i, code, kinds, ctx));
  const rows = [h("div.rack-row", {}, cells.slice(0, ROW)), h("div.rack-row", {}, cells.slice(ROW))];
  const hint = local.selected !== null ? t("web.okey.selected", { tile: local.rack[local.selected] }) : t("web.okey.rack_hint");
  return h(
    "section.rack-box",
    { "aria-label": t("web.okey.rack"), dataset: { waiting: String(local.waiting) } },
    // one tab stop; the arrow keys move between the 30 places (buttons), Enter picks and puts
    h("div.rack", { role: "group", "aria-label": t("web.okey.rack"), onkeydown: (e) => keys(e, view, ctx) }, rows),
    h("p.hint", { "aria-live": "polite" }, hint),
  );
}

function slot(view, i, code, kinds, ctx) {
  const props = {
    type: "button",
    tabindex: i === local.focus ? "0" : "-1",
    dataset: { drop: `slot:${i}`, slot: String(i), key: `slot-${i}` },
    // a finger or mouse is handled from its own pointer events (`press`); a click is acted on
    // only when it comes from the keyboard (Enter, Space: no pointer, `detail` 0)
    onpointerdown: (event) => press(event, i, view, ctx),
    onclick: (event) => {
      if (event.detail === 0) tapSlot(i, view, ctx);
    },
    onfocus: () => {
      local.focus = i;
    },
  };
  if (code === null) {
    return h("button.slot.empty", { ...props, "aria-label": t("web.okey.slot", { n: i + 1 }) });
  }
  const classes = ["slot"];
  if (local.selected === i) classes.push("selected");
  if (local.fresh.has(i)) classes.push("fresh");
  const face = tile(code, { okey: view.okey });
  return h(
    `button.${classes.join(".")}`,
    {
      ...props,
      "aria-label": face.getAttribute("aria-label"),
      "aria-pressed": local.selected === i ? "true" : "false",
    },
    face,
  );
}

function tapSlot(i, view, ctx) {
  if (local.hooks?.tap?.(i)) {
    local.focus = i;
    return;
  }
  if (local.selected === null) {
    if (local.rack[i] !== null) local.selected = i;
  } else if (local.selected === i) {
    local.selected = null;
  } else {
    place(local.selected, i, ctx);
    local.selected = null;
  }
  local.focus = i;
  ctx.redraw();
}

function place(from, to, ctx) {
  const next = move(local.rack, from, to);
  if (next.every((x, k) => x === local.rack[k])) return;
  local.rack = next;
  local.fresh = new Set();
  local.waiting += 1;
  // acknowledged (or refused): the next state's rack counts again; no redraw before it comes,
  // or the old rack would flash back for a moment
  ctx.arrange(local.rack, () => {
    local.waiting = Math.max(0, local.waiting - 1);
  });
}

function dropSelected(target, view, ctx) {
  if (local.selected === null) return;
  const code = local.rack[local.selected];
  local.selected = null;
  playTile(target, code, view, ctx);
}

function playTile(target, code, view, ctx) {
  if (code === null || code === undefined) return;
  if (target === "discard" && view.actions.some((a) => a.kind === "discard")) ctx.act("discard", { cards: [code] });
  else if (target === "finish" && view.actions.some((a) => a.kind === "finish")) ctx.act("finish", { cards: [code] });
  else ctx.redraw();
}

function keys(event, view, ctx) {
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -ROW, ArrowDown: ROW };
  if (event.key in steps) {
    event.preventDefault();
    const next = Math.min(SLOTS - 1, Math.max(0, local.focus + steps[event.key]));
    local.focus = next;
    const grid = event.currentTarget;
    for (const cell of grid.querySelectorAll("[data-slot]")) cell.tabIndex = Number(cell.dataset.slot) === next ? 0 : -1;
    grid.querySelector(`[data-slot="${next}"]`)?.focus();
  } else if (event.key === "Escape" && local.selected !== null) {
    local.selected = null;
    ctx.redraw();
  }
}

/** A pointer pressed on a place: lifted less than a few pixels away, a tap (pick the tile up, or
 * put the picked one down here); dragged further from a tile, the tile follows it and lands
 * where it is let go: another place, the viewer's pile (discard), the indicator (finish), or a
 * target of the game's page (`hooks.drop`: a 101 meld). */
function press(event, from, view, ctx) {
  const code = local.rack[from];
  const kinds = new Set((view.actions || []).map((a) => a.kind));
  follow(event, event.currentTarget, {
    face: code !== null ? event.currentTarget.firstElementChild : null,
    accepts: (where) =>
      where?.startsWith("slot:") || ((where === "discard" || where === "finish") && kinds.has(where)) ||
      (local.hooks?.accepts?.(where, code) ?? false),
    onTap: () => tapSlot(from, view, ctx),
    onCancel: () => {
      local.selected = null;
      ctx.redraw();
    },
    onDrop: (where) => {
      local.selected = null;
      if (where?.startsWith("slot:")) {
        place(from, Number(where.slice(5)), ctx);
        ctx.redraw();
      } else if (where === "discard" || where === "finish") {
        playTile(where, code, view, ctx);
      } else if (!(where && local.hooks?.drop?.(where, code))) {
        ctx.redraw();
      }
    },
  });
}

/** Ask the server to arrange the rack (`runs` or `pairs`); its next state brings the order. */
function sort(by, ctx) {
  local.selected = null;
  local.waiting += 1;
  ctx.sort(by, () => {
    local.waiting = Math.max(0, local.waiting - 1);
  });
  ctx.redraw();
}

function buttons(view, kinds, ctx) {
  if (view.me === null || view.me === undefined || !local.rack) return null;
  const selected = local.selected !== null ? local.rack[local.selected] : null;
  const out = [
    h("button.quiet", { type: "button", dataset: { key: "sort-runs" }, onclick: () => sort("runs", ctx) }, t("web.okey.sort_runs")),
    h("button.quiet", { type: "button", dataset: { key: "sort-pairs" }, onclick: () => sort("pairs", ctx) }, t("web.okey.sort_pairs")),
  ];
  if (kinds.has("show_indicator")) {
    out.push(
      h("button.act", { type: "button", dataset: { key: "act-show", kind: "show_indicator" }, disabled: ctx.pending, onclick: () => ctx.act("show_indicator", {}) }, t("web.okey.show")),
    );
  }
  if (kinds.has("discard")) {
    out.push(
      h(
        "button.act.primary",
        { type: "button", dataset: { key: "act-discard", kind: "discard" }, disabled: ctx.pending || !selected, onclick: () => dropSelected("discard", view, ctx) },
        selected ? t("web.okey.discard_tile", { tile: selected }) : t("web.okey.discard"),
      ),
    );
  }
  if (kinds.has("finish")) {
    out.push(
      h(
        "button.act.finish",
        { type: "button", dataset: { key: "act-finish", kind: "finish" }, disabled: ctx.pending || !selected, onclick: () => dropSelected("finish", view, ctx) },
        selected ? t("web.okey.finish_tile", { tile: selected }) : t("web.okey.finish"),
      ),
    );
  }
  return h("div.buttons.okey-buttons", {}, out);
}

function standings(view) {
  const rows = view.seats
    .map((seat, i) => [seat, i])
    .filter(([seat]) => seat.points !== null && seat.points !== undefined);
  if (!rows.length) return null;
  return h(
    "section.standings",
    { "aria-label": t("web.okey.standings") },
    h(
      "table.points",
      {},
      h("caption", {}, t("web.okey.standings")),
      h(
        "tbody",
        {},
        rows.map(([seat, i]) =>
          h(`tr${i === view.me ? ".me" : ""}`, {}, h("th", { scope: "row" }, seat.name), h("td", {}, seat.points)),
        ),
      ),
    ),
  );
}

