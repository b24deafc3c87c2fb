// One worker of the shared-budget test: a process with a management client whose rate-limit store is Redis, that
// fires its calls at once and reports how they ended. Run by test/sdk/redis-store.test.ts with
// `node redis-worker.mjs <json>`: { url, redisPort, redisClient: "ioredis" | "redis", calls, pipe, limit }.
import { fileURLToPath } from "node:url";

const { url, redisPort, redisClient, calls, pipe, limit } = JSON.parse(process.argv[2]);
const dist = (file) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));
const { createManagementClient } = await import(dist("index.js"));
const { createRedisRateLimitStore } = await import(dist("redis.js"));

let client;
if (redisClient === "ioredis") {
  const { Redis } = await import("ioredis");
  client = new Redis({ port: redisPort, host: "127.0.0.1" });
} else {
  const { createClient } = await import("redis");
  client = createClient({ socket: { port: redisPort, host: "127.0.0.1" } });
  await client.connect();
}
const management = createManagementClient({
  baseUrl: url,
  keyId: "shared-key",
  keySecret: "shared-secret",
  rateLimit: limit,
  rateLimitStore: createRedisRateLimitStore({ client }),
});
const outcomes = await Promise.allSettled(Array.from({ length: calls }, () => management.pipes.getSettings(pipe)));
const failures = outcomes.filter(({ status }) => status === "rejected");
process.send({ succeeded: outcomes.length - failures.length, failed: failures.length, firstFailure: failures[0]?.reason?.message });
await client.quit();
process.disconnect();
