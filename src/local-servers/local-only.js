// What keeps a server meant for a developer's own machine (the sandbox, the docs of `npm start`, the proxies in front
// of them) from being driven by a web page: it answers only requests that name it by one of its own host names (a
// page that rebinds its domain to 127.0.0.1 still sends its own name in Host) and, where it matters, that come from
// no other origin. Plain JavaScript, so the scripts can use it with Node alone.

const loopbackNames = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The host names a server answers to: the loopback names, the address it is bound to, and `extra` (say, a name a
 * container gives it), all lowercase; an IPv6 address is written in brackets, as a Host header carries it.
 * @param {string} boundHost the address the server listens on
 * @param {readonly string[]} [extra]
 * @returns {Set<string>}
 */
export function allowedHosts(boundHost, extra = []) {
  const bracketed = (name) => (name.includes(":") && !name.startsWith("[") ? `[${name}]` : name);
  return new Set([...loopbackNames, boundHost, ...extra].map((name) => bracketed(name.toLowerCase())));
}

/**
 * The host name of a Host header, without its port, lowercase; undefined when there is none or it does not parse.
 * @param {string | undefined} host
 * @returns {string | undefined}
 */
export function hostnameOf(host) {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a request's Host header names the server: anything else is a rebinding attack or a mistake (403).
 * @param {string | undefined} host
 * @param {Set<string>} allowed
 */
export function isAllowedHost(host, allowed) {
  const name = hostnameOf(host);
  return name !== undefined && allowed.has(name);
}

/**
 * Whether an `Origin` header is absent (curl, a test, the SDK in Node) or names the server itself: a browser sends
 * one with every cross-origin request, and a page elsewhere must not reach routes that change state.
 * @param {string | undefined} origin
 * @param {Set<string>} allowed
 */
export function isOwnOrigin(origin, allowed) {
  if (origin === undefined) return true;
  try {
    const { protocol, hostname } = new URL(origin);
    return protocol === "http:" && allowed.has(hostname.toLowerCase());
  } catch {
    return false;
  }
}

/**
 * Whether an `Origin` header names a page on this machine: http or https on a loopback name, any port, written as a
 * browser writes an origin. Not `null`, which a sandboxed iframe or a file sends from anywhere, and not a name a DNS
 * answer could point here.
 * @param {string | undefined} origin
 */
export function isLoopbackOrigin(origin) {
  if (origin === undefined || origin === "null") return false;
  try {
    const url = new URL(origin);
    // Exactly as a browser writes an origin: anything else (a path, a list, a number for an address) is not one.
    return url.origin === origin && (url.protocol === "http:" || url.protocol === "https:") && loopbackNames.includes(url.hostname);
  } catch {
    return false;
  }
}
