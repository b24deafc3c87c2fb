// A loopback server that enforces a rate limit per credential (per Authorization value) with the sandbox's own
// limiter (src/sandbox/rate-limit.ts): counted in a sliding window, the strictest way a server can count, and past
// it each interface's 429 as the real service answers it (management a JSON error with X-RateLimit-Reset in
// fractional seconds, alerting its limiter's text/html with Retry-After in whole seconds). Unlike the sandbox it takes
// any credential and answers the body given for the interface below the limit; it counts what it received. Also a
// server that answers every request 429 (a storm). The benchmark (`npm run bench:rate-limit`) and the SDK's
// rate-limit tests share them.
import { createServer } from "node:http";
import { build } from "esbuild";
import { root } from "./toolchain.mjs";

// Scripts run under plain Node, which reads no TypeScript: the limiter is bundled from src/ here, as
// bench/layers.mjs bundles sendCall (a few kilobytes, in about 0.1 s).
const bundled = await build({
  absWorkingDir: root,
  stdin: {
    contents: [
      'export { createRateLimiter } from "./src/sandbox/rate-limit.ts";',
      'export { failure } from "./src/sandbox/answers.ts";',
      'export { alerts, management } from "./src/contract/interfaces.ts";',
    ].join(" "),
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "esm",
  write: false,
  logLevel: "warning",
});
const { createRateLimiter, failure, alerts, management } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].contents).toString("base64")}`
);

/** Writes an answer: a value as JSON, a text as it is (with the content type its answer names). */
function write(response, { status, body, headers = {} }) {
  const json = typeof body !== "string";
  response.writeHead(status, { ...(json && { "content-type": "application/json" }), ...headers });
  response.end(json ? JSON.stringify(body) : body);
}

/** Serves `answer(request)` to every request on a loopback port; resolves to `{ url, counts, close }`. */
async function serve(answer) {
  let received = 0;
  let limited = 0;
  const server = createServer((request, response) => {
    request.resume();
    received++;
    const reply = answer(request);
    if (reply.status === 429) limited++;
    write(response, reply);
  });
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts: () => ({ received, limited }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Starts the server; resolves to `{ url, counts, close }`. `limit` is `{ requests, intervalMs }` per credential;
 * `answers` the JSON a request below it gets, by interface (`{ management, alerts }`); `counts()` says how many
 * requests arrived and how many got 429.
 */
export function startRateLimitedServer(limit, answers) {
  const limiter = createRateLimiter(new Map([management, alerts].map((api) => [api, limit])));
  return serve((request) => {
    const api = request.url?.startsWith(`${alerts.prefix}/`) ? alerts : management;
    return limiter.admit(api, request.headers.authorization ?? "") ?? { status: 200, body: answers[api.name] };
  });
}

/**
 * A 429 storm: a server that answers every request management's 429 with `Retry-After: 1`, however slowly it is
 * asked; resolves to `{ url, counts, close }` as above.
 */
export function startStormServer() {
  return serve(() => ({ ...failure(management, 429, "Rate limit exceeded, retry after 1 seconds"), headers: { "retry-after": "1" } }));
}
