// Small DOM helpers: build elements, show a toast, keep the focus across a redraw.

/** h("button.primary", {onclick, "aria-label": "..."}, "text", child) builds an element. */
export function h(tag, props, ...children) {
  const [name, ...classes] = tag.split(".");
  const node = document.createElement(name || "div");
  if (classes.length) node.className = classes.join(" ");
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key in node && typeof value !== "string") {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `root` by `children`, keeping the focused element's place: the
 * element with the same data-key gets the focus back. */
export function swap(root, ...children) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.key : null;
  root.replaceChildren();
  append(root, children);
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

/** A short message at the bottom of the screen, gone after a few seconds. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const item = h(`div.toast.${kind}`, {}, text);
  box.append(item);
  setTimeout(() => item.remove(), 4000);
}
