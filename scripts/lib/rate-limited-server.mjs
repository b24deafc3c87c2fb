// A loopback server that enforces a rate limit per credential (per Authorization value), counted in a sliding
// window, the strictest way a server can count, and answers past it as each real service does: management a JSON
// error with X-RateLimit-Reset (seconds, fractional), alerting its limiter's text/html with Retry-After (whole
// seconds). Below the limit it answers the body given for the interface. It counts what it received. The benchmark
// (`npm run bench:rate-limit`) and the SDK's rate-limit tests share it.
import { createServer } from "node:http";

/**
 * Starts the server; resolves to `{ url, counts, close }`. `limit` is `{ requests, intervalMs }` per credential;
 * `answers` the JSON a request below it gets, by interface (`{ management, alerts }`); `counts()` says how many
 * requests arrived and how many got 429.
 */
export async function startRateLimitedServer(limit, answers) {
  const sent = new Map();
  let received = 0;
  let limited = 0;
  const server = createServer((request, response) => {
    request.resume();
    received++;
    const credential = request.headers.authorization ?? "";
    const alerting = request.url?.startsWith("/api/");
    const now = Date.now();
    const log = (sent.get(credential) ?? []).filter((at) => at > now - limit.intervalMs);
    sent.set(credential, log);
    if (log.length >= limit.requests) {
      limited++;
      const seconds = ((log[log.length - limit.requests] ?? now) + limit.intervalMs - now) / 1000;
      if (alerting) {
        response.writeHead(429, { "content-type": "text/html; charset=utf-8", "retry-after": String(Math.ceil(seconds)) });
        return response.end("Too many requests, please try again later.");
      }
      response.writeHead(429, { "content-type": "application/json", "x-ratelimit-reset": seconds.toFixed(3) });
      return response.end(JSON.stringify({ status: 429, error: "Rate limit exceeded" }));
    }
    log.push(now);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(alerting ? answers.alerts : answers.management));
  });
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts: () => ({ received, limited }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
