// The pace of a credential, as this process's store counts it: a sliding log per key, widened by a margin, and the
// pause a 429 sets. The clock is set by hand, so every wait is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { declaredLimit, marginMs, rateLimitFromText, processRateLimitStore as store } from "../../src/client/rate-limit.js";
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

  it("counts each key apart, and nothing without a limit", () => {
    const [one, two] = [newKey(), newKey()];
    const single = { requests: 1, intervalMs: 1_000 };
    expect(store.take(one, single)).toBe(0);
    expect(store.take(two, single)).toBe(0);
    expect(store.take(one, single)).not.toBe(0);
    for (let send = 0; send < 100; send++) expect(store.take(one, undefined)).toBe(0);
  });

  it("pauses a key for what a 429 asks, to the millisecond, then lets it go", () => {
    const key = newKey();
    store.pause(key, 2_000);
    expect(store.take(key, undefined)).toEqual({ waitMs: 2_000, paused: true });
    at(1_999);
    expect(store.take(key, limit)).toEqual({ waitMs: 1, paused: true });
    at(2_000);
    expect(store.take(key, undefined)).toBe(0);
    expect(store.take(key, limit)).toBe(0);
  });

  it("keeps a longer pause already set, and takes a later one", () => {
    const key = newKey();
    store.pause(key, 5_000);
    store.pause(key, 1_000);
    expect(store.take(key, undefined)).toEqual({ waitMs: 5_000, paused: true });
    at(4_000);
    store.pause(key, 3_000);
    expect(store.take(key, undefined)).toEqual({ waitMs: 3_000, paused: true });
  });

  it("a pause that is over is forgotten: the next one counts from its own start", () => {
    const key = newKey();
    store.pause(key, 1_000);
    at(1_500);
    expect(store.take(key, undefined)).toBe(0);
    store.pause(key, 200);
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
