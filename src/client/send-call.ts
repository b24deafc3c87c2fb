// Every request of both clients, typed methods and `raw` alike, is sent from here: its turn in the credential's
// rate-limit queue, the client's and the caller's headers, the hooks, retries, each attempt within its time
// (attempt.ts), and the log lines. What happened comes back as a value, the answer and its body read, which the
// caller's Ending makes the call's result of. Nothing else in the SDK sends.

import { sleep, untilAborted } from "./abortable.js";
import { type Answered, abortAttempt, attemptFailure, refusedRedirect } from "./attempt.js";
import { answeredLine, attemptLabel, elapsedMs, queuedLine } from "./attempt-log.js";
import type { CallPolicy } from "./call-policy.js";
import type { CredentialQueue, Granted } from "./credential-queue.js";
import { IngestionError, type RateLimitAnswer, RateLimitError, ResponseValidationError } from "./errors.js";
import type { OwnHeaders } from "./headers.js";
import { type AttemptContext, type Hooks, hookedHeaders, runQueuedHook, runResponseHook } from "./hooks.js";
import type { Log } from "./logging.js";
import { paceWaitMs, type RateLimit, type Ticket } from "./rate-limit.js";
import { errorBodyOf, parsedBody, type ReadBody, readText, requestIdOf, rereadable } from "./read-body.js";
import { backoffMs, isIdempotent, isRetryableFailure, isRetryableStatus, requestedWaitMs } from "./retry-policy.js";
import { pathOf } from "./routes.js";

/** One call, as a typed method builds it or as `raw`'s request is read. */
export interface OutgoingCall {
  method: string;
  url: string;
  /** The JSON body, serialized once: resent as it is on a retry. */
  body: string | undefined;
  /** The caller's extra headers, checked, with lowercase names. */
  headers: Record<string, string> | undefined;
  signal: AbortSignal | undefined;
  policy: CallPolicy;
}

/** How a client sends: what every call of it shares. */
export interface Sender {
  onQueued: Hooks["onQueued"] | undefined;
  onRequest: Hooks["onRequest"] | undefined;
  onResponse: Hooks["onResponse"] | undefined;
  /** The client's own headers, Authorization included. */
  ownHeaders: OwnHeaders;
  fetch: typeof fetch;
  /** The most bytes a response body may have, decoded; reading stops there. */
  maxResponseBytes: number;
  /** Where the interface's bodies carry a request id, if they do. */
  requestIdField: string | undefined;
  /** The body's field with the server's words, for the errors of calls a 429 keeps in the queue. */
  errorKey: string | undefined;
  /** Undefined when logging is off, so no log line is even formatted. */
  log: Log | undefined;
  /** The credential's queue, and the pace the client asks of it (undefined: at once, until a 429 says otherwise). */
  queue: CredentialQueue;
  rateLimit: RateLimit | undefined;
  /**
   * The longest a call may wait because of 429s, over all its attempts (their pauses, and what a lowered budget
   * adds), and the longest wait a 503's Retry-After may ask for; past it the call ends.
   */
  maxRateLimitWaitMs: number;
}

/** A call's last answer, its body read; HTTP errors are answers too. */
export interface Answer extends Answered {
  /** Why the client did not try again after the 429 this is. */
  notRetried: string | undefined;
}

/**
 * What the caller makes of a call's end: its last answer, or what ended it. Made in sendCall's frame, so that a
 * call costs one suspended frame and one turn of the microtask queue, not one per layer. What `answered` throws is
 * given to `failed`.
 */
export interface Ending<T, Call extends OutgoingCall = OutgoingCall> {
  answered(answer: Answer, call: Call): T | Promise<T>;
  failed(error: unknown, call: Call): T;
}

/** The last answer as it is, and what ended the call thrown: for those who read the answer themselves (`raw`, `verify`). */
export const asAnswer: Ending<Answer> = {
  answered: (answer) => answer,
  failed: (error) => {
    throw error;
  },
};

/** Sends a call under the client's policy and resolves to what `ending` makes of its last answer, or of what ended it. */
export async function sendCall<T, Call extends OutgoingCall>(sender: Sender, call: Call, ending: Ending<T, Call>): Promise<T> {
  const { log, queue, rateLimit, maxRateLimitWaitMs, onRequest, onResponse } = sender;
  const { signal: caller, policy } = call;
  try {
    const { maxRetries } = policy;
    const headers = headersOf(sender.ownHeaders, call);
    // The signal is each attempt's own (attempt.ts); declared here so that setting it does not reshape the object.
    const init: RequestInit = { method: call.method, headers, body: call.body ?? null, redirect: "manual", signal: null };
    const idempotent = isIdempotent(call.method);

    // A call the server answered 429 goes back to the head of the queue, to leave first once the pause is over.
    let requeued: Answered | undefined;
    // How long the call has waited because of 429s, over its attempts: maxRateLimitWaitMs bounds it.
    let waitedMs = 0;
    for (let retry = 0; ; retry++) {
      // Every attempt waits for its turn; an abort before or while waiting leaves the queue and sends nothing.
      const turn = takeTurn(sender, call, retry, requeued !== undefined, waitedMs);
      let ticket: Ticket;
      if (typeof turn === "string") ticket = turn;
      else {
        try {
          ({ ticket, waitedMs } = await turn);
        } catch (error) {
          // A call answered 429 whose next wait would pass the bound ends with that answer, not as unsent.
          if (!requeued || !(error instanceof RateLimitError)) throw error;
          return ending.answered({ ...requeued, notRetried: `its waits because of 429s would pass maxRateLimitWaitMs (${maxRateLimitWaitMs} ms)` }, call);
        }
      }
      requeued = undefined;
      // Until fetch has the request, an abort or a failing hook sends nothing, and the turn goes back to the store.
      try {
        caller?.throwIfAborted();
        // The hook sees each attempt before its time starts; what it returns is not kept for the next one. An abort
        // while it runs ends the call at once: the hook may finish, and nothing is sent after it.
        if (onRequest) init.headers = await untilAborted(hookedHeaders(onRequest, policy, { ...call, headers }, attemptContext(policy, retry)), caller);
        caller?.throwIfAborted();
      } catch (error) {
        queue.release(ticket);
        throw error;
      }
      log?.("debug", `${attemptLabel(policy, retry)}: ${call.method} ${pathOf(call.url)}`);
      // Only the log lines read it.
      const started = log ? performance.now() : 0;
      // The attempt: the response and its whole body within the policy's timeoutMs, from one controller fed by the
      // timer and the caller's signal (no closure unless the caller gave one).
      const controller = new AbortController();
      const timer = setTimeout(abortAttempt, policy.timeoutMs, controller);
      let onCallerAbort: (() => void) | undefined;
      if (caller) {
        onCallerAbort = () => controller.abort(caller.reason);
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: the listener is removed after the attempt, so `once` changes nothing.
        caller.addEventListener("abort", onCallerAbort, { once: true });
      }
      init.signal = controller.signal;
      let attempted: Answered | IngestionError;
      try {
        const response = await sender.fetch(call.url, init);
        const refused = refusedRedirect(response, policy);
        if (refused) await refused;
        attempted = { response, body: parsedBody(await readText(response, sender.maxResponseBytes, policy)) };
      } catch (error) {
        // The caller's abort ends the call with the caller's own reason, as fetch does; any other failure is the
        // attempt's, to try again or not.
        if (caller?.aborted) throw caller.reason;
        attempted = attemptFailure(error, controller.signal, policy);
      } finally {
        clearTimeout(timer);
        // So that a long-lived signal does not collect a listener per call.
        // Stryker disable next-line OptionalChaining: the listener exists only when there is a signal.
        if (onCallerAbort) caller?.removeEventListener("abort", onCallerAbort);
        // The server counted this request when it arrived, at the latest now: the store counts it from now.
        queue.answered(rateLimit, ticket);
      }

      if (attempted instanceof IngestionError) {
        const again = retry < maxRetries && isRetryableFailure(attempted, idempotent);
        log?.(again ? "warn" : "error", `${attemptLabel(policy, retry)}: ${attempted.message} after ${elapsedMs(started)} ms${again ? ", retrying" : ""}`);
        if (!again) throw attempted;
        await sleep(backoffMs(retry), caller);
        continue;
      }
      const { response, body } = attempted;
      if (response.ok) {
        log?.("info", answeredLine(policy, retry, response, body, started, sender.requestIdField));
        if (onResponse)
          await runResponseHook(onResponse, policy, rereadable(response, body), { ...attemptContext(policy, retry), willRetry: false, retryInMs: undefined });
        // A successful body that is not JSON is not the contract's, whoever reads it (openapi-fetch would throw a bare SyntaxError).
        if (body.text !== "" && !body.isJson) throw notJson(policy, response, body, sender.requestIdField);
        return ending.answered({ response, body, notRetried: undefined }, call);
      }
      const limited = response.status === 429;
      const retryAfterMs = requestedWaitMs(response.headers);
      // A 429 without a readable wait still pauses the credential, for the backoff.
      const waitMs = retryAfterMs ?? (limited ? backoffMs(retry) : undefined);
      // What is left of the call's bound: a 429's wait counts against it with the waits it already had.
      const leftMs = maxRateLimitWaitMs - (limited ? waitedMs : 0);
      const again = retry < maxRetries && isRetryableStatus(response.status, idempotent) && (waitMs === undefined || waitMs <= leftMs);
      // A 429's retry waits in the queue for the pause the queue sets (the wait and its spread); any other, here, for
      // what its answer asked or the backoff.
      let pauseMs: number | undefined;
      if (limited) {
        // Every call of the credential stops for the wait, this one included, even when it will not retry.
        const answer: RateLimitAnswer = {
          body: errorBodyOf(body),
          headers: response.headers,
          requestId: requestIdOf(response.headers, body, sender.requestIdField),
          errorKey: sender.errorKey,
          retryAfterMs,
        };
        // Recorded before this call asks again: a shared store then sees the pause before its next take. An abort
        // meanwhile rejects the call at once; the pause is still recorded, for the credential's other calls.
        pauseMs = await untilAborted(queue.limited(answer, waitMs as number, rateLimit, ticket, Math.max(0, leftMs - (waitMs as number))), caller);
      }
      const retryInMs = again ? (pauseMs ?? waitMs ?? backoffMs(retry)) : undefined;
      log?.(again ? "warn" : "error", `${answeredLine(policy, retry, response, body, started, sender.requestIdField)}${again ? ", retrying" : ""}`);
      if (onResponse) await runResponseHook(onResponse, policy, rereadable(response, body), { ...attemptContext(policy, retry), willRetry: again, retryInMs });
      if (again && limited) requeued = attempted;
      else if (again) await sleep(retryInMs as number, caller);
      else if (limited)
        return ending.answered(
          {
            response,
            body,
            notRetried: retry === maxRetries ? `maxRetries (${maxRetries}) reached` : waitTooLong(waitMs as number, leftMs, maxRateLimitWaitMs),
          },
          call,
        );
      else return ending.answered({ response, body, notRetried: undefined }, call);
    }
  } catch (error) {
    return ending.failed(error, call);
  }
}

/**
 * An attempt's turn in the credential's queue: its ticket at once, as most get it, else a promise of it. When the
 * attempt has to wait for the limit, the log and the onQueued hook are told; what the hook throws (or its promise
 * rejects with) fails the call when its turn comes, and the log says how long it waited.
 */
function takeTurn(sender: Sender, call: OutgoingCall, retry: number, front: boolean, waitedMs: number): Ticket | Promise<Granted> {
  const { queue, rateLimit, maxRateLimitWaitMs, onQueued, log } = sender;
  const { policy } = call;
  // What failed while the call waited (its hook, or the log), thrown when its turn comes: never in the queue's way.
  let failed: { error: unknown } | undefined;
  let queuedAt: number | undefined;
  // Made only for a client that listens: most calls never wait, and every call takes a turn.
  const queued =
    (onQueued || log) &&
    ((waiting: number) => {
      queuedAt = performance.now();
      try {
        log?.("info", `${attemptLabel(policy, retry)}: ${queuedLine(waiting, rateLimit)}`);
      } catch (error) {
        failed ??= { error };
      }
      if (onQueued) {
        const context = {
          ...attemptContext(policy, retry),
          waiting,
          aboutMs: paceWaitMs(waiting, rateLimit),
          maxRateLimitWaitMs: Math.max(0, maxRateLimitWaitMs - waitedMs),
        };
        runQueuedHook(onQueued, policy, context, (error) => {
          failed ??= { error };
        });
      }
    });
  const turn = queue.turn({
    limit: rateLimit,
    signal: call.signal,
    front,
    maxWaitMs: maxRateLimitWaitMs,
    waitedMs,
    call: policy,
    queued,
  });
  if (typeof turn === "string") return turn;
  return turn.then((granted) => {
    // Widened again: TypeScript does not see that the callbacks may have set it during the wait.
    const failure = failed as { error: unknown } | undefined;
    if (failure) {
      queue.release(granted.ticket);
      throw failure.error;
    }
    // Widened again, as above.
    const since = queuedAt as number | undefined;
    if (since !== undefined)
      log?.("info", `${attemptLabel(policy, retry)}: waited ${Math.round(performance.now() - since)} ms for its turn in the rate-limit queue`);
    return granted;
  });
}

/** What is sent: the client's headers, the call's over its defaults, and Accept and Authorization over both. */
function headersOf(own: OwnHeaders, { body, headers }: OutgoingCall): Record<string, string> {
  if (body === undefined) return headers === undefined ? own.withoutBody : { ...own.withoutBody, ...headers, ...own.fixedWithoutBody };
  return headers === undefined ? own.withBody : { ...own.withBody, ...headers, ...own.fixedWithBody };
}

function waitTooLong(waitMs: number, leftMs: number, maxWaitMs: number): string {
  const bound =
    leftMs === maxWaitMs ? `maxRateLimitWaitMs (${maxWaitMs} ms)` : `the ${Math.max(0, Math.floor(leftMs))} ms left of maxRateLimitWaitMs (${maxWaitMs} ms)`;
  return `the wait (${waitMs} ms) is longer than ${bound}`;
}

function attemptContext({ operationId }: CallPolicy, retry: number): AttemptContext {
  return { operationId, attempt: retry + 1 };
}

function notJson(call: CallPolicy, response: Response, body: ReadBody, requestIdField: string | undefined): ResponseValidationError {
  const kind = response.headers.get("content-type") ?? "no content type";
  return new ResponseValidationError(
    call,
    [{ path: "", message: `is not JSON (${kind}): ${JSON.stringify(body.text.slice(0, 80))}` }],
    requestIdOf(response.headers, body, requestIdField),
  );
}
