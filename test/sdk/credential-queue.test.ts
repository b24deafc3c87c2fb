// A credential's queue, driven by a scripted store on a fake clock: calls leave in turn, a 429's call goes back to
// the front, an abort leaves the queue, a pause too long fails every call that may not wait for it, a failing store
// fails the waiting calls, and the budget a 429 teaches shrinks and grows back as stated.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimitError } from "../../src/client/errors.js";
import { CredentialQueue, credentialQueue, type RateLimit, type RateLimitStore, type Turn } from "../../src/client/rate-limit.js";

const start = Date.parse("2026-11-26T12:00:00Z");
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(start);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const call = { label: "getPipe GET /v1/pipes/{pipeId}", operationId: "getPipe" };
const key = "management https://api.example credential";
const limit: RateLimit = { requests: 10, intervalMs: 1_000 };

/** A store that answers each take from `answer` and records what the queue asked and told it. */
function scriptedStore(answer: (limit: RateLimit | undefined) => Turn | Promise<Turn> = () => 0) {
  const takes: (RateLimit | undefined)[] = [];
  const pauses: number[] = [];
  const answers: { limit: RateLimit; elapsedMs: number }[] = [];
  const store: RateLimitStore & { takes: typeof takes; pauses: number[]; answers: typeof answers } = {
    takes,
    pauses,
    answers,
    take(takenKey, takenLimit) {
      expect(takenKey).toBe(key);
      takes.push(takenLimit);
      return answer(takenLimit);
    },
    pause(pausedKey, ms) {
      expect(pausedKey).toBe(key);
      pauses.push(ms);
    },
    answered(answeredKey, answeredLimit, elapsedMs) {
      expect(answeredKey).toBe(key);
      answers.push({ limit: answeredLimit, elapsedMs });
    },
  };
  return store;
}

/** Turns, in order, then 0 for every later take. */
const turns =
  (...script: Turn[]) =>
  () =>
    script.shift() ?? 0;

/** Records when each of `promises` settles, by name, as the fake clock runs. */
function settleOrder(promises: Record<string, Promise<void> | undefined>) {
  const order: string[] = [];
  for (const [name, promise] of Object.entries(promises)) {
    promise?.then(
      () => order.push(`${name} at ${Date.now() - start}`),
      (error: Error) => order.push(`${name} failed at ${Date.now() - start}: ${error.message}`),
    );
  }
  return order;
}

describe("a call's turn", () => {
  it("is given at once, without a promise, when nobody waits and the store takes the send", () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    expect(queue.turn(limit, undefined, false, 60_000, call)).toBeUndefined();
    expect(store.takes).toEqual([limit]);
  });

  it("is refused with the signal's reason, asking the store nothing, when the caller already aborted", async () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    const reason = new Error("gave up");
    await expect(queue.turn(limit, AbortSignal.abort(reason), false, 60_000, call)).rejects.toBe(reason);
    expect(store.takes).toEqual([]);
  });

  it("waits as long as the store says, then asks again and goes", async () => {
    const store = scriptedStore(turns({ waitMs: 300, paused: false }, { waitMs: 300, paused: false }, { waitMs: 200, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({ first: queue.turn(limit, undefined, false, 60_000, call) });
    await vi.advanceTimersByTimeAsync(299);
    expect(order).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(order).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(order).toEqual(["first at 500"]);
    expect(store.takes).toHaveLength(4);
  });

  it("with a store that answers later: a promised 0 goes at once, a promised wait queues the call", async () => {
    const script = turns(0, { waitMs: 100, paused: false }, { waitMs: 100, paused: false });
    const queue = new CredentialQueue(
      scriptedStore(async () => script()),
      key,
    );
    const first = settleOrder({ first: queue.turn(limit, undefined, false, 60_000, call) });
    await vi.advanceTimersByTimeAsync(0);
    expect(first).toEqual(["first at 0"]);
    const second = settleOrder({ second: queue.turn(limit, undefined, false, 60_000, call) });
    await vi.advanceTimersByTimeAsync(100);
    expect(second).toEqual(["second at 100"]);
  });

  it("with a store that answers later, refuses a call whose promised pause outlasts its bound", async () => {
    const queue = new CredentialQueue(
      scriptedStore(async () => ({ waitMs: 5_000, paused: true })),
      key,
    );
    await expect(queue.turn(limit, undefined, false, 1_000, call)).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe("the queue's order", () => {
  it("lets waiting calls leave one by one in the order they came, asking the store for the head each time", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }, 0, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      one: queue.turn(limit, undefined, false, 60_000, call),
      two: queue.turn(limit, undefined, false, 60_000, call),
      three: queue.turn(limit, undefined, false, 60_000, call),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(["one at 100", "two at 200", "three at 200"]);
  });

  it("puts a call sent back to the front (after a 429) ahead of those already waiting", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      waiting: queue.turn(limit, undefined, false, 60_000, call),
      requeued: queue.turn(limit, undefined, true, 60_000, call),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(["requeued at 100", "waiting at 100"]);
  });

  it("takes a later call behind those waiting, even when the store would let it go", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const first = queue.turn(limit, undefined, false, 60_000, call);
    const later = queue.turn(limit, undefined, false, 60_000, call);
    expect(later).toBeInstanceOf(Promise);
    const order = settleOrder({ first, later });
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual(["first at 100", "later at 100"]);
    expect(store.takes).toHaveLength(4);
  });

  it("lets a call aborted while it waits leave the queue with the signal's reason, and the next take its place", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const controller = new AbortController();
    const order = settleOrder({
      aborted: queue.turn(limit, controller.signal, false, 60_000, call),
      next: queue.turn(limit, undefined, false, 60_000, call),
    });
    await vi.advanceTimersByTimeAsync(50);
    controller.abort(new Error("gave up"));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["aborted failed at 50: gave up"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(["aborted failed at 50: gave up", "next at 100"]);
    // No send was taken for the aborted call: its turn, the first after the wait, went to the next.
    expect(store.takes).toHaveLength(3);
  });

  it("stops listening to the caller's signal once the call has its turn", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const controller = new AbortController();
    const removed = vi.spyOn(controller.signal, "removeEventListener");
    const turn = queue.turn(limit, controller.signal, false, 60_000, call);
    await vi.advanceTimersByTimeAsync(100);
    await expect(turn).resolves.toBeUndefined();
    expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});

describe("a 429's pause", () => {
  const pausedTooLong = (waitMs: number, maxWaitMs: number) =>
    `${call.label} was not sent: the server's rate limit pauses this credential for ${Math.ceil(waitMs / 1000)} s, longer than maxRateLimitWaitMs (${maxWaitMs} ms)`;

  it("refuses a call at once, with a RateLimitError naming the pause and the bound, when it would outlast the call's maxRateLimitWaitMs", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 2_500, paused: true })), key);
    const error: RateLimitError = await queue.turn(limit, undefined, false, 2_499, call)?.catch((failure) => failure);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe(pausedTooLong(2_500, 2_499));
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(2_500);
    expect(error.operationId).toBe("getPipe");
  });

  it("lets a call wait for a pause exactly as long as its bound", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 2_500, paused: true }, { waitMs: 2_500, paused: true })), key);
    const order = settleOrder({ call: queue.turn(limit, undefined, false, 2_500, call) });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(order).toEqual(["call at 2500"]);
  });

  it("lets a call wait for the sliding window however long, since no pause is involved", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 2_500, paused: false }, { waitMs: 2_500, paused: false })), key);
    const order = settleOrder({ call: queue.turn(limit, undefined, false, 1_000, call) });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(order).toEqual(["call at 2500"]);
  });

  it("fails every waiting call that may not wait that long, and keeps the others waiting for it", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }, { waitMs: 3_000, paused: true }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      patient: queue.turn(limit, undefined, false, 3_000, call),
      hurried: queue.turn(limit, undefined, false, 2_999, { label: "other", operationId: undefined }),
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual([
      "hurried failed at 100: other was not sent: the server's rate limit pauses this credential for 3 s, longer than maxRateLimitWaitMs (2999 ms)",
    ]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(order.at(-1)).toBe("patient at 3100");
  });

  it("fails them all when none may wait, then idles rather than sleeping through the pause", async () => {
    const store = scriptedStore(
      turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }, { waitMs: 5_000, paused: true }, { waitMs: 100, paused: false }),
    );
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      one: queue.turn(limit, undefined, false, 1_000, call),
      two: queue.turn(limit, undefined, false, 1_000, call),
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toHaveLength(2);
    expect(order.every((outcome) => outcome.includes("failed at 100"))).toBe(true);
    // A call denied now is served by a new pump, not left behind the pause nobody waits for.
    const later = settleOrder({ later: queue.turn(limit, undefined, false, 60_000, call) });
    await vi.advanceTimersByTimeAsync(0);
    expect(later).toEqual(["later at 100"]);
  });
});

describe("a store that fails", () => {
  it("fails every waiting call with its error rather than hanging them", async () => {
    const broken = new Error("store down");
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      one: queue.turn(limit, undefined, false, 60_000, call),
      two: queue.turn(limit, undefined, false, 60_000, call),
    });
    store.take = () => Promise.reject(broken);
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual(["one failed at 100: store down", "two failed at 100: store down"]);
    // The queue works again once the store does.
    store.take = turns({ waitMs: 50, paused: false }, { waitMs: 50, paused: false });
    const again = settleOrder({ again: queue.turn(limit, undefined, false, 60_000, call) });
    await vi.advanceTimersByTimeAsync(100);
    expect(again).toEqual(["again at 150"]);
  });

  it("costs only precision when it cannot record an answer or a pause: the call's outcome stands", async () => {
    const store = scriptedStore();
    store.answered = () => {
      throw new Error("store down");
    };
    store.pause = () => {
      throw new Error("store down");
    };
    const queue = new CredentialQueue(store, key);
    expect(() => queue.answered(limit, start)).not.toThrow();
    expect(() => queue.limited(1_000, limit, start)).not.toThrow();
    const rejected = vi.fn();
    process.on("unhandledRejection", rejected);
    try {
      store.answered = () => Promise.reject(new Error("store down"));
      store.pause = () => Promise.reject(new Error("store down"));
      queue.answered(limit, start);
      queue.limited(1_000, limit, start);
      // A rejection nobody handles is reported once the microtasks are done: wait past them on the real clock.
      vi.useRealTimers();
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("unhandledRejection", rejected);
    }
    expect(rejected).not.toHaveBeenCalled();
  });
});

describe("an answer", () => {
  it("tells the store which send it belongs to, by how long ago it was taken, under the limit in force", () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    vi.setSystemTime(start + 400);
    queue.answered(limit, start);
    queue.answered(limit, start + 500);
    expect(store.answers).toEqual([
      { limit, elapsedMs: 400 },
      { limit, elapsedMs: 0 },
    ]);
  });

  it("is not reported without a limit, nor to a store that does not count answers", () => {
    const store = scriptedStore();
    new CredentialQueue(store, key).answered(undefined, start);
    expect(store.answers).toEqual([]);
    const { answered: _, ...withoutAnswers } = store;
    expect(() => new CredentialQueue(withoutAnswers, key).answered(limit, start)).not.toThrow();
  });
});

describe("a 429", () => {
  it("pauses the credential for the wait asked, plus a jitter of up to a tenth of it", () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    vi.spyOn(Math, "random").mockReturnValue(0);
    queue.limited(2_000, limit, start);
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    queue.limited(2_001, limit, start);
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    queue.limited(2_000, limit, start);
    expect(store.pauses).toEqual([2_000, Math.ceil(2_001 + 0.5 * 200.1), Math.ceil(2_000 + 0.999 * 200)]);
  });

  it("adds at most a second of jitter to a long wait", () => {
    const store = scriptedStore();
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    new CredentialQueue(store, key).limited(60_000, limit, start);
    expect(store.pauses).toEqual([60_999]);
  });
});

describe("the budget a 429 teaches", () => {
  beforeEach(() => {
    vi.spyOn(Math, "random").mockReturnValue(0);
  });

  /** A queue whose credential sent calls at the given offsets from start, with the clock then at `now`. */
  function queueThatSent(offsets: number[], now: number) {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    for (const offset of offsets) queue.sent(start + offset);
    vi.setSystemTime(start + now);
    /** The limit the next call leaves under, as the store is asked. */
    const effective = (configured: RateLimit | undefined) => {
      queue.turn(configured, undefined, false, 60_000, call);
      return store.takes.at(-1);
    };
    return { queue, store, effective };
  }

  it("drops to the sends of the window that ended in the 429, but that one", () => {
    const { queue, effective } = queueThatSent([0, 100, 200, 300, 400, 500], 600);
    queue.limited(1_000, limit, start + 500);
    expect(effective(limit)).toEqual({ requests: 5, intervalMs: 1_000 });
  });

  it("counts only the sends within the limit's widened window before the 429", () => {
    // The window is 1,000 ms plus the 50 ms margin: the sends at 0 and 49 are out of it at 1,100.
    const { queue, effective } = queueThatSent([0, 49, 50, 51, 600, 700, 1_000], 1_100);
    queue.limited(1_000, limit, start + 1_000);
    expect(effective(limit)).toEqual({ requests: 3, intervalMs: 1_000 });
  });

  it("learns nothing from a window in which the server took at most one send, and one from two", () => {
    const { queue, effective } = queueThatSent([0, 500], 1_100);
    queue.limited(1_000, limit, start + 500);
    expect(effective(limit)).toBe(limit);
    const two = queueThatSent([0, 500, 600], 1_100);
    two.queue.limited(1_000, limit, start + 600);
    expect(two.effective(limit)).toEqual({ requests: 1, intervalMs: 1_000 });
  });

  it("never rises above the configured limit", () => {
    const { queue, effective } = queueThatSent(
      Array.from({ length: 15 }, (_, index) => index * 10),
      200,
    );
    queue.limited(1_000, limit, start + 140);
    expect(effective(limit)).toEqual(limit);
  });

  it("loses one more for each other send of that window that gets a 429 too, down to one", () => {
    const { queue, effective } = queueThatSent([0, 100, 200, 300], 400);
    queue.limited(1_000, limit, start + 300);
    expect(effective(limit)).toEqual({ requests: 3, intervalMs: 1_000 });
    queue.limited(1_000, limit, start + 200);
    expect(effective(limit)).toEqual({ requests: 2, intervalMs: 1_000 });
    queue.limited(1_000, limit, start + 100);
    queue.limited(1_000, limit, start);
    queue.limited(1_000, limit, start);
    expect(effective(limit)).toEqual({ requests: 1, intervalMs: 1_000 });
  });

  it("a second 429 of a window that taught nothing teaches nothing either", () => {
    const { queue, effective } = queueThatSent([0], 100);
    queue.limited(1_000, limit, start);
    queue.limited(1_000, limit, start);
    expect(effective(limit)).toBe(limit);
  });

  it("keeps a budget learned at the configured limit, so a later 429 of that window still lowers it", () => {
    const { queue, effective } = queueThatSent(
      Array.from({ length: 15 }, (_, index) => index * 10),
      200,
    );
    queue.limited(1_000, limit, start + 140);
    // The pause ended at 1,200: no window has passed since.
    vi.setSystemTime(start + 1_200);
    expect(effective(limit)).toEqual(limit);
    queue.limited(1_000, limit, start + 100);
    expect(effective(limit)).toEqual({ requests: 9, intervalMs: 1_000 });
  });

  it("once grown back to the configured limit, is forgotten: a client of the credential with another limit leaves under its own", () => {
    const { queue, effective } = queueThatSent([0, 100, 200, 300, 400, 500, 600, 700, 800, 900], 1_000);
    queue.limited(0, limit, start + 900);
    expect(effective(limit)).toEqual({ requests: 9, intervalMs: 1_000 });
    vi.setSystemTime(start + 2_000);
    expect(effective(limit)).toBe(limit);
    const other = { requests: 100, intervalMs: 500 };
    expect(effective(other)).toBe(other);
  });

  it("learns afresh from a send made after the last 429", () => {
    const { queue, effective } = queueThatSent([0, 100, 200, 300], 400);
    queue.limited(1_000, limit, start + 300);
    queue.sent(start + 400);
    queue.sent(start + 401);
    // Sent at the 429's own moment: not a send of the window that ended in it, so not one fewer than learned (3).
    queue.limited(1_000, limit, start + 400);
    expect(effective(limit)).toEqual({ requests: 3, intervalMs: 1_000 });
  });

  it("grows back by a tenth, one at least, per window without a 429 after the pause, until the configured limit is back", () => {
    const big = { requests: 100, intervalMs: 1_000 };
    const offsets = Array.from({ length: 31 }, (_, index) => index * 10);
    const { queue, effective } = queueThatSent(offsets, 400);
    queue.limited(2_000, big, start + 300);
    // 30 accepted; the pause ends at 2,400, and the first window after it at 3,400.
    expect(effective(big)).toEqual({ requests: 30, intervalMs: 1_000 });
    vi.setSystemTime(start + 3_399);
    expect(effective(big)).toEqual({ requests: 30, intervalMs: 1_000 });
    vi.setSystemTime(start + 3_400);
    expect(effective(big)).toEqual({ requests: 33, intervalMs: 1_000 });
    vi.setSystemTime(start + 4_399);
    expect(effective(big)).toEqual({ requests: 33, intervalMs: 1_000 });
    // Two windows at once: 33 + 4, then + 4.
    vi.setSystemTime(start + 5_400);
    expect(effective(big)).toEqual({ requests: 41, intervalMs: 1_000 });
    vi.setSystemTime(start + 100_000);
    expect(effective(big)).toBe(big);
  });

  it("grows a small budget by one per window", () => {
    const { queue, effective } = queueThatSent([0, 100, 200], 300);
    queue.limited(0, limit, start + 200);
    expect(effective(limit)).toEqual({ requests: 2, intervalMs: 1_000 });
    vi.setSystemTime(start + 1_300);
    expect(effective(limit)).toEqual({ requests: 3, intervalMs: 1_000 });
    vi.setSystemTime(start + 2_300);
    expect(effective(limit)).toEqual({ requests: 4, intervalMs: 1_000 });
  });

  it("applies to a client with a lower limit of its own only as far as it is lower", () => {
    const { queue, effective } = queueThatSent([0, 100, 200, 300, 400, 500], 600);
    queue.limited(1_000, limit, start + 500);
    expect(effective({ requests: 3, intervalMs: 2_000 })).toEqual({ requests: 3, intervalMs: 2_000 });
    expect(effective({ requests: 8, intervalMs: 500 })).toEqual({ requests: 5, intervalMs: 1_000 });
  });

  it("without a limit of its own, spans from the first send to the end of the pause", () => {
    const { queue, effective } = queueThatSent([0, 100, 200, 300], 400);
    queue.limited(1_000, undefined, start + 300);
    // From the send at 0 to 400 + 1,000.
    expect(effective(undefined)).toEqual({ requests: 3, intervalMs: 1_400 });
  });

  it("without a limit of its own, grows back too, by a tenth per learned window", () => {
    const { queue, effective } = queueThatSent([0, 100, 200, 300], 400);
    queue.limited(1_000, undefined, start + 300);
    vi.setSystemTime(start + 1_400 + 1_400);
    expect(effective(undefined)).toEqual({ requests: 4, intervalMs: 1_400 });
  });

  it("without a limit of its own, counts the sends since the last 429", () => {
    const { queue, effective } = queueThatSent([0], 100);
    // A lone send teaches nothing, but the window of the next 429 starts here.
    queue.limited(1_000, undefined, start);
    expect(effective(undefined)).toBeUndefined();
    for (const offset of [200, 300, 400]) queue.sent(start + offset);
    vi.setSystemTime(start + 500);
    queue.limited(1_000, undefined, start + 400);
    expect(effective(undefined)).toEqual({ requests: 2, intervalMs: 1_300 });
  });

  it("keeps the last 5,000 to 10,000 sends: older ones are forgotten", () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    for (let send = 0; send < 10_000; send++) queue.sent(start);
    vi.setSystemTime(start + 1);
    queue.limited(0, undefined, start);
    queue.turn(undefined, undefined, false, 60_000, call);
    expect(store.takes.at(-1)).toEqual({ requests: 9_999, intervalMs: 1 });
    const pruned = new CredentialQueue(store, key);
    for (let send = 0; send < 10_001; send++) pruned.sent(start);
    pruned.limited(0, undefined, start);
    pruned.turn(undefined, undefined, false, 60_000, call);
    expect(store.takes.at(-1)).toEqual({ requests: 4_999, intervalMs: 1 });
  });
});

describe("the queue of a credential", () => {
  it("is one per store and key, shared by every client of it in the process", () => {
    const [store, other] = [scriptedStore(), scriptedStore()];
    const queue = credentialQueue(store, key);
    expect(credentialQueue(store, key)).toBe(queue);
    expect(credentialQueue(store, `${key} 2`)).not.toBe(queue);
    expect(credentialQueue(other, key)).not.toBe(queue);
    expect(queue).toBeInstanceOf(CredentialQueue);
  });
});
