// One worker of the shared-store tests: a process with a management client whose rate-limit store is Redis, that
// says it is ready once its Redis client is connected, fires its calls at once when told "go", and reports how they
// ended, and the lines the store logged. Run by
// the redis-*.test.ts files (test/support/redis-fleet.ts) with `node redis-worker.mjs <json>`:
// { url, redisPort, redisClient: "ioredis" | "redis", calls, pipe, limit, keyId?, awaitReturnMs? }: with
// awaitReturnMs, a worker whose store fell back waits that long at most, after its calls, for it to come back.
import { fileURLToPath } from "node:url";

const { url, redisPort, redisClient, calls, pipe, limit, keyId = "shared-key", awaitReturnMs = 0 } = JSON.parse(process.argv[2]);
const dist = (file) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));
const { createManagementClient } = await import(dist("index.js"));
const { createRedisRateLimitStore } = await import(dist("redis.js"));

let client;
if (redisClient === "ioredis") {
  // ioredis with its default options, as a team would write it: the store copes with its offline queue.
  const { Redis } = await import("ioredis");
  client = new Redis({ port: redisPort, host: "127.0.0.1" });
} else {
  const { createClient } = await import("redis");
  client = createClient({ socket: { port: redisPort, host: "127.0.0.1" } });
}
// Both clients report a lost connection as an error event: a listener is what any application has (without one,
// node-redis ends the process and ioredis prints each reconnection's failure).
client.on("error", () => {});
if (redisClient !== "ioredis") await client.connect();
const logged = [];
const management = createManagementClient({
  baseUrl: url,
  keyId,
  keySecret: "shared-secret",
  rateLimit: limit,
  rateLimitStore: createRedisRateLimitStore({ client, logger: { warn: (line) => logged.push(line) } }),
});
// Every worker of the fleet fires at once: each says it is ready and waits for the word (a busy machine can take
// seconds to start one process, in which another would have sent all its calls alone).
const go = new Promise((resolve) => process.on("message", (message) => message === "go" && resolve()));
process.send({ type: "ready" });
await go;
const started = Date.now();
const outcomes = await Promise.allSettled(Array.from({ length: calls }, () => management.pipes.getSettings(pipe)));
const elapsedMs = Date.now() - started;
const failures = outcomes.filter(({ status }) => status === "rejected");
for (const until = Date.now() + awaitReturnMs; logged.length % 2 === 1 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
process.send({
  type: "report",
  succeeded: outcomes.length - failures.length,
  failed: failures.length,
  firstFailure: failures[0]?.reason?.message,
  logged,
  elapsedMs,
});
// A client whose Redis is gone would wait for it to quit: a bounded wait, then the socket is dropped.
await Promise.race([client.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
if (redisClient === "ioredis") client.disconnect();
else await client.disconnect().catch(() => undefined);
process.disconnect();
