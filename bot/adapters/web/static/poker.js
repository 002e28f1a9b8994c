// The poker table (Türk pokeri and Açık poker): seats around an oval, the dealer button, the
// pots, the viewer's cards face up, the bet control bounded by the legal amounts, the Türk
// pokeri draw by marking cards, Açık's up cards with the live odds.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { card, cardBack } from "./cards.js";
import { fromViewer, movesList, namePlate, turnLine } from "./seats.js";
import { lastHand, rematch } from "./last.js";

// What the player is choosing between two states: the cards marked for a draw, the amount.
const choice = { hand: null, nonce: null, marked: new Set(), amount: null };

function forTurn(view) {
  const hand = view.hand_id || null;
  if (choice.hand !== hand || choice.nonce !== view.nonce) {
    choice.hand = hand;
    choice.nonce = view.nonce;
    choice.marked = new Set();
    choice.amount = null;
  }
}

/** The whole poker page for one state; `ctx.act(kind, fields)` sends a move. */
export function renderPoker(view, ctx, kept = null) {
  forTurn(view);
  const kinds = new Map((view.actions || []).map((a) => [a.kind, a]));
  return h(
    "section.poker",
    {},
    felt(view),
    turnLine(view),
    myHand(view, kinds, ctx),
    actionBar(view, kinds, ctx),
    // a rematch's new table while its offer waits for the others' "Play again"
    view.hand_id ? null : rematch(view, ctx),
    movesList(view),
    lastHand(view, kept, (c) => card(c, { size: "xs" })),
  );
}

function felt(view) {
  const order = fromViewer(view);
  const n = order.length;
  const seats = order.map((i, k) => {
    // the viewer sits at the bottom; the others follow clockwise around the oval
    const angle = Math.PI / 2 + (2 * Math.PI * k) / Math.max(n, 1);
    const x = 50 + 40 * Math.cos(angle);
    const y = 50 + 38 * Math.sin(angle);
    // kept inside the table's box however narrow the screen (half a seat from each edge)
    const left = `clamp(var(--half-seat), ${x.toFixed(1)}%, calc(100% - var(--half-seat)))`;
    return seatBox(view, i, { left, top: `${y.toFixed(1)}%` });
  });
  return h(
    n > 5 ? "div.felt.many" : "div.felt",
    { role: "group", "aria-label": t(`web.game.${view.game}`) },
    h("div.oval", { "aria-hidden": "true" }),
    h("div.centre", {}, pots(view), stage(view)),
    seats,
  );
}

function pots(view) {
  const items = [];
  const sides = view.pots || [];
  if (sides.length > 1) {
    items.push(h("div.pot", {}, t("web.pot", { amount: sides[0] })));
    sides.slice(1).forEach((amount) => items.push(h("div.pot.side", {}, t("web.side_pot", { amount }))));
  } else if (view.pot) {
    items.push(h("div.pot", {}, t("web.pot", { amount: view.pot })));
  }
  if (view.carried && !view.hand_id) items.push(h("div.pot.carried", {}, t("web.carried", { amount: view.carried })));
  return items;
}

function stage(view) {
  if (view.phase === "waiting") return h("div.stage", {}, t("web.waiting"));
  if (view.phase === "closed") return h("div.stage", {}, t("web.closed"));
  if (!view.hand_id) return h("div.stage", {}, t("web.between"));
  if (view.game === "acik") return h("div.stage", {}, t("web.street", { n: Math.max(1, Number(view.stage)) }));
  return h("div.stage", {}, t(`web.stage.${view.stage}`));
}

function seatBox(view, i, position) {
  const seat = view.seats[i];
  const cls = [
    i === view.me ? "me" : "",
    seat.acting ? "acting" : "",
    seat.folded ? "folded" : "",
    seat.in_play ? "" : "out",
  ].filter(Boolean);
  const cards = [...seat.up.map((c) => card(c, { size: "xs" }))];
  for (let k = 0; k < seat.down; k += 1) cards.push(cardBack("xs"));
  const status = [];
  if (seat.folded) status.push(t("web.folded"));
  if (seat.all_in) status.push(t("web.all_in"));
  if (seat.drew !== null && seat.drew !== undefined) status.push(t("web.drew", { count: seat.drew }));
  if (seat.leaving) status.push(t("web.leaving"));
  const odds = view.odds?.[i];
  return h(
    `div.seat${cls.length ? "." + cls.join(".") : ""}`,
    { style: position, dataset: { seat: String(i) }, "aria-current": seat.acting ? "true" : undefined },
    namePlate(view, i),
    h("div.chips", {}, t("web.chips", { amount: seat.chips ?? 0 })),
    cards.length ? h("div.cards", {}, cards) : null,
    status.length ? h("div.state", {}, status.join(" · ")) : null,
    odds !== null && odds !== undefined && seat.in_play && !seat.folded
      ? h("div.odds", { "aria-label": t("web.odds_label", { percent: fmt(odds) }) }, t("web.odds", { percent: fmt(odds) }))
      : null,
    seat.stake ? h("div.stake", { "aria-label": t("web.stake", { amount: seat.stake }) }, seat.stake) : null,
    seat.dealer ? h("div.dealer", { title: t("web.dealer"), "aria-label": t("web.dealer") }, "D") : null,
  );
}

function fmt(percent) {
  const value = Number(percent);
  return value >= 10 || value === 0 ? value.toFixed(0) : value.toFixed(1);
}

function myHand(view, kinds, ctx) {
  if (view.me === null || view.me === undefined || !view.mine?.length) return null;
  const draw = kinds.get("draw");
  const seat = view.seats[view.me];
  const downCount = view.game === "acik" ? view.mine.length - seat.up.length : 0;
  const cards = view.mine.map((code, k) => {
    if (!draw) {
      const hidden = k < downCount;
      return h("span.held", {}, card(code, { size: "lg" }), hidden ? h("span.only-you", {}, t("web.only_you")) : null);
    }
    const marked = choice.marked.has(code);
    return card(code, {
      tag: "button",
      size: "lg",
      props: {
        type: "button",
        class: `card ${code.endsWith("h") || code.endsWith("d") ? "red" : "black"} lg${marked ? " marked" : ""}`,
        "aria-pressed": marked ? "true" : "false",
        dataset: { card: code, key: `card-${code}` },
        disabled: ctx.pending,
        onclick: () => {
          if (choice.marked.has(code)) choice.marked.delete(code);
          else if (choice.marked.size < (draw.max_cards ?? 4)) choice.marked.add(code);
          ctx.redraw();
        },
      },
    });
  });
  return h(
    "section.hand",
    { "aria-label": t("web.your_cards") },
    h("h2", {}, t("web.your_cards")),
    h("div.cards", {}, cards),
    draw ? h("p.hint", {}, t("web.draw_hint", { max: draw.max_cards ?? 4 })) : null,
  );
}

function actionBar(view, kinds, ctx) {
  if (view.me === null || view.me === undefined) return h("p.spectating", {}, t("web.spectator"));
  if (!kinds.size) return null;
  const buttons = [];
  const button = (kind, label, fields = {}, style = "") =>
    h(
      `button.act${style ? "." + style : ""}`,
      {
        type: "button",
        disabled: ctx.pending,
        dataset: { kind, key: `act-${kind}` },
        onclick: () => ctx.act(kind, fields()),
      },
      label,
    );
  for (const kind of ["fold", "pass", "check"]) {
    if (kinds.has(kind)) buttons.push(button(kind, t(`web.act.${kind}`), () => ({}), kind === "fold" ? "danger" : ""));
  }
  if (kinds.has("call")) {
    const amount = kinds.get("call").min_amount;
    buttons.push(button("call", t("web.act.call", { amount }), () => ({}), "primary"));
  }
  let control = null;
  const sized = ["open", "bet", "raise"].find((kind) => kinds.has(kind));
  if (sized) {
    const spec = kinds.get(sized);
    const low = spec.min_amount ?? 0;
    const high = spec.max_amount ?? low;
    if (choice.amount === null || choice.amount < low || choice.amount > high) choice.amount = low;
    const go = button(sized, t(`web.act.${sized}`, { amount: choice.amount }), () => ({ amount: choice.amount }), "primary");
    control = betControl(view, sized, low, high, go);
    buttons.push(go);
  }
  const draw = kinds.get("draw");
  if (draw) {
    const count = choice.marked.size;
    buttons.push(
      button(
        "draw",
        count ? t("web.act.draw", { count }) : t("web.act.pat"),
        () => ({ cards: [...choice.marked] }),
        "primary",
      ),
    );
  }
  return h("section.actions", { "aria-label": t("web.your_turn") }, control, h("div.buttons", {}, buttons));
}

function betControl(view, kind, low, high, go) {
  if (low === high) return null;
  const set = (value, from) => {
    const number = Math.round(Number(value));
    if (!Number.isFinite(number)) return;
    choice.amount = Math.min(high, Math.max(low, number));
    if (from !== slider) slider.value = String(choice.amount);
    if (from !== box) box.value = String(choice.amount);
    go.textContent = t(`web.act.${kind}`, { amount: choice.amount });
  };
  const slider = h("input.slider", {
    type: "range",
    min: String(low),
    max: String(high),
    step: "1",
    value: String(choice.amount),
    "aria-label": t("web.amount"),
    dataset: { key: "amount-slider" },
    oninput: (e) => set(e.target.value, slider),
  });
  const box = h("input.amount", {
    type: "number",
    inputmode: "numeric",
    min: String(low),
    max: String(high),
    step: "1",
    value: String(choice.amount),
    "aria-label": t("web.amount"),
    dataset: { key: "amount-box" },
    oninput: (e) => {
      const n = Number(e.target.value);
      if (n >= low && n <= high) set(n, box);
    },
    onchange: (e) => set(e.target.value, null),
  });
  const quick = [
    ["min", low],
    ["pot_size", Math.max(low, Math.min(high, (view.pot || 0) + (view.seats[view.me]?.stake || 0)))],
    ["max", high],
  ].map(([key, value]) =>
    h("button.quick", { type: "button", dataset: { key: `quick-${key}` }, onclick: () => set(value, null) }, t(`web.${key}`)),
  );
  return h("div.bet", {}, h("div.row", {}, slider, box), h("div.row.quick", {}, quick));
}
