// Telegram Mini App launch parameters, read from location.hash the way the client passes them
// (tgWebAppData, tgWebAppThemeParams, tgWebAppStartParam), without telegram-web-app.js from a
// CDN; the theme colours become the CSS variables --tg-theme-*.

/** The launch parameters in the address's hash, or null when the page was not opened by
 * Telegram. */
export function launchParams() {
  const hash = location.hash.startsWith("#") ? location.hash.slice(1) : "";
  if (!hash.includes("tgWebAppData=")) return null;
  const params = new URLSearchParams(hash);
  const initData = params.get("tgWebAppData") || "";
  let theme = {};
  try {
    theme = JSON.parse(params.get("tgWebAppThemeParams") || "{}");
  } catch {
    theme = {};
  }
  const start = params.get("tgWebAppStartParam") || new URLSearchParams(initData).get("start_param");
  return { initData, theme, start: start || null };
}

/** Set --tg-theme-<name> for every colour of the theme (bg_color -> --tg-theme-bg-color). */
export function applyTheme(theme) {
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries(theme || {})) {
    if (typeof value === "string" && /^#[0-9a-f]{3,8}$/i.test(value)) {
      root.setProperty(`--tg-theme-${name.replaceAll("_", "-")}`, value);
    }
  }
}

/** Tell the Telegram client the page is ready and may take the whole height. */
export function ready() {
  for (const name of ["web_app_ready", "web_app_expand"]) {
    try {
      if (window.TelegramWebviewProxy?.postEvent) {
        window.TelegramWebviewProxy.postEvent(name, "{}");
      } else if (window.parent !== window) {
        window.parent.postMessage(JSON.stringify({ eventType: name, eventData: {} }), "https://web.telegram.org");
      }
    } catch {
      /* not inside Telegram */
    }
  }
}
