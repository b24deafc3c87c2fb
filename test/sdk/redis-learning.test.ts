// `ingestion-api/redis` sharing what a 429 teaches: four processes told twice the server's limit slow down together.
import { expect, it } from "vitest";
import { startRateLimitedServer } from "../../scripts/lib/rate-limited-server.mjs";
import { fleet, limit, redisOfFile, redisServer } from "../support/redis-fleet.js";
import { pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

const file = redisOfFile();

it.skipIf(!redisServer)(
  "the budget a 429 teaches is shared: four processes told twice the server's limit send at most 15% more requests than calls",
  async () => {
    const server = await startRateLimitedServer({ requests: 5, intervalMs: 1_000 }, { management: settingsEnvelope, alerts: {} });
    try {
      const common = { url: server.url, redisPort: file.port, calls: 15, pipe, limit, keyId: "strict-key" };
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
