// The Redis store's scripts do what the memory store does, rule for rule: the same takes, 429s and answers, on the
// real clock, get the same turns from both (the waits within a few milliseconds), so the fleet learns, pauses and
// paces as one process does. Against a real redis-server; locally skipped without one, in CI (CI=true) a failure.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer } from "../../scripts/lib/redis-server.mjs";
import { createMemoryRateLimitStore } from "../../src/client/memory-store.js";
import type { RateLimit, RateLimitStore, Turn } from "../../src/client/rate-limit.js";
import { redisRateLimitStore } from "../../src/shared-store/redis-store.js";
import { commandThatRuns, skipOrFailInCi } from "../support/system-tools.js";

const hasRedis = commandThatRuns(["redis-server", "/usr/bin/redis-server"], ["--version"]) !== undefined;
skipOrFailInCi(hasRedis ? undefined : "skipping the Redis store's rules: no redis-server (apt-get install redis-server)");

let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
let client: Redis | undefined;
beforeAll(async () => {
  if (!hasRedis) return;
  redis = await startRedisServer();
  client = new Redis({ port: redis.port, host: "127.0.0.1", lazyConnect: true });
  await client.connect();
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

const limit: RateLimit = { requests: 10, intervalMs: 1_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let keys = 0;

/** One step of a scenario, run against a store and a key: what it answers, or nothing. */
type Step = (store: RateLimitStore, key: string) => Promise<Turn | Turn[] | undefined>;
const take =
  (configured: RateLimit | undefined, times = 1): Step =>
  async (store, key) => {
    const turns: Turn[] = [];
    for (let time = 0; time < times; time++) turns.push(await store.take(key, configured));
    return turns;
  };
const limited =
  (configured: RateLimit | undefined, waitMs: number, elapsedMs: number): Step =>
  async (store, key) => {
    await store.limited(key, configured, waitMs, elapsedMs);
    return undefined;
  };
const answered =
  (configured: RateLimit, elapsedMs: number): Step =>
  async (store, key) => {
    await store.answered?.(key, configured, elapsedMs);
    return undefined;
  };
const wait =
  (ms: number): Step =>
  async () => {
    await sleep(ms);
    return undefined;
  };

/** Runs the steps against a fresh key of both stores at once, so both see the same clock; resolves to both answers. */
async function both(steps: Step[]) {
  const memory = createMemoryRateLimitStore();
  const shared = redisRateLimitStore(client as Redis, "stores-test");
  const key = `rate-limit-stores.test ${keys++}`;
  const run = async (store: RateLimitStore) => {
    const answers: unknown[] = [];
    for (const step of steps) answers.push(await step(store, key));
    return answers;
  };
  const [fromMemory, fromRedis] = await Promise.all([run(memory), run(shared)]);
  return { fromMemory, fromRedis };
}

/**
 * The answers without their times (waits, and the intervals learned without a limit, which run to the end of a
 * pause), and the times apart: the stores are compared a few milliseconds apart.
 */
function split(answers: unknown[]) {
  const waits: number[] = [];
  const shapes = JSON.parse(JSON.stringify(answers), (name, value) => {
    if (name !== "waitMs" && name !== "intervalMs") return value;
    waits.push(value);
    return "ms";
  });
  return { shapes, waits };
}

/** The same answers from both stores, each time within 30 ms of the other's; resolves to the memory store's times. */
function expectAlike(fromMemory: unknown[], fromRedis: unknown[]): number[] {
  const [memory, redis] = [split(fromMemory), split(fromRedis)];
  expect(redis.shapes).toEqual(memory.shapes);
  for (const [index, ms] of redis.waits.entries()) expect(Math.abs(ms - (memory.waits[index] as number))).toBeLessThanOrEqual(30);
  return memory.waits;
}

describe.skipIf(!hasRedis)("the Redis store and the memory store answer alike", () => {
  it("under a limit: as many sends as it allows, then the wait until the first leaves the widened window", async () => {
    const { fromMemory, fromRedis } = await both([take({ requests: 3, intervalMs: 1_000 }, 4)]);
    const [waitMs] = expectAlike(fromMemory, fromRedis);
    expect(fromMemory).toEqual([[0, 0, 0, { waitMs, paused: false }]]);
    expect(waitMs).toBeGreaterThan(1_000);
    expect(waitMs).toBeLessThanOrEqual(1_050);
  });

  it("a 429's pause, a shorter one after it not shortening it", async () => {
    const { fromMemory, fromRedis } = await both([limited(limit, 2_000, 0), limited(limit, 500, 0), take(limit), take(undefined)]);
    const waits = expectAlike(fromMemory, fromRedis);
    expect(fromMemory.slice(2)).toEqual([[{ waitMs: expect.any(Number), paused: true }], [{ waitMs: expect.any(Number), paused: true }]]);
    for (const waitMs of waits) expect(waitMs).toBeGreaterThan(1_900);
  });

  it("the budget a 429 teaches: the window's sends but that one, one fewer per other 429 of the window, named in the refusal", async () => {
    const { fromMemory, fromRedis } = await both([take(limit, 6), wait(100), limited(limit, 300, 50), limited(limit, 300, 200), wait(300), take(limit, 5)]);
    expectAlike(fromMemory, fromRedis);
    expect(fromMemory.at(-1)).toEqual([
      { waitMs: expect.any(Number), paused: false, lowered: { requests: 4, intervalMs: 1_000 } },
      ...Array(4).fill(expect.anything()),
    ]);
  });

  it("a budget grows back a step at a time, and a 429 while lowered doubles the step", async () => {
    const fast = { requests: 10, intervalMs: 300 };
    const steps = [take(fast, 6), limited(fast, 0, 0), wait(450), take(fast, 7), limited(fast, 0, 0), wait(450), take(fast, 6), wait(300), take(fast, 7)];
    const { fromMemory, fromRedis } = await both(steps);
    expectAlike(fromMemory, fromRedis);
    const refusals = [3, 6, 8].map((step) => (fromMemory[step] as Exclude<Turn, 0>[]).at(-1)?.lowered?.requests);
    // Grown to 6 a window after the first 429; 5 again after the second, not grown half a step (2 windows) later; 6 a step later.
    expect(refusals).toEqual([6, 5, 6]);
  });

  it("without a limit of its own: the sends since the last 429, over the time from the first to the end of the pause", async () => {
    const { fromMemory, fromRedis } = await both([take(undefined, 4), wait(200), limited(undefined, 500, 0), wait(500), take(undefined, 4)]);
    const learned = (answers: unknown[]) => (answers.at(-1) as Exclude<Turn, 0>[]).at(-1)?.lowered;
    expect(learned(fromRedis)?.requests).toBe(3);
    expect(learned(fromMemory)?.requests).toBe(3);
    // From the first send to the end of the pause: about 700 ms, in both.
    expect(Math.abs((learned(fromRedis)?.intervalMs ?? 0) - (learned(fromMemory)?.intervalMs ?? 0))).toBeLessThan(30);
    expect(learned(fromMemory)?.intervalMs).toBeGreaterThanOrEqual(700);
  });

  it("without a limit of its own, a 429 counts only the sends since the last one", async () => {
    const steps = [
      take(undefined),
      limited(undefined, 300, 0),
      wait(300),
      take(undefined, 3),
      wait(100),
      limited(undefined, 300, 0),
      wait(300),
      take(undefined, 3),
    ];
    const { fromMemory, fromRedis } = await both(steps);
    expectAlike(fromMemory, fromRedis);
    expect((fromMemory.at(-1) as Exclude<Turn, 0>[]).at(-1)?.lowered?.requests).toBe(2);
  });

  it("an answer moves its send to now: a single-send limit's next turn counts from the answer", async () => {
    const single = { requests: 1, intervalMs: 1_000 };
    const { fromMemory, fromRedis } = await both([take(single), wait(400), answered(single, 400), take(single)]);
    const waits = expectAlike(fromMemory, fromRedis);
    // Counted from the answer, 400 ms after the take: a window and its margin from then, not from the take.
    expect(fromMemory.at(-1)).toEqual([{ waitMs: expect.any(Number), paused: false }]);
    expect(waits.at(-1)).toBeGreaterThan(1_000);
  });

  it("counts the stores that took a send of the credential in the last minute, by a random id each", async () => {
    const [one, two] = [redisRateLimitStore(client as Redis, "sharers"), redisRateLimitStore(client as Redis, "sharers")];
    const credential = `management https://api.example sharers ${keys++}`;
    expect(one.sharers(credential)).toBe(1);
    await one.take(credential, limit);
    await two.take(credential, limit);
    await one.take(credential, limit);
    expect([one.sharers(credential), two.sharers(credential)]).toEqual([2, 2]);
    // Refused takes count too: a store that waits still shares the limit.
    await one.limited(credential, limit, 5_000, 0);
    const third = redisRateLimitStore(client as Redis, "sharers");
    expect(await third.take(credential, limit)).toMatchObject({ paused: true });
    expect(third.sharers(credential)).toBe(3);
  });

  it("keeps a credential's keys under the prefix and one hash tag, never the credential itself", async () => {
    const shared = redisRateLimitStore(client as Redis, "tagged");
    await shared.take("management https://api.example key-id-in-clear", limit);
    await shared.limited("management https://api.example key-id-in-clear", limit, 1_000, 0);
    const names = await (client as Redis).keys("tagged:*");
    expect(names.sort()).toEqual([
      expect.stringMatching(/^tagged:\{[0-9a-f]{32}\}$/),
      expect.stringMatching(/^tagged:\{[0-9a-f]{32}\}:learned$/),
      expect.stringMatching(/^tagged:\{[0-9a-f]{32}\}:paused$/),
      expect.stringMatching(/^tagged:\{[0-9a-f]{32}\}:senders$/),
    ]);
    expect(new Set(names.map((name) => /\{(.*)\}/.exec(name)?.[1])).size).toBe(1);
  });
});
