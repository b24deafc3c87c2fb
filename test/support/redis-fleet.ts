// What the tests of `ingestion-api/redis` against a real redis-server share: a redis-server per test file (so the
// files run side by side, each killing or flushing only its own), worker processes on one key (redis-worker.mjs)
// started together, and what their reports say. Locally the tests are skipped, saying why, when no redis-server is
// installed; in CI (CI=true) that is a failure instead.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { startRedisServer } from "../../scripts/lib/redis-server.mjs";
import { commandThatRuns, skipOrFailInCi } from "./system-tools.js";

export const redisServer = commandThatRuns(["redis-server", "/usr/bin/redis-server"], ["--version"]);

/** The redis-server of the file that calls this: started before its tests, stopped after them. */
export function redisOfFile(): { redis: Awaited<ReturnType<typeof startRedisServer>> | undefined; port: number } {
  skipOrFailInCi(redisServer ? undefined : "skipping the Redis store test: no redis-server (apt-get install redis-server)");
  const file: ReturnType<typeof redisOfFile> = { redis: undefined, port: 0 };
  beforeAll(async () => {
    if (!redisServer) return;
    file.redis = await startRedisServer();
    file.port = file.redis.port;
  });
  afterAll(async () => {
    await file.redis?.stop();
  });
  return file;
}

export const limit = { requests: 10, intervalMs: 1_000 };
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Report {
  succeeded: number;
  failed: number;
  firstFailure?: string;
  logged: string[];
  elapsedMs: number;
}

/** Runs one worker process: `ready` once its Redis client is connected, `go()` fires its calls, `report` when they ended. */
function worker(options: object): { ready: Promise<void>; go: () => void; report: Promise<Report> } {
  const child = fork(fileURLToPath(new URL("redis-worker.mjs", import.meta.url)), [JSON.stringify(options)], { stdio: "inherit" });
  const failed = new Promise<never>((_, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => code !== 0 && reject(new Error(`a worker exited with ${code}`)));
  });
  const message = (type: string) =>
    Promise.race([
      new Promise<Report>((resolve) => child.on("message", (received: Report & { type: string }) => received.type === type && resolve(received))),
      failed,
    ]);
  return { ready: message("ready").then(() => undefined), go: () => child.send("go"), report: message("report") };
}

/**
 * Runs workers together; resolves once every one has connected to Redis and all fired their calls at once (a busy
 * machine can take seconds to start a process: one started first would send alone, and an outage timed from the
 * fork would come before some of them ever used Redis).
 */
export async function fleet(options: object[]): Promise<{ reports: Promise<Report[]> }> {
  const workers = options.map(worker);
  await Promise.all(workers.map(({ ready }) => ready));
  for (const { go } of workers) go();
  return { reports: Promise.all(workers.map(({ report }) => report)) };
}

/** The lines of each report that say the store fell back, and that it came back. */
export const lines = (reports: Report[]) =>
  reports.map(({ logged }) => ({
    fellBack: logged.filter((line) => line.includes("counting each credential's sends in this process")).length,
    cameBack: logged.filter((line) => line.includes("sharing each credential's count again")).length,
  }));
