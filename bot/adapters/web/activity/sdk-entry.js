// What the page takes from Discord's Embedded App SDK; esbuild bundles it with its dependencies
// into ../static/vendor/discord-sdk.js (one ES module, served by the bot).
export { DiscordSDK } from "@discord/embedded-app-sdk";
