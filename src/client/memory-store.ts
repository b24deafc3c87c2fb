// A rate-limit store in this process's memory: the store of every client not given one, and what the Redis store
// counts in while Redis does not answer. The Redis store's scripts (src/shared-store/redis-store.ts) follow the same
// rules; test/sdk/rate-limit-stores.test.ts holds them to it.
import { marginMs, type RateLimit, type RateLimitStore } from "./rate-limit.js";

/** What a key's 429s taught: the sends the server accepts per interval, growing back a step at a time from `growsAt`. */
interface Learned extends RateLimit {
  growsAt: number;
  /** The windows of a step. */
  stepWindows: number;
}

interface KeyState {
  /** Send times in order, each moved to when its answer came. */
  log: number[];
  pausedUntil: number;
  learned: Learned | undefined;
  /** When the last 429 that started a window arrived. */
  limitedAt: number;
}

/** The most sends a key's log keeps without a budget to prune it by: past it, only the latest half stay. */
const unlimitedLogLength = 10_000;

/**
 * A store in this process's memory: a sliding log of send times per key, the time each key is paused until, and the
 * budget its 429s taught. A 429 lowers the budget to the sends of the window that ended in it but that one (the
 * client's window, widened; without a limit of its own, from the first send since the last 429 to the end of the
 * wait), and by one more for each other send of that window answered 429 too, down to one. A window in which the
 * server took at most one send teaches nothing. The budget grows back by a tenth (one at least) per step without a
 * 429 after the pause, until the client's own limit is back (or 100 steps have passed). A step is a window at first,
 * and twice as many (up to 16) after each 429 that comes while the budget is lowered: a budget that found the
 * server's limit probes past it less and less often.
 */
export function createMemoryRateLimitStore(): Required<RateLimitStore> {
  const keys = new Map<string, KeyState>();
  const stateOf = (key: string): KeyState => {
    let state = keys.get(key);
    if (!state) {
      // Stryker disable next-line ArrayDeclaration: a non-number in a new log is never in a window, so the first take drops it
      state = { log: [], pausedUntil: 0, learned: undefined, limitedAt: 0 };
      keys.set(key, state);
    }
    return state;
  };
  return {
    take(key, limit) {
      const at = Date.now();
      const state = stateOf(key);
      if (state.pausedUntil > at) return { waitMs: state.pausedUntil - at, paused: true };
      const { log } = state;
      const budget = budgetOf(state, limit, at);
      if (!budget) {
        // Without a budget, every send is kept (the latest 5,000 to 10,000), for what the next 429 teaches.
        log.push(at);
        if (log.length > unlimitedLogLength) log.splice(0, log.length - unlimitedLogLength / 2);
        return 0;
      }
      const window = budget.intervalMs + marginMs(budget);
      prune(log, at - window);
      if (log.length < budget.requests) {
        log.push(at);
        return 0;
      }
      // The send that must leave the window before this one may go (a lowered budget can leave more than `requests`).
      const waitMs = (log[log.length - budget.requests] as number) + window - at;
      return budget === limit ? { waitMs, paused: false } : { waitMs, paused: false, lowered: budget };
    },
    limited(key, limit, waitMs, elapsedMs) {
      const now = Date.now();
      const state = stateOf(key);
      state.pausedUntil = Math.max(state.pausedUntil, now + waitMs);
      const { learned } = state;
      // Another answer to a send of the window that already ended in a 429: one fewer accepted than counted.
      if (learned && now - elapsedMs < state.limitedAt) {
        learned.requests = Math.max(1, learned.requests - 1);
        return;
      }
      const previous = state.limitedAt;
      state.limitedAt = now;
      const current = budgetOf(state, limit, now);
      const since = current ? now - current.intervalMs - marginMs(current) : previous;
      const window = state.log.filter((at) => at > since);
      // A window in which the server took nothing says nothing of its pace (another process, or a limit of its own):
      // the pause is all there is to do.
      if (window.length < 2) return;
      const intervalMs = current?.intervalMs ?? Math.max(waitMs, now + waitMs - (window[0] as number));
      const requests = Math.min(current?.requests ?? Number.POSITIVE_INFINITY, window.length - 1);
      const stepWindows = state.learned ? Math.min(16, state.learned.stepWindows * 2) : 1;
      state.learned = { requests, intervalMs, growsAt: now + waitMs, stepWindows };
    },
    answered(key, _limit, elapsedMs) {
      const { log } = stateOf(key);
      const at = Date.now();
      const takenBy = at - elapsedMs;
      // The latest send taken by then: the one before the first taken after then (the log is in order).
      const after = log.findIndex((sentAt) => sentAt > takenBy);
      const index = (after === -1 ? log.length : after) - 1;
      if (index < 0) return;
      // Every entry is at or before now, so the log stays in order with the moved one at its end.
      log.splice(index, 1);
      log.push(at);
    },
  };
}

/** Drops the sends at or before `since` from a log in order. */
function prune(log: number[], since: number): void {
  const kept = log.findIndex((sentAt) => sentAt > since);
  log.splice(0, kept === -1 ? log.length : kept);
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
