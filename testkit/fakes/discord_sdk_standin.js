// A stand-in for Discord's Embedded App SDK (@discord/embedded-app-sdk) in the browser tests:
// served instead of static/vendor/discord-sdk.js, it speaks the calls the page makes the way the
// SDK does (`new DiscordSDK(clientId)` reads `instance_id` from the query and throws without
// `frame_id`, `instance_id` and `platform`; `ready()`; `commands.authorize(...)` resolves with
// `{code}`), but instead of asking the Discord client over postMessage it answers with what the
// test put in `window.__discord` (`{code}` or `{refuse: "message"}`) and records every call in
// `window.__discord.calls`.

function state() {
  window.__discord = window.__discord || {};
  window.__discord.calls = window.__discord.calls || [];
  return window.__discord;
}

export class DiscordSDK {
  constructor(clientId, configuration) {
    const query = new URLSearchParams(location.search);
    for (const name of ["frame_id", "instance_id", "platform"]) {
      if (!query.get(name)) throw new Error(`${name} query param is not defined`);
    }
    this.clientId = clientId;
    this.configuration = configuration;
    this.frameId = query.get("frame_id");
    this.instanceId = query.get("instance_id");
    this.platform = query.get("platform");
    this._ready = false;
    state().calls.push(["new", clientId]);
    this.commands = {
      authorize: async (args) => {
        state().calls.push(["authorize", args]);
        if (!this._ready) throw new Error("authorize before ready");
        const answer = state();
        if (answer.refuse) throw new Error(answer.refuse);
        return { code: answer.code };
      },
    };
  }

  async ready() {
    state().calls.push(["ready"]);
    this._ready = true;
  }
}
