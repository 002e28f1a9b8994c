// A tile dragged with a mouse or a finger: pressed on a source element, lifted less than a few
// pixels away it is a tap; moved further, a copy of the tile follows the pointer and lands on
// the element under it that carries `data-drop`. A target the move would not be taken on is
// marked as refused while the tile is over it (red), so an illegal drop shows before it is made.

const DRAG_PX = 6;

// whether a pointer is down on a tile (the page is not redrawn during one)
const state = { dragging: false };

/** True while the player holds a tile down or drags it (a new state waits until the drop). */
export function dragging() {
  return state.dragging;
}

/** The drop target under a point (its `data-drop` names it), or null. */
function targetAt(x, y) {
  return document.elementFromPoint(x, y)?.closest("[data-drop]") || null;
}

/** Follow the pointer of `event` (a pointerdown on `source`): `face` is the tile element a copy
 * of which follows it (null: nothing can be dragged from here, only tapped); `accepts(where)`
 * tells whether a drop on the target named `where` is a move to try (else it is marked refused);
 * `onTap()` on a tap, `onDrop(where)` on a drop (`where` null: let go on no target), `onCancel()`
 * when the pointer is lost. */
export function follow(event, source, { face, accepts = () => true, onTap, onDrop, onCancel }) {
  if (event.button !== 0) return;
  const x0 = event.clientX;
  const y0 = event.clientY;
  const rect = (face || source).getBoundingClientRect();
  let ghost = null;
  let over = null;
  const mark = (target) => {
    if (over === target) return;
    over?.classList.remove("over", "refuse");
    over = target;
    if (over) over.classList.add("over", ...(accepts(over.dataset.drop) ? [] : ["refuse"]));
  };
  const moveTo = (e) => {
    if (!ghost) {
      if (!face || Math.hypot(e.clientX - x0, e.clientY - y0) < DRAG_PX) return;
      ghost = face.cloneNode(true);
      ghost.classList.add("ghost");
      ghost.style.width = `${rect.width}px`;
      ghost.style.height = `${rect.height}px`;
      document.body.append(ghost);
      source.classList.add("lifted");
    }
    ghost.style.transform = `translate(${e.clientX - rect.width / 2}px, ${e.clientY - rect.height / 2}px)`;
    mark(targetAt(e.clientX, e.clientY));
  };
  const finish = (e, dropped) => {
    source.removeEventListener("pointermove", moveTo);
    source.removeEventListener("pointerup", up);
    source.removeEventListener("pointercancel", cancel);
    state.dragging = false;
    if (!ghost) {
      if (dropped) onTap();
      else onCancel();
      return;
    }
    ghost.remove();
    source.classList.remove("lifted");
    mark(null);
    if (!dropped) {
      onCancel();
      return;
    }
    onDrop(targetAt(e.clientX, e.clientY)?.dataset.drop ?? null);
  };
  const up = (e) => finish(e, true);
  const cancel = (e) => finish(e, false);
  // no redraw from a pointer down to its up: the element under the finger must stay
  state.dragging = true;
  source.setPointerCapture(event.pointerId);
  source.addEventListener("pointermove", moveTo);
  source.addEventListener("pointerup", up);
  source.addEventListener("pointercancel", cancel);
}
