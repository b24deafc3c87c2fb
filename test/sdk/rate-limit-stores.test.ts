// The Redis store's scripts do what the memory store does, rule for rule: the same takes, answers, releases and 429s
// get the same answers from both, so the fleet learns, pauses and paces as one process does. Tickets make most of it
// exact, whatever the clocks: which send an answer moves or a release takes out, whether the send to wait for is
// still in flight, whether a 429's send was taken before the last 429. Only a wait that counts down on each store's
// own clock (this process's, Redis's TIME) is compared within a few milliseconds: the steps marked `timed`. Against a
// real redis-server; locally skipped without one, in CI (CI=true) a failure.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer } from "../../scripts/lib/redis-server.mjs";
import { createMemoryRateLimitStore } from "../../src/client/memory-store.js";
import type { RateLimit, RateLimitStore, Ticket, Turn, Wait } from "../../src/client/rate-limit.js";
import { redisRateLimitStore } from "../../src/shared-store/redis-store.js";
import { importedBlock } from "../support/fenced-blocks.js";
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
/** A send's turn in the answers: each store names its sends its own way. */
const ticket = expect.any(String);
/** The refusal a take step got last. */
const refusal = (answer: unknown) => (answer as Turn[]).at(-1) as Wait;

/** A scenario's run against one store: its key, and the tickets its takes gave, in order. */
interface Run {
  store: RateLimitStore;
  key: string;
  tickets: Ticket[];
}
/** The send a step names: a ticket the run's takes gave, by its index (from the last when negative), or a ticket as is. */
type Sent = number | Ticket;
const ticketOf = ({ tickets }: Run, sent: Sent): Ticket => (typeof sent === "string" ? sent : (tickets.at(sent) as Ticket));

/** One step of a scenario, run against a store: the turns it got, or nothing. */
type Step = (run: Run) => Promise<Turn[] | undefined>;
const take =
  (configured: RateLimit | undefined, times = 1): Step =>
  async (run) => {
    const turns: Turn[] = [];
    for (let time = 0; time < times; time++) {
      const turn = await run.store.take(run.key, configured);
      if (typeof turn === "string") run.tickets.push(turn);
      turns.push(turn);
    }
    return turns;
  };
/** Takes, each send answered as soon as it is taken, as a fast server answers: it counts from about its take. */
const send =
  (configured: RateLimit | undefined, times = 1): Step =>
  async (run) => {
    const turns: Turn[] = [];
    for (let time = 0; time < times; time++) {
      const [turn] = (await take(configured)(run)) as [Turn];
      if (typeof turn === "string") await run.store.answered(run.key, configured, turn);
      turns.push(turn);
    }
    return turns;
  };
const answered =
  (configured: RateLimit | undefined, sent: Sent): Step =>
  async (run) => {
    await run.store.answered(run.key, configured, ticketOf(run, sent));
    return undefined;
  };
const limited =
  (configured: RateLimit | undefined, waitMs: number, sent: Sent): Step =>
  async (run) => {
    await run.store.limited(run.key, configured, waitMs, ticketOf(run, sent));
    return undefined;
  };
const release =
  (sent: Sent): Step =>
  async (run) => {
    await run.store.release(run.key, ticketOf(run, sent));
    return undefined;
  };
const wait =
  (ms: number): Step =>
  async () => {
    await sleep(ms);
    return undefined;
  };
/**
 * Waits out a pause of `ms`, and 10 ms more: a timer may fire a fraction of a millisecond early by the monotonic
 * clock, and a take then finds the memory store still paused.
 */
const waitOut = (ms: number): Step => wait(ms + 10);

/**
 * The steps whose times (waits, and the intervals learned without a limit, which run to the end of a pause) count
 * down on each store's own clock, this process's monotonic one and Redis's TIME, from a moment each store saw a
 * little apart: a pause, or an answered send leaving its window. The stores make each call together (inStep), so
 * they are a round trip apart at most (a few milliseconds, more on a busy machine), and Redis counts in whole
 * milliseconds: those times are compared within 30 ms. Every other answer is compared exactly.
 */
const timedSteps = new WeakSet<Step>();
const timed = (step: Step): Step => {
  timedSteps.add(step);
  return step;
};

/**
 * Runs the steps against a fresh key of both stores, each call on both at once, so both see the same clock, and holds them to the same
 * answers, exactly but for the times of the timed steps; resolves to the memory store's answers.
 */
async function alike(steps: Step[], other: () => RateLimitStore = () => redisRateLimitStore(client as Redis, "stores-test")): Promise<unknown[]> {
  const memory = createMemoryRateLimitStore();
  const shared = other();
  const key = `rate-limit-stores.test ${keys++}`;
  const runs: Run[] = inStep([memory, shared]).map((store) => ({ store, key, tickets: [] }));
  const fromMemory: unknown[] = [];
  const fromRedis: unknown[] = [];
  // Step by step, both at once, and each call to a store beside the other store's same call (inStep): the Redis
  // store's round trips make a step longer there, and apart they would move its later takes across a window's edge,
  // or a budget's growth, on one store alone.
  for (const step of steps) {
    const [inMemory, inRedis] = await Promise.all(runs.map(step));
    fromMemory.push(inMemory);
    fromRedis.push(inRedis);
  }
  const memoryTimes: number[] = [];
  const redisTimes: number[] = [];
  expect(compared(fromRedis, steps, redisTimes)).toEqual(compared(fromMemory, steps, memoryTimes));
  for (const [index, ms] of redisTimes.entries()) expect(Math.abs(ms - (memoryTimes[index] as number))).toBeLessThanOrEqual(30);
  return fromMemory;
}

/**
 * The two stores, each call of one made together with the same call (by count) of the other, so both count it from
 * the same moment: the memory store answers at once, the other within a round trip. A call the other store's run does
 * not make (the runs went apart: the test fails on their answers) goes alone after 100 ms.
 */
function inStep(stores: [RateLimitStore, RateLimitStore]): RateLimitStore[] {
  const arrived: [number, number] = [0, 0];
  const waiting: [Map<number, () => void>, Map<number, () => void>] = [new Map(), new Map()];
  const meet = (side: 0 | 1): Promise<void> => {
    const call = arrived[side]++;
    const other = waiting[1 - side]?.get(call);
    if (other) {
      waiting[1 - side]?.delete(call);
      other();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const alone = setTimeout(resolve, 100);
      waiting[side].set(call, () => {
        clearTimeout(alone);
        resolve();
      });
    });
  };
  return stores.map((store, index) => {
    const side = index as 0 | 1;
    return {
      take: (...args) => meet(side).then(() => store.take(...args)),
      answered: (...args) => meet(side).then(() => store.answered(...args)),
      limited: (...args) => meet(side).then(() => store.limited(...args)),
      release: (...args) => meet(side).then(() => store.release(...args)),
    };
  });
}

/** Answers as compared: every ticket alike, and the times of the timed steps apart, in `times`. */
function compared(answers: unknown[], steps: Step[], times: number[]): unknown[] {
  return answers.map(
    (answer, index) =>
      answer &&
      JSON.parse(JSON.stringify(answer), (name, value) => {
        if (typeof value === "string") return "ticket";
        if (!timedSteps.has(steps[index] as Step) || (name !== "waitMs" && name !== "intervalMs")) return value;
        times.push(value);
        return "ms";
      }),
  );
}

/**
 * The rules a store keeps without learning a pace from 429s: the window, a send in flight, answers and releases by
 * ticket, a pause. `same` runs steps on the memory store and another, holding them to the same answers.
 */
function rulesWithoutLearning(same: (steps: Step[]) => Promise<unknown[]>) {
  it("under a limit: as many sends as it allows, then the wait until the first leaves the widened window", async () => {
    const answers = await same([timed(send({ requests: 3, intervalMs: 1_000 }, 4))]);
    expect(answers).toEqual([[ticket, ticket, ticket, { waitMs: expect.any(Number), paused: false }]]);
    // The first send counts from its answer, just after its take: a window and its margin from about then.
    expect(refusal(answers[0]).waitMs).toBeGreaterThan(1_000);
    expect(refusal(answers[0]).waitMs).toBeLessThanOrEqual(1_050);
  });

  it("a send counts in flight until its answer, however long after its take, and from its answer for a window", async () => {
    const single = { requests: 1, intervalMs: 200 };
    const answers = await same([take(single), wait(300), take(single), answered(single, 0), timed(take(single))]);
    // Past its window and margin, still in flight: the store is asked again a margin later, when its answer may have come.
    expect(answers[2]).toEqual([{ waitMs: 50, paused: false }]);
    // Answered: a window and its margin from the answer.
    expect(refusal(answers[4]).waitMs).toBeGreaterThan(200);
    expect(refusal(answers[4]).waitMs).toBeLessThanOrEqual(250);
  });

  it("an answer moves the send its ticket names to now, not another one", async () => {
    const pair = { requests: 2, intervalMs: 200 };
    const answers = await same([take(pair, 2), answered(pair, 1), wait(300), answered(pair, 0), timed(take(pair, 2))]);
    // The later send, answered first, has left its window; the earlier one counts from its own answer, just now.
    expect(answers.at(-1)).toEqual([ticket, { waitMs: expect.any(Number), paused: false }]);
    expect(refusal(answers.at(-1)).waitMs).toBeGreaterThan(200);
  });

  it("a release gives the send's turn back, to the next take", async () => {
    const pair = { requests: 2, intervalMs: 1_000 };
    const answers = await same([take(pair, 3), release(0), take(pair, 2), release(-1), take(pair, 2)]);
    const full = { waitMs: 50, paused: false };
    expect(answers).toEqual([[ticket, ticket, full], undefined, [ticket, full], undefined, [ticket, full]]);
  });

  it("an answer or a release of a ticket the store never gave, or took back, changes nothing", async () => {
    const pair = { requests: 2, intervalMs: 1_000 };
    const never = "0:never-taken";
    const steps = [
      take(pair),
      answered(pair, never),
      take(pair, 2),
      release(never),
      take(pair),
      release(0),
      answered(pair, 0),
      take(pair, 2),
      release(0),
      take(pair),
    ];
    const answers = await same(steps);
    // The store waits for the answer of the first send still in flight, each time. A send the answer added or moved
    // to now would refuse at once, or wait a window; one the release took out by mistake would let a take go.
    const full = { waitMs: 50, paused: false };
    expect(answers.filter(Boolean)).toEqual([[ticket], [ticket, full], [full], [ticket, full], [full]]);
  });

  it("a 429's pause, a shorter one after it not shortening it", async () => {
    const answers = await same([take(limit), limited(limit, 2_000, 0), limited(limit, 500, 0), timed(take(limit)), timed(take(undefined))]);
    expect(answers.slice(3)).toEqual([[{ waitMs: expect.any(Number), paused: true }], [{ waitMs: expect.any(Number), paused: true }]]);
    for (const answer of answers.slice(3)) expect(refusal(answer).waitMs).toBeGreaterThan(1_900);
  });
}

describe.skipIf(!hasRedis)("the Redis store and the memory store answer alike", () => {
  rulesWithoutLearning(alike);

  it("the budget a 429 teaches: the window's sends but that one, one fewer per other 429 of the window, named in the refusal", async () => {
    const steps = [send(limit, 6), wait(100), limited(limit, 300, 0), limited(limit, 300, 1), waitOut(300), timed(take(limit, 5))];
    const answers = await alike(steps);
    expect(answers.at(-1)).toEqual(Array(5).fill({ waitMs: expect.any(Number), paused: false, lowered: { requests: 4, intervalMs: 1_000 } }));
  });

  it("a 429 on a send taken before the last 429 lowers the budget by one only; one taken after it starts a window", async () => {
    // The 429s ask for no pause, so that sends may still be taken between them.
    const steps = [
      take(limit, 6),
      wait(20),
      // 5: the six sends of the window, in flight or answered, but that one.
      answered(limit, 0),
      limited(limit, 0, 0),
      // 4: taken before the last 429, whatever its window holds (relearned from it, the budget would stay 5).
      answered(limit, 1),
      limited(limit, 0, 1),
      take(limit),
      ...[2, 3, 4, 5].map((sent) => release(sent)),
      take(limit),
      // 2: taken after the last 429, a window of its own, the three sends that count but that one (one fewer: 3).
      answered(limit, 6),
      limited(limit, 0, 6),
      // The send to wait for was answered: the wait counts down from its answer, on each store's clock.
      timed(take(limit)),
    ];
    const answers = await alike(steps);
    expect(answers.filter(Boolean)).toEqual([
      Array(6).fill(ticket),
      // The third send, still in flight, is the one to wait for.
      [{ waitMs: 50, paused: false, lowered: { requests: 4, intervalMs: 1_000 } }],
      [ticket],
      [{ waitMs: expect.any(Number), paused: false, lowered: { requests: 2, intervalMs: 1_000 } }],
    ]);
  });

  it("a budget grows back a step at a time, and a 429 while lowered doubles the step", async () => {
    const fast = { requests: 10, intervalMs: 300 };
    const steps = [
      send(fast, 6),
      limited(fast, 0, -1),
      wait(450),
      timed(send(fast, 7)),
      limited(fast, 0, -1),
      wait(450),
      timed(send(fast, 6)),
      wait(300),
      timed(send(fast, 7)),
    ];
    const answers = await alike(steps);
    const refusals = [3, 6, 8].map((step) => refusal(answers[step]).lowered?.requests);
    // Grown to 6 a window after the first 429; 5 again after the second, not grown half a step (2 windows) later; 6 a step later.
    expect(refusals).toEqual([6, 5, 6]);
  });

  it("without a limit of its own: the sends since the last 429, over the time from the first to the end of the pause", async () => {
    // Taken once the pause is over, and before the window learned (about 700 ms and its margin) has passed.
    const answers = await alike([send(undefined, 4), wait(200), limited(undefined, 500, -1), waitOut(500), timed(take(undefined, 4))]);
    const { lowered } = refusal(answers.at(-1));
    expect(lowered?.requests).toBe(3);
    // From the first send to the end of the pause: about 700 ms, in both (a timer may fire a little early).
    expect(lowered?.intervalMs).toBeGreaterThan(690);
  });

  it("without a limit of its own, a 429 counts only the sends since the last one", async () => {
    const steps = [
      send(undefined),
      limited(undefined, 300, -1),
      waitOut(300),
      send(undefined, 3),
      wait(100),
      limited(undefined, 300, -1),
      waitOut(300),
      timed(take(undefined, 3)),
    ];
    const answers = await alike(steps);
    expect(refusal(answers.at(-1)).lowered?.requests).toBe(2);
  });

  it("counts the stores that took a send of the credential in the last minute, by a random id each", async () => {
    const [one, two] = [redisRateLimitStore(client as Redis, "sharers"), redisRateLimitStore(client as Redis, "sharers")];
    const credential = `management https://api.example sharers ${keys++}`;
    expect(one.sharers(credential)).toBe(1);
    const first = (await one.take(credential, limit)) as Ticket;
    await two.take(credential, limit);
    await one.take(credential, limit);
    expect([one.sharers(credential), two.sharers(credential)]).toEqual([2, 2]);
    // Refused takes count too: a store that waits still shares the limit.
    await one.limited(credential, limit, 5_000, first);
    const third = redisRateLimitStore(client as Redis, "sharers");
    expect(await third.take(credential, limit)).toMatchObject({ paused: true });
    expect(third.sharers(credential)).toBe(3);
  });

  it("keeps a credential's keys under the prefix and one hash tag, never the credential itself", async () => {
    const shared = redisRateLimitStore(client as Redis, "tagged");
    const sent = (await shared.take("management https://api.example key-id-in-clear", limit)) as Ticket;
    await shared.limited("management https://api.example key-id-in-clear", limit, 1_000, sent);
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

// RATE-LIMITS.md's "A store of your own" block, as written there, run as a module: a reader copies what was tested.
describe("the Map store RATE-LIMITS.md shows answers as the memory store does", async () => {
  const { createMapRateLimitStore } = await importedBlock("RATE-LIMITS.md", "createMapRateLimitStore");
  rulesWithoutLearning((steps) => alike(steps, createMapRateLimitStore as () => RateLimitStore));
});
