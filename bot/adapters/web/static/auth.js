// Getting a session: from a signed link (/t/<token>), from Telegram's initData, or the one kept
// in sessionStorage (a reload). The session token never goes into an address.

import { launchParams, applyTheme, ready, takeScreen } from "./telegram.js";
import { inDiscord, discordSession } from "./activity.js";
import { ROOT, at } from "./root.js";

const KEY = "table-session";
const THEME = "table-theme";

async function post(path, body) {
  const response = await fetch(at(path), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || String(response.status));
  return data;
}

function keep(data) {
  const session = { session: data.session, table: data.table, locale: data.locale };
  sessionStorage.setItem(KEY, JSON.stringify(session));
  return session;
}

/** The session to say hello with: {session, table, locale}; null when there is none. Throws an
 * Error with the server's reason when a link or initData is refused. */
export async function getSession() {
  const link = location.pathname.match(/\/t\/([^/]+)$/);
  if (link) {
    const token = decodeURIComponent(link[1]);
    history.replaceState(null, "", ROOT.pathname);
    return keep(await post("api/auth/link", { token }));
  }
  if (inDiscord()) return keep(await discordSession()); // a Discord Activity (activity.js)
  const telegram = launchParams();
  if (telegram) {
    sessionStorage.setItem(THEME, JSON.stringify(telegram.theme));
    applyTheme(telegram.theme);
    ready();
    takeScreen(telegram.version);
    history.replaceState(null, "", location.pathname);
    return keep(await post("api/auth/telegram", { initData: telegram.initData, table: telegram.start }));
  }
  applyTheme(JSON.parse(sessionStorage.getItem(THEME) || "{}"));
  takeScreen(null); // a reload inside Telegram: the same screen again
  const kept = sessionStorage.getItem(KEY);
  return kept ? JSON.parse(kept) : null;
}

/** "Play again" on a page whose table closed: the press, and the session at the new table it
 * seated this player at (kept for a reload). Throws an Error with the server's refusal. */
export async function rematchSession(session) {
  return keep(await post("api/rematch", { session }));
}
