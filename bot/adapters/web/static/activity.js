// The page inside Discord (an Activity): Discord opens it in an iframe of the channel with
// `frame_id`, `instance_id` and `platform` in the query. Discord's Embedded App SDK (bundled from
// the npm registry into ./vendor/discord-sdk.js by `make`, served by the bot, never a CDN) asks
// the Discord client for an OAuth2 code; the server trades it, with the SDK's instance id, for a
// session of the open table of the instance's channel (POST api/auth/discord). The server
// believes nothing this page says about itself: it asks Discord who the code belongs to and
// where the instance runs.
//
// Every URL here is relative to the page, so it works under Discord's proxy whether the page was
// loaded at https://<app id>.discordsays.com/ or under its older /.proxy/ prefix.
//
// Once signed in, the Activity's live features (inside Discord only): the SDK authenticates
// with the viewer's own access token (the server hands it back to this page only), then
// - "Invite to this table": `commands.openInviteDialog()` (not in a DM: no guild there);
// - who is in the Activity: `commands.getInstanceConnectedParticipants()` and the
//   `ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE` event, a small list of names in the bar;
// - Rich Presence: `commands.setActivity` with the game, the round and the open seats, and the
//   table as the party (Discord offers "Join" on an Activity's presence itself); set only when
//   its words change (Discord limits how often).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { at } from "./root.js";

const SDK = "./vendor/discord-sdk.js";

/** Whether Discord opened this page as an Activity. */
export function inDiscord() {
  const query = new URLSearchParams(location.search);
  return query.has("frame_id") && query.has("instance_id");
}

async function json(response) {
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || String(response.status));
  return data;
}

/** The session of the Activity's table: {session, table, locale}. Throws an Error with the
 * server's reason (in the viewer's language) when Discord did not confirm the viewer. */
export async function discordSession() {
  const config = await json(await fetch(at("api/auth/discord")));
  let DiscordSDK;
  try {
    ({ DiscordSDK } = await import(SDK));
  } catch {
    throw new Error(
      "Discord's SDK is not installed on this bot (make needs npm). / " +
        "Discord SDK'sı bu botta kurulu değil (make için npm gerekir).",
    );
  }
  const sdk = new DiscordSDK(config.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify", "rpc.activities.write"],
  });
  const response = await fetch(at("api/auth/discord"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
    credentials: "same-origin",
  });
  const data = await json(response);
  live = { sdk, token: data.access_token || null, people: [], presence: "", onChange: () => {} };
  return data;
}

let live = null; // the SDK and what the bar shows, once signed in inside Discord

/** Start the live features after sign-in; `onChange` redraws the bar (participants came). */
export async function startActivity(onChange) {
  if (!live) return;
  live.onChange = onChange;
  const { sdk } = live;
  try {
    if (live.token) await sdk.commands.authenticate({ access_token: live.token });
  } catch {
    /* the bar and the invite work without it; Rich Presence does not */
  }
  live.token = null; // not kept beyond the SDK's own use
  const show = (got) => {
    live.people = (got?.participants || []).map((p) => p.nickname || p.global_name || p.username || "?");
    live.onChange();
  };
  try {
    show(await sdk.commands.getInstanceConnectedParticipants());
    await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", show);
  } catch {
    /* an older client: no list */
  }
}

/** The bar's Activity part: the invite button and who is in the Activity; null outside it. */
export function activityBar() {
  if (!live) return null;
  const invite = live.sdk.guildId
    ? h(
        "button.toggle.invite",
        {
          type: "button",
          onclick: () => live.sdk.commands.openInviteDialog().catch(() => {}),
        },
        t("web.invite"),
      )
    : null;
  const people = live.people.length
    ? h(
        "ul.people",
        { "aria-label": t("web.in_activity") },
        live.people.slice(0, 12).map((name) => h("li", {}, name)),
      )
    : null;
  return [invite, people];
}

/** Rich Presence for the table the viewer plays at (their own presence); nothing outside
 * Discord, and nothing when the words did not change since the last time. */
export function presence(view) {
  if (!live || !view || view.phase === "closed") return;
  const game = t(`web.game.${view.game}`);
  const details = view.round_no && view.rounds
    ? t("web.presence_round", { game, round: view.round_no, rounds: view.rounds })
    : game;
  const taken = view.seats.length;
  const open = view.max_seats ? Math.max(0, view.max_seats - taken) : 0;
  const state = open ? t("web.presence_open", { count: open }) : t("web.presence_full");
  const key = JSON.stringify([details, state, view.table_id]);
  if (key === live.presence) return;
  live.presence = key;
  const party = { id: `table-${view.table_id}`, size: [Math.max(1, taken), Math.max(taken, view.max_seats || taken, 1)] };
  live.sdk.commands
    .setActivity({ activity: { type: 0, details, state, party } })
    .catch(() => {
      live.presence = ""; // tried again with the next state
    });
}
