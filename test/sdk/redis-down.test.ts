// `ingestion-api/redis` when Redis goes away for good: a Redis killed mid-run fails no call; each process counts in its
// own memory from then on, keeps its share of the limit, and says so once. One that comes back: redis-outage.test.ts.
import { expect, it } from "vitest";
import { startRateLimitedServer } from "../../scripts/lib/rate-limited-server.mjs";
import { startedForFile } from "../support/child-reaper.js";
import { fleet, limit, lines, redisOfFile, redisServer, sleep } from "../support/redis-fleet.js";
import { pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

const file = redisOfFile();

it.skipIf(!redisServer)(
  "a Redis that is killed and stays down fails no call: each process says once that it counts alone, and never that it is back",
  async () => {
    const server = await startRateLimitedServer(limit, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort: file.port, calls: 20, pipe, limit, keyId: "gone-key" };
      const { reports: running } = await fleet(["ioredis", "redis"].map((redisClient) => ({ ...common, redisClient })));
      await sleep(1_000);
      await file.redis?.kill();
      const reports = await running;
      expect(reports.map(({ failed, firstFailure }) => ({ failed, firstFailure }))).toEqual(reports.map(() => ({ failed: 0, firstFailure: undefined })));
      expect(lines(reports)).toEqual(reports.map(() => ({ fellBack: 1, cameBack: 0 })));
      // Apart, each keeps its share of the limit (5 a second of the 10): a few 429s at most as they part.
      expect(server.counts().received).toBeLessThanOrEqual(1.2 * 40);
    } finally {
      await startedForFile(async () => file.redis?.restart());
      await server.close();
    }
  },
  60_000,
);
