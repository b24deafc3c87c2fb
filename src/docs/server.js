// The server of the rendered references (`npx ingestion-api docs`, `npm start`): static files of one folder, to
// requests that name this machine in Host, GET and HEAD only, with headers that keep a browser from guessing types
// or loading anything from another origin. Plain JavaScript, so `npm start` (a script run by Node alone) serves
// with it too.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, sep } from "node:path";
import { allowedHosts, isAllowedHost, isLoopbackOrigin } from "../local-servers/local-only.js";

/** @type {Record<string, string>} */
const contentTypes = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  // The downloads: the release archive, the wheel (a zip) and the checksum line beside each.
  ".gz": "application/gzip",
  ".whl": "application/zip",
  ".sha256": "text/plain; charset=utf-8",
};

// The pages are self-contained: a browser must not guess other types for the files, nor load anything from
// another origin. Redoc runs inline scripts and styles and its search in a worker made from a blob.
const securityHeaders = {
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
};
// The playground runs only its own script file, and its sandbox runs in the page, so by default it may connect
// nowhere, not even back to this server; only the servers it was told of (`docs --sandbox`, `--connect`). Its editor
// (CodeMirror) writes its styles into a style element and style attributes, so styles may be inline; with nothing
// but data: images and no fonts allowed, a style can fetch nothing.
const playgroundPolicy = (connect) =>
  `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src data:; connect-src ${connect.length > 0 ? connect.join(" ") : "'none'"}; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`;

/** The element in which the playground's markup names the servers it may call: empty as built (and from file://). */
export const serversMeta = '<meta name="ingestion-api-servers" content="">';

/**
 * The servers the playground may call besides its own sandbox: `sandbox`, the origin of `npx ingestion-api sandbox`
 * this command runs, and `servers`, real servers' origins the reader named (`--connect`).
 * @typedef {{ sandbox?: string, servers?: string[] }} PlaygroundServers
 */

/**
 * Serves the files under `dir` on `host`:`port` (0 picks a free port); `/` is its index.html. The playground may
 * connect to `servers`, and is told of them.
 * @param {{ dir: string, host?: string, port: number, servers?: PlaygroundServers }} options
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startDocsServer({ dir, host = "127.0.0.1", port, servers = {} }) {
  const connect = [...(servers.sandbox ? [servers.sandbox] : []), ...(servers.servers ?? [])];
  const named = escapeAttribute(JSON.stringify({ sandbox: servers.sandbox, servers: servers.servers ?? [] }));
  const root = realpathSync(dir);
  const playground = join(root, "playground.html");
  const policy = playgroundPolicy(connect);
  const hosts = allowedHosts(host);
  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
    // A page whose domain was rebound to 127.0.0.1 still sends its own name.
    if (!isAllowedHost(request.headers.host, hosts)) {
      response.writeHead(403, { connection: "close" }).end();
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", connection: "close" }).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    let file;
    let body;
    try {
      // Only a regular file whose real path, links resolved, is under the folder: a link planted there that points
      // out of it (to /etc/passwd, say) is not followed.
      file = realpathSync(join(root, path === "/" ? "index.html" : path));
      if (!file.startsWith(root + sep) || !statSync(file).isFile()) throw new Error("not a file of the docs");
      body = readFileSync(file);
    } catch {
      // Missing, outside the folder, or gone between the check and the read (the docs being rebuilt).
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    if (file === playground) {
      response.setHeader("content-security-policy", policy);
      // A function, not a string: `$` in a replacement string would expand.
      if (connect.length > 0) body = Buffer.from(body.toString("utf8").replace(serversMeta, () => `<meta name="ingestion-api-servers" content="${named}">`));
    }
    response.writeHead(200, { "content-type": contentTypes[extname(file)] ?? "application/octet-stream", "content-length": body.length });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(port, host, () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  const bound = address.port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}/`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/** A value for a double-quoted HTML attribute. */
function escapeAttribute(text) {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/**
 * The origin of a server the playground may be allowed to call: https, or http on a loopback name, and nothing but
 * an origin (no path, query or credentials, which a policy's source could not hold); undefined for anything else.
 * @param {string} value
 * @returns {string | undefined}
 */
export function playgroundServerOrigin(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const onlyOrigin = url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "" && url.password === "";
  // A host name of letters, digits, dots and hyphens, or an IPv6 address: a URL's host may hold `*`, `;` or `'`,
  // which in a policy's source would widen it or start another directive.
  const plainHost = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])$/.test(url.hostname);
  return onlyOrigin && plainHost && (url.protocol === "https:" || isLoopbackOrigin(url.origin)) ? url.origin : undefined;
}
