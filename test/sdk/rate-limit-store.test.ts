// The pace of a credential, as this process's store counts it: a sliding log per key, widened by a margin, and the
// pause a 429 sets. The clock is set by hand, so every wait is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { processRateLimitStore as store } from "../../src/client/memory-store.js";
import { declaredLimit, marginMs, type RateLimit, rateLimitFromText, type Turn } from "../../src/client/rate-limit.js";
import { alerts, management } from "../../src/contract/interfaces.js";

const start = Date.parse("2026-11-26T12:00:00Z");
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(start);
});
afterEach(() => {
  vi.useRealTimers();
});
const at = (ms: number) => vi.setSystemTime(start + ms);
/** A 429 asking `ms` for a send just taken: with no other send in its window, it teaches nothing but the pause. */
const pause = (key: string, ms: number) => store.limited(key, undefined, ms, 0);
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
    expect([store.take(key, limit), store.take(key, limit)]).toEqual([0, 0]);
    at(100);
    expect(store.take(key, limit)).toBe(0);
    at(200);
    expect(store.take(key, limit)).toEqual({ waitMs: window - 200, paused: false });
    at(window - 1);
    expect(store.take(key, limit)).toEqual({ waitMs: 1, paused: false });
    at(window);
    // Both sends at 0 left the window; the one at 100 is still in it.
    expect([store.take(key, limit), store.take(key, limit)]).toEqual([0, 0]);
    expect(store.take(key, limit)).toEqual({ waitMs: 100, paused: false });
    at(window + 1);
    expect(store.take(key, limit)).toEqual({ waitMs: 99, paused: false });
  });

  it("forgets every send once all have left the widened window", () => {
    const key = newKey();
    expect([store.take(key, limit), store.take(key, limit), store.take(key, limit)]).toEqual([0, 0, 0]);
    at(window);
    expect([store.take(key, limit), store.take(key, limit), store.take(key, limit)]).toEqual([0, 0, 0]);
  });

  it("counts each key apart, and lets every send go without a limit", () => {
    const [one, two] = [newKey(), newKey()];
    const single = { requests: 1, intervalMs: 1_000 };
    expect(store.take(one, single)).toBe(0);
    expect(store.take(two, single)).toBe(0);
    expect(store.take(one, single)).not.toBe(0);
    for (let send = 0; send < 100; send++) expect(store.take(one, undefined)).toBe(0);
  });

  it("pauses a key for what a 429 asks, to the millisecond, then lets it go", () => {
    const key = newKey();
    pause(key, 2_000);
    expect(store.take(key, undefined)).toEqual({ waitMs: 2_000, paused: true });
    at(1_999);
    expect(store.take(key, limit)).toEqual({ waitMs: 1, paused: true });
    at(2_000);
    expect(store.take(key, undefined)).toBe(0);
    expect(store.take(key, limit)).toBe(0);
  });

  it("keeps a longer pause already set, and takes a later one", () => {
    const key = newKey();
    pause(key, 5_000);
    pause(key, 1_000);
    expect(store.take(key, undefined)).toEqual({ waitMs: 5_000, paused: true });
    at(4_000);
    pause(key, 3_000);
    expect(store.take(key, undefined)).toEqual({ waitMs: 3_000, paused: true });
  });

  it("a pause that is over is forgotten: the next one counts from its own start", () => {
    const key = newKey();
    pause(key, 1_000);
    at(1_500);
    expect(store.take(key, undefined)).toBe(0);
    pause(key, 200);
    expect(store.take(key, undefined)).toEqual({ waitMs: 200, paused: true });
  });

  it("counts a send from its answer: the latest send taken before the answered one's take moves to now", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    expect(store.take(key, single)).toBe(0);
    at(400);
    // The answer came 400 ms after the take: the server counted it somewhere in between, so it counts from now.
    store.answered?.(key, single, 400);
    at(window);
    expect(store.take(key, single)).toEqual({ waitMs: 400, paused: false });
    at(window + 400);
    expect(store.take(key, single)).toBe(0);
  });

  it("moves only the send the answer belongs to, not a later one", () => {
    const key = newKey();
    const two = { requests: 2, intervalMs: 1_000 };
    expect(store.take(key, two)).toBe(0);
    at(300);
    expect(store.take(key, two)).toBe(0);
    at(500);
    // The first send's answer (taken 500 ms ago): the send at 0 moves to 500, the one at 300 stays.
    store.answered?.(key, two, 500);
    expect(store.take(key, two)).toEqual({ waitMs: 300 + window - 500, paused: false });
    store.answered?.(newKey(), two, 10);
  });

  it("moves the answered send to the end of the log, leaving one entry per send", () => {
    const key = newKey();
    const three = { requests: 3, intervalMs: 1_000 };
    expect(store.take(key, three)).toBe(0);
    at(300);
    expect(store.take(key, three)).toBe(0);
    at(500);
    store.answered?.(key, three, 500);
    // Two sends counted (at 300 and 500): a third may go.
    expect(store.take(key, three)).toBe(0);
    expect(store.take(key, three)).toEqual({ waitMs: 300 + window - 500, paused: false });
  });

  it("moves nothing for an answer to a send taken before any the log holds", () => {
    const key = newKey();
    const single = { requests: 1, intervalMs: 1_000 };
    at(100);
    expect(store.take(key, single)).toBe(0);
    at(200);
    // Taken 150 ms ago, at 50: the send at 100 is another one, and stays where it is.
    store.answered?.(key, single, 150);
    at(100 + window);
    expect(store.take(key, single)).toBe(0);
  });
});

describe("the budget a 429 teaches this process's store", () => {
  const limit = { requests: 10, intervalMs: 1_000 };

  /** A key of the store that took sends at the given offsets from start (no budget yet, so all), the clock then at `now`. */
  function keyThatSent(offsets: number[], now: number) {
    const key = newKey();
    for (const offset of offsets) {
      at(offset);
      expect(store.take(key, undefined)).toBe(0);
    }
    at(now);
    /** A 429 for the send taken at `sentAt` (an offset), asking `waitMs`. */
    const limited = (waitMs: number, configured: RateLimit | undefined, sentAt: number) => store.limited(key, configured, waitMs, now - sentAt);
    return { key, limited };
  }

  /**
   * The limit a send of `key` leaves under at `when` (an offset): taken until the store refuses, which names a
   * lowered budget (else the client's own is full); undefined when nothing refuses (no budget at all).
   */
  function budgetAt(key: string, configured: RateLimit | undefined, when: number): RateLimit | "paused" | undefined {
    at(when);
    for (let send = 0; send <= 10_000; send++) {
      const turn = store.take(key, configured) as Turn;
      if (turn !== 0) return turn.paused ? "paused" : (turn.lowered ?? configured);
    }
    return undefined;
  }

  it("drops to the sends of the window that ended in the 429, but that one", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300, 400, 500], 600);
    limited(1_000, limit, 500);
    expect(budgetAt(key, limit, 1_599)).toBe("paused");
    expect(budgetAt(key, limit, 1_600)).toEqual({ requests: 5, intervalMs: 1_000 });
  });

  it("counts only the sends within the limit's widened window before the 429", () => {
    // The window is 1,000 ms plus the 50 ms margin: the sends at 0 and 49 are out of it at 1,100.
    const { key, limited } = keyThatSent([0, 49, 50, 51, 600, 700, 1_000], 1_100);
    limited(1_000, limit, 1_000);
    expect(budgetAt(key, limit, 2_100)).toEqual({ requests: 3, intervalMs: 1_000 });
  });

  it("learns nothing from a window in which the server took at most one send, and one from two", () => {
    const { key, limited } = keyThatSent([0, 500], 1_100);
    limited(1_000, limit, 500);
    expect(budgetAt(key, limit, 2_100)).toBe(limit);
    const two = keyThatSent([0, 500, 600], 1_100);
    two.limited(1_000, limit, 600);
    expect(budgetAt(two.key, limit, 2_100)).toEqual({ requests: 1, intervalMs: 1_000 });
  });

  it("never rises above the configured limit", () => {
    const { key, limited } = keyThatSent(
      Array.from({ length: 15 }, (_, index) => index * 10),
      200,
    );
    limited(1_000, limit, 140);
    expect(budgetAt(key, limit, 1_200)).toEqual(limit);
  });

  it("loses one more for each other send of that window that gets a 429 too, down to one", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300], 400);
    for (const sentAt of [300, 200, 100, 0, 0]) limited(1_000, limit, sentAt);
    const twoLeft = keyThatSent([0, 100, 200, 300], 400);
    twoLeft.limited(1_000, limit, 300);
    twoLeft.limited(1_000, limit, 200);
    expect(budgetAt(twoLeft.key, limit, 1_400)).toEqual({ requests: 2, intervalMs: 1_000 });
    expect(budgetAt(key, limit, 1_400)).toEqual({ requests: 1, intervalMs: 1_000 });
  });

  it("a second 429 of a window that taught nothing teaches nothing either", () => {
    const { key, limited } = keyThatSent([0], 100);
    limited(1_000, limit, 0);
    limited(1_000, limit, 0);
    expect(budgetAt(key, limit, 1_100)).toBe(limit);
  });

  it("keeps a budget learned at the configured limit, so a later 429 of that window still lowers it", () => {
    const { key, limited } = keyThatSent(
      Array.from({ length: 15 }, (_, index) => index * 10),
      200,
    );
    limited(1_000, limit, 140);
    limited(1_000, limit, 100);
    expect(budgetAt(key, limit, 1_200)).toEqual({ requests: 9, intervalMs: 1_000 });
  });

  it("once grown back to the configured limit, is forgotten: a client of the credential with another limit leaves under its own", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300, 400, 500, 600, 700, 800, 900], 1_000);
    limited(0, limit, 900);
    expect(budgetAt(key, limit, 1_000)).toEqual({ requests: 9, intervalMs: 1_000 });
    const other = { requests: 100, intervalMs: 500 };
    expect(budgetAt(key, other, 2_000)).toEqual({ requests: 10, intervalMs: 1_000 });
    const again = keyThatSent([0, 100, 200, 300, 400, 500, 600, 700, 800, 900], 1_000);
    again.limited(0, limit, 900);
    expect(budgetAt(again.key, limit, 2_000)).toBe(limit);
    expect(budgetAt(again.key, other, 4_000)).toBe(other);
  });

  it("learns afresh from a send made after the last 429", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, limit, 300);
    // Two sends after the pause, then a 429 for the second: a window of its own, not one fewer than learned (3).
    at(1_400);
    expect([store.take(key, limit), store.take(key, limit)]).toEqual([0, 0]);
    at(1_500);
    store.limited(key, limit, 1_000, 0);
    expect(budgetAt(key, limit, 2_500)).toEqual({ requests: 1, intervalMs: 1_000 });
  });

  it("takes a 429 for a send taken at the very moment of the last 429 as a window of its own, not one fewer", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300], 400);
    limited(0, limit, 300);
    // A send taken at 400, when that 429 came, answered 429 at 500: its window still holds the four sends, so 3 again.
    at(500);
    store.limited(key, limit, 0, 100);
    expect(budgetAt(key, limit, 500)).toEqual({ requests: 3, intervalMs: 1_000 });
  });

  it("grows back by a tenth, one at least, per window without a 429 after the pause, until the configured limit is back", () => {
    const big = { requests: 100, intervalMs: 1_000 };
    const { key, limited } = keyThatSent(
      Array.from({ length: 31 }, (_, index) => index * 10),
      400,
    );
    limited(2_000, big, 300);
    // 30 accepted; the pause ends at 2,400, and the first window after it at 3,400.
    expect(budgetAt(key, big, 2_400)).toEqual({ requests: 30, intervalMs: 1_000 });
    expect(budgetAt(key, big, 3_399)).toEqual({ requests: 30, intervalMs: 1_000 });
    expect(budgetAt(key, big, 3_400)).toEqual({ requests: 33, intervalMs: 1_000 });
    expect(budgetAt(key, big, 4_399)).toEqual({ requests: 33, intervalMs: 1_000 });
    // Two windows at once: 33 + 4, then + 4.
    expect(budgetAt(key, big, 5_400)).toEqual({ requests: 41, intervalMs: 1_000 });
    expect(budgetAt(key, big, 100_000)).toBe(big);
  });

  it("after a 429 while lowered, grows a step of twice as many windows, up to 16", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300, 400, 500], 600);
    limited(0, limit, 500);
    // 5 accepted; grown to 6 a window later, and a 429 again: 5 once more, now growing every 2 windows.
    expect(budgetAt(key, limit, 1_600)).toEqual({ requests: 6, intervalMs: 1_000 });
    store.limited(key, limit, 0, 0);
    expect(budgetAt(key, limit, 2_600)).toEqual({ requests: 5, intervalMs: 1_000 });
    expect(budgetAt(key, limit, 3_599)).toEqual({ requests: 5, intervalMs: 1_000 });
    expect(budgetAt(key, limit, 3_600)).toEqual({ requests: 6, intervalMs: 1_000 });
    let stepWindows = 2;
    for (let at429 = 3_600; stepWindows < 32; stepWindows *= 2) {
      store.limited(key, limit, 0, 0);
      const next = Math.min(16, stepWindows * 2) * 1_000;
      expect(budgetAt(key, limit, at429 + next - 1)).toEqual({ requests: 5, intervalMs: 1_000 });
      expect(budgetAt(key, limit, at429 + next)).toEqual({ requests: 6, intervalMs: 1_000 });
      at429 += next;
    }
  });

  it("grows a small budget by one per window", () => {
    const { key, limited } = keyThatSent([0, 100, 200], 300);
    limited(0, limit, 200);
    expect(budgetAt(key, limit, 300)).toEqual({ requests: 2, intervalMs: 1_000 });
    expect(budgetAt(key, limit, 1_300)).toEqual({ requests: 3, intervalMs: 1_000 });
    expect(budgetAt(key, limit, 2_300)).toEqual({ requests: 4, intervalMs: 1_000 });
  });

  it("applies to a client with a lower limit of its own only as far as it is lower", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300, 400, 500], 600);
    limited(1_000, limit, 500);
    expect(budgetAt(key, { requests: 3, intervalMs: 2_000 }, 1_600)).toEqual({ requests: 3, intervalMs: 2_000 });
    expect(budgetAt(key, { requests: 8, intervalMs: 500 }, 1_600)).toEqual({ requests: 5, intervalMs: 1_000 });
  });

  it("without a limit of its own, spans from the first send to the end of the pause", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    // From the send at 0 to 400 + 1,000.
    expect(budgetAt(key, undefined, 1_400)).toEqual({ requests: 3, intervalMs: 1_400 });
  });

  it("without a limit of its own, grows back too, by a tenth per learned window, and is forgotten after 100 windows", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    expect(budgetAt(key, undefined, 1_400 + 1_400)).toEqual({ requests: 4, intervalMs: 1_400 });
  });

  it("without a limit of its own, is kept for 100 windows: a 429 then learns from the window of the budget", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    const after = 1_400 + 100 * 1_400;
    for (const offset of [after, after + 2_000, after + 4_000]) {
      at(offset);
      expect(store.take(key, undefined)).toBe(0);
    }
    store.limited(key, undefined, 1_000, 0);
    // One send in the budget's 1.4 s window: nothing learned, the grown budget stays (far above what 10,001 sends test).
    expect(budgetAt(key, undefined, after + 5_000)).toBeUndefined();
  });

  it("without a limit of its own, is forgotten after 100 windows: the next 429 learns from every send since the last", () => {
    const { key, limited } = keyThatSent([0, 100, 200, 300], 400);
    limited(1_000, undefined, 300);
    // Sends 2 s apart: under a budget of 1.4 s windows a 429 would find one send in its window, and learn nothing.
    const after = 1_400 + 101 * 1_400;
    for (const offset of [after, after + 2_000, after + 4_000]) {
      at(offset);
      expect(store.take(key, undefined)).toBe(0);
    }
    store.limited(key, undefined, 1_000, 0);
    expect(budgetAt(key, undefined, after + 5_000)).toEqual({ requests: 2, intervalMs: 5_000 });
  });

  it("without a limit of its own, counts the sends since the last 429", () => {
    const { key, limited } = keyThatSent([0], 100);
    // A lone send teaches nothing, but the window of the next 429 starts here.
    limited(1_000, undefined, 0);
    for (const offset of [1_200, 1_300, 1_400]) {
      at(offset);
      expect(store.take(key, undefined)).toBe(0);
    }
    at(1_500);
    store.limited(key, undefined, 1_000, 100);
    expect(budgetAt(key, undefined, 2_500)).toEqual({ requests: 2, intervalMs: 1_300 });
  });

  it("without a budget, keeps the last 5,000 to 10,000 sends: older ones are forgotten", () => {
    const full = keyThatSent([], 0);
    for (let send = 0; send < 10_000; send++) store.take(full.key, undefined);
    at(1);
    store.limited(full.key, undefined, 0, 1);
    expect(budgetAt(full.key, undefined, 1)).toEqual({ requests: 9_999, intervalMs: 1 });
    const pruned = keyThatSent([], 0);
    for (let send = 0; send < 10_001; send++) store.take(pruned.key, undefined);
    at(1);
    store.limited(pruned.key, undefined, 0, 1);
    expect(budgetAt(pruned.key, undefined, 1)).toEqual({ requests: 4_999, intervalMs: 1 });
  });
});
