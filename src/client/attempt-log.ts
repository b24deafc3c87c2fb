// The log lines of a call's attempts. Only called when logging is on, so nothing is formatted otherwise.
import type { CallPolicy } from "./call-policy.js";
import { printable } from "./errors.js";
import { paceWaitMs, type RateLimit } from "./rate-limit.js";
import { type ReadBody, requestIdOf } from "./read-body.js";

/**
 * Names an attempt, its operation first (`getPipeSettings #2 of 3`): the method and the path, with its ids, go to
 * the debug line of each send.
 */
export function attemptLabel({ label, operationId, maxRetries }: CallPolicy, retry: number): string {
  return `${operationId ?? label} #${retry + 1} of ${maxRetries + 1}`;
}

/** An attempt's line once answered: its status, how long it took, and the server's request id. */
export function answeredLine(
  policy: CallPolicy,
  retry: number,
  response: Response,
  body: ReadBody,
  started: number,
  requestIdField: string | undefined,
): string {
  const requestId = requestIdOf(response.headers, body, requestIdField);
  return `${attemptLabel(policy, retry)}: ${response.status} in ${elapsedMs(started)} ms${requestId ? `, request ${printable(requestId)}` : ""}`;
}

/** The line of a call that joins the rate-limit queue: how many wait, and about how long that takes. */
export function queuedLine(waiting: number, limit: RateLimit | undefined): string {
  const line = `waits for its turn in the rate-limit queue, ${waiting} call${waiting === 1 ? "" : "s"} waiting`;
  if (!limit) return `${line}, paused or slowed by a 429`;
  return `${line}: about ${(paceWaitMs(waiting, limit) as number) / 1000} s at ${limit.requests} per ${limit.intervalMs / 1000} s`;
}

/** Whole milliseconds since `since`, on the monotonic clock. */
export function elapsedMs(since: number): number {
  return Math.round(performance.now() - since);
}
