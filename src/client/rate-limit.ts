// A credential's rate limit, and the store that counts its sends: what a limit is, how a store is asked for a
// send's turn and told of its answer (each write run so that its failure costs only precision), and the key it
// knows a credential by. The queue that asks it is
// credential-queue.ts; the stores are this process's memory by default (memory-store.ts), or one that several
// processes share (`ingestion-api/redis`).

import type { InterfaceDescriptor } from "../contract/interfaces.js";
import { sha256 } from "./sha256.js";

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

/** Names one send a store counted, for what the store is told of it afterwards. */
export type Ticket = string;

/**
 * A store's refusal: how long to wait before asking again, whether a 429's pause is why, and the budget a 429
 * taught when that is what the wait is for (it is lower than the client's own limit, or the client has none).
 */
export interface Wait {
  waitMs: number;
  paused: boolean;
  lowered?: RateLimit;
}

/** A store's answer to `take`: a ticket when the send may go now, else how long to wait. */
export type Turn = Ticket | Wait;

/**
 * Where a credential's sends are counted, and what its 429s taught. `key` names the interface, the server and the
 * credential by its SHA-256 (`credentialKey`), never the credential itself. Each send is known by the ticket `take` gave it: it counts from its take until its answer (the server
 * counts it when it arrives, somewhere in between, however long a hook or a busy event loop holds it), and from
 * its answer after, for a window.
 */
export interface RateLimitStore {
  /**
   * Takes one send for `key` when `key` is not paused and fewer sends count in the last window than its budget
   * allows (`limit`, the client's own, lowered to what a 429 taught; windows widened by `marginMs`), and answers
   * its ticket; otherwise says how long to wait before asking again.
   */
  take(key: string, limit: RateLimit | undefined): Turn | Promise<Turn>;
  /**
   * The send `ticket` names has its answer, or its failure, now: it counts from now, for a window (the server
   * counted it when it arrived, at the latest now).
   */
  answered(key: string, limit: RateLimit | undefined, ticket: Ticket): void | Promise<void>;
  /**
   * The send `ticket` names got a 429 asking to wait `waitMs`: every sender of `key` pauses that long (a longer
   * pause already set stays), and the budget drops to what the server accepted in the window that ended in it (see
   * createMemoryRateLimitStore). Told after `answered`.
   */
  limited(key: string, limit: RateLimit | undefined, waitMs: number, ticket: Ticket): void | Promise<void>;
  /** The send `ticket` names was never made (its call was cancelled before `fetch` had it): it no longer counts. */
  release(key: string, ticket: Ticket): void | Promise<void>;
}

/**
 * What a window is widened by: a request is counted by the server when it arrives, not when it left, and that
 * delay varies by some milliseconds. Without it, a server counting a sliding window refuses about one call in five
 * of a client that sends at exactly its limit.
 */
export const marginMs = ({ intervalMs }: RateLimit): number => Math.max(50, Math.ceil(intervalMs / 100));

/**
 * The longest a send counts as in flight when no answer comes (the process that took it ended before its answer):
 * twice the default attempt timeout. After it, the send counts for a window more, as if answered then.
 */
export const maxInFlightMs = 120_000;

/** About how long `waiting` calls take to leave at the limit's pace: a window for each `requests` of them. */
export function paceWaitMs(waiting: number, limit: RateLimit | undefined): number | undefined {
  return limit && Math.ceil(waiting / limit.requests) * limit.intervalMs;
}

/**
 * The key a store knows a credential by: the interface, the server's origin, and the credential's SHA-256, never
 * the credential itself (a store may log its keys, or share them beyond the process). The same in every process
 * and runtime, so a shared store still shares.
 */
export function credentialKey(interfaceName: string, baseUrl: string, credentialId: string): string {
  return `${interfaceName} ${new URL(baseUrl).origin} ${sha256(credentialId)}`;
}

/**
 * Runs a store's write whose failure only costs precision, sync or async, without letting it throw or reject: the
 * send stays counted from its take, or the pause unset, and the next take tells the calls what is wrong. Run at
 * once (the next take must see the pause); what it returns settles when the write has, and a write done at once (the
 * memory store's) costs no promise of its own.
 */
export function bestEffort(write: () => void | Promise<void>): Promise<void> {
  try {
    const written = write();
    // Promise.resolve gives a promise as it is, and waits for any other thenable a store of one's own may return.
    return written ? Promise.resolve(written).catch(ignore) : done;
  } catch {
    return done;
  }
}

const done = Promise.resolve();
const ignore = () => undefined;
