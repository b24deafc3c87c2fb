// The rate-limit store as Redis keeps it, for every process given the same Redis and prefix: a credential's sliding
// log, its pause and the budget its 429s taught, each changed by one Lua script (redis-scripts.ts), so a take or a
// 429 is one round trip and atomic. Times are Redis's own clock (TIME), so the machines' clocks never matter. The
// scripts do what the memory store (src/client/memory-store.ts) does, rule for rule;
// test/sdk/rate-limit-stores.test.ts holds both to it.
import type { RateLimit, RateLimitStore, Turn } from "../client/rate-limit.js";
import { type RedisClient, runScript } from "./redis-commands.js";
import { answeredScript, limitedScript, releaseScript, takeScript } from "./redis-scripts.js";

/** A limit as the scripts take it: 0 and 0 for none. */
const limitArgs = (limit: RateLimit | undefined): string[] => (limit ? [String(limit.requests), String(limit.intervalMs)] : ["0", "0"]);

/** A store several processes share, which knows how many share each credential. */
export interface SharedRateLimitStore extends RateLimitStore {
  /** How many stores took a send of `key` in the last minute, the most its takes saw in that minute; 1 before any. */
  sharers(key: string): number;
}

/**
 * The store over a Redis client, whose commands reject when Redis does not answer; its keys start with `keyPrefix`,
 * and name a credential by a hash, never itself.
 */
export function redisRateLimitStore(client: RedisClient, keyPrefix: string): SharedRateLimitStore {
  // This store among those sharing a credential: a random id, which says nothing of the process or the credential.
  const id = crypto.randomUUID();
  // The sends this store took, for their tickets.
  let taken = 0;
  // The most stores seen sharing each credential in the last minute, and when: a Redis that restarted empty counts
  // them again from one, and a process that must count alone then keeps its share of the fleet it knew.
  const sharing = new Map<string, { count: number; at: number }>();
  // The SHA-256 of each key, made once per credential (Web Crypto, so no Node import), in a hash tag that keeps a
  // credential's keys in one Redis Cluster slot.
  const hashes = new Map<string, Promise<string[]>>();
  // Both maps keep a credential while it takes sends: the first take after each second drops those whose last
  // minute is over, so a process serving many credentials holds only those in use.
  let sweepAt = 0;
  const sweep = (now: number) => {
    for (const [key, { at }] of sharing) {
      if (now - at > 60_000) {
        sharing.delete(key);
        hashes.delete(key);
      }
    }
    sweepAt = now + 1_000;
  };
  const keysOf = (key: string): Promise<string[]> => {
    let keys = hashes.get(key);
    if (!keys) {
      keys = crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)).then((digest) => {
        const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
        const log = `${keyPrefix}:{${hex.slice(0, 32)}}`;
        return [log, `${log}:paused`, `${log}:learned`, `${log}:senders`];
      });
      hashes.set(key, keys);
    }
    return keys;
  };
  return {
    async take(key, limit): Promise<Turn> {
      const answer = (await runScript(client, takeScript, await keysOf(key), [...limitArgs(limit), id, String(++taken)])) as unknown[];
      const [kind, sharers, waitMs, requests, intervalMs] = answer.map(Number) as number[];
      const now = performance.now();
      if (now >= sweepAt) sweep(now);
      const seen = sharing.get(key);
      if (!seen || (sharers as number) >= seen.count || now - seen.at > 60_000) sharing.set(key, { count: sharers as number, at: now });
      if (kind === 0) return String(answer[2]);
      if (kind === 2)
        return { waitMs: Math.max(1, waitMs as number), paused: false, lowered: { requests: requests as number, intervalMs: intervalMs as number } };
      return { waitMs: Math.max(1, waitMs as number), paused: kind === 1 };
    },
    async limited(key, limit, waitMs, ticket) {
      await runScript(client, limitedScript, await keysOf(key), [...limitArgs(limit), String(Math.ceil(waitMs)), ticket]);
    },
    async answered(key, limit, ticket) {
      await runScript(client, answeredScript, await keysOf(key), [...limitArgs(limit), ticket]);
    },
    async release(key, ticket) {
      const [log] = await keysOf(key);
      await runScript(client, releaseScript, [log as string], [ticket]);
    },
    sharers: (key) => sharing.get(key)?.count ?? 1,
  };
}
