// `ingestion-api/redis`: a rate-limit store that several processes or machines share through Redis, so a CI fleet
// or a pool of workers on one key stays within its limit together. Built on rate-limiter-flexible (bundled in),
// whose RateLimiterRedis runs a script of ours: a sliding log in milliseconds, timed by Redis's own clock (so the
// machines' clocks never matter), that also answers a shared pause set by any process's 429.
import type { RateLimiterRedis as RedisLimiter } from "rate-limiter-flexible";
import RateLimiterRedis from "rate-limiter-flexible/lib/RateLimiterRedis.js";
import RateLimiterRes from "rate-limiter-flexible/lib/RateLimiterRes.js";
import { IngestionError } from "./client/errors.js";
import { marginMs, type RateLimit, type RateLimitStore, type Turn } from "./client/rate-limit.js";

export type { RateLimit, RateLimitStore, Turn } from "./client/rate-limit.js";

/** An ioredis client (`new Redis(...)`) or a connected node-redis one (`createClient(...)`, v4 or later). */
export type RedisClient = object;

export interface RedisRateLimitStoreOptions {
  /** The client to share the budget through; the store never connects or closes it. */
  client: RedisClient;
  /** What every key of the store starts with. Default `ingestion-api`. */
  keyPrefix?: string;
}

// A send may leave when fewer than the limit were taken in the last window (ARGV[4], seconds), and the key is not
// paused. The answer is rate-limiter-flexible's {consumed, ms}: consumed beyond the limit means refused, and
// limit + 2 (rather than + 1) marks a pause, whose remaining time is the ms.
const slidingLog = `
local paused = redis.call('pttl', KEYS[1] .. ':paused')
local limit = tonumber(ARGV[3])
if paused > 0 then return {limit + 2, paused} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = math.floor(tonumber(ARGV[4]) * 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', now - window)
local taken = redis.call('zcard', KEYS[1])
if taken < limit then
  redis.call('zadd', KEYS[1], now, t[1] .. t[2] .. ':' .. taken)
  redis.call('pexpire', KEYS[1], window)
  return {taken + 1, window}
end
local leaving = redis.call('zrange', KEYS[1], taken - limit, taken - limit, 'WITHSCORES')
return {limit + 1, tonumber(leaving[2]) + window - now}`;

// What is left of a pause, for a client that sets no limit of its own.
const pausedFor = "return redis.call('pttl', KEYS[1])";

// Moves the latest send taken at or before ARGV[1] ms ago to now, and keeps the log for a window (ARGV[2] ms) from
// now: its answer has come, so the server counted it by now (see RateLimitStore.answered).
const answered = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local found = redis.call('zrevrangebyscore', KEYS[1], now - tonumber(ARGV[1]), '-inf', 'LIMIT', 0, 1)
if #found == 0 then return 0 end
redis.call('zadd', KEYS[1], now, found[1])
if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then redis.call('pexpire', KEYS[1], ARGV[2]) end
return 1`;

// Sets the pause, unless a longer one is already set.
const pause = `
if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then redis.call('set', KEYS[1], '1', 'PX', ARGV[1]) end
return 0`;

/** Runs a script through whichever client it is: ioredis takes positional arguments, node-redis an object. */
function evaluate(client: RedisClient, script: string, key: string, ...args: string[]): Promise<unknown> {
  const redis = client as { defineCommand?: unknown; eval: (...args: unknown[]) => Promise<unknown> };
  return typeof redis.defineCommand === "function" ? redis.eval(script, 1, key, ...args) : redis.eval(script, { keys: [key], arguments: args });
}

/**
 * A store for `rateLimitStore` that every process given the same Redis (and prefix) shares: calls of one credential
 * leave no faster than its limit across all of them, and a 429 any of them gets pauses them all. Keys hold a hash of
 * the credential, never the credential. Intervals under 1 s are refused.
 */
export function createRedisRateLimitStore({ client, keyPrefix = "ingestion-api" }: RedisRateLimitStoreOptions): RateLimitStore {
  if (typeof (client as { eval?: unknown })?.eval !== "function")
    throw new IngestionError("createRedisRateLimitStore: client must be an ioredis or node-redis client");
  const useRedisPackage = typeof (client as { defineCommand?: unknown }).defineCommand !== "function";
  // One limiter per limit in use: rate-limiter-flexible fixes the points and the window of each.
  const limiters = new Map<string, RedisLimiter>();
  const limiterFor = (limit: RateLimit) => {
    const name = `${limit.requests}/${limit.intervalMs}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      const windowMs = limit.intervalMs + marginMs(limit);
      limiter = new RateLimiterRedis({
        storeClient: client,
        useRedisPackage,
        keyPrefix,
        points: limit.requests,
        duration: windowMs / 1000,
        customIncrTtlLuaScript: slidingLog,
      });
      limiters.set(name, limiter);
    }
    return limiter;
  };
  // The SHA-256 of each key, made once per credential (Web Crypto, so no Node import), in a hash tag that keeps a
  // credential's log and its pause in one Redis Cluster slot.
  const hashes = new Map<string, Promise<string>>();
  const hashed = (key: string): Promise<string> => {
    let hash = hashes.get(key);
    if (!hash) {
      hash = crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)).then((digest) => {
        const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
        return `{${hex.slice(0, 32)}}`;
      });
      hashes.set(key, hash);
    }
    return hash;
  };
  const pauseKey = async (key: string) => `${keyPrefix}:${await hashed(key)}:paused`;

  return {
    async take(key, limit) {
      if (!limit) {
        const pausedMs = Number(await evaluate(client, pausedFor, await pauseKey(key), "0"));
        return pausedMs > 0 ? { waitMs: pausedMs, paused: true } : 0;
      }
      if (limit.intervalMs < 1000) throw new IngestionError(`the Redis rate-limit store needs an interval of 1 s or more, not ${limit.intervalMs} ms`);
      const limiter = limiterFor(limit);
      try {
        await limiter.consume(await hashed(key));
        return 0;
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        const paused = refused.consumedPoints === limiter.points + 2;
        return { waitMs: Math.max(1, refused.msBeforeNext), paused } satisfies Turn;
      }
    },
    async pause(key, ms) {
      await evaluate(client, pause, await pauseKey(key), String(Math.ceil(ms)));
    },
    async answered(key, limit, elapsedMs) {
      await evaluate(client, answered, `${keyPrefix}:${await hashed(key)}`, String(Math.floor(elapsedMs)), String(limit.intervalMs + marginMs(limit)));
    },
  };
}
