// A shared store that fails open, driven by a scripted shared store on a fake clock: a command that rejects or
// does not answer within the deadline is asked of the memory store instead; the store says so once, probes once a
// second until the shared store answers, and says that once; a failure of a command sent before it came back does
// not send it away again. (The same against a real redis-server killed mid-run: redis-outage.test.ts.)
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RateLimit, RateLimitStore, Ticket, Turn } from "../../src/client/rate-limit.js";
import { failingOpen, probeIntervalMs } from "../../src/shared-store/fail-open.js";
import type { SharedRateLimitStore } from "../../src/shared-store/redis-store.js";

beforeEach(() => {
  vi.useFakeTimers();
  // The monotonic clock counts from the process's start; these tests run an hour into it. (In the process's first
  // window, a store that never fell back counts as just back: it starts as if it came back at 0.)
  vi.advanceTimersByTime(3_600_000);
});
afterEach(() => {
  vi.useRealTimers();
});

const limit: RateLimit = { requests: 2, intervalMs: 1_000 };
const key = "management https://api.example credential";

/**
 * A shared store whose every command does what `behave` says now: answer (a take with the ticket `shared-N`),
 * refuse a take (with a wait of 300 ms), reject, or hang; `sharers` stores share it. It records the commands asked,
 * and the ticket each send's command came with.
 */
function scriptedShared(sharers = 1) {
  let behaviour: "answer" | "refuse" | "reject" | "hang" = "answer";
  let taken = 0;
  const asked: string[] = [];
  const told: { command: string; ticket: Ticket }[] = [];
  const run = <T>(name: string, value: T): Promise<T> => {
    asked.push(name);
    if (behaviour === "reject") return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
    if (behaviour === "hang") return new Promise<T>(() => {});
    return Promise.resolve(value);
  };
  const tell = (command: string, ticket: Ticket) => {
    told.push({ command, ticket });
    return run(command, undefined);
  };
  const shared: SharedRateLimitStore = {
    take: (takenKey) => run(`take ${takenKey === key ? "key" : "probe"}`, behaviour === "refuse" ? { waitMs: 300, paused: false } : `shared-${++taken}`),
    limited: (_key, _limit, _waitMs, ticket) => tell("limited", ticket),
    answered: (_key, _limit, ticket) => tell("answered", ticket),
    release: (_key, ticket) => tell("release", ticket),
    sharers: () => sharers,
  };
  return {
    shared,
    asked,
    told,
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

/** A store of two sharers, one send taken while the shared store was down, and just back (the probe answered). */
async function justBack() {
  const { shared, behave } = scriptedShared(2);
  const { store } = storeOver(shared);
  const ten = { requests: 10, intervalMs: 1_000 };
  behave("reject");
  await store.take(key, ten);
  behave("answer");
  await vi.advanceTimersByTimeAsync(probeIntervalMs);
  return { store, behave, ten };
}

/** What a turn that lets a send go is: a ticket, whichever. */
const aTicket = expect.any(String);
/** A ticket of a send counted in this process's memory alone: its shared part is empty. */
const aMemoryTicket = expect.stringMatching(/^[^|]+\|$/);

/** A send taken and answered at once (the server counted it then): it counts from its take, for a window. */
async function send(store: RateLimitStore, limit: RateLimit | undefined): Promise<Turn> {
  const turn = await store.take(key, limit);
  if (typeof turn === "string") await store.answered(key, limit, turn);
  return turn;
}

const fellBack = (reason: string) =>
  `ingestion-api: the test store failed (${reason}); counting each credential's sends in this process until it answers again`;

describe("a shared store that answers", () => {
  it("is asked every command, and the memory store none", async () => {
    const { shared, asked } = scriptedShared();
    const { store, lines } = storeOver(shared);
    // The shared store lets every send go: the memory store, with a limit of 2, would have refused the third.
    const turns: Turn[] = [];
    for (let sent = 0; sent < 3; sent++) turns.push(await store.take(key, limit));
    expect(turns).toEqual([aTicket, aTicket, aTicket]);
    const ticket = turns[0] as Ticket;
    await store.answered(key, limit, ticket);
    await store.limited(key, limit, 1_000, ticket);
    expect(asked).toEqual(["take key", "take key", "take key", "answered", "limited"]);
    expect(lines).toEqual([]);
  });

  it("gives each store its part of a ticket: the shared store its own, the memory store its mirror's", async () => {
    const { shared, told, behave } = scriptedShared();
    const { store } = storeOver(shared);
    const single = { requests: 1, intervalMs: 1_000 };
    // The shared store lets both go; the memory store keeps a mirror of each, in flight until its answer.
    const answered = (await store.take(key, single)) as Ticket;
    const cancelled = (await store.take(key, single)) as Ticket;
    expect([answered, cancelled]).toEqual([expect.stringMatching(/^[^|]+\|shared-1$/), expect.stringMatching(/^[^|]+\|shared-2$/)]);
    await store.answered(key, single, answered);
    await store.release(key, cancelled);
    await store.limited(key, single, 0, answered);
    expect(told).toEqual([
      { command: "answered", ticket: "shared-1" },
      { command: "release", ticket: "shared-2" },
      { command: "limited", ticket: "shared-1" },
    ]);
    // Counting alone, the memory store holds the answered mirror only, from its answer at 0: the next send waits
    // exactly for it (the cancelled one, or one still in flight, would have it ask again a margin later).
    await vi.advanceTimersByTimeAsync(500);
    behave("reject");
    expect(await store.take(key, single)).toEqual({ waitMs: 1_050 - 500, paused: false });
  });
  it("tells its memory store of each 429 with the mirror's ticket: counting alone, it keeps the budget the 429s taught", async () => {
    const { shared, behave } = scriptedShared();
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    const tickets: Ticket[] = [];
    for (let sent = 0; sent < 5; sent++) tickets.push((await send(store, ten)) as Ticket);
    await vi.advanceTimersByTimeAsync(100);
    // The fifth send answered 429: 4 accepted; then the fourth, taken before that 429: one fewer.
    await store.limited(key, ten, 0, tickets[4] as Ticket);
    await store.limited(key, ten, 0, tickets[3] as Ticket);
    behave("reject");
    expect(await store.take(key, ten)).toEqual({ waitMs: 1_050 - 100, paused: false, lowered: { requests: 3, intervalMs: 1_000 } });
  });
});

describe("a shared store that fails", () => {
  it("counts in memory from the first command that rejects, and says so once", async () => {
    const { shared, asked, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    behave("reject");
    expect(await send(store, limit)).toEqual(aMemoryTicket);
    expect(await send(store, limit)).toEqual(aMemoryTicket);
    // The memory store's limit holds: the third send of the window waits.
    expect(await store.take(key, limit)).toEqual({ waitMs: 1_050, paused: false });
    expect(asked).toEqual(["take key"]);
    expect(lines).toEqual([fellBack("connect ECONNREFUSED 127.0.0.1:6379")]);
  });

  it("says so once when several commands in flight fail together, and asks the shared store nothing while down", async () => {
    const { shared, asked, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    const ticket = (await store.take(key, limit)) as Ticket;
    behave("reject");
    await Promise.all([store.take(key, limit), store.take(key, limit), store.answered(key, limit, ticket)]);
    expect(lines).toHaveLength(1);
    // Not even with a ticket that has a shared part.
    await store.limited(key, limit, 1_000, ticket);
    await store.answered(key, limit, ticket);
    await store.release(key, ticket);
    expect(asked).toEqual(["take key", "take key", "take key", "answered"]);
  });

  it("while down, counts a send from its answer in memory too", async () => {
    const { shared, behave } = scriptedShared();
    const { store } = storeOver(shared);
    const single = { requests: 1, intervalMs: 1_000 };
    behave("reject");
    const ticket = await store.take(key, single);
    expect(ticket).toEqual(aMemoryTicket);
    await vi.advanceTimersByTimeAsync(400);
    await store.answered(key, single, ticket as Ticket);
    await vi.advanceTimersByTimeAsync(1_050 - 400);
    // Counted from its answer at 400: the window and its margin end at 1,450.
    expect(await store.take(key, single)).toEqual({ waitMs: 400, paused: false });
  });

  it("gives a ticket taken while down to the memory store only, even once the shared store answers again", async () => {
    const { shared, asked, told, behave } = scriptedShared();
    const { store } = storeOver(shared);
    behave("reject");
    const answered = await store.take(key, limit);
    const cancelled = await store.take(key, limit);
    expect([answered, cancelled]).toEqual([aMemoryTicket, aMemoryTicket]);
    // Both count in memory until their answer; the cancelled one's turn goes back there.
    expect(await store.take(key, limit)).toEqual({ waitMs: 50, paused: false });
    await store.release(key, cancelled as Ticket);
    const made = await store.take(key, limit);
    expect(made).toEqual(aMemoryTicket);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    const asks = asked.length;
    await store.answered(key, limit, answered as Ticket);
    await store.release(key, made as Ticket);
    expect(asked).toHaveLength(asks);
    // A 429's pause is every process's, whoever counted its send: the shared store hears of it, with no ticket of its own.
    await store.limited(key, limit, 0, answered as Ticket);
    expect(told).toEqual([{ command: "limited", ticket: "" }]);
  });

  it("leaves no deadline timer behind a command that answered", async () => {
    const { shared } = scriptedShared();
    const { store } = storeOver(shared);
    const ticket = (await store.take(key, limit)) as Ticket;
    await store.answered(key, limit, ticket);
    await store.limited(key, limit, 0, ticket);
    await store.release(key, (await store.take(key, limit)) as Ticket);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps its share of the limit while it counts alone: the limit split between the stores last seen sharing it", async () => {
    const { shared, behave } = scriptedShared(3);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    behave("reject");
    const turns = [];
    for (let sent = 0; sent < 4; sent++) turns.push(await send(store, ten));
    // 10 split three ways: 3 a window each, the fleet apart keeping 9 of its 10.
    expect(turns).toEqual([aTicket, aTicket, aTicket, { waitMs: 1_050, paused: false }]);
    const alone = storeOver(scriptedShared(1).shared);
    expect(await alone.store.take(key, { requests: 1, intervalMs: 1_000 })).toEqual(aTicket);
    const many = scriptedShared(40);
    many.behave("reject");
    const crowd = storeOver(many.shared);
    // At least one a window, however many share it.
    expect([await send(crowd.store, ten), await send(crowd.store, ten)]).toEqual([aTicket, { waitMs: 1_050, paused: false }]);
    expect(await crowd.store.take(key, undefined)).toEqual(aTicket);
  });

  it("counting alone, starts from the sends this process made through the shared store", async () => {
    const { shared, behave } = scriptedShared(2);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    for (let sent = 0; sent < 4; sent++) expect(await send(store, ten)).toEqual(aTicket);
    behave("reject");
    // Its share is 5 a window, 4 of them already sent.
    expect(await send(store, ten)).toEqual(aMemoryTicket);
    expect(await store.take(key, ten)).toEqual({ waitMs: 1_050, paused: false });
  });

  it("just back, for a window, lets a send go only when it fits this process's share too", async () => {
    const { shared, asked, behave } = scriptedShared(2);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    behave("reject");
    for (let sent = 0; sent < 5; sent++) expect(await send(store, ten)).toEqual(aTicket);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    // Back at 1,000: the five sent apart at 0 leave the share's window at 1,050; Redis, empty, is not asked before.
    const asks = asked.length;
    expect(await store.take(key, ten)).toEqual({ waitMs: 50, paused: false });
    expect(asked).toHaveLength(asks);
    await vi.advanceTimersByTimeAsync(50);
    expect(await store.take(key, ten)).toEqual(aTicket);
    expect(asked.at(-1)).toBe("take key");
    // A window after the return, Redis alone decides again.
    await vi.advanceTimersByTimeAsync(1_050);
    for (let sent = 0; sent < 8; sent++) expect(await store.take(key, ten)).toEqual(aTicket);
  });

  it("just back, holds to the share for exactly a window and its margin, and a call without a limit goes at once", async () => {
    const { shared, behave } = scriptedShared(2);
    const { store } = storeOver(shared);
    const ten = { requests: 10, intervalMs: 1_000 };
    behave("reject");
    expect(await send(store, ten)).toEqual(aTicket);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    // The share is 5 of 10 per 1,000 ms, counted over the window and its 50 ms margin.
    await vi.advanceTimersByTimeAsync(50);
    for (let sent = 0; sent < 5; sent++) expect(await send(store, ten)).toEqual(aTicket);
    await vi.advanceTimersByTimeAsync(999);
    expect(await store.take(key, ten)).toEqual({ waitMs: 51, paused: false });
    // 1,050 ms after the return, Redis alone decides again.
    await vi.advanceTimersByTimeAsync(1);
    expect(await store.take(key, ten)).toEqual(aTicket);
    expect(await store.take(key, undefined)).toEqual(aTicket);
  });

  it("just back, gives the share's turn back when the shared store refuses the send", async () => {
    const { store, behave, ten } = await justBack();
    behave("refuse");
    // Redis counts sends of other processes: its wait is the answer, and the share keeps no send that was not made.
    for (let refused = 0; refused < 5; refused++) expect(await store.take(key, ten)).toEqual({ waitMs: 300, paused: false });
    behave("answer");
    // The send taken apart, still in flight, and four more fill the share of 5.
    for (let sent = 0; sent < 4; sent++) expect(await store.take(key, ten)).toEqual(aTicket);
    expect(await store.take(key, ten)).toEqual({ waitMs: 50, paused: false });
  });

  it("just back, counts a send whose shared take fails once in memory, under the share's ticket", async () => {
    const { store, behave, ten } = await justBack();
    // Back, then gone again: each of these sends is taken once in memory, so the share of 5 holds four of them
    // beside the one sent apart.
    behave("reject");
    for (let sent = 0; sent < 4; sent++) expect(await store.take(key, ten)).toEqual(aMemoryTicket);
    expect(await store.take(key, ten)).toEqual({ waitMs: 50, paused: false });
  });

  it("keeps no mirror of a shared send while its memory is paused: the ticket's memory part is empty", async () => {
    const { shared } = scriptedShared();
    const { store } = storeOver(shared);
    const ticket = (await store.take(key, limit)) as Ticket;
    await store.answered(key, limit, ticket);
    await store.limited(key, limit, 5_000, ticket);
    expect(await store.take(key, limit)).toBe("|shared-2");
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
    expect(answered).toEqual(aMemoryTicket);
    expect(lines).toEqual([fellBack("no answer within 500 ms")]);
  });

  it("keeps a 429's pause in memory too, so it holds the process's calls when the shared store goes away", async () => {
    const { shared, behave } = scriptedShared();
    const { store } = storeOver(shared);
    const ticket = (await store.take(key, limit)) as Ticket;
    await store.answered(key, limit, ticket);
    await store.limited(key, limit, 2_000, ticket);
    behave("reject");
    expect(await store.take(key, limit)).toEqual({ waitMs: 2_000, paused: true });
  });

  it("probes once a second, in the background, until the shared store answers; then says so once and asks it again", async () => {
    const { shared, asked, behave } = scriptedShared();
    const { store, lines } = storeOver(shared);
    behave("reject");
    await send(store, limit);
    await vi.advanceTimersByTimeAsync(probeIntervalMs - 1);
    expect(asked).toEqual(["take key"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual(["take key", "take probe"]);
    // Calls meanwhile do not ask the shared store.
    await send(store, limit);
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
    const ticket = (await store.take(key, limit)) as Ticket;
    behave("reject");
    await store.answered(key, limit, ticket);
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
    const ticket = (await store.take(key, limit)) as Ticket;
    behave("reject");
    await store.limited(key, limit, 0, ticket);
    behave("answer");
    await vi.advanceTimersByTimeAsync(probeIntervalMs);
    expect(lines).toHaveLength(2);
    // The old take reaches its deadline now, 4 s after the store came back: it says nothing of the store now.
    await vi.advanceTimersByTimeAsync(4_000);
    await expect(hanging).resolves.toEqual(aMemoryTicket);
    expect(lines).toHaveLength(2);
    expect(await store.take(key, limit)).toEqual(aTicket);
  });
});
