// A rate-limit store in this process's memory: the store of every client not given one, and what the Redis store
// counts in while Redis does not answer. The Redis store's scripts (src/shared-store/redis-store.ts) follow the same
// rules; test/sdk/rate-limit-stores.test.ts holds them to it.
import { marginMs, type RateLimit, type RateLimitStore, type Ticket, type Turn } from "./rate-limit.js";
import { SendsInFlight } from "./sends-in-flight.js";

/** A store in memory answers at once. */
export interface MemoryRateLimitStore extends RateLimitStore {
  take(key: string, limit: RateLimit | undefined): Turn;
}

/** What a key's 429s taught: the sends the server accepts per interval, growing back a step at a time from `growsAt`. */
interface Learned extends RateLimit {
  growsAt: number;
  /** The windows of a step. */
  stepWindows: number;
}

interface KeyState {
  /** When each answered send was answered, in order: each counts from then, for a window. */
  answeredAt: number[];
  /**
   * The sends in flight, by their tickets' count and take time: each counts until its answer, or at the latest until
   * `maxInFlightMs` after its take (then as if answered at that time).
   */
  flying: SendsInFlight;
  pausedUntil: number;
  learned: Learned | undefined;
  /** When the last 429 that started a window arrived (never, at first). */
  limitedAt: number;
  /** The limit of the key's last take, which says how long its sends count. */
  limit: RateLimit | undefined;
}

/** The most sends a key's log keeps without a budget to prune it by: past it, only the latest half stay. */
const unlimitedLogLength = 10_000;
/** How long a send counts without a budget, for what a 429 teaches: the longest window of either interface. */
export const unlimitedWindowMs = 60_000;
/** How often, at most, a take looks for keys that hold nothing in force any more, and drops them. */
const sweepEveryMs = 1_000;

/**
 * A store in this process's memory: a sliding log of sends per key, each counted from its take until its answer
 * and for a window after, the time each key is paused until, and the budget its 429s taught. Times are the
 * monotonic clock's: a step of the wall clock changes no wait. A 429 lowers the budget to the sends of the window
 * that ended in it but that one (the client's window, widened; without a limit of its own, from the first send
 * since the last 429 to the end of the wait), and by one more for each other send of that window answered 429 too,
 * down to one. A window in which the
 * server took at most one send teaches nothing. The budget grows back by a tenth (one at least) per step without a
 * 429 after the pause, until the client's own limit is back (or 100 steps have passed). A step is a window at first,
 * and twice as many (up to 16) after each 429 that comes while the budget is lowered: a budget that found the
 * server's limit probes past it less and less often.
 */
export function createMemoryRateLimitStore(): MemoryRateLimitStore {
  const keys = new Map<string, KeyState>();
  // Tickets are a count and the take's time in whole microseconds: the count names the send in the store, and
  // `limited` reads when it was taken (to the microsecond, as the Redis store's tickets say it).
  let taken = 0;
  // Keys idle past their windows are dropped by the first take after each sweep interval: memory is bounded by the
  // credentials in use, with no timer of the store's own.
  let sweepAt = 0;
  const stateOf = (key: string): KeyState => {
    let state = keys.get(key);
    if (!state) {
      state = { answeredAt: [], flying: new SendsInFlight(), pausedUntil: 0, learned: undefined, limitedAt: Number.NEGATIVE_INFINITY, limit: undefined };
      keys.set(key, state);
    }
    return state;
  };
  return {
    take(key, limit) {
      const at = performance.now();
      if (at >= sweepAt) {
        for (const [idleKey, idleState] of keys) if (holdsNothing(idleState, at)) keys.delete(idleKey);
        sweepAt = at + sweepEveryMs;
      }
      const state = stateOf(key);
      state.limit = limit;
      if (state.pausedUntil > at) return { waitMs: state.pausedUntil - at, paused: true };
      const budget = budgetOf(state, limit, at);
      const takenUs = Math.floor(at * 1000);
      const ticket = `${++taken}:${takenUs}`;
      if (!budget) {
        // Without a budget, the sends of the last minute are kept (the latest 5,000 to 10,000), for what the next
        // 429 teaches.
        prune(state, at - unlimitedWindowMs);
        state.flying.add(taken, takenUs);
        if (counted(state) > unlimitedLogLength) keepLatest(state, unlimitedLogLength / 2);
        return ticket;
      }
      const window = budget.intervalMs + marginMs(budget);
      prune(state, at - window);
      if (counted(state) < budget.requests) {
        state.flying.add(taken, takenUs);
        return ticket;
      }
      // The send that must leave the window before this one may go (a lowered budget can leave more than `requests`);
      // while it is in flight, its answer is what to wait for, so the store is asked again a margin later.
      const leaving = countsUntil(state, budget.requests);
      const waitMs = leaving > at ? marginMs(budget) : leaving + window - at;
      return budget === limit ? { waitMs, paused: false } : { waitMs, paused: false, lowered: budget };
    },
    limited(key, limit, waitMs, ticket) {
      const now = performance.now();
      const state = stateOf(key);
      state.pausedUntil = Math.max(state.pausedUntil, now + waitMs);
      const { learned } = state;
      // Another answer to a send of the window that already ended in a 429: one fewer accepted than counted.
      if (learned && takenAtUs(ticket, now) < Math.floor(state.limitedAt * 1000)) {
        learned.requests = Math.max(1, learned.requests - 1);
        return;
      }
      const previous = state.limitedAt;
      state.limitedAt = now;
      const current = budgetOf(state, limit, now);
      const since = current ? now - current.intervalMs - marginMs(current) : previous;
      const { count, first } = countedSince(state, since);
      // A window in which the server took nothing says nothing of its pace (another process, or a limit of its own):
      // the pause is all there is to do.
      if (count < 2) return;
      const intervalMs = current?.intervalMs ?? Math.max(waitMs, now + waitMs - first);
      const requests = Math.min(current?.requests ?? Number.POSITIVE_INFINITY, count - 1);
      const stepWindows = state.learned ? Math.min(16, state.learned.stepWindows * 2) : 1;
      state.learned = { requests, intervalMs, growsAt: now + waitMs, stepWindows };
    },
    answered(key, limit, ticket) {
      const at = performance.now();
      const state = stateOf(key);
      // A budget grown back by now is grown here too, as the Redis store's script does, so a 429 that follows is
      // judged against the budget in force.
      budgetOf(state, limit, at);
      // Answers come in the clock's order, so the answered sends stay in order with no search.
      if (land(state, ticket)) state.answeredAt.push(at);
    },
    release(key, ticket) {
      land(stateOf(key), ticket);
    },
  };
}

/**
 * Whether a key holds nothing in force at `now`: no pause, no budget a 429 taught (grown back and forgotten by now,
 * as its rule says), and no send in flight or still counting in its window.
 */
function holdsNothing(state: KeyState, now: number): boolean {
  if (state.pausedUntil > now) return false;
  budgetOf(state, state.limit, now);
  if (state.learned) return false;
  const { limit } = state;
  prune(state, now - (limit ? limit.intervalMs + marginMs(limit) : unlimitedWindowMs));
  return counted(state) === 0;
}

/** When the send a ticket names was taken, in whole microseconds; `now`'s for a ticket this store did not make. */
function takenAtUs(ticket: Ticket, now: number): number {
  // Stryker disable next-line StringLiteral: partOf reads any part but "count" as the take time.
  const at = partOf(ticket, "takenUs");
  return Number.isFinite(at) ? at : Math.floor(now * 1000);
}

/**
 * A part of a ticket of this store, `<count>:<take time in whole µs>`: its count, or its take time. Either part of
 * any other string reads as NaN, which names no send (Number, unlike parseInt, refuses what follows a number).
 */
function partOf(ticket: Ticket, part: "count" | "takenUs"): number {
  const colon = ticket.indexOf(":");
  if (colon <= 0) return Number.NaN;
  return Number((part === "count" ? ticket.slice(0, colon) : ticket.slice(colon + 1)) || Number.NaN);
}

/** How many sends of a key count. */
function counted({ answeredAt, flying }: KeyState): number {
  return answeredAt.length + flying.size;
}

/** The send a ticket names is no longer in flight; false when it was not (released, long gone, or another key's). */
function land({ flying }: KeyState, ticket: Ticket): boolean {
  const count = partOf(ticket, "count");
  // Stryker disable next-line StringLiteral: partOf reads any part but "count" as the take time.
  return flying.remove(count, partOf(ticket, "takenUs"));
}

/** The sends that stop counting at or before `since`, gone: answered ones, and ones in flight past `maxInFlightMs`. */
function prune(state: KeyState, since: number): void {
  let answered = 0;
  while (answered < state.answeredAt.length && (state.answeredAt[answered] as number) <= since) answered++;
  forgetOldest(state, answered, state.flying.countingUntil(since));
}

/**
 * Keeps a key's `count` latest sends by when they count from or until: the answered ones, and those in flight past
 * `maxInFlightMs` among them (as Redis's sorted log drops its lowest).
 */
function keepLatest(state: KeyState, count: number): void {
  const { answeredAt, flying } = state;
  const excess = counted(state) - count;
  let answered = 0;
  let flown = 0;
  while (answered + flown < excess) {
    if (flown < flying.size && (answered === answeredAt.length || flying.untilAt(flown) < (answeredAt[answered] as number))) flown++;
    else answered++;
  }
  forgetOldest(state, answered, flown);
}

/** Forgets the oldest `answered` answered sends of a key and the oldest `flown` in flight. */
function forgetOldest({ answeredAt, flying }: KeyState, answered: number, flown: number): void {
  // splice makes an array of what it removes, even empty.
  if (answered > 0) answeredAt.splice(0, answered);
  flying.forgetFirst(flown);
}

/**
 * When the `nth` latest send of a key counts from, or until: an answered one from its answer, one in flight until
 * `maxInFlightMs` after its take (later than now, unless it has been in flight that long: then it counts as if
 * answered then). Asked only when the budget is full, of the sends of one window.
 */
function countsUntil({ answeredAt, flying }: KeyState, nth: number): number {
  const times = [...answeredAt, ...flying.untils()].sort((a, b) => a - b);
  return times[times.length - nth] as number;
}

/** How many sends of a key count after `since`, and when the first of them counts from. */
function countedSince({ answeredAt, flying }: KeyState, since: number): { count: number; first: number } {
  const answered = answeredAt.filter((at) => at > since);
  const flown = flying.untils().filter((until) => until > since);
  return { count: answered.length + flown.length, first: Math.min(answered[0] ?? Number.POSITIVE_INFINITY, flown[0] ?? Number.POSITIVE_INFINITY) };
}

/**
 * The limit a send of the key leaves under at `now`: the client's, lowered to what the key's 429s taught, grown
 * back by a tenth (one at least) per step passed since it last grew; forgotten once the client's own is back, or
 * after 100 steps.
 */
function budgetOf(state: KeyState, limit: RateLimit | undefined, now: number): RateLimit | undefined {
  const { learned } = state;
  if (!learned) return limit;
  const stepMs = learned.intervalMs * learned.stepWindows;
  const steps = Math.max(0, Math.floor((now - learned.growsAt) / stepMs));
  // After 100 steps without a 429 a budget has grown back at least a thousandfold: it is forgotten.
  let forgotten = steps > 100;
  for (let step = 0; step < steps && !forgotten; step++) {
    learned.requests += Math.max(1, Math.ceil(learned.requests / 10));
    forgotten = limit !== undefined && learned.requests >= limit.requests;
  }
  if (forgotten) {
    state.learned = undefined;
    return limit;
  }
  learned.growsAt += steps * stepMs;
  if (!limit) return { requests: learned.requests, intervalMs: learned.intervalMs };
  return { requests: Math.min(limit.requests, learned.requests), intervalMs: Math.max(limit.intervalMs, learned.intervalMs) };
}

/** The store of every client not given one. */
export const processRateLimitStore: RateLimitStore = createMemoryRateLimitStore();
