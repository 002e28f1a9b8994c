// Telegram Mini App launch parameters, read from location.hash the way the client passes them
// (tgWebAppData, tgWebAppThemeParams, tgWebAppStartParam, tgWebAppVersion), without
// telegram-web-app.js from a CDN; the theme colours become the CSS variables --tg-theme-*.
//
// The Mini App's live features, only inside Telegram (a plain browser gets none of them): full
// screen where the client allows it (Bot API 8.0), else the whole height and a compact layout;
// a haptic tap when the player's turn comes and when a move is refused. They go through
// `window.Telegram.WebApp` when a client provides it (telegram-web-app.js), else as the
// client's own events (`web_app_request_fullscreen`, `web_app_trigger_haptic_feedback`), the
// bridge telegram-web-app.js itself posts to.

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
  return { initData, theme, start: start || null, version: params.get("tgWebAppVersion") || "6.0" };
}

const KEPT = "table-telegram"; // the client's Bot API version, kept across a reload
let version = null; // set inside Telegram only

/** Whether `have` (e.g. "8.0") is at least `want`. */
function atLeast(have, want) {
  const a = String(have).split(".").map(Number);
  const b = String(want).split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
  }
  return true;
}

function webApp() {
  return window.Telegram?.WebApp || null;
}

function supports(want) {
  const app = webApp();
  if (app?.isVersionAtLeast) return app.isVersionAtLeast(want);
  return version !== null && atLeast(version, want);
}

function post(name, data = {}) {
  try {
    if (window.TelegramWebviewProxy?.postEvent) {
      window.TelegramWebviewProxy.postEvent(name, JSON.stringify(data));
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: name, eventData: data }), "https://web.telegram.org");
    }
  } catch {
    /* not inside Telegram */
  }
}

/** Whether this page runs as a Telegram Mini App (launched now, or before a reload). */
export function inTelegram() {
  if (version === null) version = sessionStorage.getItem(KEPT);
  return version !== null;
}

/** Take the screen: full screen where the client allows it (8.0), else the whole height with
 * the compact layout. `launched`: the client's version from the launch parameters. */
export function takeScreen(launched) {
  if (launched) {
    version = launched;
    sessionStorage.setItem(KEPT, launched);
  }
  if (!inTelegram()) return;
  const app = webApp();
  if (supports("8.0")) {
    if (app?.requestFullscreen) app.requestFullscreen();
    else post("web_app_request_fullscreen");
    document.body.classList.add("fullscreen");
  } else {
    if (app?.expand) app.expand();
    else post("web_app_expand");
    document.body.classList.add("compact");
  }
}

/** A haptic tap inside Telegram: "turn" (the player's turn came) or "refused" (a move was
 * refused); nothing in a plain browser or a client older than 6.1. */
export function haptic(kind) {
  if (!inTelegram() || !supports("6.1")) return;
  const type = kind === "refused" ? "error" : "success";
  const app = webApp();
  if (app?.HapticFeedback?.notificationOccurred) app.HapticFeedback.notificationOccurred(type);
  else post("web_app_trigger_haptic_feedback", { type: "notification", notification_type: type });
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
  const app = webApp();
  if (app?.ready) {
    app.ready();
    app.expand?.();
    return;
  }
  post("web_app_ready");
  post("web_app_expand");
}
