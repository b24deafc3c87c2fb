// A credential's queue, driven by a scripted store on a fake clock: calls leave in turn, a 429's call goes back to
// the front, an abort leaves the queue, a pause too long fails every call that may not wait for it, a failing store
// fails the waiting calls, and the budget a 429 teaches shrinks and grows back as stated.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CredentialQueue, credentialQueue, type Granted, type TurnRequest } from "../../src/client/credential-queue.js";
import { type RateLimitAnswer, RateLimitError } from "../../src/client/errors.js";
import type { RateLimit, RateLimitStore, Ticket, Turn } from "../../src/client/rate-limit.js";

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
const answer: RateLimitAnswer = {
  body: { error: "slow down" },
  headers: new Headers({ "retry-after": "2" }),
  requestId: "r-1",
  errorKey: "error",
  retryAfterMs: 2_000,
};

/** A store that answers each take from `answer` (a new ticket by default) and records what the queue told it. */
function scriptedStore(answer: (limit: RateLimit | undefined) => Turn | Promise<Turn> = newTicket) {
  const takes: (RateLimit | undefined)[] = [];
  const pauses: number[] = [];
  const answers: { limit: RateLimit | undefined; ticket: Ticket }[] = [];
  const released: Ticket[] = [];
  const store: RateLimitStore & { takes: typeof takes; pauses: number[]; answers: typeof answers; released: Ticket[] } = {
    takes,
    pauses,
    answers,
    released,
    take(takenKey, takenLimit) {
      expect(takenKey).toBe(key);
      takes.push(takenLimit);
      return answer(takenLimit);
    },
    limited(limitedKey, _limit, waitMs) {
      expect(limitedKey).toBe(key);
      pauses.push(waitMs);
    },
    answered(answeredKey, answeredLimit, ticket) {
      expect(answeredKey).toBe(key);
      answers.push({ limit: answeredLimit, ticket });
    },
    release(releasedKey, ticket) {
      expect(releasedKey).toBe(key);
      released.push(ticket);
    },
  };
  return store;
}

let tickets = 0;
/** A ticket no other take got. */
function newTicket(): Ticket {
  return `ticket ${++tickets}`;
}

/** Turns, in order, then a new ticket for every later take. */
const turns =
  (...script: Turn[]) =>
  (): Turn =>
    script.shift() ?? newTicket();

/** What a call asks the queue, with the defaults of most tests: the limit, no signal, a minute's bound. */
const asking = (request: Partial<TurnRequest> = {}): TurnRequest => ({
  limit,
  signal: undefined,
  front: false,
  maxWaitMs: 60_000,
  waitedMs: 0,
  call,
  ...request,
});

/** Records when each of `turns` settles, by name, as the fake clock runs; a ticket given at once is not a promise. */
function settleOrder(promises: Record<string, Promise<Granted> | Ticket>) {
  const order: string[] = [];
  for (const [name, promise] of Object.entries(promises)) {
    if (typeof promise === "string") continue;
    promise.then(
      () => order.push(`${name} at ${Date.now() - start}`),
      (error: Error) => order.push(`${name} failed at ${Date.now() - start}: ${error.message}`),
    );
  }
  return order;
}

/** A turn's outcome as a promise, whether given at once or later. */
const settled = (turn: Promise<Granted> | Ticket): Promise<Granted> => (typeof turn === "string" ? Promise.resolve({ ticket: turn, waitedMs: 0 }) : turn);

describe("a call's turn", () => {
  it("is given at once when nobody waits and the store takes the send", async () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    let given = false;
    void Promise.resolve(queue.turn(asking())).then(() => (given = true));
    // Promises settle, no time passes: a turn that waited on any timer would not be given yet.
    await vi.advanceTimersByTimeAsync(0);
    expect(given).toBe(true);
    expect(store.takes).toEqual([limit]);
  });

  it("is refused with the signal's reason, asking the store nothing, when the caller already aborted", async () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    const reason = new Error("gave up");
    await expect(settled(queue.turn(asking({ signal: AbortSignal.abort(reason) })))).rejects.toBe(reason);
    expect(store.takes).toEqual([]);
  });

  it("waits as long as the store says, then asks again and goes", async () => {
    const store = scriptedStore(turns({ waitMs: 300, paused: false }, { waitMs: 300, paused: false }, { waitMs: 200, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({ first: queue.turn(asking()) });
    await vi.advanceTimersByTimeAsync(299);
    expect(order).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(order).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(order).toEqual(["first at 500"]);
    expect(store.takes).toHaveLength(4);
  });

  it("with a store that answers later: a promised ticket goes at once, a promised wait queues the call for that long", async () => {
    const script = turns("first ticket", { waitMs: 100, paused: false });
    const queue = new CredentialQueue(
      scriptedStore(async () => script()),
      key,
    );
    const first = settleOrder({ first: queue.turn(asking()) });
    await vi.advanceTimersByTimeAsync(0);
    expect(first).toEqual(["first at 0"]);
    const second = settleOrder({ second: queue.turn(asking()) });
    await vi.advanceTimersByTimeAsync(100);
    expect(second).toEqual(["second at 100"]);
  });

  it("with a store that answers later, refuses a call whose promised pause outlasts its bound", async () => {
    const queue = new CredentialQueue(
      scriptedStore(async () => ({ waitMs: 5_000, paused: true })),
      key,
    );
    await expect(settled(queue.turn(asking({ maxWaitMs: 1_000 })))).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe("the queue's order", () => {
  it("lets waiting calls leave one by one in the order they came, asking the store for the head each time", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }, "second ticket", { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      one: queue.turn(asking()),
      two: queue.turn(asking()),
      three: queue.turn(asking()),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(["one at 100", "two at 200", "three at 200"]);
  });

  it("puts a call sent back to the front (after a 429) ahead of those already waiting", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      waiting: queue.turn(asking()),
      requeued: queue.turn(asking({ front: true })),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(["requeued at 100", "waiting at 100"]);
  });

  it("takes a later call behind those waiting, even when the store would let it go", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const first = queue.turn(asking());
    const later = queue.turn(asking());
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
      aborted: queue.turn(asking({ signal: controller.signal })),
      next: queue.turn(asking()),
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
    const turn = queue.turn(asking({ signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    await expect(turn).resolves.toMatchObject({ ticket: expect.any(String) });
    expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});

describe("a call cancelled while the store answers, or while the queue waits", () => {
  /** A store whose takes answer when the test says, each with the turn it is given. */
  function answeringLater() {
    const pending: ((turn: Turn) => void)[] = [];
    const store = scriptedStore(() => new Promise<Turn>((resolve) => pending.push(resolve)));
    return { store, answer: (turn: Turn) => (pending.shift() as (turn: Turn) => void)(turn) };
  }

  it("rejects at once with the signal's reason while the store has not answered, and hands the turn it gives back", async () => {
    const { store, answer } = answeringLater();
    const queue = new CredentialQueue(store, key);
    const controller = new AbortController();
    const order = settleOrder({ cancelled: queue.turn(asking({ signal: controller.signal })) });
    controller.abort(new Error("gave up"));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["cancelled failed at 0: gave up"]);
    answer("late ticket");
    await vi.advanceTimersByTimeAsync(0);
    expect(store.released).toEqual(["late ticket"]);
  });

  it("gives the turn to the next call in line when the one that asked left, and drops no other call", async () => {
    const { store, answer } = answeringLater();
    const queue = new CredentialQueue(store, key);
    const controller = new AbortController();
    const order = settleOrder({
      head: queue.turn(asking({ signal: controller.signal })),
      second: queue.turn(asking()),
      third: queue.turn(asking()),
    });
    controller.abort(new Error("gave up"));
    answer("ticket for the head");
    await vi.advanceTimersByTimeAsync(0);
    answer("ticket for the third");
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["head failed at 0: gave up", "second at 0", "third at 0"]);
    expect(store.released).toEqual([]);
  });

  it("queues a call made while the store answers another's turn behind it: turns are given in the order asked", async () => {
    const { store, answer } = answeringLater();
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({ first: queue.turn(asking()), second: queue.turn(asking()) });
    // The second call did not ask the store itself: it waits for the first's answer.
    expect(store.takes).toHaveLength(1);
    answer("first ticket");
    await vi.advanceTimersByTimeAsync(0);
    answer("second ticket");
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["first at 0", "second at 0"]);
  });

  it("stops waiting out a pause when the last call waiting leaves: no timer of the queue is left", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 20_000, paused: true }, { waitMs: 20_000, paused: true })), key);
    const controller = new AbortController();
    const order = settleOrder({ cancelled: queue.turn(asking({ signal: controller.signal })) });
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error("gave up"));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["cancelled failed at 100: gave up"]);
    expect(vi.getTimerCount()).toBe(0);
    // The queue serves the next call as if the first had never been queued.
    await expect(settled(queue.turn(asking()))).resolves.toMatchObject({ ticket: expect.any(String) });
  });
});

describe("a 429's pause", () => {
  const pausedTooLong = (waitMs: number, maxWaitMs: number, label = call.label) =>
    `${label} was not sent: the credential is paused for ${Math.ceil(waitMs / 1000)} s after a 429, and its waits because of 429s would pass maxRateLimitWaitMs (${maxWaitMs} ms); retry after ${Math.ceil(waitMs / 1000)} s`;

  it("refuses a call at once, with a RateLimitError naming the pause and the bound, when it would outlast the call's maxRateLimitWaitMs", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 2_500, paused: true })), key);
    const error: RateLimitError = await settled(queue.turn(asking({ maxWaitMs: 2_499 }))).catch((failure) => failure);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe(pausedTooLong(2_500, 2_499));
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(2_500);
    expect(error.operationId).toBe("getPipe");
  });

  it("lets a call wait for a pause exactly as long as its bound", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 2_500, paused: true }, { waitMs: 2_500, paused: true })), key);
    const order = settleOrder({ call: queue.turn(asking({ maxWaitMs: 2_500 })) });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(order).toEqual(["call at 2500"]);
  });

  it("lets a call wait for the sliding window however long, since no pause is involved", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 2_500, paused: false }, { waitMs: 2_500, paused: false })), key);
    const order = settleOrder({ call: queue.turn(asking({ maxWaitMs: 1_000 })) });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(order).toEqual(["call at 2500"]);
  });

  it("fails every waiting call that may not wait that long, and keeps the others waiting for it", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }, { waitMs: 3_000, paused: true }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      patient: queue.turn(asking({ maxWaitMs: 3_000 })),
      hurried: queue.turn(asking({ maxWaitMs: 2_999, call: { label: "other", operationId: undefined } })),
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual([`hurried failed at 100: ${pausedTooLong(3_000, 2_999, "other")}`]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(order.at(-1)).toBe("patient at 3100");
  });

  it("fails them all when none may wait, then idles rather than sleeping through the pause", async () => {
    const store = scriptedStore(
      turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }, { waitMs: 5_000, paused: true }, { waitMs: 100, paused: false }),
    );
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      one: queue.turn(asking({ maxWaitMs: 1_000 })),
      two: queue.turn(asking({ maxWaitMs: 1_000 })),
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toHaveLength(2);
    expect(order.every((outcome) => outcome.includes("failed at 100"))).toBe(true);
    // A call denied now is served by a new pump, not left behind the pause nobody waits for.
    const later = settleOrder({ later: queue.turn(asking()) });
    await vi.advanceTimersByTimeAsync(0);
    expect(later).toEqual(["later at 100"]);
  });
});

describe("the bound on waits caused by 429s", () => {
  it("resolves a call's turn to the time it waited because of 429s, its earlier attempts' included", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 1_000, paused: true }, { waitMs: 1_000, paused: true })), key);
    const turn = queue.turn(asking({ front: true, maxWaitMs: 5_000, waitedMs: 700 }));
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(turn).resolves.toMatchObject({ waitedMs: 1_700 });
  });

  it("refuses a call at once when a pause would take its waits past the bound, counting what it waited before", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 1_500, paused: true })), key);
    await expect(settled(queue.turn(asking({ front: true, maxWaitMs: 3_000, waitedMs: 1_501 })))).rejects.toBeInstanceOf(RateLimitError);
    const fits = new CredentialQueue(scriptedStore(turns({ waitMs: 1_500, paused: true }, { waitMs: 1_500, paused: true })), key);
    const turn = fits.turn(asking({ front: true, maxWaitMs: 3_000, waitedMs: 1_500 }));
    await vi.advanceTimersByTimeAsync(1_500);
    await expect(turn).resolves.toMatchObject({ waitedMs: 3_000 });
  });

  it("counts a lowered budget's wait in the share it is slower than the call's own limit, all of it without one, none of the own limit's", async () => {
    const lowered = { waitMs: 1_000, paused: false, lowered: { requests: 5, intervalMs: 1_000 } };
    const order: number[] = [];
    for (const [own, answer] of [
      [limit, lowered],
      [
        { requests: 5, intervalMs: 2_000 },
        { ...lowered, lowered: { requests: 5, intervalMs: 2_000 } },
      ],
      [undefined, lowered],
      [limit, { waitMs: 1_000, paused: false }],
    ] as const) {
      const queue = new CredentialQueue(scriptedStore(turns(answer, answer)), key);
      void settled(queue.turn(asking({ limit: own }))).then(({ waitedMs }) => order.push(waitedMs));
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(order).toEqual([500, 0, 1_000, 0]);
  });

  it("fails a call whose lowered budget would keep it past its bound, naming the budget, while a call at its own pace waits on", async () => {
    const slowed = { waitMs: 2_000, paused: false, lowered: { requests: 1, intervalMs: 1_000 } };
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }, slowed)), key);
    const order = settleOrder({
      own: queue.turn(asking({ limit: { requests: 1, intervalMs: 1_000 }, maxWaitMs: 1_000 })),
      bounded: queue.turn(asking({ maxWaitMs: 1_000 })),
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual([
      `bounded failed at 100: ${call.label} was not sent: a 429 lowered the credential's pace to 1 per 1000 ms, and its waits because of 429s would pass maxRateLimitWaitMs (1000 ms); retry after 2 s`,
    ]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(order.at(-1)).toBe("own at 2100");
  });

  it("charges a call that joined during a wait only for the part it waited", async () => {
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 1_000, paused: true }));
    const queue = new CredentialQueue(store, key);
    const first = queue.turn(asking());
    await vi.advanceTimersByTimeAsync(100);
    const joined = queue.turn(asking());
    await vi.advanceTimersByTimeAsync(600);
    await vi.advanceTimersByTimeAsync(400);
    await expect(first).resolves.toMatchObject({ waitedMs: 1_000 });
    await expect(joined).resolves.toMatchObject({ waitedMs: 900 });
  });
});

describe("a store that fails", () => {
  it("fails every waiting call with its error rather than hanging them", async () => {
    const broken = new Error("store down");
    const store = scriptedStore(turns({ waitMs: 100, paused: false }, { waitMs: 100, paused: false }));
    const queue = new CredentialQueue(store, key);
    const order = settleOrder({
      one: queue.turn(asking()),
      two: queue.turn(asking()),
    });
    store.take = () => Promise.reject(broken);
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual(["one failed at 100: store down", "two failed at 100: store down"]);
    // The queue works again once the store does.
    store.take = turns({ waitMs: 50, paused: false }, { waitMs: 50, paused: false });
    const again = settleOrder({ again: queue.turn(asking()) });
    await vi.advanceTimersByTimeAsync(100);
    expect(again).toEqual(["again at 150"]);
  });

  it("costs only precision when it cannot record an answer or a pause: the call's outcome stands", async () => {
    const store = scriptedStore();
    store.answered = () => {
      throw new Error("store down");
    };
    store.limited = () => {
      throw new Error("store down");
    };
    const queue = new CredentialQueue(store, key);
    store.release = () => {
      throw new Error("store down");
    };
    expect(() => queue.answered(limit, "a ticket")).not.toThrow();
    expect(() => queue.limited(answer, 1_000, limit, "a ticket", 0)).not.toThrow();
    expect(() => queue.release("a ticket")).not.toThrow();
    const rejected = vi.fn();
    process.on("unhandledRejection", rejected);
    try {
      store.answered = () => Promise.reject(new Error("store down"));
      store.limited = () => Promise.reject(new Error("store down"));
      store.release = () => Promise.reject(new Error("store down"));
      queue.answered(limit, "a ticket");
      queue.limited(answer, 1_000, limit, "a ticket", 0);
      queue.release("a ticket");
      // A rejection nobody handles is reported once the microtasks are done: wait past them on the real clock.
      vi.useRealTimers();
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("unhandledRejection", rejected);
    }
    expect(rejected).not.toHaveBeenCalled();
  });

  it("waits for a store of one's own that records a 429's pause with a thenable that is no Promise, and ignores its failure", async () => {
    const store = scriptedStore();
    let recorded: (() => void) | undefined;
    const pending = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable that is no Promise is what this store returns.
      then: (resolve: () => void) => {
        recorded = resolve;
      },
    };
    store.limited = () => pending as unknown as Promise<void>;
    const queue = new CredentialQueue(store, key);
    let paused: number | undefined;
    void queue.limited(answer, 1_000, limit, "a ticket", 0).then((pauseMs) => {
      paused = pauseMs;
    });
    vi.useRealTimers();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(paused).toBeUndefined();
    recorded?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(paused).toBe(1_000);
    const failing = {
      // biome-ignore lint/suspicious/noThenProperty: as above, one that fails.
      then: (_resolve: unknown, reject: (reason: unknown) => void) => reject(new Error("store down")),
    };
    store.limited = () => failing as unknown as Promise<void>;
    await expect(queue.limited(answer, 1_000, limit, "a ticket", 0)).resolves.toBe(1_000);
  });
});

describe("an answer", () => {
  it("tells the store which send it belongs to, by its ticket, under the limit in force, or none", () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    queue.answered(limit, "ticket a");
    queue.answered(undefined, "ticket b");
    expect(store.answers).toEqual([
      { limit, ticket: "ticket a" },
      { limit: undefined, ticket: "ticket b" },
    ]);
  });
});

describe("a 429", () => {
  it("pauses the credential for the wait asked, plus a jitter of up to a tenth of it, and tells the store which send got it", () => {
    const store = scriptedStore();
    const queue = new CredentialQueue(store, key);
    const limitedArgs = vi.spyOn(store, "limited");
    vi.spyOn(Math, "random").mockReturnValue(0);
    queue.limited(answer, 2_000, limit, "ticket a", 60_000);
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    queue.limited(answer, 2_001, limit, "ticket b", 60_000);
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    queue.limited(answer, 2_000, undefined, "ticket c", 60_000);
    expect(store.pauses).toEqual([2_000, Math.ceil(2_001 + 0.5 * 200.1), Math.ceil(2_000 + 0.999 * 200)]);
    expect(limitedArgs.mock.calls.map(([, limitArg, , ticket]) => ({ limitArg, ticket }))).toEqual([
      { limitArg: limit, ticket: "ticket a" },
      { limitArg: limit, ticket: "ticket b" },
      { limitArg: undefined, ticket: "ticket c" },
    ]);
  });

  it("adds at most a second of jitter to a long wait, and never more than the call that got it may still wait", () => {
    const store = scriptedStore();
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    new CredentialQueue(store, key).limited(answer, 60_000, limit, "a ticket", 60_000);
    new CredentialQueue(store, key).limited(answer, 60_000, limit, "a ticket", 500);
    new CredentialQueue(store, key).limited(answer, 60_000, limit, "a ticket", 0);
    expect(store.pauses).toEqual([60_999, Math.ceil(60_000 + 0.999 * 500), 60_000]);
  });

  it("is what a call it keeps from being sent carries: the answer's body, headers, request id and wait, as another call's", async () => {
    const queue = new CredentialQueue(scriptedStore(turns({ waitMs: 2_000, paused: true })), key);
    queue.limited(answer, 2_000, limit, "a ticket", 60_000);
    const error: RateLimitError = await settled(queue.turn(asking({ maxWaitMs: 1_000 }))).catch((failure) => failure);
    expect(error).toBeInstanceOf(RateLimitError);
    expect({ status: error.status, body: error.body, requestId: error.requestId, retryAfterMs: error.retryAfterMs }).toEqual({
      status: 429,
      body: { error: "slow down" },
      requestId: "r-1",
      retryAfterMs: 2_000,
    });
    expect(error.headers.get("retry-after")).toBe("2");
    expect(error.message).toBe(
      `${call.label} was not sent: the credential is paused for 2 s after a 429, and its waits because of 429s would pass maxRateLimitWaitMs (1000 ms); the last 429 was another call's answer: HTTP 429: slow down (request id r-1); retry after 2 s`,
    );
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
