// How fast a credential's calls leave. One queue per credential, shared by every client of that credential in the
// process (typed calls and raw), sends in turn, no faster than the limit allows, and stops every call of the
// credential for the wait a 429 names. Where the sends are counted is a RateLimitStore: this process's memory by
// default, or a store that several processes share (`ingestion-api/redis`).

import type { InterfaceDescriptor } from "../contract/interfaces.js";
import { type CallName, RateLimitError } from "./errors.js";

/** At most `requests` sends in any window of `intervalMs`. */
export interface RateLimit {
  requests: number;
  intervalMs: number;
}

/** The limit an interface's contract declares (its `x-rate-limit`), as the queue takes it. */
export const declaredLimit = ({ rateLimit }: InterfaceDescriptor): RateLimit => ({ requests: rateLimit.requests, intervalMs: rateLimit.windowSeconds * 1000 });

/** A limit written `N/Ts` or `N/Tms` (`10/1s`, `5/500ms`, `2/1.5s`), as the commands take it; undefined for anything else. */
export function rateLimitFromText(text: string): RateLimit | undefined {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)(s|ms)$/.exec(text);
  const requests = Number(match?.[1]);
  const intervalMs = Number(match?.[2]) * (match?.[3] === "s" ? 1000 : 1);
  return match && requests >= 1 && intervalMs >= 1 ? { requests, intervalMs } : undefined;
}

/** A store's answer to `take`: 0 when the send may go now; otherwise how long to wait, and whether a 429's pause is why. */
export type Turn = 0 | { waitMs: number; paused: boolean };

/**
 * Where a credential's sends are counted. `key` names the interface, the server and the credential; a store shared
 * beyond this process must not keep it as it is (it may hold a token): the Redis store hashes it.
 */
export interface RateLimitStore {
  /**
   * Takes one send for `key` when `key` is not paused and, with a `limit`, fewer than `limit.requests` sends were
   * taken in the last `limit.intervalMs` plus `marginMs(limit)`; otherwise says how long to wait before asking again.
   */
  take(key: string, limit: RateLimit | undefined): Turn | Promise<Turn>;
  /** Pauses every sender of `key` for `ms` from now, as a 429 asks; a longer pause already set stays. */
  pause(key: string, ms: number): void | Promise<void>;
  /**
   * The send of `key` taken `elapsedMs` ago (under `limit`) has its answer, or its failure, now. The server counted
   * it when it arrived, somewhere in between, so the store counts it from now: the latest send taken at or before
   * then moves to now. Optional: a store without it counts each send from its take, and only `marginMs` covers a
   * request that reached the server late (a new TLS connection, a busy event loop, an `onRequest` hook).
   */
  answered?(key: string, limit: RateLimit, elapsedMs: number): void | Promise<void>;
}

/**
 * What a window is widened by: a request is counted by the server when it arrives, not when it left, and that
 * delay varies by some milliseconds. Without it, a server counting a sliding window refuses about one call in five
 * of a client that sends at exactly its limit.
 */
export const marginMs = ({ intervalMs }: RateLimit): number => Math.max(50, Math.ceil(intervalMs / 100));

/**
 * This process's store: a sliding log of send times per key (each moved to when its answer came), and the time
 * each key is paused until.
 */
function createMemoryRateLimitStore(): RateLimitStore {
  const logs = new Map<string, number[]>();
  const pausedUntil = new Map<string, number>();
  return {
    take(key, limit) {
      const at = Date.now();
      const until = pausedUntil.get(key) ?? 0;
      if (until > at) return { waitMs: until - at, paused: true };
      if (!limit) return 0;
      let log = logs.get(key);
      if (!log) {
        // Stryker disable next-line ArrayDeclaration: a non-number in a new log is never in the window, so the first take drops it
        log = [];
        logs.set(key, log);
      }
      const window = limit.intervalMs + marginMs(limit);
      // The sends that left the window: the log is in order, so they are the ones before the first still in it.
      const inWindow = log.findIndex((sentAt) => sentAt > at - window);
      log.splice(0, inWindow === -1 ? log.length : inWindow);
      if (log.length < limit.requests) {
        log.push(at);
        return 0;
      }
      // The send that must leave the window before this one may go (a lowered budget can leave more than `requests`).
      return { waitMs: (log[log.length - limit.requests] as number) + window - at, paused: false };
    },
    pause(key, ms) {
      pausedUntil.set(key, Math.max(Date.now() + ms, pausedUntil.get(key) ?? 0));
    },
    answered(key, _limit, elapsedMs) {
      const log = logs.get(key);
      if (!log) return;
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

/** The store of every client not given one. */
export const processRateLimitStore: RateLimitStore = createMemoryRateLimitStore();

interface Waiter {
  limit: RateLimit | undefined;
  maxWaitMs: number;
  call: CallName;
  resolve(): void;
  reject(reason: unknown): void;
  /** Stops listening to the caller's signal, if it gave one. */
  stopWatching: (() => void) | undefined;
}

/** A credential's queue: its calls leave one by one, in order, when the store gives them a turn. */
export class CredentialQueue {
  readonly #store: RateLimitStore;
  readonly #key: string;
  readonly #waiters: Waiter[] = [];
  #pumping = false;
  /** What the server accepted before its last 429, when that is less than the configured limit. */
  #learned: RateLimit | undefined;
  #learnedAt = 0;
  /** When this process sent the credential's requests, for learning: pruned as it grows. */
  readonly #sent: number[] = [];
  /** When the last 429 that lowered the budget arrived. */
  #limitedAt = 0;

  constructor(store: RateLimitStore, key: string) {
    this.#store = store;
    this.#key = key;
  }

  /**
   * Waits for a call's turn: undefined when it may go at once, else a promise that resolves when it may, and
   * rejects with the signal's reason when the caller aborts (the call then leaves the queue, having sent nothing)
   * or with a RateLimitError when a 429's pause would outlast `maxWaitMs`. `front` puts a call that got a 429 back
   * at the head of the queue.
   */
  turn(limit: RateLimit | undefined, signal: AbortSignal | undefined, front: boolean, maxWaitMs: number, call: CallName): Promise<void> | undefined {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // With nobody waiting, the call asks the store itself: most calls go at once, without a promise or a timer.
    const turn = this.#waiters.length === 0 ? this.#store.take(this.#key, this.#effective(limit)) : undefined;
    if (turn === 0) return undefined;
    const waiter = { limit, maxWaitMs, call, signal, front };
    if (turn instanceof Promise) return turn.then((later) => (later === 0 ? undefined : this.#wait(waiter, later)));
    return this.#wait(waiter, turn);
  }

  /** Queues a call; `denied` is the store's answer it already got, if any. */
  #wait(
    { limit, maxWaitMs, call, signal, front }: Pick<Waiter, "limit" | "maxWaitMs" | "call"> & { signal: AbortSignal | undefined; front: boolean },
    denied: Exclude<Turn, 0> | undefined,
  ): Promise<void> {
    if (denied?.paused && denied.waitMs > maxWaitMs) return Promise.reject(pausedTooLong(call, denied.waitMs, maxWaitMs));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { limit, maxWaitMs, call, resolve, reject, stopWatching: undefined };
      if (signal) {
        const onAbort = () => {
          this.#remove(waiter);
          reject(signal.reason);
        };
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, so `once` only lets the listener go sooner
        signal.addEventListener("abort", onAbort, { once: true });
        waiter.stopWatching = () => signal.removeEventListener("abort", onAbort);
      }
      if (front) this.#waiters.unshift(waiter);
      else this.#waiters.push(waiter);
      void this.#pump();
    });
  }

  /** A call of the credential was sent at `sentAt`, for learning what the server accepts. */
  sent(sentAt: number): void {
    this.#sent.push(sentAt);
    if (this.#sent.length > 10_000) this.#sent.splice(0, this.#sent.length - 5_000);
  }

  /**
   * The call sent at `sentAt` under `limit` has its answer or its failure: the store counts it from now, when the
   * server has surely counted it. A store that fails here only loses that precision; the call's outcome stands.
   */
  answered(limit: RateLimit | undefined, sentAt: number): void {
    const { answered } = this.#store;
    const current = this.#effective(limit);
    if (answered && current) bestEffort(() => answered.call(this.#store, this.#key, current, Math.max(0, Date.now() - sentAt)));
  }

  /**
   * The call sent at `sentAt` got a 429 asking to wait `waitMs`. Every call of the credential stops for that long
   * (with up to 10% of it more, at most 1 s, so processes that share the credential do not all come back at once),
   * and the budget drops to what the server accepted in the window that ended in the 429: the sends of that window
   * but this one, less one for each of them that gets a 429 too. It grows back by a tenth (one at least) per window
   * without one.
   */
  limited(waitMs: number, limit: RateLimit | undefined, sentAt: number): void {
    const now = Date.now();
    const jitter = Math.random() * Math.min(1000, waitMs / 10);
    // A store that cannot pause (Redis down) fails the next take, which fails the waiting calls.
    bestEffort(() => this.#store.pause(this.#key, Math.ceil(waitMs + jitter)));
    const learned = this.#learned;
    // Another answer to a send of the window that already ended in a 429: one fewer accepted than counted.
    if (learned && sentAt < this.#limitedAt) {
      learned.requests = Math.max(1, learned.requests - 1);
      return;
    }
    const previous = this.#limitedAt;
    this.#limitedAt = now;
    const current = this.#effective(limit);
    // Without a limit of its own, the window runs from the first send since the last 429 to the end of this wait.
    const since = current ? now - current.intervalMs - marginMs(current) : previous;
    const window = this.#sent.filter((at) => at > since);
    // A window in which the server took nothing says nothing of its pace (another process, or a limit of its own):
    // the pause is all there is to do.
    if (window.length < 2) return;
    const intervalMs = current?.intervalMs ?? Math.max(waitMs, now + waitMs - (window[0] as number));
    const requests = Math.min(current?.requests ?? Number.POSITIVE_INFINITY, window.length - 1);
    this.#learned = { requests, intervalMs };
    this.#learnedAt = now + waitMs;
  }

  /** The limit a call leaves under: its client's, lowered to what the server was seen to accept. */
  #effective(limit: RateLimit | undefined): RateLimit | undefined {
    const learned = this.#learned;
    if (!learned) return limit;
    const now = Date.now();
    // A tenth more (one at least) per window that passed without a 429, until the client's own limit is back.
    const windows = Math.max(0, Math.floor((now - this.#learnedAt) / learned.intervalMs));
    for (let window = 0; window < windows; window++) {
      learned.requests += Math.max(1, Math.ceil(learned.requests / 10));
      if (limit && learned.requests >= limit.requests) {
        this.#learned = undefined;
        return limit;
      }
    }
    this.#learnedAt += windows * learned.intervalMs;
    return limit ? { requests: Math.min(limit.requests, learned.requests), intervalMs: Math.max(limit.intervalMs, learned.intervalMs) } : learned;
  }

  /** Every waiter removed is in the queue: it leaves once, when released or aborted (its release stops the abort). */
  #remove(waiter: Waiter): void {
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
  }

  #release(waiter: Waiter, error?: unknown): void {
    this.#remove(waiter);
    waiter.stopWatching?.();
    if (error === undefined) waiter.resolve();
    else waiter.reject(error);
  }

  /** Gives the head of the queue its turn as soon as the store allows, one after another, until the queue is empty. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (let head = this.#waiters[0]; head; head = this.#waiters[0]) {
        let turn: Turn;
        try {
          turn = await this.#store.take(this.#key, this.#effective(head.limit));
        } catch (error) {
          // A shared store that fails (Redis down) fails the calls waiting on it rather than hanging them.
          for (const waiter of [...this.#waiters]) this.#release(waiter, error);
          return;
        }
        if (turn === 0) {
          this.#release(head);
          continue;
        }
        if (turn.paused) {
          for (const waiter of [...this.#waiters]) {
            if (turn.waitMs > waiter.maxWaitMs) this.#release(waiter, pausedTooLong(waiter.call, turn.waitMs, waiter.maxWaitMs));
          }
          if (this.#waiters.length === 0) return;
        }
        await new Promise((resolve) => setTimeout(resolve, turn.waitMs));
      }
    } finally {
      this.#pumping = false;
    }
  }
}

/**
 * Runs a store's write whose failure only costs precision, sync or async, without letting it throw or reject: the
 * send stays counted from its take, or the pause unset, and the next take tells the calls what is wrong.
 */
function bestEffort(write: () => void | Promise<void>): void {
  // Run at once (the next take must see the pause); a throw becomes the async function's rejection, caught here.
  (async () => write())().catch(() => undefined);
}

/** The error of a call that would wait longer than it may for a 429's pause: nothing was sent. */
function pausedTooLong(call: CallName, waitMs: number, maxWaitMs: number): RateLimitError {
  const error = new RateLimitError(429, undefined, new Headers(), undefined, call, undefined, waitMs);
  error.message = `${call.label} was not sent: the server's rate limit pauses this credential for ${Math.ceil(waitMs / 1000)} s, longer than maxRateLimitWaitMs (${maxWaitMs} ms)`;
  return error;
}

const queues = new WeakMap<RateLimitStore, Map<string, CredentialQueue>>();

/** The queue of a credential in a store: one per key, so every client of the credential in this process shares it. */
export function credentialQueue(store: RateLimitStore, key: string): CredentialQueue {
  let byKey = queues.get(store);
  if (!byKey) {
    byKey = new Map();
    queues.set(store, byKey);
  }
  let queue = byKey.get(key);
  if (!queue) {
    queue = new CredentialQueue(store, key);
    byKey.set(key, queue);
  }
  return queue;
}
