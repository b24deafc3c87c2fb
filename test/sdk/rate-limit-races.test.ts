// The rate-limit queue under every interleaving fast-check's scheduler picks, through the client's public options
// only: a store whose answers come when the scheduler says (at once, later, or as a failure), calls made and
// aborted at any point, an onRequest hook that takes time, and a server stand-in that answers 200 or 429 when the
// scheduler says. Timers run on a fake clock, moved on only when nothing scheduled is left to run. Whatever the
// order: no request leaves after its call's abort, an aborted call rejects at once, every call settles, a
// credential's calls are sent in the order they were made, the server never counts more than the limit in a
// window, a retry after a 429 waits until the store has recorded that 429's pause (whose write may answer late),
// nothing of ours is left waiting once every call has settled, and onQueued hears of no wait the store did not ask
// for.
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryRateLimitStore } from "../../src/client/memory-store.js";
import type { RateLimitStore } from "../../src/client/rate-limit.js";
import { createAlertsClient } from "../../src/index.js";
import { alertEnvelope, token } from "../support/sdk-fixtures.js";

// The scheduler drives promises; these timers run on the fake clock the driver below moves. setImmediate stays
// real: the driver waits on it to let every pending promise settle.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
  // The jitter a 429 adds to its pause: fixed, so that a failing schedule replays and shrinks the same way.
  vi.spyOn(Math, "random").mockReturnValue(0.5);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const limit = { requests: 2, intervalMs: 1_000 };
const baseUrl = "https://alerts.example";
const idOf = (call: number) => call.toString(16).padStart(24, "0");
const callOf = (url: string) => Number.parseInt(url.slice(url.lastIndexOf("/") + 1), 16);

/** What one call does: whether it has a signal and aborts it (when, the scheduler picks), how long its onRequest hook takes. */
const callPlan = fc.record({
  signal: fc.boolean(),
  // When its abort comes, on the fake clock: as soon as the scheduler picks it (0), or once that time has passed.
  abortAtMs: fc.option(fc.constantFrom(0, 50, 1_060, 1_100, 2_100)),
  hookMs: fc.constantFrom(0, 0, 30, 1_200),
});
/**
 * How the store answers each take, in order (then at once): synchronously, when the scheduler picks, 100 ms later
 * on the clock (as a store across a network does), or with a failure.
 */
const storeAnswer = fc.constantFrom("sync", "async", "late", "late", "fails");
/** How the store's `limited` (recording a 429's pause) answers each time, in order (then at once). */
const pauseAnswer = fc.constantFrom("sync", "async", "late");
/** What the server answers each request, in order (then 200). */
const serverAnswer = fc.constantFrom(200, 200, 200, 429);

const realTick = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Scenario {
  calls: { signal: boolean; abortAtMs: number | null; hookMs: number }[];
  store: ("sync" | "async" | "late" | "fails")[];
  pauses: ("sync" | "async" | "late")[];
  server: number[];
}

const properties = [
  "sends nothing after an abort",
  "rejects an aborted call at once",
  "settles every call",
  "sends a credential's calls in the order they were made",
  "keeps the server's count in any window within the limit",
  "takes a retry's turn only once its 429's pause is recorded",
  "leaves no timer once every call settled",
  "counts only the sends made: a cancelled call's turn goes back",
  "tells onQueued of a wait only when the store refused a turn",
] as const;

interface Broken {
  property: (typeof properties)[number];
  what: string;
}

/** Runs a scenario under the scheduler, and returns what broke the properties, if anything. */
async function run(s: fc.Scheduler, { calls, store: storeAnswers, pauses, server }: Scenario): Promise<Broken[]> {
  const broken: Broken[] = [];
  // What an earlier run left set is that run's failure, not this one's.
  vi.clearAllTimers();
  // The test's own timers (hooks, aborts to come, a late store): those left when every call has settled are not the SDK's.
  const testTimers = new Set<ReturnType<typeof setTimeout>>();
  const testTimer = (task: () => void, ms: number) => {
    const timer = setTimeout(() => {
      testTimers.delete(timer);
      task();
    }, ms);
    testTimers.add(timer);
  };
  const memory = createMemoryRateLimitStore();
  // The store the client is given: the memory store's answers, delivered as the plan says.
  let credential = "";
  let answered429 = false;
  // Which call each send's ticket belongs to: the scheduler runs one server answer at a time, and the client tells
  // the store of that send (answered) before anything else is scheduled.
  let answering = -1;
  const callOfTicket = new Map<string, number>();
  // The calls whose 429's pause the store is still recording (its limited() has not answered yet).
  const pauseUnrecorded = new Set<number>();
  // How many takes the store refused, and how many waits onQueued was told of: none told while none was refused.
  let refusals = 0;
  let told = 0;
  const store: RateLimitStore = {
    take(key, takenLimit) {
      credential = key;
      const how = storeAnswers.shift() ?? "sync";
      if (how === "fails")
        return s.schedule(Promise.resolve(), "store fails").then(() => {
          throw new Error("the store failed");
        });
      const turn = memory.take(key, takenLimit);
      if (typeof turn !== "string") refusals++;
      if (how === "sync") return turn;
      const answered = how === "late" ? new Promise<void>((resolve) => testTimer(resolve, 100)) : Promise.resolve();
      return answered.then(() => s.schedule(Promise.resolve(turn), `store answers ${JSON.stringify(turn)}`));
    },
    limited(key, limitedLimit, waitMs, ticket) {
      const call = callOfTicket.get(ticket);
      if (call === undefined) {
        broken.push({ property: "takes a retry's turn only once its 429's pause is recorded", what: `the test could not name the send of ticket ${ticket}` });
        return memory.limited(key, limitedLimit, waitMs, ticket);
      }
      const how = pauses.shift() ?? "sync";
      if (how === "sync") return memory.limited(key, limitedLimit, waitMs, ticket);
      pauseUnrecorded.add(call);
      const recorded = () => {
        memory.limited(key, limitedLimit, waitMs, ticket);
        pauseUnrecorded.delete(call);
      };
      if (how === "late") return new Promise<void>((resolve) => testTimer(resolve, 100)).then(recorded);
      return s.schedule(Promise.resolve(), `store records call ${call}'s pause`).then(recorded);
    },
    answered(key, answeredLimit, ticket) {
      if (answering >= 0) callOfTicket.set(ticket, answering);
      return memory.answered(key, answeredLimit, ticket);
    },
    release: (...args) => memory.release(...args),
  };
  const controllers = calls.map(() => new AbortController());
  const aborted = calls.map(() => false);
  const arrivals: { call: number; at: number }[] = [];
  const madeOrder: number[] = [];
  const turnOrder: number[] = [];
  const settled = calls.map(() => false);

  const client = createAlertsClient({
    token,
    baseUrl,
    rateLimit: limit,
    rateLimitStore: store,
    maxRetries: 2,
    validateResponses: false,
    onQueued: () => {
      told++;
      if (refusals === 0)
        broken.push({ property: "tells onQueued of a wait only when the store refused a turn", what: `told of wait ${told} with no take refused` });
    },
    // The hook runs when a call's attempt has its turn: the first attempts' hooks run in the order calls were made.
    onRequest: async (request, { attempt }) => {
      const call = callOf(request.url);
      if (attempt === 1) turnOrder.push(call);
      else if (pauseUnrecorded.has(call))
        broken.push({ property: "takes a retry's turn only once its 429's pause is recorded", what: `call ${call}'s attempt ${attempt} had its turn first` });
      const { hookMs } = calls[call] as Scenario["calls"][number];
      if (hookMs > 0) await new Promise<void>((resolve) => testTimer(resolve, hookMs));
    },
    fetch: (input, init) => {
      const url = String(input);
      const call = callOf(url);
      if (aborted[call]) broken.push({ property: "sends nothing after an abort", what: `call ${call} was sent after its abort` });
      arrivals.push({ call, at: Date.now() });
      const status = server.shift() ?? 200;
      if (status === 429) answered429 = true;
      const signal = init?.signal as AbortSignal;
      return new Promise<Response>((resolve, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        const body = status === 200 ? JSON.stringify(alertEnvelope) : JSON.stringify({ error: "slow down" });
        const headers = status === 200 ? {} : { "retry-after": "1" };
        s.schedule(Promise.resolve(), `server answers call ${call} ${status}`).then(() => {
          answering = call;
          resolve(new Response(body, { status, headers: { "content-type": "application/json", ...headers } }));
        });
      });
    },
  });

  // Each call is made, and each abort comes, as a task of its own, in the order the scheduler picks.
  const later = (label: string, task: () => void | Promise<void>) => void s.schedule(Promise.resolve(), label).then(task);
  /** An aborted call rejects before anything else happens: promises settle, no task or timer runs. */
  const rejectsAtOnce = async (call: number) => {
    await realTick();
    if (!settled[call]) broken.push({ property: "rejects an aborted call at once", what: `call ${call} did not reject at once when aborted` });
  };
  for (const [call, plan] of calls.entries()) {
    const signal = plan.signal ? controllers[call]?.signal : undefined;
    later(`make call ${call}`, () => {
      madeOrder.push(call);
      const settles = () => (settled[call] = true);
      client.get(idOf(call), signal ? { signal } : {}).then(settles, settles);
      if (signal?.aborted) return rejectsAtOnce(call);
    });
    if (!signal || plan.abortAtMs === null) continue;
    const abort = () =>
      later(`abort call ${call}`, () => {
        if (settled[call]) return;
        aborted[call] = true;
        controllers[call]?.abort(new Error(`call ${call} aborted`));
        // Its request was either sent already (and its fetch rejected by the abort) or never will be.
        if (madeOrder.includes(call)) return rejectsAtOnce(call);
      });
    if (plan.abortAtMs === 0) abort();
    else testTimer(abort, plan.abortAtMs);
  }

  // Scheduled tasks first; the clock moves only when none is left and a call is still out.
  for (let step = 0; step < 2_000; step++) {
    await realTick();
    // What the last server answer started has run by now (its answered() included): no later send is named by it.
    answering = -1;
    if (s.count() > 0) await s.waitOne();
    else if (!settled.every(Boolean) && vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
    else break;
  }
  await realTick();

  for (const [call, done] of settled.entries()) if (!done) broken.push({ property: "settles every call", what: `call ${call} never settled` });
  const ours = vi.getTimerCount() - testTimers.size;
  if (ours > 0) broken.push({ property: "leaves no timer once every call settled", what: `${ours} timer(s) still set` });
  // First attempts get their turns in the order the calls were made (a retry goes first after its 429, by design).
  const expected = madeOrder.filter((call) => turnOrder.includes(call));
  if (turnOrder.join() !== expected.join())
    broken.push({
      property: "sends a credential's calls in the order they were made",
      what: `calls made in the order ${expected.join()} had their turns in the order ${turnOrder.join()}`,
    });
  for (const { at } of arrivals) {
    const inWindow = arrivals.filter((other) => other.at > at - limit.intervalMs && other.at <= at).length;
    if (inWindow > limit.requests)
      broken.push({
        property: "keeps the server's count in any window within the limit",
        what: `the server counted ${inWindow} requests in the ${limit.intervalMs} ms to ${at}`,
      });
  }
  // What is still to come (a store's late answer, a hook, an abort) comes, before the store is asked for room.
  for (let step = 0; step < 2_000 && (s.count() > 0 || vi.getTimerCount() > 0); step++) {
    if (s.count() > 0) await s.waitOne();
    else await vi.advanceTimersToNextTimerAsync();
    await realTick();
    answering = -1;
  }
  // With no 429 to pause or lower the budget, the store has room for exactly the sends the server did not count in
  // the last window: a turn given to a call that was cancelled is not among those it counts.
  if (!answered429 && credential) {
    const now = Date.now();
    const counted = arrivals.filter(({ at }) => at > now - limit.intervalMs - 50).length;
    let room = 0;
    while (typeof memory.take(credential, limit) === "string") room++;
    if (room !== Math.max(0, limit.requests - counted))
      broken.push({ property: "counts only the sends made: a cancelled call's turn goes back", what: `room for ${room} sends after ${counted} in the window` });
  }
  return broken;
}

const scenario = fc.record({
  calls: fc.array(callPlan, { minLength: 1, maxLength: 5 }),
  store: fc.array(storeAnswer, { maxLength: 10 }),
  pauses: fc.array(pauseAnswer, { maxLength: 3 }),
  server: fc.array(serverAnswer, { maxLength: 6 }),
});

describe("the rate-limit queue, under every interleaving of store answers, aborts, hooks and 429s", () => {
  // One property per test, so that each reports its own shrunk counterexample.
  it.each(properties)(
    "%s",
    async (property) => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), scenario, async (s, planned) => {
          const broken = await run(s, structuredClone(planned));
          expect(broken.filter((each) => each.property === property).map(({ what }) => what)).toEqual([]);
        }),
        { numRuns: Number(process.env.RACE_RUNS ?? 1000) },
      );
    },
    30_000,
  );
});
