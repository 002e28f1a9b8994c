// The Okey rack as 30 places (two rows of 15), tiles or null: moving a tile, and keeping the
// player's arrangement when the tiles change (a tile taken, a tile discarded).

export const ROW = 15;
export const SLOTS = 2 * ROW;

/** A 30-place rack from the server's `rack`, or from the tiles alone (`mine`). */
export function fromTiles(tiles) {
  const rack = Array(SLOTS).fill(null);
  tiles.slice(0, SLOTS).forEach((tile, i) => {
    rack[i] = tile;
  });
  return rack;
}

/** `rack` brought to hold exactly `tiles` (a multiset): tiles still held keep their places,
 * tiles gone leave a gap, new tiles go to the first free places. Returns [rack, fresh places]. */
export function reconcile(rack, tiles) {
  const left = [...tiles];
  const out = rack.map((tile) => {
    if (tile === null) return null;
    const k = left.indexOf(tile);
    if (k < 0) return null;
    left.splice(k, 1);
    return tile;
  });
  const fresh = [];
  for (const tile of left) {
    const free = out.indexOf(null);
    if (free < 0) break;
    out[free] = tile;
    fresh.push(free);
  }
  return [out, fresh];
}

/** The tiles of a rack, in place order. */
export function tilesOf(rack) {
  return rack.filter((tile) => tile !== null);
}

/** Move the tile at `from` to `to`: into a gap directly; onto a tile by shifting that row's
 * tiles towards the nearest gap in the row (so a tile can be put between two others), or by
 * swapping when the row is full. Returns a new rack. */
export function move(rack, from, to) {
  const out = [...rack];
  if (from === to || out[from] === null) return out;
  const tile = out[from];
  out[from] = null;
  if (out[to] === null) {
    out[to] = tile;
    return out;
  }
  const start = Math.floor(to / ROW) * ROW;
  const end = start + ROW;
  let gapRight = -1;
  for (let k = to + 1; k < end; k += 1) if (out[k] === null) { gapRight = k; break; }
  let gapLeft = -1;
  for (let k = to - 1; k >= start; k -= 1) if (out[k] === null) { gapLeft = k; break; }
  const useRight = gapRight >= 0 && (gapLeft < 0 || gapRight - to <= to - gapLeft);
  if (useRight) {
    for (let k = gapRight; k > to; k -= 1) out[k] = out[k - 1];
    out[to] = tile;
  } else if (gapLeft >= 0) {
    for (let k = gapLeft; k < to; k += 1) out[k] = out[k + 1];
    out[to] = tile;
  } else {
    out[from] = out[to];
    out[to] = tile;
  }
  return out;
}
