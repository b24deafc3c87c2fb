// A loopback server that enforces a rate limit per credential (per Authorization value) with the sandbox's own
// limiter (src/sandbox/rate-limit.ts): counted in a sliding window, the strictest way a server can count, and past
// it each interface's 429 as the real service answers it (management a JSON error with X-RateLimit-Reset in
// fractional seconds, alerting its limiter's text/html with Retry-After in whole seconds). Unlike the sandbox it takes
// any credential and answers the body given for the interface below the limit; it counts what it received. The
// benchmark (`npm run bench:rate-limit`) and the SDK's rate-limit tests share it.
import { createServer } from "node:http";
import { build } from "esbuild";
import { root } from "./toolchain.mjs";

// Scripts run under plain Node, which reads no TypeScript: the limiter is bundled from src/ here, as
// bench/layers.mjs bundles the policy fetch (a few kilobytes, in about 0.1 s).
const bundled = await build({
  absWorkingDir: root,
  stdin: {
    contents: 'export { createRateLimiter } from "./src/sandbox/rate-limit.ts"; export { alerts, management } from "./src/contract/interfaces.ts";',
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "esm",
  write: false,
  logLevel: "warning",
});
const { createRateLimiter, alerts, management } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].contents).toString("base64")}`
);

/** Writes an answer: a value as JSON, a text as it is (with the content type its answer names). */
function write(response, { status, body, headers = {} }) {
  const json = typeof body !== "string";
  response.writeHead(status, { ...(json && { "content-type": "application/json" }), ...headers });
  response.end(json ? JSON.stringify(body) : body);
}

/**
 * Starts the server; resolves to `{ url, counts, close }`. `limit` is `{ requests, intervalMs }` per credential;
 * `answers` the JSON a request below it gets, by interface (`{ management, alerts }`); `counts()` says how many
 * requests arrived and how many got 429.
 */
export async function startRateLimitedServer(limit, answers) {
  const limiter = createRateLimiter(new Map([management, alerts].map((api) => [api, limit])));
  let received = 0;
  let limited = 0;
  const server = createServer((request, response) => {
    request.resume();
    received++;
    const api = request.url?.startsWith(`${alerts.prefix}/`) ? alerts : management;
    const refused = limiter.admit(api, request.headers.authorization ?? "");
    if (refused) {
      limited++;
      return write(response, refused);
    }
    write(response, { status: 200, body: answers[api.name] });
  });
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts: () => ({ received, limited }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
