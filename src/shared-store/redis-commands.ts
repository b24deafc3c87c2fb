// How the Redis store's scripts reach Redis: by their SHA-1 (EVALSHA), about 100 bytes a call, and as text (EVAL)
// only when Redis does not have them yet (a new server, a restart, a failover, SCRIPT FLUSH), which also loads them
// for the calls after. Through ioredis or node-redis alike: neither is asked to define the scripts, since the store
// takes a client it did not create.
import { UnusableStoreError } from "./fail-open.js";

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
const tooOldReplies = [/non[- ]deterministic commands/i, /unknown command .?evalsha/i];

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
 * Runs a script by its SHA-1, sending its text only when Redis answers NOSCRIPT. Rejects as the client does when
 * Redis does not answer, and with a RedisTooOldError when Redis cannot run the scripts.
 */
export async function runScript(client: RedisClient, script: string, keys: string[], args: string[]): Promise<unknown> {
  const sha = await shaOf(script);
  const ioredis = typeof (client as { defineCommand?: unknown }).defineCommand === "function" ? (client as Ioredis) : undefined;
  const nodeRedis = client as NodeRedis;
  try {
    try {
      return await (ioredis ? ioredis.evalsha(sha, keys.length, ...keys, ...args) : nodeRedis.evalSha(sha, { keys, arguments: args }));
    } catch (error) {
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      return await (ioredis ? ioredis.eval(script, keys.length, ...keys, ...args) : nodeRedis.eval(script, { keys, arguments: args }));
    }
  } catch (error) {
    const reply = String((error as Error)?.message);
    throw tooOldReplies.some((pattern) => pattern.test(reply)) ? new RedisTooOldError(reply) : error;
  }
}
