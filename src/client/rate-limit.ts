// How fast a credential's calls leave. One queue per credential, shared by every client of that credential in the
// process (typed calls and raw), sends in turn, no faster than the limit allows, stops every call of the credential
// for the wait a 429 names, and bounds how long a call waits because of 429s. Where the sends are counted, and what
// the 429s taught, is a RateLimitStore: this process's memory by default (memory-store.ts), or a store that several
// processes share (`ingestion-api/redis`).

import type { InterfaceDescriptor } from "../contract/interfaces.js";
import { type CallName, type RateLimitAnswer, RateLimitError } from "./errors.js";

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

/**
 * A store's answer to `take`: 0 when the send may go now; otherwise how long to wait, whether a 429's pause is why,
 * and the budget a 429 taught when that is what the wait is for (it is lower than the client's own limit, or the
 * client has none).
 */
export type Turn = 0 | { waitMs: number; paused: boolean; lowered?: RateLimit };

/**
 * Where a credential's sends are counted, and what its 429s taught. `key` names the interface, the server and the
 * credential; a store shared beyond this process must not keep it as it is (it may hold a token): the Redis store
 * hashes it.
 */
export interface RateLimitStore {
  /**
   * Takes one send for `key` when `key` is not paused and fewer sends were taken in the last window than its budget
   * allows (`limit`, the client's own, lowered to what a 429 taught; windows widened by `marginMs`); otherwise says
   * how long to wait before asking again.
   */
  take(key: string, limit: RateLimit | undefined): Turn | Promise<Turn>;
  /**
   * A send of `key` taken `elapsedMs` ago got a 429 asking to wait `waitMs`: every sender of `key` pauses that long
   * (a longer pause already set stays), and the budget drops to what the server accepted in the window that ended
   * in it (see createMemoryRateLimitStore).
   */
  limited(key: string, limit: RateLimit | undefined, waitMs: number, elapsedMs: number): void | Promise<void>;
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

interface Waiter {
  limit: RateLimit | undefined;
  maxWaitMs: number;
  /** The time this call has waited because of 429s so far, its earlier attempts' included. */
  waitedMs: number;
  /** When it joined the queue. */
  queuedAt: number;
  call: CallName;
  resolve(waitedMs: number): void;
  reject(reason: unknown): void;
  /** Stops listening to the caller's signal, if it gave one. */
  stopWatching: (() => void) | undefined;
}

/**
 * A credential's queue: its calls leave one by one, in order, when the store gives them a turn. The time a call
 * waits because of 429s (their pauses, and the part of a lowered budget's wait beyond what its own limit would
 * have cost) is bounded by its `maxRateLimitWaitMs`; waiting for its own limit's pace is not.
 */
export class CredentialQueue {
  readonly #store: RateLimitStore;
  readonly #key: string;
  readonly #waiters: Waiter[] = [];
  #pumping = false;
  /** The last 429 a call of the credential got here, for the calls it keeps from being sent. */
  #lastAnswer: RateLimitAnswer | undefined;

  constructor(store: RateLimitStore, key: string) {
    this.#store = store;
    this.#key = key;
  }

  /** How many calls wait for their turn. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /**
   * Waits for a call's turn: undefined when it may go at once, else a promise that resolves, when it may, to the
   * time it has then waited because of 429s (`waitedMs` is what it had waited before). It rejects with the signal's
   * reason when the caller aborts (the call then leaves the queue, having sent nothing), or with a RateLimitError
   * as soon as its waits because of 429s would pass `maxWaitMs`. `front` puts a call that got a 429 back at the
   * head of the queue.
   */
  turn(
    limit: RateLimit | undefined,
    signal: AbortSignal | undefined,
    front: boolean,
    maxWaitMs: number,
    waitedMs: number,
    call: CallName,
  ): Promise<number> | undefined {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // With nobody waiting, the call asks the store itself: most calls go at once, without a promise or a timer.
    const turn = this.#waiters.length === 0 ? this.#store.take(this.#key, limit) : undefined;
    if (turn === 0) return undefined;
    const waiter = { limit, maxWaitMs, waitedMs, call, signal, front };
    if (turn instanceof Promise) return turn.then((later) => (later === 0 ? waitedMs : this.#wait(waiter, later)));
    return this.#wait(waiter, turn);
  }

  /** Queues a call; `denied` is the store's answer it already got, if any. */
  #wait(
    {
      limit,
      maxWaitMs,
      waitedMs,
      call,
      signal,
      front,
    }: Pick<Waiter, "limit" | "maxWaitMs" | "waitedMs" | "call"> & { signal: AbortSignal | undefined; front: boolean },
    denied: Exclude<Turn, 0> | undefined,
  ): Promise<number> {
    if (denied && waitedMs + chargedShare(denied, limit) * denied.waitMs > maxWaitMs) return Promise.reject(this.#tooLong(call, maxWaitMs, denied));
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = { limit, maxWaitMs, waitedMs, queuedAt: Date.now(), call, resolve, reject, stopWatching: undefined };
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

  /**
   * The call sent at `sentAt` under `limit` has its answer or its failure: the store counts it from now, when the
   * server has surely counted it. A store that fails here only loses that precision; the call's outcome stands.
   * Only a client with a limit of its own reports it: without one, a send counts from its take.
   */
  answered(limit: RateLimit | undefined, sentAt: number): void {
    const { answered } = this.#store;
    if (answered && limit) bestEffort(() => answered.call(this.#store, this.#key, limit, Math.max(0, Date.now() - sentAt)));
  }

  /**
   * The call sent at `sentAt` got `answer`, a 429 asking to wait `waitMs`. Every call of the credential stops for
   * that long, with up to 10% of it more (at most 1 s, and at most `spreadMs`, so that the call may still wait for
   * it), so that processes that share the credential do not all come back at once; the store lowers the budget.
   */
  limited(answer: RateLimitAnswer, waitMs: number, limit: RateLimit | undefined, sentAt: number, spreadMs: number): void {
    this.#lastAnswer = answer;
    const jitter = Math.random() * Math.min(1000, waitMs / 10, spreadMs);
    // A store that cannot record it costs the pause here; the next take tells the calls what is wrong.
    bestEffort(() => this.#store.limited(this.#key, limit, Math.ceil(waitMs + jitter), Math.max(0, Date.now() - sentAt)));
  }

  /** Every waiter removed is in the queue: it leaves once, when released or aborted (its release stops the abort). */
  #remove(waiter: Waiter): void {
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
  }

  #release(waiter: Waiter, error?: unknown): void {
    this.#remove(waiter);
    waiter.stopWatching?.();
    if (error === undefined) waiter.resolve(waiter.waitedMs);
    else waiter.reject(error);
  }

  /** The error of a call whose waits because of 429s would pass its bound: it was not sent. */
  #tooLong(call: CallName, maxWaitMs: number, { waitMs, lowered }: Exclude<Turn, 0>): RateLimitError {
    // A store names a lowered budget only when no pause is why it refused.
    const cause = lowered
      ? `a 429 lowered the credential's pace to ${lowered.requests} per ${lowered.intervalMs} ms`
      : `the credential is paused for ${Math.ceil(waitMs / 1000)} s after a 429`;
    return RateLimitError.notSent(call, this.#lastAnswer, `${cause}, and its waits because of 429s would pass maxRateLimitWaitMs (${maxWaitMs} ms)`, waitMs);
  }

  /** Gives the head of the queue its turn as soon as the store allows, one after another, until the queue is empty. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (let head = this.#waiters[0]; head; head = this.#waiters[0]) {
        let turn: Turn;
        try {
          turn = await this.#store.take(this.#key, head.limit);
        } catch (error) {
          // A store that fails fails the calls waiting on it rather than hanging them (the Redis store never does).
          for (const waiter of [...this.#waiters]) this.#release(waiter, error);
          return;
        }
        if (turn === 0) {
          this.#release(head);
          continue;
        }
        const waitMs = turn.waitMs;
        // Every call that may not wait this long because of 429s fails now rather than after the wait.
        for (const waiter of [...this.#waiters]) {
          if (waiter.waitedMs + chargedShare(turn, waiter.limit) * waitMs > waiter.maxWaitMs)
            this.#release(waiter, this.#tooLong(waiter.call, waiter.maxWaitMs, turn));
        }
        if (this.#waiters.length === 0) return;
        const from = Date.now();
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        const to = Date.now();
        for (const waiter of this.#waiters) waiter.waitedMs += chargedShare(turn, waiter.limit) * (to - Math.max(from, waiter.queuedAt));
      }
    } finally {
      this.#pumping = false;
    }
  }
}

/**
 * How much of a wait the store asked for counts against a call's bound: all of a pause; of a lowered budget's, the
 * part beyond what the call's own limit would have cost (all of it without a limit); none of its own limit's pace.
 */
function chargedShare({ paused, lowered }: Exclude<Turn, 0>, limit: RateLimit | undefined): number {
  if (paused) return 1;
  if (!lowered) return 0;
  if (!limit) return 1;
  // The lowered pace is this fraction of the own one; the rest of the wait is the 429s'.
  return Math.max(0, 1 - (lowered.requests * limit.intervalMs) / (lowered.intervalMs * limit.requests));
}

/**
 * Runs a store's write whose failure only costs precision, sync or async, without letting it throw or reject: the
 * send stays counted from its take, or the pause unset, and the next take tells the calls what is wrong.
 */
function bestEffort(write: () => void | Promise<void>): void {
  // Run at once (the next take must see the pause); a throw becomes the async function's rejection, caught here.
  (async () => write())().catch(() => undefined);
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
