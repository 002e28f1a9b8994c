// Where the page's server is: the folder the page was served from, so that every request is a
// relative one and works under Discord's `/.proxy/` path or a reverse proxy's prefix. Read once,
// when the page starts (before a signed link's token is taken out of the address; the server
// gives `/t/<token>` a `<base href="../">`).

export const ROOT = new URL(".", document.baseURI);

/** The address of `path` (relative, e.g. "api/auth/link" or "ws") on the page's server. */
export function at(path) {
  return new URL(path, ROOT);
}
