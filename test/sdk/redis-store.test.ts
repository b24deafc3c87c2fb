// `ingestion-api/redis` against a real redis-server: three processes on one key, each with its own client (ioredis
// and node-redis both), under a server enforcing 10 per 1 s, all succeed, with no request wasted. Locally the test
// is skipped, saying why, when no redis-server is installed; in CI (CI=true) that is a failure instead.
import { type ChildProcess, fork, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/mock-servers.mjs";
import { startRateLimitedServer } from "../../scripts/lib/rate-limited-server.mjs";
import { pipe, settingsEnvelope } from "../support/sdk-fixtures.js";
import { commandThatRuns, skipOrFailInCi } from "../support/system-tools.js";

const redisServer = commandThatRuns(["redis-server", "/usr/bin/redis-server"], ["--version"]);
skipOrFailInCi(redisServer ? undefined : "skipping the Redis store test: no redis-server (apt-get install redis-server)");

let redis: ChildProcess | undefined;
let redisPort = 0;
beforeAll(async () => {
  if (!redisServer) return;
  redisPort = await freePort();
  redis = spawn(redisServer, ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  // Ready when it answers PING.
  for (let tries = 0; tries < 100; tries++) {
    if (spawnSync("redis-cli", ["-p", String(redisPort), "ping"], { encoding: "utf8" }).stdout?.trim() === "PONG") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("redis-server did not start");
});
afterAll(() => {
  redis?.kill();
});

/** Runs one worker process; resolves to its report. */
function worker(options: object): Promise<{ succeeded: number; failed: number; firstFailure?: string }> {
  const child = fork(fileURLToPath(new URL("../support/redis-worker.mjs", import.meta.url)), [JSON.stringify(options)], { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("error", reject);
    child.once("exit", (code) => code !== 0 && reject(new Error(`a worker exited with ${code}`)));
  });
}

it.skipIf(!redisServer)(
  "three processes sharing one key through Redis all succeed under a server enforcing 10 per 1 s, with no request wasted (requests = calls)",
  async () => {
    const server = await startRateLimitedServer({ requests: 10, intervalMs: 1000 }, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort, calls: 20, pipe, limit: { requests: 10, intervalMs: 1000 } };
      const started = Date.now();
      const reports = await Promise.all(["ioredis", "redis", "ioredis"].map((redisClient) => worker({ ...common, redisClient })));
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
      for (const key of keys) expect(key).toMatch(/^ingestion-api:\{[0-9a-f]{32}\}(:paused)?$/);
    } finally {
      await server.close();
    }
  },
  60_000,
);
