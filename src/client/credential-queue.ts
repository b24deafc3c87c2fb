// How fast a credential's calls leave. One queue per credential, shared by every client of that credential in the
// process (typed calls and raw), sends in turn, no faster than the limit allows, stops every call of the credential
// for the wait a 429 names, and bounds how long a call waits because of 429s. Where the sends are counted, and what
// the 429s taught, is its RateLimitStore (rate-limit.ts).

import { type CallName, type RateLimitAnswer, RateLimitError } from "./errors.js";
import { bestEffort, type RateLimit, type RateLimitStore, type Ticket, type Turn, type Wait } from "./rate-limit.js";

/** What a call asks the queue for its turn. */
export interface TurnRequest {
  limit: RateLimit | undefined;
  signal: AbortSignal | undefined;
  /** A call answered 429 goes back to the head of the queue. */
  front: boolean;
  maxWaitMs: number;
  /** The time this call has waited because of 429s so far, its earlier attempts' included. */
  waitedMs: number;
  call: CallName;
  /**
   * Told once, when the call has to wait for the limit (most never do): the store refused its turn, or it queues
   * behind calls the store refused; not while it waits for a store's answer still to come that lets it go. With its
   * place in line: the calls ahead of it, and itself.
   */
  queued?: ((waiting: number) => void) | undefined;
}

/** A turn given after waiting: the send's ticket, and the time the call has then waited because of 429s. */
export interface Granted {
  ticket: Ticket;
  waitedMs: number;
}

interface Waiter extends Omit<TurnRequest, "signal" | "front"> {
  /** When it joined the queue, on the monotonic clock. */
  queuedAt: number;
  resolve(granted: Granted): void;
  reject(reason: unknown): void;
  /** Stops listening to the caller's signal, if it gave one. */
  stopWatching: (() => void) | undefined;
}

/**
 * A credential's queue: its calls leave one by one, in order, when the store gives them a turn. The time a call
 * waits because of 429s (their pauses, and the part of a lowered budget's wait beyond what its own limit would
 * have cost) is bounded by its `maxRateLimitWaitMs`; waiting for its own limit's pace is not. A call that aborts
 * leaves at once, as if it had never been queued: a turn the store gives it after that goes to the next call, or
 * back to the store.
 */
export class CredentialQueue {
  readonly #store: RateLimitStore;
  readonly #key: string;
  readonly #waiters: Waiter[] = [];
  #pumping = false;
  /** The store's last answer to the queue was a refusal, and no turn was given since: the calls wait for the limit. */
  #refused = false;
  /** Ends the pump's wait early, while it waits: when the last call leaves the queue, nothing is left to wait for. */
  #wake: (() => void) | undefined;
  /**
   * The last 429 a call of the credential got here, for the calls its pause keeps from being sent; forgotten once
   * the pause is over (it may hold a body as large as the response cap).
   */
  #lastAnswer: RateLimitAnswer | undefined;
  #lastAnswerUntil = 0;

  constructor(store: RateLimitStore, key: string) {
    this.#store = store;
    this.#key = key;
  }

  /** How many calls wait for their turn. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /**
   * A call's turn: its ticket when it may go at once, else a promise of it, given when it may. It rejects with the
   * signal's reason as soon as the caller aborts (the call then leaves the queue, having sent nothing), or with a
   * RateLimitError as soon as its waits because of 429s would pass `maxWaitMs`.
   */
  turn(request: TurnRequest): Ticket | Promise<Granted> {
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#lastAnswer && performance.now() >= this.#lastAnswerUntil) this.#lastAnswer = undefined;
    // Behind others (the pump runs while anyone waits), or while the store answers someone's turn, a call queues:
    // turns are given in order.
    if (this.#pumping) return this.#enqueue(request, undefined, undefined);
    // With nobody waiting, the call asks the store itself: most calls go at once, without a promise or a timer.
    const turn = this.#store.take(this.#key, request.limit);
    if (typeof turn === "string") return turn;
    // An answer still to come is the queue's first: whoever is at the head when it comes gets its ticket.
    if (turn instanceof Promise) return this.#enqueue(request, undefined, turn);
    return this.#enqueue(request, turn, undefined);
  }

  /** Queues a call; `denied` is the store's refusal it already got, `asking` its answer still to come. */
  #enqueue(request: TurnRequest, denied: Wait | undefined, asking: Promise<Turn> | undefined): Promise<Granted> {
    const { limit, signal, front, maxWaitMs, waitedMs, call, queued } = request;
    if (denied && waitedMs + chargedShare(denied, limit) * denied.waitMs > maxWaitMs) return Promise.reject(this.#tooLong(call, maxWaitMs, denied));
    return new Promise<Granted>((resolve, reject) => {
      const waiter: Waiter = { limit, maxWaitMs, waitedMs, call, queued, queuedAt: performance.now(), resolve, reject, stopWatching: undefined };
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
      // Refused, or behind calls the store refused: told now; behind an answer still to come, by the pump if refused.
      if (denied) this.#refused = true;
      if (this.#refused) this.#tell(waiter);
      void this.#pump(asking);
    });
  }

  /**
   * The send `ticket` names has its answer or its failure: the store counts it from now, when the server has
   * surely counted it. A store that fails here only loses that precision; the call's outcome stands.
   */
  answered(limit: RateLimit | undefined, ticket: Ticket): void {
    bestEffort(() => this.#store.answered(this.#key, limit, ticket));
  }

  /**
   * The send `ticket` names will not be made (its call was cancelled, or its hook failed): it costs nothing. The
   * call waiting next asks again once the store has it back, instead of waiting out what the store said while the
   * send still counted.
   */
  release(ticket: Ticket): void {
    void bestEffort(() => this.#store.release(this.#key, ticket)).then(() => this.#wake?.());
  }

  /**
   * The send `ticket` names got `answer`, a 429 asking to wait `waitMs`. Every call of the credential stops for
   * that long, with up to 10% of it more (at most 1 s, and at most `spreadMs`, so that the call may still wait for
   * it), so that processes that share the credential do not all come back at once; the store lowers the budget.
   * Resolves to the pause it set, in ms, once the store has recorded it, or failed to: the call that got the 429 asks
   * for its next turn after that, so a shared store sees the pause before that call's take.
   */
  limited(answer: RateLimitAnswer, waitMs: number, limit: RateLimit | undefined, ticket: Ticket, spreadMs: number): Promise<number> {
    const jitter = Math.random() * Math.min(1000, waitMs / 10, spreadMs);
    this.#lastAnswer = answer;
    this.#lastAnswerUntil = performance.now() + waitMs + jitter;
    const pauseMs = Math.ceil(waitMs + jitter);
    // A store that cannot record it costs the pause here; the next take tells the calls what is wrong.
    return bestEffort(() => this.#store.limited(this.#key, limit, pauseMs, ticket)).then(() => pauseMs);
  }

  /**
   * A waiter leaves the queue, granted, failed or aborted, once (granting or failing it stops its abort listener);
   * the pump stops waiting when nobody is left.
   */
  #remove(waiter: Waiter): void {
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    if (this.#waiters.length === 0) this.#wake?.();
  }

  /** Tells `waiter`, once, that it waits for the limit, with its place in line: if it is still in it. */
  #tell(waiter: Waiter): void {
    const { queued } = waiter;
    const place = this.#waiters.indexOf(waiter) + 1;
    if (!queued || place === 0) return;
    waiter.queued = undefined;
    queued(place);
  }

  #grant(waiter: Waiter, ticket: Ticket): void {
    this.#remove(waiter);
    waiter.stopWatching?.();
    waiter.resolve({ ticket, waitedMs: waiter.waitedMs });
  }

  #fail(waiter: Waiter, error: unknown): void {
    this.#remove(waiter);
    waiter.stopWatching?.();
    waiter.reject(error);
  }

  /** The error of a call whose waits because of 429s would pass its bound: it was not sent. */
  #tooLong(call: CallName, maxWaitMs: number, { waitMs, lowered }: Wait): RateLimitError {
    // A store names a lowered budget only when no pause is why it refused.
    const cause = lowered
      ? `a 429 lowered the credential's pace to ${lowered.requests} per ${lowered.intervalMs} ms`
      : `the credential is paused for ${Math.ceil(waitMs / 1000)} s after a 429`;
    return RateLimitError.notSent(call, this.#lastAnswer, `${cause}, and its waits because of 429s would pass maxRateLimitWaitMs (${maxWaitMs} ms)`, waitMs);
  }

  /**
   * Gives the head of the queue its turn as soon as the store allows, one after another, until the queue is empty.
   * `asking` is a take already under way, whose answer comes first.
   */
  async #pump(asking: Promise<Turn> | undefined): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (let first = this.#waiters[0]; first; first = this.#waiters[0]) {
        let turn: Turn;
        try {
          turn = await (asking ?? this.#store.take(this.#key, first.limit));
        } catch (error) {
          // A store that fails fails the calls waiting on it rather than hanging them (the Redis store never does).
          for (const waiter of [...this.#waiters]) this.#fail(waiter, error);
          return;
        }
        asking = undefined;
        // The head when the answer comes gets it: the one that asked may have left meanwhile.
        const head = this.#waiters[0];
        if (typeof turn === "string") {
          this.#refused = false;
          if (head) this.#grant(head, turn);
          else this.release(turn);
          continue;
        }
        this.#refused = true;
        // Every call that may not wait this long because of 429s fails now rather than after the wait.
        for (const waiter of [...this.#waiters]) {
          if (waiter.waitedMs + chargedShare(turn, waiter.limit) * turn.waitMs > waiter.maxWaitMs)
            this.#fail(waiter, this.#tooLong(waiter.call, waiter.maxWaitMs, turn));
        }
        // A copy: a hook told may abort its call, which leaves the line at once. Nobody left (failed, or cancelled by a
        // hook), nothing to wait for.
        for (const waiter of [...this.#waiters]) this.#tell(waiter);
        if (this.#waiters.length === 0) return;
        const from = performance.now();
        await this.#sleep(turn.waitMs);
        const to = performance.now();
        for (const waiter of this.#waiters) waiter.waitedMs += chargedShare(turn, waiter.limit) * (to - Math.max(from, waiter.queuedAt));
      }
    } finally {
      // Nobody waits now: a refusal the last calls got is nothing to the next call.
      this.#pumping = false;
      this.#refused = false;
    }
  }

  /** Waits `ms`, or until the last waiter leaves: a process whose calls were all cancelled has nothing of ours left. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve();
      }, ms);
      this.#wake = () => {
        this.#wake = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/**
 * How much of a wait the store asked for counts against a call's bound: all of a pause; of a lowered budget's, the
 * part beyond what the call's own limit would have cost (all of it without a limit); none of its own limit's pace.
 */
function chargedShare({ paused, lowered }: Wait, limit: RateLimit | undefined): number {
  if (paused) return 1;
  if (!lowered) return 0;
  if (!limit) return 1;
  // The lowered pace is this fraction of the own one; the rest of the wait is the 429s'.
  return Math.max(0, 1 - (lowered.requests * limit.intervalMs) / (lowered.intervalMs * limit.requests));
}

// The queue of each credential of each store, held weakly: a queue lives as long as a client of its credential or a
// call waiting in it, and its entry goes with it, so a credential no client uses any more holds nothing here (a
// server that makes a client per tenant request does not collect a queue per tenant for ever).
const queues = new WeakMap<RateLimitStore, Map<string, WeakRef<CredentialQueue>>>();
const forgotten = new FinalizationRegistry<{ byKey: Map<string, WeakRef<CredentialQueue>>; key: string }>(({ byKey, key }) => {
  // A new queue may have taken the key since.
  if (!byKey.get(key)?.deref()) byKey.delete(key);
});

/** The queue of a credential in a store: one per key, so every client of the credential in this process shares it. */
export function credentialQueue(store: RateLimitStore, key: string): CredentialQueue {
  let byKey = queues.get(store);
  if (!byKey) {
    byKey = new Map();
    queues.set(store, byKey);
  }
  let queue = byKey.get(key)?.deref();
  if (!queue) {
    queue = new CredentialQueue(store, key);
    byKey.set(key, new WeakRef(queue));
    forgotten.register(queue, { byKey, key });
  }
  return queue;
}
