// How the Redis store's scripts reach Redis: as text (EVAL) the first time each client runs each, which loads them,
// then by their SHA-1 (EVALSHA), and as text again only when Redis answers NOSCRIPT (a restart, a failover, SCRIPT
// FLUSH). The first run goes as text rather than as a SHA-1 that may come back NOSCRIPT because a client sends its
// commands in order: an EVAL sent after a NOSCRIPT would run after commands sent meanwhile (a 429's pause after the
// take of the call that got it, which then went out unpaused). Through ioredis or node-redis alike: neither is asked to define the scripts, since the store
// takes a client it did not create.
import { UnusableStoreError } from "./unusable-store.js";

/** An ioredis client (`new Redis(...)`, `new Cluster(...)`) or a connected node-redis one (`createClient(...)`, v4 or later). */
export type RedisClient = object;

/** The oldest Redis the scripts run on: they read TIME before they write, which Redis replicates by effects from 5.0. */
export const minimumRedisVersion = "5.0";

/** A Redis that cannot run the store's scripts at all: the store counts in memory instead, for good. */
export class RedisTooOldError extends UnusableStoreError {
  constructor(reply: string) {
    super(`this Redis cannot run the store's scripts (Redis ${minimumRedisVersion} or later is needed): ${reply}`);
    this.name = "RedisTooOldError";
  }
}

// What a Redis before 5.0 answers a script that writes after reading TIME, and what one without scripting answers.
const tooOldReplies = [/non[- ]deterministic commands/i, /unknown command .?eval/i];

/** ioredis's script commands: positional arguments. */
interface Ioredis {
  evalsha(sha: string, keyCount: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, keyCount: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/** node-redis's: an object. */
interface NodeRedis {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

// The SHA-1 of each script, made once (Web Crypto, so no Node import); the store has four.
const shas = new Map<string, Promise<string>>();
// The scripts each client has run (so Redis has them, unless it lost them since), by SHA-1.
const loaded = new WeakMap<RedisClient, Set<string>>();

function shaOf(script: string): Promise<string> {
  let sha = shas.get(script);
  if (!sha) {
    sha = crypto.subtle
      .digest("SHA-1", new TextEncoder().encode(script))
      .then((digest) => [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join(""));
    shas.set(script, sha);
  }
  return sha;
}

/**
 * Runs a script: as text the first time a client runs it, then by its SHA-1, as text again after NOSCRIPT. Rejects
 * as the client does when Redis does not answer, and with a RedisTooOldError when Redis cannot run the scripts.
 */
export async function runScript(client: RedisClient, script: string, keys: string[], args: string[]): Promise<unknown> {
  const sha = await shaOf(script);
  const ioredis = typeof (client as { defineCommand?: unknown }).defineCommand === "function" ? (client as Ioredis) : undefined;
  const nodeRedis = client as NodeRedis;
  let known = loaded.get(client);
  if (!known) {
    known = new Set();
    loaded.set(client, known);
  }
  const asText = async () => {
    const answer = await (ioredis ? ioredis.eval(script, keys.length, ...keys, ...args) : nodeRedis.eval(script, { keys, arguments: args }));
    (known as Set<string>).add(sha);
    return answer;
  };
  try {
    if (!known.has(sha)) return await asText();
    try {
      return await (ioredis ? ioredis.evalsha(sha, keys.length, ...keys, ...args) : nodeRedis.evalSha(sha, { keys, arguments: args }));
    } catch (error) {
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      known.delete(sha);
      return await asText();
    }
  } catch (error) {
    const reply = String((error as Error)?.message);
    throw tooOldReplies.some((pattern) => pattern.test(reply)) ? new RedisTooOldError(reply) : error;
  }
}
