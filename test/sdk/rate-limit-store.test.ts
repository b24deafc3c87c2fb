// The pace of a credential, as this process's store counts it: a sliding log per key, each send counted from its
// take until its answer and for a window after, widened by a margin, and the pause a 429 sets. The monotonic clock
// is moved by hand, so every wait is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type MemoryRateLimitStore, processRateLimitStore } from "../../src/client/memory-store.js";
import { declaredLimit, marginMs, maxInFlightMs, type RateLimit, rateLimitFromText, type Ticket, type Turn } from "../../src/client/rate-limit.js";
import { alerts, management } from "../../src/contract/interfaces.js";

// The process's store is a memory store: it answers at once.
const store = processRateLimitStore as MemoryRateLimitStore;
/** When the test began, on the monotonic clock. */
let began = 0;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["performance"] });
  // The monotonic clock counts from the process's start, and never reads 0 when a call is made: an hour in.
  vi.advanceTimersByTime(3_600_000);
  began = performance.now();
});
afterEach(() => {
  vi.useRealTimers();
});
/** Moves the clock to `ms` after the test began: forward only, as a monotonic clock goes. */
function at(ms: number): void {
  const by = began + ms - performance.now();
  if (by < 0) throw new Error(`the clock does not go back (${-by} ms asked)`);
  vi.advanceTimersByTime(by);
}
/** What a turn that lets a send go is: a ticket, whichever. */
const aTicket = expect.any(String);
/** A send taken and answered at once (the server counted it then): it counts from its take, for a window. */
function send(key: string, limit: RateLimit | undefined): Turn {
  const turn = store.take(key, limit);
  if (typeof turn === "string") store.answered(key, limit, turn);
  return turn;
}
/**
 * A 429 asking `ms` for a send this store did not count (as the fail-open store tells it of a send it could not
 * mirror): counted as taken now, it teaches nothing but the pause.
 */
const pause = (key: string, ms: number) => store.limited(key, undefined, ms, "");
let keys = 0;
const newKey = () => `rate-limit-store.test ${keys++}`;

describe("the margin a window is widened by", () => {
  it("is 50 ms at least, and 1% of a long interval, rounded up", () => {
    expect(marginMs({ requests: 10, intervalMs: 1_000 })).toBe(50);
    expect(marginMs({ requests: 10, intervalMs: 5_000 })).toBe(50);
    expect(marginMs({ requests: 10, intervalMs: 5_001 })).toBe(51);
    expect(marginMs({ requests: 10, intervalMs: 10_000 })).toBe(100);
    expect(marginMs({ requests: 10, intervalMs: 60_000 })).toBe(600);
  });
});

describe("a limit as the commands write it", () => {
  it.each([
    ["10/1s", { requests: 10, intervalMs: 1_000 }],
    ["5/500ms", { requests: 5, intervalMs: 500 }],
    ["2/1.5s", { requests: 2, intervalMs: 1_500 }],
    ["2/1.25s", { requests: 2, intervalMs: 1_250 }],
    ["1/1ms", { requests: 1, intervalMs: 1 }],
  ])("%s", (text, limit) => {
    expect(rateLimitFromText(text)).toEqual(limit);
  });

  it.each(["0/1s", "10/0s", "10/0.5ms", "10/1", "10/1m", " 10/1s", "10/1s ", "1.5/1s", "10/s", "/1s", "10-1s", "x10/1s"])("refuses %j", (text) => {
    expect(rateLimitFromText(text)).toBeUndefined();
  });

  it("each interface's declared limit is the contract's, in milliseconds", () => {
    expect(declaredLimit(management)).toEqual({ requests: management.rateLimit.requests, intervalMs: management.rateLimit.windowSeconds * 1_000 });
    expect(declaredLimit(alerts).intervalMs).toBe(alerts.rateLimit.windowSeconds * 1_000);
  });
});

describe("this process's store", () => {
  const limit = { requests: 3, intervalMs: 1_000 };
  const window = 1_000 + 50;

  it("gives a key as many sends as the limit allows, then the wait until the first leaves the widened window", () => {
    const key = newKey();
    expect([send(key, limit), send(key, limit)]).toEqual([aTicket, aTicket]);
    at(100);
    expect(send(key, limit)).toEqual(aTicket);
    at(200);
    expect(send(key, limit)).toEqual({ waitMs: window - 200, paused: false });
    at(window - 1);
    expect(send(key, limit)).toEqual({ waitMs: 1, paused: false });
    at(window);
    // Both sends at 0 left the window; the one at 100 is still in it.
    expect([send(key, limit), send(key, limit)]).toEqual([aTicket, aTicket]);
    expect(send(key, limit)).toEqual({ waitMs: 100, paused: false });
    at(window + 1);
    expect(send(key, limit)).toEqual({ waitMs: 99, paused: false });
  });

  it("forgets every send once all have left the widened window", () => {
    const key = newKey();
    expect([send(key, limit), send(key, limit), send(key, limit)]).toEqual([aTicket, aTicket, aTicket]);
    at(window);
    expect([send(key, limit), send(key, limit), send(key, limit)]).toEqual([aTicket, aTicket, aTicket]);
  });

  it("gives each send a ticket of its own", () => {
    const key = newKey();
    const tickets = [store.take(key, undefined), store.take(key, undefined), store.take(newKey(), undefined)];
    expect(new Set(tickets).size).toBe(3);
  });

  it("counts each key apart, and lets every send go without a limit", () => {
    const [one, two] = [newKey(), newKey()];
    const single = { requests: 1, intervalMs: 1_000 };
    expect(send(one, single)).toEqual(aTicket);
    expect(send(two, single)).toEqual(aTicket);
    expect(send(one, single)).not.toEqual(aTicket);
    // Without a limit, not even sends still in flight hold the next.
    for (let sent = 0; sent < 100; sent++) expect(store.take(one, undefined)).toEqual(aTicket);
  });

  it("pauses a key for what a 429 asks, to the millisecond, then lets it go", () => {
    const key = newKey();
    pause(key, 2_000);
    expect(send(key, undefined)).toEqual({ waitMs: 2_000, paused: true });
    at(1_999);
    expect(send(key, limit)).toEqual({ waitMs: 1, paused: true });
    at(2_000);
    expect(send(key, undefined)).toEqual(aTicket);
    expect(send(key, limit)).toEqual(aTicket);
  });

  it("keeps a longer pause already set, and takes a later one", () => {
    const key = newKey();
    pause(key, 5_000);
    pause(key, 1_000);
    expect(send(key, undefined)).toEqual({ waitMs: 5_000, paused: true });
    at(4_000);
    pause(key, 3_000);
    expect(send(key, undefined)).toEqual({ waitMs: 3_000, paused: true });
  });

  it("a pause that is over is forgotten: the next one counts from its own start", () => {
    const key = newKey();
    pause(key, 1_000);
    at(1_500);
    expect(send(key, undefined)).toEqual(aTicket);
    pause(key, 200);
    expect(send(key, undefined)).toEqual({ waitMs: 200, paused: true });
  });

  it("counts a send from its answer: the send its ticket names moves to now", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    const ticket = store.take(key, single) as Ticket;
    at(400);
    // The answer came 400 ms after the take: the server counted it somewhere in between, so it counts from now.
    store.answered(key, single, ticket);
    at(window);
    expect(send(key, single)).toEqual({ waitMs: 400, paused: false });
    at(window + 400);
    expect(send(key, single)).toEqual(aTicket);
  });

  it("moves only the send the answer belongs to, not a later one", () => {
    const key = newKey();
    const two = { requests: 2, intervalMs: 1_000 };
    const first = store.take(key, two) as Ticket;
    at(300);
    expect(send(key, two)).toEqual(aTicket);
    at(500);
    // The first send's answer: the send taken at 0 moves to 500, the one at 300 stays.
    store.answered(key, two, first);
    expect(send(key, two)).toEqual({ waitMs: 300 + window - 500, paused: false });
    // The same ticket for another key names nothing there.
    store.answered(newKey(), two, first);
  });

  it("moves the answered send after every send answered before it, leaving one entry per send", () => {
    const key = newKey();
    const three = { requests: 3, intervalMs: 1_000 };
    const first = store.take(key, three) as Ticket;
    at(300);
    expect(send(key, three)).toEqual(aTicket);
    at(500);
    store.answered(key, three, first);
    // Two sends counted (at 300 and 500): a third may go.
    expect(send(key, three)).toEqual(aTicket);
    expect(send(key, three)).toEqual({ waitMs: 300 + window - 500, paused: false });
  });

  it("puts an answered send before the sends still in flight: the next waits exactly for it to leave the window", () => {
    const key = newKey();
    const two = { requests: 2, intervalMs: 1_000 };
    expect(store.take(key, two)).toEqual(aTicket);
    at(100);
    const late = store.take(key, two) as Ticket;
    at(300);
    // The later send is answered first: it counts from 300, the earlier one still in flight.
    store.answered(key, two, late);
    expect(send(key, two)).toEqual({ waitMs: window, paused: false });
  });

  it("counts a send in flight until its answer, however long that is, then for a window from its answer", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    const slow = store.take(key, single) as Ticket;
    at(10 * window);
    // The server may count it yet: the next send waits for its answer, asking again a margin later.
    expect(send(key, single)).toEqual({ waitMs: marginMs(single), paused: false });
    store.answered(key, single, slow);
    at(11 * window - 1);
    expect(send(key, single)).toEqual({ waitMs: 1, paused: false });
    at(11 * window);
    expect(send(key, single)).toEqual(aTicket);
  });

  it("counts a send never answered as in flight for maxInFlightMs, then for a window more, as if answered then", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    // The process that took it may have ended before its answer: its ticket is never heard of again.
    expect(store.take(key, single)).toEqual(aTicket);
    at(maxInFlightMs - 1);
    expect(send(key, single)).toEqual({ waitMs: marginMs(single), paused: false });
    at(maxInFlightMs);
    expect(send(key, single)).toEqual({ waitMs: window, paused: false });
    at(maxInFlightMs + window);
    expect(send(key, single)).toEqual(aTicket);
  });

  it("orders a send in flight past maxInFlightMs by when it counts from, among the sends answered since, as Redis's sorted log does", () => {
    const key = newKey();
    const two = { requests: 2, intervalMs: 1_000 };
    // Never answered: from maxInFlightMs on, it counts as answered then.
    expect(store.take(key, two)).toEqual(aTicket);
    at(maxInFlightMs - 100);
    const later = store.take(key, two) as Ticket;
    at(maxInFlightMs + 50);
    store.answered(key, two, later);
    at(maxInFlightMs + 100);
    // The budget is full; the older of the two counts from maxInFlightMs, before the answer at + 50: it leaves first.
    expect(send(key, two)).toEqual({ waitMs: window - 100, paused: false });
    at(maxInFlightMs + window);
    expect(send(key, two)).toEqual(aTicket);
    expect(send(key, two)).toEqual({ waitMs: 50, paused: false });
  });

  it("holds any number of sends in flight, and moves each to its own answer whatever their order", () => {
    const key = newKey();
    const forty = { requests: 40, intervalMs: 1_000 };
    // Past the 16 its first storage holds, each taken at a time of its own (0 to 39 ms).
    const tickets = Array.from({ length: 40 }, (_, sent) => {
      at(sent);
      return store.take(key, forty) as Ticket;
    });
    expect(new Set(tickets).size).toBe(40);
    expect(store.take(key, forty)).toEqual({ waitMs: marginMs(forty), paused: false });
    // Answered from the last taken to the first, all but the middle one, which is still in flight at 300.
    at(100);
    for (const ticket of tickets.slice(21).reverse()) store.answered(key, forty, ticket);
    at(200);
    for (const ticket of tickets.slice(0, 20).reverse()) store.answered(key, forty, ticket);
    at(300);
    // The send to leave first is the first answered, at 100; the one in flight is the latest.
    expect(store.take(key, forty)).toEqual({ waitMs: 100 + window - 300, paused: false });
    store.answered(key, forty, tickets[20] as Ticket);
    // Each counts from its own answer: the 19 answered at 100 leave the window first, then the 20 at 200.
    const sendAll = (count: number) => Array.from({ length: count }, () => send(key, forty)).filter((turn) => typeof turn === "string").length;
    at(window + 100);
    expect(sendAll(19)).toBe(19);
    expect(send(key, forty)).toEqual({ waitMs: 100, paused: false });
    at(window + 200);
    expect(sendAll(20)).toBe(20);
    expect(send(key, forty)).toEqual({ waitMs: 100, paused: false });
  });

  it("moves nothing for a ticket with its send's count but another take time, or more after it", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    const mine = store.take(key, single) as Ticket;
    const [count, takenUs] = mine.split(":");
    at(100);
    store.answered(key, single, `${count}:${Number(takenUs) + 1}`);
    store.answered(key, single, `${Number(count) + 1_000}:${takenUs}`);
    store.answered(key, single, `${mine}|elsewhere`);
    store.release(key, `${count}`);
    // Still in flight: the next send waits for its answer.
    expect(store.take(key, single)).toEqual({ waitMs: marginMs(single), paused: false });
    store.answered(key, single, mine);
    expect(store.take(key, single)).toEqual({ waitMs: window, paused: false });
  });

  it("takes a ticket released twice as released once, as Redis's ZREM does", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    const first = store.take(key, single) as Ticket;
    store.release(key, first);
    const second = store.take(key, single) as Ticket;
    store.release(key, second);
    store.release(key, second);
    store.release(key, first);
    expect(store.take(key, single)).toEqual(aTicket);
    expect(store.take(key, single)).toEqual({ waitMs: marginMs(single), paused: false });
  });

  it("gives a released send's turn back, and only that one's: it was never made", () => {
    const key = newKey();
    const two = { requests: 2, intervalMs: 1_000 };
    const cancelled = store.take(key, two) as Ticket;
    expect(store.take(key, two)).toEqual(aTicket);
    expect(store.take(key, two)).toEqual({ waitMs: marginMs(two), paused: false });
    store.release(key, cancelled);
    expect(store.take(key, two)).toEqual(aTicket);
    expect(store.take(key, two)).toEqual({ waitMs: marginMs(two), paused: false });
  });

  it("moves nothing for an answer to a send it does not hold: released, or another key's", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    const released = store.take(key, single) as Ticket;
    store.release(key, released);
    const elsewhere = store.take(newKey(), single) as Ticket;
    at(100);
    expect(send(key, single)).toEqual(aTicket);
    at(200);
    // Neither counts here from now: the send at 100 alone holds the key, until 100 + window.
    store.answered(key, single, released);
    store.answered(key, single, elsewhere);
    at(100 + window);
    expect(send(key, single)).toEqual(aTicket);
  });
});

describe("the budget a 429 teaches this process's store", () => {
  const limit = { requests: 10, intervalMs: 1_000 };

  /**
   * A key of the store that took sends at the given offsets (no budget yet, so all), each answered at once, the
   * clock then at `now`. Offsets count from when the key was made: each key has a timeline of its own.
   */
  function keyThatSent(offsets: number[], now: number) {
    const key = newKey();
    const origin = performance.now() - began;
    /** Moves the clock to `offset` on this key's timeline. */
    const atOwn = (offset: number) => at(origin + offset);
    const tickets = new Map<number, Ticket>();
    let latest: Ticket | undefined;
    /** A send of the key, taken and answered at once. */
    const sendOne = (configured: RateLimit | undefined): Turn => {
      const turn = send(key, configured);
      if (typeof turn === "string") latest = turn;
      return turn;
    };
    for (const offset of offsets) {
      atOwn(offset);
      const turn = sendOne(undefined);
      expect(turn).toEqual(aTicket);
      tickets.set(offset, turn as Ticket);
    }
    atOwn(now);
    /** A 429 for the send taken at `sentAt` (an offset), asking `waitMs`. */
    const limited = (waitMs: number, configured: RateLimit | undefined, sentAt: number) => {
      const ticket = tickets.get(sentAt);
      if (ticket === undefined) throw new Error(`no send was taken at ${sentAt}`);
      store.limited(key, configured, waitMs, ticket);
    };
    /** A 429 for the latest send the key took, asking `waitMs`. */
    const limitedLatest = (waitMs: number, configured: RateLimit | undefined) => store.limited(key, configured, waitMs, latest as Ticket);
    /**
     * The limit a send of the key leaves under at `when`: taken until the store refuses, which names a lowered budget
     * (else the client's own is full); undefined when nothing refuses (no budget at all).
     */
    const budgetAt = (configured: RateLimit | undefined, when: number): RateLimit | "paused" | undefined => {
      atOwn(when);
      for (let sent = 0; sent <= 10_000; sent++) {
        const turn = sendOne(configured);
        if (typeof turn !== "string") return turn.paused ? "paused" : (turn.lowered ?? configured);
      }
      return undefined;
    };
    return { key, at: atOwn, sendOne, limited, limitedLatest, budgetAt };
  }

  it("drops to the sends of the window that ended in the 429, but that one", () => {
    const { limited, budgetAt } = keyThatSent([0, 100, 200, 300, 400, 500], 600);
    limited(1_000, limit, 500);
    expect(budgetAt(limit, 1_599)).toBe("paused");
    expect(budgetAt(limit, 1_600)).toEqual({ requests: 5, intervalMs: 1_000 });
  });

  it("counts only the sends within the limit's widened window before the 429", () => {
    // The window is 1,000 ms plus the 50 ms margin: the sends at 0 and 49 are out of it at 1,100.
    const { limited, budgetAt } = keyThatSent([0, 49, 50, 51, 600, 700, 1_000], 1_100);
    limited(1_000, limit, 1_000);
    expect(budgetAt(limit, 2_100)).toEqual({ requests: 3, intervalMs: 1_000 });
  });

  it("counts in the window that ended in the 429 the sends still in flight, however long ago they were taken", () => {
    const { key, at, sendOne, limitedLatest, budgetAt } = keyThatSent([], 0);
    // Two sends taken at 0 and not answered yet: the server may have counted them, whenever they arrived.
    store.take(key, undefined);
    store.take(key, undefined);
    for (const offset of [1_500, 1_600]) {
      at(offset);
      expect(sendOne(undefined)).toEqual(aTicket);
    }
    at(2_000);
    limitedLatest(1_000, limit);
    // The two answered in the window and the two in flight: 3 accepted.
    expect(budgetAt(limit, 3_000)).toEqual({ requests: 3, intervalMs: 1_000 });
  });

  it("learns nothing from a window in which the server took at most one send, and one from two", () => {
    const { limited, budgetAt } = keyThatSent([0, 500], 1_100);
    limited(1_000, limit, 500);
    expect(budgetAt(limit, 2_100)).toBe(limit);
    const two = keyThatSent([0, 500, 600], 1_100);
    two.limited(1_000, limit, 600);
    expect(two.budgetAt(limit, 2_100)).toEqual({ requests: 1, intervalMs: 1_000 });
  });

  it("never rises above the configured limit", () => {
    const { limited, budgetAt } = keyThatSent(
      Array.from({ length: 15 }, (_, index) => index * 10),
      200,
    );
    limited(1_000, limit, 140);
    expect(budgetAt(limit, 1_200)).toEqual(limit);
  });

  it("loses one more for each other send of that window that gets a 429 too, down to one", () => {
    const downToOne = keyThatSent([0, 100, 200, 300], 400);
    for (const sentAt of [300, 200, 100, 0, 0]) downToOne.limited(1_000, limit, sentAt);
    const twoLeft = keyThatSent([0, 100, 200, 300], 400);
    twoLeft.limited(1_000, limit, 300);
    twoLeft.limited(1_000, limit, 200);
    expect(downToOne.budgetAt(limit, 1_400)).toEqual({ requests: 1, intervalMs: 1_000 });
    expect(twoLeft.budgetAt(limit, 1_400)).toEqual({ requests: 2, intervalMs: 1_000 });
  });

  it("lowers the budget by one only, and pauses, for a 429 of a send taken before the last 429, however late its answer", () => {
    const { key, at, limited, budgetAt } = keyThatSent([0, 100, 200, 300], 350);
    const crossing = store.take(key, undefined) as Ticket;
    at(400);
    // The four answered and the one in flight: 4 accepted, growing back from the end of the pause, at 2,400.
    limited(2_000, limit, 300);
    at(900);
    // Taken at 350, before that 429, and answered 429 after it: one fewer, not a window of its own (which holds 5 sends now).
    store.answered(key, limit, crossing);
    store.limited(key, limit, 1_600, crossing);
    expect(budgetAt(limit, 2_499)).toBe("paused");
    expect(budgetAt(limit, 2_500)).toEqual({ requests: 3, intervalMs: 1_000 });
  });

  // "" is the fail-open store's ticket for a send it could not mirror; the others are no ticket of this store's, read
  // strictly: without a colon, or without a count before it, a take time of 17 or 5 µs would make the send older.
  it.each(["", "17", ":5"])(
    "takes a 429 for a send it did not count (ticket %j, a shared store's mirror) as taken now: its window, not one fewer",
    (ticket) => {
      const { key, at, limited, budgetAt } = keyThatSent([0, 100, 200, 300, 400], 400);
      limited(0, limit, 300);
      at(500);
      // Relearned from the window (its five sends but that one, 4), not lowered from 4 to 3.
      store.limited(key, limit, 0, ticket);
      expect(budgetAt(limit, 500)).toEqual({ requests: 4, intervalMs: 1_000 });
    },
  );

  it("counts in the window of a 429 no send in flight past maxInFlightMs whose time ended where that window begins", () => {
    const { key, at, budgetAt } = keyThatSent([], 0);
    // Never answered: it counts until maxInFlightMs, then for a window more.
    expect(store.take(key, limit)).toEqual(aTicket);
    at(maxInFlightMs + 1_000);
    const limitedSend = store.take(key, limit) as Ticket;
    store.answered(key, limit, limitedSend);
    // The window that ends now begins exactly when the unanswered send stopped counting as in flight: it is out.
    at(maxInFlightMs + 1_050);
    store.limited(key, limit, 0, limitedSend);
    // One send in the window: nothing learned, the client's own limit stands.
    expect(budgetAt(limit, maxInFlightMs + 1_050)).toEqual(limit);
  });

  it("a second 429 of a window that taught nothing teaches nothing either", () => {
    const { limited, budgetAt } = keyThatSent([0], 100);
    limited(1_000, limit, 0);
    limited(1_000, limit, 0);
    expect(budgetAt(limit, 1_100)).toBe(limit);
  });

  it("keeps a budget learned at the configured limit, so a later 429 of that window still lowers it", () => {
    const { limited, budgetAt } = keyThatSent(
      Array.from({ length: 15 }, (_, index) => index * 10),
      200,
    );
    limited(1_000, limit, 140);
    limited(1_000, limit, 100);
    expect(budgetAt(limit, 1_200)).toEqual({ requests: 9, intervalMs: 1_000 });
  });

  it("once grown back to the configured limit, is forgotten: a client of the credential with another limit leaves under its own", () => {
    const { limited, budgetAt } = keyThatSent([0, 100, 200, 300, 400, 500, 600, 700, 800, 900], 1_000);
    limited(0, limit, 900);
    expect(budgetAt(limit, 1_000)).toEqual({ requests: 9, intervalMs: 1_000 });
    const other = { requests: 100, intervalMs: 500 };
    expect(budgetAt(other, 2_000)).toEqual({ requests: 10, intervalMs: 1_000 });
    const again = keyThatSent([0, 100, 200, 300, 400, 500, 600, 700, 800, 900], 1_000);
    again.limited(0, limit, 900);
    expect(again.budgetAt(limit, 2_000)).toBe(limit);
    expect(again.budgetAt(other, 4_000)).toBe(other);
  });

  it("learns afresh from a send made after the last 429", () => {
    const { at, sendOne, limited, limitedLatest, budgetAt } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, limit, 300);
    // Two sends after the pause, then a 429 for the second: a window of its own, not one fewer than learned (3).
    at(1_400);
    expect([sendOne(limit), sendOne(limit)]).toEqual([aTicket, aTicket]);
    at(1_500);
    limitedLatest(1_000, limit);
    expect(budgetAt(limit, 2_500)).toEqual({ requests: 1, intervalMs: 1_000 });
  });

  it("takes a 429 for a send taken at the very moment of the last 429 as a window of its own, not one fewer", () => {
    const { at, limited, budgetAt } = keyThatSent([0, 100, 200, 300, 400], 400);
    limited(0, limit, 300);
    // The send taken at 400, when that 429 came (and counted in its window), answered 429 at 500: its window still
    // holds the five sends, so 4 again, not 3.
    at(500);
    limited(0, limit, 400);
    expect(budgetAt(limit, 500)).toEqual({ requests: 4, intervalMs: 1_000 });
  });

  it("grows back by a tenth, one at least, per window without a 429 after the pause, until the configured limit is back", () => {
    const big = { requests: 100, intervalMs: 1_000 };
    const { limited, budgetAt } = keyThatSent(
      Array.from({ length: 31 }, (_, index) => index * 10),
      400,
    );
    limited(2_000, big, 300);
    // 30 accepted; the pause ends at 2,400, and the first window after it at 3,400.
    expect(budgetAt(big, 2_400)).toEqual({ requests: 30, intervalMs: 1_000 });
    expect(budgetAt(big, 3_399)).toEqual({ requests: 30, intervalMs: 1_000 });
    expect(budgetAt(big, 3_400)).toEqual({ requests: 33, intervalMs: 1_000 });
    expect(budgetAt(big, 4_399)).toEqual({ requests: 33, intervalMs: 1_000 });
    // Two windows at once: 33 + 4, then + 4.
    expect(budgetAt(big, 5_400)).toEqual({ requests: 41, intervalMs: 1_000 });
    expect(budgetAt(big, 100_000)).toBe(big);
  });

  it("after a 429 while lowered, grows a step of twice as many windows, up to 16", () => {
    const { limited, limitedLatest, budgetAt } = keyThatSent([0, 100, 200, 300, 400, 500], 600);
    limited(0, limit, 500);
    // 5 accepted; grown to 6 a window later, and a 429 again: 5 once more, now growing every 2 windows.
    expect(budgetAt(limit, 1_600)).toEqual({ requests: 6, intervalMs: 1_000 });
    limitedLatest(0, limit);
    expect(budgetAt(limit, 2_600)).toEqual({ requests: 5, intervalMs: 1_000 });
    expect(budgetAt(limit, 3_599)).toEqual({ requests: 5, intervalMs: 1_000 });
    expect(budgetAt(limit, 3_600)).toEqual({ requests: 6, intervalMs: 1_000 });
    let stepWindows = 2;
    for (let at429 = 3_600; stepWindows < 32; stepWindows *= 2) {
      limitedLatest(0, limit);
      const next = Math.min(16, stepWindows * 2) * 1_000;
      expect(budgetAt(limit, at429 + next - 1)).toEqual({ requests: 5, intervalMs: 1_000 });
      expect(budgetAt(limit, at429 + next)).toEqual({ requests: 6, intervalMs: 1_000 });
      at429 += next;
    }
  });

  it("grows a small budget by one per window", () => {
    const { limited, budgetAt } = keyThatSent([0, 100, 200], 300);
    limited(0, limit, 200);
    expect(budgetAt(limit, 300)).toEqual({ requests: 2, intervalMs: 1_000 });
    expect(budgetAt(limit, 1_300)).toEqual({ requests: 3, intervalMs: 1_000 });
    expect(budgetAt(limit, 2_300)).toEqual({ requests: 4, intervalMs: 1_000 });
  });

  it("applies to a client with a lower limit of its own only as far as it is lower", () => {
    const { limited, budgetAt } = keyThatSent([0, 100, 200, 300, 400, 500], 600);
    limited(1_000, limit, 500);
    expect(budgetAt({ requests: 3, intervalMs: 2_000 }, 1_600)).toEqual({ requests: 3, intervalMs: 2_000 });
    expect(budgetAt({ requests: 8, intervalMs: 500 }, 1_600)).toEqual({ requests: 5, intervalMs: 1_000 });
  });

  it("without a limit of its own, spans from the first send to the end of the pause", () => {
    const { limited, budgetAt } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    // From the send at 0 to 400 + 1,000.
    expect(budgetAt(undefined, 1_400)).toEqual({ requests: 3, intervalMs: 1_400 });
  });

  it("without a limit of its own, grows back too, by a tenth per learned window, and is forgotten after 100 windows", () => {
    const { limited, budgetAt } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    expect(budgetAt(undefined, 1_400 + 1_400)).toEqual({ requests: 4, intervalMs: 1_400 });
  });

  it("without a limit of its own, is kept for 100 windows: a 429 then learns from the window of the budget", () => {
    const { at, sendOne, limited, limitedLatest, budgetAt } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    const after = 1_400 + 100 * 1_400;
    for (const offset of [after, after + 2_000, after + 4_000]) {
      at(offset);
      expect(sendOne(undefined)).toEqual(aTicket);
    }
    limitedLatest(1_000, undefined);
    // One send in the budget's 1.4 s window: nothing learned, the grown budget stays (far above what 10,001 sends test).
    expect(budgetAt(undefined, after + 5_000)).toBeUndefined();
  });

  it("without a limit of its own, is forgotten after 100 windows: the next 429 learns from every send since the last", () => {
    const { at, sendOne, limited, limitedLatest, budgetAt } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    // Sends 2 s apart: under a budget of 1.4 s windows a 429 would find one send in its window, and learn nothing.
    const after = 1_400 + 101 * 1_400;
    for (const offset of [after, after + 2_000, after + 4_000]) {
      at(offset);
      expect(sendOne(undefined)).toEqual(aTicket);
    }
    limitedLatest(1_000, undefined);
    expect(budgetAt(undefined, after + 5_000)).toEqual({ requests: 2, intervalMs: 5_000 });
  });

  it("without a limit of its own, counts the sends since the last 429", () => {
    const { at, sendOne, limited, limitedLatest, budgetAt } = keyThatSent([0], 100);
    // A lone send teaches nothing, but the window of the next 429 starts here.
    limited(1_000, undefined, 0);
    for (const offset of [1_200, 1_300, 1_400]) {
      at(offset);
      expect(sendOne(undefined)).toEqual(aTicket);
    }
    at(1_500);
    limitedLatest(1_000, undefined);
    expect(budgetAt(undefined, 2_500)).toEqual({ requests: 2, intervalMs: 1_300 });
  });

  it("without a budget, keeps the last 5,000 to 10,000 sends: older ones are forgotten", () => {
    const full = keyThatSent([], 0);
    for (let sent = 0; sent < 10_000; sent++) full.sendOne(undefined);
    full.at(1);
    full.limitedLatest(0, undefined);
    expect(full.budgetAt(undefined, 1)).toEqual({ requests: 9_999, intervalMs: 1 });
    const pruned = keyThatSent([], 0);
    for (let sent = 0; sent < 10_001; sent++) pruned.sendOne(undefined);
    pruned.at(1);
    pruned.limitedLatest(0, undefined);
    expect(pruned.budgetAt(undefined, 1)).toEqual({ requests: 4_999, intervalMs: 1 });
  });

  it("without a budget, past 10,000 sends, first forgets a send in flight past maxInFlightMs that counts from before the others", () => {
    const { key, at, sendOne, limitedLatest, budgetAt } = keyThatSent([], 0);
    // Never answered: from maxInFlightMs on, it counts as answered then, before every send below.
    expect(store.take(key, undefined)).toEqual(aTicket);
    at(maxInFlightMs + 10_000);
    for (let sent = 0; sent < 10_000; sent++) sendOne(undefined);
    at(maxInFlightMs + 10_001);
    limitedLatest(0, undefined);
    // The 5,000 kept were all answered at +10,000: the window spans 1 ms, not the 10 s back to the one in flight.
    expect(budgetAt(undefined, maxInFlightMs + 10_001)).toEqual({ requests: 4_999, intervalMs: 1 });
  });

  it("without a budget, past 10,000 sends, keeps a send still in flight: it counts until after every answered one", () => {
    const { key, at, sendOne, limitedLatest, budgetAt } = keyThatSent([], 0);
    // In flight for less than maxInFlightMs: it counts until its answer, later than the answers below.
    const flying = store.take(key, undefined) as Ticket;
    // A send a millisecond, answered at once, at +1 to +10,000: the cap forgets the 5,001 oldest of them (to +5,001).
    for (let sent = 1; sent <= 10_000; sent++) {
      at(sent);
      sendOne(undefined);
    }
    at(10_001);
    store.answered(key, undefined, flying);
    limitedLatest(0, undefined);
    // Kept through the cap, it lands: 5,000 sends counted from +5,002 to +10,001. Had the cap forgotten it (and the
    // latest send, in flight then) before the older answered ones, the window would span 5,001 ms from +5,000.
    expect(budgetAt(undefined, 10_001)).toEqual({ requests: 4_999, intervalMs: 4_999 });
  });

  it("without a budget, past 10,000 sends all in flight, keeps the latest 5,000 of them", () => {
    const key = newKey();
    const tickets = Array.from({ length: 10_001 }, () => store.take(key, undefined) as Ticket);
    // The 5,001 first are forgotten: a 429 for the last learns from the 5,000 kept, all in flight.
    store.limited(key, undefined, 1_000, tickets[10_000] as Ticket);
    const refused = Array.from({ length: 5_000 }, () => store.take(key, undefined)).find((turn) => typeof turn !== "string");
    expect(refused).toEqual({ waitMs: 1_000, paused: true });
    at(1_000);
    expect(store.take(key, undefined)).toEqual({
      waitMs: marginMs({ requests: 4_999, intervalMs: 1_000 }),
      paused: false,
      lowered: { requests: 4_999, intervalMs: 1_000 },
    });
  });

  it("without a budget, answers a send as fast with 10,000 sends logged as with none: its place is found from the end", () => {
    // A scan of the log on every answer made each call of a client with rateLimit: false cost tens of microseconds
    // (the SDK ran at 1.5x a bare fetch). Timed on the real clock, a full key against fresh ones.
    const answerEach = (key: string) => {
      const started = process.hrtime.bigint();
      for (let sent = 0; sent < 200; sent++) store.answered(key, undefined, store.take(key, undefined) as Ticket);
      return Number(process.hrtime.bigint() - started);
    };
    // 9,000 sends, and 1,000 more below: short of the 10,000 past which the log drops its older half.
    const full = keyThatSent([], 0);
    for (let sent = 0; sent < 9_000; sent++) full.sendOne(undefined);
    // The fastest of five rounds, each side in turn: a pause of the machine's slows one round, not the figure.
    let fastestFull = Number.POSITIVE_INFINITY;
    let fastestEmpty = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 5; round++) {
      fastestFull = Math.min(fastestFull, answerEach(full.key));
      fastestEmpty = Math.min(fastestEmpty, answerEach(newKey()));
    }
    // A scan from the log's start made it 14 to 16 times slower; found from the end, 0.4 to 1.1 times.
    expect(fastestFull / fastestEmpty).toBeLessThan(4);
  });
});
