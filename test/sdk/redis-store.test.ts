// `ingestion-api/redis` against a real redis-server: processes on one key, each with its own client (ioredis and
// node-redis both), under a server enforcing 10 per 1 s, all succeed with no request wasted; the budget a 429 teaches
// one of them slows them all; and a Redis killed mid-run, restarted, or hanging fails no call: each process counts
// in its own memory meanwhile, and says so once. Locally the tests are skipped, saying why, when no redis-server is
// installed; in CI (CI=true) that is a failure instead.
import { fork, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRateLimitedServer } from "../../scripts/lib/rate-limited-server.mjs";
import { startRedisServer, startSilentServer } from "../../scripts/lib/redis-server.mjs";
import { createManagementClient } from "../../src/index.js";
import { createRedisRateLimitStore } from "../../src/redis.js";
import { startedForFile } from "../support/child-reaper.js";
import { pipe, settingsEnvelope } from "../support/sdk-fixtures.js";
import { commandThatRuns, skipOrFailInCi } from "../support/system-tools.js";

const redisServer = commandThatRuns(["redis-server", "/usr/bin/redis-server"], ["--version"]);
skipOrFailInCi(redisServer ? undefined : "skipping the Redis store test: no redis-server (apt-get install redis-server)");

let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
let redisPort = 0;
beforeAll(async () => {
  if (!redisServer) return;
  redis = await startRedisServer();
  redisPort = redis.port;
});
afterAll(async () => {
  await redis?.stop();
});

const limit = { requests: 10, intervalMs: 1_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Report {
  succeeded: number;
  failed: number;
  firstFailure?: string;
  logged: string[];
  elapsedMs: number;
}

/** Runs one worker process: `started` once its Redis client is connected and its calls go, `report` when they ended. */
function worker(options: object): { started: Promise<void>; report: Promise<Report> } {
  const child = fork(fileURLToPath(new URL("../support/redis-worker.mjs", import.meta.url)), [JSON.stringify(options)], { stdio: "inherit" });
  const failed = new Promise<never>((_, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => code !== 0 && reject(new Error(`a worker exited with ${code}`)));
  });
  const message = (type: string) =>
    Promise.race([
      new Promise<Report>((resolve) => child.on("message", (received: Report & { type: string }) => received.type === type && resolve(received))),
      failed,
    ]);
  return { started: message("started").then(() => undefined), report: message("report") };
}

/**
 * Runs workers together; resolves once every one has connected to Redis and fired its calls (a busy machine can
 * take seconds to start a process: an outage timed from the fork would come before some of them ever used Redis).
 */
async function fleet(options: object[]): Promise<{ reports: Promise<Report[]> }> {
  const workers = options.map(worker);
  await Promise.all(workers.map(({ started }) => started));
  return { reports: Promise.all(workers.map(({ report }) => report)) };
}

it.skipIf(!redisServer)(
  "three processes sharing one key through Redis all succeed under a server enforcing 10 per 1 s, with no request wasted (requests = calls)",
  async () => {
    const server = await startRateLimitedServer(limit, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort, calls: 20, pipe, limit };
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
      const keys = spawnSync("redis-cli", ["-p", String(redisPort), "--scan"], { encoding: "utf8" })
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

/** The lines of each report that say the store fell back, and that it came back. */
const lines = (reports: Report[]) =>
  reports.map(({ logged }) => ({
    fellBack: logged.filter((line) => line.includes("counting each credential's sends in this process")).length,
    cameBack: logged.filter((line) => line.includes("sharing each credential's count again")).length,
  }));

it.skipIf(!redisServer)(
  "a Redis killed mid-run fails no call: each process says once that it counts alone, and once, when Redis is back, that it shares again",
  async () => {
    const server = await startRateLimitedServer(limit, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort, calls: 30, pipe, limit, keyId: "outage-key", awaitReturnMs: 5_000 };
      const { reports: running } = await fleet(["ioredis", "redis", "ioredis"].map((redisClient) => ({ ...common, redisClient })));
      await sleep(1_500);
      await redis?.kill();
      await sleep(2_500);
      await startedForFile(async () => redis?.restart());
      const reports = await running;
      expect(reports.map(({ failed, firstFailure }) => ({ failed, firstFailure }))).toEqual(reports.map(() => ({ failed: 0, firstFailure: undefined })));
      expect(lines(reports)).toEqual(reports.map(() => ({ fellBack: 1, cameBack: 1 })));
      // The lines name the store and Redis's error, never the credential (SECURITY.md).
      for (const line of reports.flatMap(({ logged }) => logged)) expect(line).not.toMatch(/outage-key|shared-secret/);
      // Apart, each keeps its share of the limit; Redis back empty costs a few 429s, no more than a fifth of the calls.
      expect(server.counts().received).toBeLessThanOrEqual(1.2 * 90);
    } finally {
      await server.close();
    }
  },
  60_000,
);

it.skipIf(!redisServer)(
  "a Redis that is killed and stays down fails no call: each process says once that it counts alone, and never that it is back",
  async () => {
    const server = await startRateLimitedServer(limit, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort, calls: 20, pipe, limit, keyId: "gone-key" };
      const { reports: running } = await fleet(["ioredis", "redis"].map((redisClient) => ({ ...common, redisClient })));
      await sleep(1_000);
      await redis?.kill();
      const reports = await running;
      expect(reports.map(({ failed, firstFailure }) => ({ failed, firstFailure }))).toEqual(reports.map(() => ({ failed: 0, firstFailure: undefined })));
      expect(lines(reports)).toEqual(reports.map(() => ({ fellBack: 1, cameBack: 0 })));
      // Apart, each keeps its share of the limit (5 a second of the 10): a few 429s at most as they part.
      expect(server.counts().received).toBeLessThanOrEqual(1.2 * 40);
    } finally {
      await startedForFile(async () => redis?.restart());
      await server.close();
    }
  },
  60_000,
);

/** A figure of redis-server's INFO, by its name (`total_net_input_bytes`, `cmdstat_eval` calls). */
function info(section: string, pattern: RegExp): number {
  const text = spawnSync("redis-cli", ["-p", String(redisPort), "INFO", section], { encoding: "utf8" }).stdout;
  return Number(pattern.exec(text)?.[1] ?? 0);
}
const evalCalls = () => info("commandstats", /^cmdstat_eval:calls=(\d+)/m);

it.skipIf(!redisServer)(
  "sends each script's text only when Redis lacks it: a SCRIPT FLUSH and a restart mid-run fail no call, and a call sends Redis under 1 kB",
  async () => {
    const server = await startRateLimitedServer({ requests: 100, intervalMs: 1_000 }, { management: settingsEnvelope, alerts: {} });
    const ioredis = new Redis({ port: redisPort, host: "127.0.0.1" });
    const nodeRedis = createClient({ socket: { port: redisPort, host: "127.0.0.1" } });
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
      spawnSync("redis-cli", ["-p", String(redisPort), "SCRIPT", "FLUSH"]);
      await calls(10);
      // After the flush each script was sent again once, by whichever client met NOSCRIPT first.
      expect(evalCalls() - evals).toBe(2);
      await startedForFile(async () => redis?.restart());
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

it.skipIf(!redisServer)(
  "the budget a 429 teaches is shared: four processes told twice the server's limit send at most 15% more requests than calls",
  async () => {
    const server = await startRateLimitedServer({ requests: 5, intervalMs: 1_000 }, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort, calls: 15, pipe, limit, keyId: "strict-key" };
      const { reports: running } = await fleet(["ioredis", "redis", "ioredis", "redis"].map((redisClient) => ({ ...common, redisClient })));
      const reports = await running;
      expect(reports.map(({ failed, firstFailure }) => ({ failed, firstFailure }))).toEqual(reports.map(() => ({ failed: 0, firstFailure: undefined })));
      const { received } = server.counts();
      expect(received).toBeGreaterThanOrEqual(60);
      expect(received).toBeLessThanOrEqual(1.15 * 60);
    } finally {
      await server.close();
    }
  },
  60_000,
);
