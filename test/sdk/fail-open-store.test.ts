// A shared store that fails open, driven by a scripted shared store on a fake clock: a command that rejects or
// does not answer within the deadline is asked of the memory store instead; the store says so once, probes once a
// second until the shared store answers, and says that once; a failure of a command sent before it came back does
// not send it away again. (The same against a real redis-server killed mid-run: redis-store.test.ts.)
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RateLimit, Turn } from "../../src/client/rate-limit.js";
import { failingOpen, probeIntervalMs } from "../../src/shared-store/fail-open.js";
import type { SharedRateLimitStore } from "../../src/shared-store/redis-store.js";

const start = Date.parse("2026-11-26T12:00:00Z");
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(start);
});
afterEach(() => {
  vi.useRealTimers();
});

const limit: RateLimit = { requests: 2, intervalMs: 1_000 };
const key = "management https://api.example credential";

/** A shared store whose every command does what `behave` says now: answer, reject, or hang; `sharers` stores share it. */
function scriptedShared(sharers = 1) {
  let behaviour: "answer" | "reject" | "hang" = "answer";
  const asked: string[] = [];
  const run = <T>(name: string, value: T): Promise<T> => {
    asked.push(name);
    if (behaviour === "reject") return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
    if (behaviour === "hang") return new Promise<T>(() => {});
    return Promise.resolve(value);
  };
  const shared: SharedRateLimitStore = {
    take: (takenKey) => run(`take ${takenKey === key ? "key" : "probe"}`, 0 as Turn),
    limited: () => run("limited", undefined),
    answered: () => run("answered", undefined),
    sharers: () => sharers,
  };
  return {
    shared,
    asked,
    behave: (next: typeof behaviour) => {
      behaviour = next;
    },
  };
}

function storeOver(shared: SharedRateLimitStore) {
  const lines: string[] = [];
  const store = failingOpen(shared, { logger: { warn: (line) => lines.push(line) }, commandTimeoutMs: 500, name: "the test store" });
  return { store, lines };
}

const fellBack = (reason: string) =>
  `ingestion-api: the test store failed (${reason}); counting each credential's sends in this process until it answers again`;

describe("a shared store that answers", () => {
  it("is asked every command, and the memory store none", async () => {
    const { shared, asked } = scriptedShared();
    const { store, lines } = storeOver(shared);
    // The shared store lets every send go: the memory store, with a limit of 2, would have refused the third.
    for (let send = 0; send < 3; send++) expect(await store.take(key, limit)).toBe(0);
    await store.answered(key, limit, 10);
    await store.limited(key, limit, 1_000, 10);
    expect(asked).toEqual(["take key", "take key", "take key", "answered", "limited"]);
    expect(lines).toEqual([]);
  });
});

describe("a shared store that fails", () => {
  it("counts in memory from the first command that rejects, and says so once", async () => {
    const { shared, asked, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    behave("reject");
    expect(await store.take(key, limit)).toBe(0);
    expect(await store.take(key, limit)).toBe(0);
    // The memory store's limit holds: the third send of the window waits.
    expect(await store.take(key, limit)).toEqual({ waitMs: 1_050, paused: false });
    await store.answered(key, limit, 0);
    expect(asked).toEqual(["take key"]);
    expect(lines).toEqual([fellBack("connect ECONNREFUSED 127.0.0.1:6379")]);
  });

  it("says so once when several commands in flight fail together, and asks the shared store nothing while down", async () => {
    const { shared, asked, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    behave("reject");
    await Promise.all([store.take(key, limit), store.take(key, limit), store.answered(key, limit, 0)]);
    expect(lines).toHaveLength(1);
    await store.limited(key, limit, 1_000, 0);
    await store.answered(key, limit, 0);
    expect(asked).toEqual(["take key", "take key", "answered"]);
  });

  it("while down, counts a send from its answer in memory too", async () => {
    const { shared, behave } = scriptedShared();
    const { store } = storeOver(shared);
    const single = { requests: 1, intervalMs: 1_000 };
    behave("reject");
    expect(await store.take(key, single)).toBe(0);
    vi.setSystemTime(start + 400);
    await store.answered(key, single, 400);
    vi.setSystemTime(start + 1_050);
    // Counted from its answer at 400: the window and its margin end at 1,450.
    expect(await store.take(key, single)).toEqual({ waitMs: 400, paused: false });
  });

  it("leaves no deadline timer behind a command that answered", async () => {
    const { shared } = scriptedShared();
    const { store } = storeOver(shared);
    await store.take(key, limit);
    await store.limited(key, limit, 0, 0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps its share of the limit while it counts alone: the limit split between the stores last seen sharing it", async () => {
    const { shared, behave } = scriptedShared(3);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    behave("reject");
    const turns = [];
    for (let send = 0; send < 4; send++) turns.push(await store.take(key, ten));
    // 10 split three ways: 3 a window each, the fleet apart keeping 9 of its 10.
    expect(turns).toEqual([0, 0, 0, { waitMs: 1_050, paused: false }]);
    const alone = storeOver(scriptedShared(1).shared);
    expect(await alone.store.take(key, { requests: 1, intervalMs: 1_000 })).toBe(0);
    const many = scriptedShared(40);
    many.behave("reject");
    const crowd = storeOver(many.shared);
    // At least one a window, however many share it.
    expect([await crowd.store.take(key, ten), await crowd.store.take(key, ten)]).toEqual([0, { waitMs: 1_050, paused: false }]);
    expect(await crowd.store.take(key, undefined)).toBe(0);
  });

  it("counting alone, starts from the sends this process made through the shared store", async () => {
    const { shared, behave } = scriptedShared(2);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    for (let send = 0; send < 4; send++) expect(await store.take(key, ten)).toBe(0);
    behave("reject");
    // Its share is 5 a window, 4 of them already sent.
    expect(await store.take(key, ten)).toBe(0);
    expect(await store.take(key, ten)).toEqual({ waitMs: 1_050, paused: false });
  });

  it("just back, for a window, lets a send go only when it fits this process's share too", async () => {
    const { shared, asked, behave } = scriptedShared(2);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    behave("reject");
    for (let send = 0; send < 5; send++) expect(await store.take(key, ten)).toBe(0);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    // Back at 1,000: the five sent apart at 0 leave the share's window at 1,050; Redis, empty, is not asked before.
    const asks = asked.length;
    expect(await store.take(key, ten)).toEqual({ waitMs: 50, paused: false });
    expect(asked).toHaveLength(asks);
    vi.setSystemTime(start + 1_050);
    expect(await store.take(key, ten)).toBe(0);
    expect(asked.at(-1)).toBe("take key");
    // A window after the return, Redis alone decides again.
    vi.setSystemTime(start + 2_100);
    for (let send = 0; send < 8; send++) expect(await store.take(key, ten)).toBe(0);
  });

  it("just back, holds to the share for exactly a window and its margin, and a call without a limit goes at once", async () => {
    const { shared, behave } = scriptedShared(2);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    behave("reject");
    expect(await store.take(key, ten)).toBe(0);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    const back = start + probeIntervalMs;
    // The share is 5 of 10 per 1,000 ms, counted over the window and its 50 ms margin.
    vi.setSystemTime(back + 50);
    for (let send = 0; send < 5; send++) expect(await store.take(key, ten)).toBe(0);
    vi.setSystemTime(back + 1_049);
    expect(await store.take(key, ten)).toEqual({ waitMs: 51, paused: false });
    // 1,050 ms after the return, Redis alone decides again.
    vi.setSystemTime(back + 1_050);
    expect(await store.take(key, ten)).toBe(0);
    expect(await store.take(key, undefined)).toBe(0);
  });

  it("counts in memory when a command is not answered within the deadline, and the call waits no longer than that", async () => {
    const { shared, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    behave("hang");
    const turn = store.take(key, limit);
    let answered: Turn | undefined;
    void Promise.resolve(turn).then((value) => {
      answered = value;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe(0);
    expect(lines).toEqual([fellBack("no answer within 500 ms")]);
  });

  it("keeps a 429's pause in memory too, so it holds the process's calls when the shared store goes away", async () => {
    const { shared, behave } = scriptedShared();
    const { store } = storeOver(shared);
    await store.limited(key, limit, 2_000, 0);
    behave("reject");
    expect(await store.take(key, limit)).toEqual({ waitMs: 2_000, paused: true });
  });

  it("probes once a second, in the background, until the shared store answers; then says so once and asks it again", async () => {
    const { shared, asked, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    behave("reject");
    await store.take(key, limit);
    await vi.advanceTimersByTimeAsync(probeIntervalMs - 1);
    expect(asked).toEqual(["take key"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual(["take key", "take probe"]);
    // Calls meanwhile do not ask the shared store.
    await store.take(key, limit);
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    expect(asked).toEqual(["take key", "take probe", "take probe"]);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    expect(lines).toEqual([
      fellBack("connect ECONNREFUSED 127.0.0.1:6379"),
      "ingestion-api: the test store answers again after 3 s; sharing each credential's count again",
    ]);
    await store.take(key, limit);
    expect(asked.at(-1)).toBe("take key");
    // No probe once it is back.
    const probes = asked.length;
    await vi.advanceTimersByTimeAsync(5 * probeIntervalMs);
    expect(asked).toHaveLength(probes);
  });

  it("a probe that hangs counts as a failure: the next one comes a second after its deadline", async () => {
    const { shared, asked, behave } = scriptedShared();
    const { store } = storeOver(shared);
    behave("hang");
    const first = store.take(key, limit);
    await vi.advanceTimersByTimeAsync(500);
    await first;
    await vi.advanceTimersByTimeAsync(probeIntervalMs + 500);
    expect(asked.filter((name) => name === "take probe")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    expect(asked.filter((name) => name === "take probe")).toHaveLength(2);
  });

  it("falls back again for a command sent after it came back that fails", async () => {
    const { shared, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    behave("reject");
    await store.take(key, limit);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    expect(lines).toHaveLength(2);
    behave("reject");
    await store.answered(key, limit, 0);
    expect(lines).toHaveLength(3);
  });

  it("with a deadline longer than the probe interval, a command sent before the store came back that fails after does not send it away again", async () => {
    const { shared, behave } = scriptedShared();
    const lines: string[] = [];
    let hang = true;
    const store = failingOpen(
      { ...shared, take: (takenKey, takenLimit) => (hang && takenKey === key ? new Promise<Turn>(() => {}) : shared.take(takenKey, takenLimit)) },
      { logger: { warn: (line) => lines.push(line) }, commandTimeoutMs: 5_000, name: "the test store" },
    );
    // A take sent while the store answers, that hangs; meanwhile another command fails, and the store comes back.
    const hanging = store.take(key, limit);
    hang = false;
    behave("reject");
    await store.limited(key, limit, 0, 0);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    expect(lines).toHaveLength(2);
    // The old take reaches its deadline now, 4 s after the store came back: it says nothing of the store now.
    await vi.advanceTimersByTimeAsync(4_000);
    await expect(hanging).resolves.toBe(0);
    expect(lines).toHaveLength(2);
    expect(await store.take(key, limit)).toBe(0);
  });
});
