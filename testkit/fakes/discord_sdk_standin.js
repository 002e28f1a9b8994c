// A stand-in for Discord's Embedded App SDK (@discord/embedded-app-sdk) in the browser tests:
// served instead of static/vendor/discord-sdk.js, it speaks the calls the page makes the way the
// SDK does (`new DiscordSDK(clientId)` reads `instance_id` from the query and throws without
// `frame_id`, `instance_id` and `platform`; `ready()`; `commands.authorize(...)` resolves with
// `{code}`; `authenticate`, `getInstanceConnectedParticipants`, `openInviteDialog`, `setActivity`
// and `subscribe` as the SDK names them; `guildId` from the query's `guild_id`), but instead of
// asking the Discord client over postMessage it answers with what the test put in
// `window.__discord` (`{code}` or `{refuse: "message"}`, `participants`) and records every call
// in `window.__discord.calls`; `window.__discord.emit(event, data)` dispatches an event to the
// page's subscription as the client would.

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
    this.guildId = query.get("guild_id");
    this.channelId = query.get("channel_id");
    this._ready = false;
    const handlers = {};
    state().emit = (event, data) => (handlers[event] || []).forEach((handler) => handler(data));
    this.subscribe = async (event, handler) => {
      state().calls.push(["subscribe", event]);
      (handlers[event] = handlers[event] || []).push(handler);
    };
    const recorded = (name) => async (args) => {
      state().calls.push(args === undefined ? [name] : [name, args]);
      if (!this._ready) throw new Error(`${name} before ready`);
      return null;
    };
    state().calls.push(["new", clientId]);
    this.commands = {
      authorize: async (args) => {
        state().calls.push(["authorize", args]);
        if (!this._ready) throw new Error("authorize before ready");
        const answer = state();
        if (answer.refuse) throw new Error(answer.refuse);
        return { code: answer.code };
      },
      authenticate: async (args) => {
        state().calls.push(["authenticate", args]);
        return { access_token: args.access_token, user: {}, scopes: [], expires: "", application: {} };
      },
      getInstanceConnectedParticipants: async () => {
        state().calls.push(["getInstanceConnectedParticipants"]);
        return { participants: state().participants || [] };
      },
      openInviteDialog: recorded("openInviteDialog"),
      setActivity: recorded("setActivity"),
    };
  }

  async ready() {
    state().calls.push(["ready"]);
    this._ready = true;
  }
}
