// The guard that takes each Prism's public port: Prism checks neither Host nor Origin, so it listens on a loopback port
// of its own and this proxy, in front, refuses (403) a Host that does not name this machine (DNS rebinding) and any
// request from a page of another origin, answers CORS itself for a page served from this machine, and streams the
// rest to Prism unchanged.
import { createServer, request as forward } from "node:http";
import { allowedHosts, isAllowedHost, isOwnOrigin } from "../../src/local-servers/local-only.js";

const boundHost = "127.0.0.1";
const allowed = allowedHosts(boundHost);
// Headers of one connection, not of the message (RFC 9110, 7.6.1): each side's Node sets its own.
const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade"]);

/** Raw headers ([name, value, name, value, ...]) without the hop-by-hop ones. */
function endToEnd(/** @type {string[]} */ rawHeaders) {
  return rawHeaders.flatMap((value, index) => (index % 2 === 0 && !hopByHop.has(value.toLowerCase()) ? [value, rawHeaders[index + 1] ?? ""] : []));
}

/** A refusal sent before the body is read: the connection closes, so no body is read after it. */
function refuse(/** @type {import("node:http").ServerResponse} */ response, /** @type {string} */ why) {
  response.writeHead(403, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", connection: "close" }).end(`${why}\n`);
}

/**
 * Listens on 127.0.0.1:port and forwards what it accepts to `upstream` (Prism, started with `--cors=false`).
 * @param {number} port
 * @param {string} upstream
 * @returns {Promise<import("node:http").Server>}
 */
export async function startLocalGuard(port, upstream) {
  const target = new URL(upstream);
  const server = createServer((request, response) => {
    const { host, origin } = request.headers;
    if (!isAllowedHost(host, allowed)) return refuse(response, `This server answers only to ${[...allowed].join(", ")} in Host.`);
    if (!isOwnOrigin(origin, allowed)) return refuse(response, "This server answers no page of another origin.");
    // A page on this machine (say, a front end on another port) may call the mock; no cookies, so no credentials.
    const cors = origin === undefined ? [] : ["access-control-allow-origin", origin, "vary", "origin"];
    const preflightMethod = request.headers["access-control-request-method"];
    if (origin !== undefined && request.method === "OPTIONS" && preflightMethod !== undefined) {
      const requestedHeaders = request.headers["access-control-request-headers"];
      response
        .writeHead(204, [
          ...cors,
          "access-control-allow-methods",
          preflightMethod,
          ...(requestedHeaders ? ["access-control-allow-headers", requestedHeaders] : []),
        ])
        .end();
      return;
    }
    const outgoing = forward(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: endToEnd(request.rawHeaders) },
      (answer) => {
        const exposed = cors.length > 0 ? [...cors, "access-control-expose-headers", "*"] : [];
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, [...endToEnd(answer.rawHeaders), ...exposed]);
        answer.on("error", () => response.destroy()).pipe(response);
      },
    );
    outgoing.on("error", () => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(`Prism at ${upstream} did not answer.\n`);
    });
    // The client went away before its answer was complete: stop Prism's side too.
    response.on("close", () => response.writableFinished || outgoing.destroy());
    request.pipe(outgoing);
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(port, boundHost, () => resolve(undefined)));
  return server;
}

/** Stops listening and drops the connections still open (a client's idle keep-alive ones included). */
export function stopLocalGuard(/** @type {import("node:http").Server} */ server) {
  server.close();
  server.closeAllConnections();
}
