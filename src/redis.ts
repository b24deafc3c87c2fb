// `ingestion-api/redis`: a rate-limit store that several processes or machines share through Redis, so a CI fleet
// or a pool of workers on one key stays within its limit together, pauses together on a 429 and slows down together
// to what the server was seen to accept. When Redis cannot answer, each process counts in its own memory until it
// does again, and says so: Redis paces the calls, it never fails them.
import { IngestionError } from "./client/errors.js";
import type { RateLimitStore } from "./client/rate-limit.js";
import { failingOpen, type StoreLogger } from "./shared-store/fail-open.js";
import type { RedisClient } from "./shared-store/redis-commands.js";
import { redisRateLimitStore } from "./shared-store/redis-store.js";

export type { RateLimit, RateLimitStore, Ticket, Turn, Wait } from "./client/rate-limit.js";
export type { StoreLogger } from "./shared-store/fail-open.js";
export type { RedisClient } from "./shared-store/redis-commands.js";

export interface RedisRateLimitStoreOptions {
  /** The client to share the budget through; the store never connects or closes it. */
  client: RedisClient;
  /** What every key of the store starts with. Default `ingestion-api`. */
  keyPrefix?: string;
  /** Where the store writes one `warn` line when it falls back to this process's memory and one when it returns. Default `console`. */
  logger?: StoreLogger;
  /**
   * How long a Redis command may take before the store counts in memory instead (the client's own offline queue
   * would hold it until Redis is back). Default 500 ms.
   */
  commandTimeoutMs?: number;
}

/**
 * A store for `rateLimitStore` that every process given the same Redis (and prefix) shares: calls of one credential
 * leave no faster than its limit across all of them, a 429 any of them gets pauses them all, and the budget it
 * teaches lowers them all. Keys hold a hash of the credential, never the credential. While Redis does not answer,
 * each process counts in its own memory, under the same limits, and tries Redis again about once a second.
 */
export function createRedisRateLimitStore({
  client,
  keyPrefix = "ingestion-api",
  logger = console,
  commandTimeoutMs = 500,
}: RedisRateLimitStoreOptions): RateLimitStore {
  if (typeof (client as { eval?: unknown })?.eval !== "function")
    throw new IngestionError("createRedisRateLimitStore: client must be an ioredis or node-redis client");
  if (typeof logger?.warn !== "function") throw new IngestionError("createRedisRateLimitStore: logger must have a warn method, like console");
  if (!Number.isFinite(commandTimeoutMs) || commandTimeoutMs < 1)
    throw new IngestionError(`createRedisRateLimitStore: commandTimeoutMs must be a number of milliseconds of 1 or more, not ${commandTimeoutMs}`);
  return failingOpen(redisRateLimitStore(client, keyPrefix), { logger, commandTimeoutMs, name: `the Redis rate-limit store (${keyPrefix})` });
}
