// `ingestion-api/redis` when Redis goes away and comes back: a Redis killed mid-run fails no call; each process counts
// in its own memory meanwhile, keeps its share of the limit, and says so once, and once when Redis is back. One that
// stays down: redis-down.test.ts (a file, and a Redis, of its own, so that both run side by side).
import { expect, it } from "vitest";
import { startRateLimitedServer } from "../../scripts/lib/rate-limited-server.mjs";
import { startedForFile } from "../support/child-reaper.js";
import { fleet, limit, lines, redisOfFile, redisServer, sleep } from "../support/redis-fleet.js";
import { pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

const file = redisOfFile();

it.skipIf(!redisServer)(
  "a Redis killed mid-run fails no call: each process says once that it counts alone, and once, when Redis is back, that it shares again",
  async () => {
    const server = await startRateLimitedServer(limit, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort: file.port, calls: 30, pipe, limit, keyId: "outage-key", awaitReturnMs: 5_000 };
      const { reports: running } = await fleet(["ioredis", "redis", "ioredis"].map((redisClient) => ({ ...common, redisClient })));
      await sleep(1_500);
      await file.redis?.kill();
      await sleep(2_500);
      await startedForFile(async () => file.redis?.restart());
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
