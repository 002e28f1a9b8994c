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
    scope: ["identify"],
  });
  const response = await fetch(at("api/auth/discord"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
    credentials: "same-origin",
  });
  return json(response);
}
