// `ingestion-api/redis` against a real redis-server: processes on one key, each with its own client (ioredis and
// node-redis both), under a server enforcing 10 per 1 s, all succeed with no request wasted; the scripts are sent
// once per Redis, a flush and a restart failing no call; a Redis that never answers delays a call by the deadline
// once. (Outages: redis-outage.test.ts; a 429's lesson across processes: redis-learning.test.ts.)
import { spawnSync } from "node:child_process";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { expect, it } from "vitest";
import { startRateLimitedServer } from "../../scripts/lib/rate-limited-server.mjs";
import { startSilentServer } from "../../scripts/lib/redis-server.mjs";
import { createManagementClient } from "../../src/index.js";
import { createRedisRateLimitStore } from "../../src/redis.js";
import { startedForFile } from "../support/child-reaper.js";
import { fleet, limit, redisOfFile, redisServer, sleep } from "../support/redis-fleet.js";
import { pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

const file = redisOfFile();

it.skipIf(!redisServer)(
  "three processes sharing one key through Redis all succeed under a server enforcing 10 per 1 s, with no request wasted (requests = calls)",
  async () => {
    const server = await startRateLimitedServer(limit, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort: file.port, calls: 20, pipe, limit };
      const started = Date.now();
      const { reports: running } = await fleet(["ioredis", "redis", "ioredis"].map((redisClient) => ({ ...common, redisClient })));
      const reports = await running;
      const elapsed = Date.now() - started;
      expect(reports.map(({ failed, firstFailure }) => ({ failed, firstFailure }))).toEqual(reports.map(() => ({ failed: 0, firstFailure: undefined })));
      expect(reports.reduce((total, { succeeded }) => total + succeeded, 0)).toBe(60);
      const { received } = server.counts();
      expect(received).toBe(60);
      // 60 calls at 10 per second need five windows after the first; processes starting apart may add one.
      expect(elapsed).toBeGreaterThanOrEqual(5_000);
      // What the store left in Redis names the credential by a hash, never by its key ID (SECURITY.md).
      const keys = spawnSync("redis-cli", ["-p", String(file.port), "--scan"], { encoding: "utf8" })
        .stdout.trim()
        .split("\n")
        .filter(Boolean);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key).toMatch(/^ingestion-api:\{[0-9a-f]{32}\}(:paused|:learned|:senders)?$/);
      // Redis answered throughout: no process fell back.
      expect(reports.flatMap(({ logged }) => logged)).toEqual([]);
    } finally {
      await server.close();
    }
  },
  60_000,
);

/** A figure of redis-server's INFO, by its name (`total_net_input_bytes`, `cmdstat_eval` calls). */
function info(section: string, pattern: RegExp): number {
  const text = spawnSync("redis-cli", ["-p", String(file.port), "INFO", section], { encoding: "utf8" }).stdout;
  return Number(pattern.exec(text)?.[1] ?? 0);
}
const evalCalls = () => info("commandstats", /^cmdstat_eval:calls=(\d+)/m);

it.skipIf(!redisServer)(
  "sends each script's text only when Redis lacks it: a SCRIPT FLUSH and a restart mid-run fail no call, and a call sends Redis under 1 kB",
  async () => {
    const server = await startRateLimitedServer({ requests: 100, intervalMs: 1_000 }, { management: settingsEnvelope, alerts: {} });
    const ioredis = new Redis({ port: file.port, host: "127.0.0.1" });
    const nodeRedis = createClient({ socket: { port: file.port, host: "127.0.0.1" } });
    for (const client of [ioredis, nodeRedis]) client.on("error", () => {});
    await nodeRedis.connect();
    try {
      const logged: string[] = [];
      const clients = [ioredis, nodeRedis].map((client) =>
        createManagementClient({
          baseUrl: server.url,
          keyId: "script-key",
          keySecret: "secret",
          rateLimit: { requests: 100, intervalMs: 1_000 },
          rateLimitStore: createRedisRateLimitStore({ client, logger: { warn: (line) => logged.push(line) } }),
        }),
      );
      /** `count` calls, one after another, half through each client. */
      const calls = async (count: number) => {
        for (let call = 0; call < count; call++) await (clients[call % 2] as (typeof clients)[number]).pipes.getSettings(pipe);
      };
      await calls(4);
      // Both scripts a call runs (take, answer) are loaded now: the next calls send their SHA-1s only.
      const [bytes, evals] = [info("stats", /^total_net_input_bytes:(\d+)/m), evalCalls()];
      await calls(20);
      const bytesPerCall = (info("stats", /^total_net_input_bytes:(\d+)/m) - bytes) / 20;
      expect(evalCalls()).toBe(evals);
      // A take and an answer by SHA-1, with their keys and arguments: under 1 kB (their text alone is over 4 kB).
      expect(bytesPerCall).toBeLessThan(1_000);
      spawnSync("redis-cli", ["-p", String(file.port), "SCRIPT", "FLUSH"]);
      await calls(10);
      // After the flush each client sends each script's text again once at most: the client that meets NOSCRIPT first
      // loads it for both, unless the other's EVALSHA reached Redis before that EVAL did (a call does not wait for its
      // answer's write, so the next call's take may overtake it). Sent on every call, it would be 20 times.
      expect(evalCalls() - evals).toBeGreaterThanOrEqual(2);
      expect(evalCalls() - evals).toBeLessThanOrEqual(4);
      await startedForFile(async () => file.redis?.restart());
      await calls(10);
      expect(server.counts()).toEqual({ received: 44, limited: 0 });
      // The clients reconnect on their own; a store whose call met the restart counted in memory meanwhile, said
      // so, and says it shares again within its next probe (once a second).
      for (const until = Date.now() + 5_000; logged.length % 2 === 1 && Date.now() < until; ) await sleep(50);
      expect(logged.length % 2).toBe(0);
    } finally {
      ioredis.disconnect();
      await nodeRedis.disconnect().catch(() => undefined);
      await server.close();
    }
  },
  30_000,
);

it.skipIf(!redisServer)(
  "a Redis that accepts the connection and never answers delays a call by the store's deadline once, then counts in memory",
  async () => {
    const silent = await startSilentServer();
    const server = await startRateLimitedServer(limit, { management: settingsEnvelope, alerts: {} });
    const client = new Redis({ port: silent.port, host: "127.0.0.1" });
    try {
      const logged: string[] = [];
      const management = createManagementClient({
        baseUrl: server.url,
        keyId: "silent-key",
        keySecret: "secret",
        rateLimit: limit,
        rateLimitStore: createRedisRateLimitStore({ client, logger: { warn: (line) => logged.push(line) }, commandTimeoutMs: 300 }),
      });
      const started = Date.now();
      const first = await management.pipes.getSettings(pipe);
      const firstMs = Date.now() - started;
      expect(first).toBeDefined();
      expect(firstMs).toBeGreaterThanOrEqual(290);
      expect(firstMs).toBeLessThan(1_300);
      // The next calls go without waiting on Redis: 9 more fit in the first window.
      const rest = Date.now();
      await Promise.all(Array.from({ length: 9 }, () => management.pipes.getSettings(pipe)));
      expect(Date.now() - rest).toBeLessThan(500);
      // Paced in memory still: the 11th waits for the next window.
      const eleventh = Date.now();
      await management.pipes.getSettings(pipe);
      expect(Date.now() - eleventh).toBeGreaterThan(400);
      expect(server.counts()).toEqual({ received: 11, limited: 0 });
      expect(logged).toEqual([
        "ingestion-api: the Redis rate-limit store (ingestion-api) failed (no answer within 300 ms); counting each credential's sends in this process until it answers again",
      ]);
    } finally {
      client.disconnect();
      await silent.close();
      await server.close();
    }
  },
  30_000,
);
