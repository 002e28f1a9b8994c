// The page's texts: the `web.*` slice of the bot's catalogue, sent by the server with the first
// state. Before that (connecting, no session) a few boot texts in the browser's language.

const BOOT = {
  tr: {
    "web.connecting": "Bağlanıyor…",
    "web.no_session": "Bu sayfayı botun verdiği bağlantıdan aç.",
  },
  en: {
    "web.connecting": "Connecting…",
    "web.no_session": "Open this page from the link the bot gave you.",
  },
};

let texts = { ...(navigator.language?.toLowerCase().startsWith("tr") ? BOOT.tr : BOOT.en) };

/** Take the catalogue slice of a `state` frame. */
export function setTexts(incoming, locale) {
  if (incoming && typeof incoming === "object") texts = { ...texts, ...incoming };
  if (locale) document.documentElement.lang = locale;
}

/** The text for `key` with `{name}` filled from `params`; the key itself when unknown. */
export function t(key, params = {}) {
  const text = texts[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** True when the catalogue has `key`. */
export function has(key) {
  return key in texts;
}
