// Every request of both clients, typed methods and `raw` alike, is sent from here: its turn in the credential's
// rate-limit queue, the client's and the caller's headers, the hooks, retries, per-attempt timeouts, refusing
// redirects, reading the body within the attempt's time and under its cap, and the log lines. Nothing else in the
// SDK sends.

import { requestIdHeader } from "../contract/interfaces.js";
import {
  type CallName,
  ConnectionError,
  IngestionError,
  printable,
  type RateLimitAnswer,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from "./errors.js";
import type { OwnHeaders } from "./headers.js";
import { type AttemptContext, type Hooks, hookedHeaders, runQueuedHook, runResponseHook } from "./hooks.js";
import type { Log } from "./logging.js";
import type { CredentialQueue, RateLimit, Ticket } from "./rate-limit.js";
import { backoffMs, isIdempotent, isRetryableFailure, isRetryableStatus, requestedWaitMs } from "./retry-policy.js";

/** How one call is sent: named for errors, hooks and log lines, with its timeout and retries. */
export interface CallPolicy extends CallName {
  timeoutMs: number;
  maxRetries: number;
}

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

export interface PolicyFetchConfig {
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

/** What the body of a response was, read within the attempt's time. */
export interface ReadBody {
  text: string;
  /** The parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
  isJson: boolean;
}

/** Sends a call under the client's policy and resolves to its last answer, its body read; HTTP errors are answers too. */
export type PolicyFetch = (call: OutgoingCall) => Promise<Response>;

// Where a response this fetch returned keeps the body it read: a property under a symbol rather than a WeakMap
// entry, which the garbage collector handles as an ephemeron, at a cost per response that grows with the calls
// in flight.
const keptBody: unique symbol = Symbol("ingestion-api body");
const keptReason: unique symbol = Symbol("ingestion-api not retried");
type KeptResponse = Response & { [keptBody]?: ReadBody; [keptReason]?: string };

const noBody: ReadBody = { text: "", json: undefined, isJson: false };

/** The body of a response returned by a policy fetch. */
export function bodyOf(response: Response): ReadBody {
  return (response as KeptResponse)[keptBody] ?? noBody;
}

/** A body as an error carries it: the parsed JSON, else the text, else undefined for an empty body. */
export function errorBodyOf({ text, json, isJson }: ReadBody): unknown {
  return isJson ? json : text || undefined;
}

/** Why the policy did not try again after a 429 it returns. */
export function whyNotRetried(response: Response): string | undefined {
  return (response as KeptResponse)[keptReason];
}

/** The request id of an answer: the body's field where the interface has one, else the `x-request-id` header. */
export function requestIdOf(response: Response, field: string | undefined, { json }: ReadBody = bodyOf(response)): string | undefined {
  const fromBody = field !== undefined && json !== null && typeof json === "object" ? (json as Record<string, unknown>)[field] : undefined;
  return typeof fromBody === "string" ? fromBody : (response.headers.get(requestIdHeader) ?? undefined);
}

export function createPolicyFetch(config: PolicyFetchConfig): PolicyFetch {
  const {
    ownHeaders,
    log,
    fetch: send,
    maxResponseBytes,
    requestIdField,
    errorKey,
    onQueued,
    onRequest,
    onResponse,
    queue,
    rateLimit,
    maxRateLimitWaitMs,
  } = config;

  /** What is sent: the client's headers, the call's over its defaults, and Accept and Authorization over both. */
  function headersOf({ body, headers }: OutgoingCall): Record<string, string> {
    if (body === undefined) return headers === undefined ? ownHeaders.withoutBody : { ...ownHeaders.withoutBody, ...headers, ...ownHeaders.fixedWithoutBody };
    return headers === undefined ? ownHeaders.withBody : { ...ownHeaders.withBody, ...headers, ...ownHeaders.fixedWithBody };
  }

  return async function policyFetch(call: OutgoingCall): Promise<Response> {
    const { signal: caller, policy } = call;
    const { timeoutMs, maxRetries } = policy;
    const headers = headersOf(call);
    const init: RequestInit = { method: call.method, headers, body: call.body ?? null, redirect: "manual" };
    const idempotent = isIdempotent(call.method);

    // A call the server answered 429 goes back to the head of the queue, to leave first once the pause is over.
    let requeued: Response | undefined;
    // How long the call has waited because of 429s, over its attempts: maxRateLimitWaitMs bounds it.
    let waitedMs = 0;
    for (let retry = 0; ; retry++) {
      // Every attempt waits for its turn; an abort before or while waiting leaves the queue and sends nothing. The
      // onQueued hook is told when the attempt joins the queue, and what it throws (or its promise rejects with)
      // fails the call when its turn comes.
      let hookFailure: IngestionError | undefined;
      const turn = queue.turn({
        limit: rateLimit,
        signal: caller,
        front: requeued !== undefined,
        maxWaitMs: maxRateLimitWaitMs,
        waitedMs,
        call: policy,
        queued:
          onQueued &&
          ((waiting) =>
            runQueuedHook(
              onQueued,
              policy,
              {
                ...attemptContext(policy, retry),
                waiting,
                aboutMs: paceWaitMs(waiting, rateLimit),
                maxRateLimitWaitMs: Math.max(0, maxRateLimitWaitMs - waitedMs),
              },
              (failure) => {
                hookFailure ??= failure;
              },
            )),
      });
      let ticket: Ticket;
      if (typeof turn === "string") ticket = turn;
      else {
        const queuedAt = log ? performance.now() : 0;
        if (log) log("info", `${attemptLabel(call, retry, maxRetries)}: ${queuedLine(queue.waiting, rateLimit)}`);
        try {
          ({ ticket, waitedMs } = await turn);
        } catch (error) {
          // A call answered 429 whose next wait would pass the bound ends with that answer, not as unsent.
          if (!requeued || !(error instanceof RateLimitError)) throw error;
          return notRetried(requeued, `its waits because of 429s would pass maxRateLimitWaitMs (${maxRateLimitWaitMs} ms)`);
        }
        // Widened again: TypeScript does not see that the hook's callback may have set it during the wait.
        const failed = hookFailure as IngestionError | undefined;
        if (failed) {
          queue.release(ticket);
          throw failed;
        }
        log?.("info", `${attemptLabel(call, retry, maxRetries)}: waited ${Math.round(performance.now() - queuedAt)} ms for its turn in the rate-limit queue`);
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
      log?.("debug", `${attemptLabel(call, retry, maxRetries)}: ${call.method} ${pathOf(call.url)}`);
      const started = performance.now();
      // One attempt: the response and its whole body within `timeoutMs`, from one controller fed by the timer and
      // the caller's signal. The caller's listener is removed after the attempt, so a long-lived signal does not
      // collect one per call; no closure is made unless the caller gave a signal.
      const controller = new AbortController();
      const timer = setTimeout(abortAttempt, timeoutMs, controller);
      let onCallerAbort: (() => void) | undefined;
      if (caller) {
        onCallerAbort = () => controller.abort(caller.reason);
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: the listener is removed after the attempt, so `once` changes nothing.
        caller.addEventListener("abort", onCallerAbort, { once: true });
      }
      init.signal = controller.signal;
      let response!: Response;
      let failure: IngestionError | undefined;
      try {
        response = await send(call.url, init);
        // The contract declares no redirect: following one would resend the request, credentials and body,
        // elsewhere or again (a create twice). In a browser, "manual" gives an opaque answer with status 0.
        if ((response.status >= 300 && response.status < 400) || response.type === "opaqueredirect") {
          await response.body?.cancel();
          throw new RedirectError(response.status, response.headers, requestIdOf(response, undefined, noBody), policy);
        }
        keepBody(response, await readText(response, maxResponseBytes, policy));
      } catch (error) {
        if (caller?.aborted) throw caller.reason;
        failure = attemptFailure(error, controller.signal, policy);
      } finally {
        clearTimeout(timer);
        // Stryker disable next-line OptionalChaining: the listener exists only when there is a signal.
        if (onCallerAbort) caller?.removeEventListener("abort", onCallerAbort);
        // The server counted this request when it arrived, at the latest now: the store counts it from now.
        queue.answered(rateLimit, ticket);
      }

      if (failure) {
        const again = retry < maxRetries && isRetryableFailure(failure, idempotent);
        log?.(
          again ? "warn" : "error",
          `${attemptLabel(call, retry, maxRetries)}: ${failure.message} after ${elapsedMs(started)} ms${again ? ", retrying" : ""}`,
        );
        if (!again) throw failure;
        await sleep(backoffMs(retry), caller);
        continue;
      }
      if (response.ok) {
        log?.("info", outcome(call, retry, maxRetries, response, started, requestIdField));
        if (onResponse)
          await runResponseHook(onResponse, policy, rereadable(response), { ...attemptContext(policy, retry), willRetry: false, retryInMs: undefined });
        const body = bodyOf(response);
        // A successful body that is not JSON is not the contract's, whoever reads it (openapi-fetch would throw a bare SyntaxError).
        if (body.text !== "" && !body.isJson) throw notJson(policy, response, body, requestIdField);
        return response;
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
        const read = bodyOf(response);
        const answer: RateLimitAnswer = {
          body: errorBodyOf(read),
          headers: response.headers,
          requestId: requestIdOf(response, requestIdField, read),
          errorKey,
          retryAfterMs,
        };
        // Recorded before this call asks again: a shared store then sees the pause before its next take. An abort
        // meanwhile rejects the call at once; the pause is still recorded, for the credential's other calls.
        pauseMs = await untilAborted(queue.limited(answer, waitMs as number, rateLimit, ticket, Math.max(0, leftMs - (waitMs as number))), caller);
      }
      const retryInMs = again ? (pauseMs ?? waitMs ?? backoffMs(retry)) : undefined;
      log?.(again ? "warn" : "error", `${outcome(call, retry, maxRetries, response, started, requestIdField)}${again ? ", retrying" : ""}`);
      if (onResponse) await runResponseHook(onResponse, policy, rereadable(response), { ...attemptContext(policy, retry), willRetry: again, retryInMs });
      if (again && limited) requeued = response;
      else if (again) await sleep(retryInMs as number, caller);
      else if (limited)
        return notRetried(response, retry === maxRetries ? `maxRetries (${maxRetries}) reached` : waitTooLong(waitMs as number, leftMs, maxRateLimitWaitMs));
      else return response;
    }
  };
}

/** A 429 the policy returns, with why it did not try again. */
function notRetried(response: Response, reason: string): Response {
  (response as KeptResponse)[keptReason] = reason;
  return response;
}

function waitTooLong(waitMs: number, leftMs: number, maxWaitMs: number): string {
  const bound =
    leftMs === maxWaitMs ? `maxRateLimitWaitMs (${maxWaitMs} ms)` : `the ${Math.max(0, Math.floor(leftMs))} ms left of maxRateLimitWaitMs (${maxWaitMs} ms)`;
  return `the wait (${waitMs} ms) is longer than ${bound}`;
}

/** About how long `waiting` calls take to leave at the limit's pace: a window for each `requests` of them. */
function paceWaitMs(waiting: number, limit: RateLimit | undefined): number | undefined {
  return limit && Math.ceil(waiting / limit.requests) * limit.intervalMs;
}

/** The log line of a call that joins the rate-limit queue: how many wait, and about how long that takes. */
function queuedLine(waiting: number, limit: RateLimit | undefined): string {
  const line = `waits for its turn in the rate-limit queue, ${waiting} call${waiting === 1 ? "" : "s"} waiting`;
  if (!limit) return `${line}, paused or slowed by a 429`;
  return `${line}: about ${(paceWaitMs(waiting, limit) as number) / 1000} s at ${limit.requests} per ${limit.intervalMs / 1000} s`;
}

function attemptContext({ operationId }: CallPolicy, retry: number): AttemptContext {
  return { operationId, attempt: retry + 1 };
}

/** Why an attempt failed, as the error the caller gets: a policy error as it is, else a timeout or a connection failure. */
function attemptFailure(error: unknown, signal: AbortSignal, { label, operationId, timeoutMs }: CallPolicy): IngestionError {
  if (error instanceof IngestionError) return error;
  // The controller aborts for the caller (handled before this) or for the timer.
  if (signal.aborted) return new TimeoutError(`${label} timed out after ${timeoutMs} ms`, { operationId });
  return new ConnectionError(`${label} got no complete response: ${describeFailure(error)}`, { cause: error, operationId });
}

function abortAttempt(controller: AbortController): void {
  controller.abort();
}

/**
 * Names an attempt in log lines, its operation first (`getPipeSettings #2 of 3`): the method and the path, with its
 * ids, go to the debug line of each send. Only called when logging is on.
 */
function attemptLabel({ policy }: OutgoingCall, retry: number, maxRetries: number): string {
  return `${policy.operationId ?? policy.label} #${retry + 1} of ${maxRetries + 1}`;
}

/** An attempt's log line: its answer and how long it took. */
function outcome(call: OutgoingCall, retry: number, maxRetries: number, response: Response, started: number, requestIdField: string | undefined): string {
  const requestId = requestIdOf(response, requestIdField);
  return `${attemptLabel(call, retry, maxRetries)}: ${response.status} in ${elapsedMs(started)} ms${requestId ? `, request ${printable(requestId)}` : ""}`;
}

/**
 * The body as text, refused past `limit` bytes decoded. A body of known length that is not compressed is read
 * whole, the fast way; one that is compressed or of unknown length is counted as it streams in, so a
 * compression bomb or an endless body stops at the limit instead of filling memory.
 */
function readText(response: Response, limit: number, call: CallName): Promise<string> {
  const { headers } = response;
  const length = headers.get("content-length");
  const compressed = headers.has("content-encoding");
  // Not an async function, so the common case costs no promise and no suspended frame of its own.
  if (length !== null && !compressed && Number(length) <= limit) return response.text();
  return readCountedText(response, length !== null && !compressed, limit, call);
}

async function readCountedText(response: Response, tooLong: boolean, limit: number, call: CallName): Promise<string> {
  if (tooLong) {
    await response.body?.cancel();
    throw new ResponseTooLargeError(call, limit, undefined);
  }
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ResponseTooLargeError(call, limit, undefined);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Keeps the body read within the attempt beside the response, parsed once. */
function keepBody(response: Response, text: string): void {
  let json: unknown;
  let isJson = false;
  if (text !== "") {
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      // Not JSON (a plain-text 401, an HTML proxy page, a truncated body): the text is kept.
    }
  }
  (response as KeptResponse)[keptBody] = { text, json, isJson };
}

/**
 * Makes a response's `text()` and `json()` give the body the policy read, for whoever reads it after the policy:
 * openapi-fetch for `raw`, and the `onResponse` hook. Not done for every response: own methods that shadow the
 * prototype's cost a typed call about 2% of its instructions, for a body the caller already has as `data`.
 */
export function rereadable(response: Response): Response {
  response.text = keptText;
  response.json = keptJson;
  return response;
}

// The same two functions for every response, reading the kept body: no closures per call.
function keptText(this: Response): Promise<string> {
  return Promise.resolve(bodyOf(this).text);
}

function keptJson(this: Response): Promise<unknown> {
  const { json, isJson } = bodyOf(this);
  return isJson ? Promise.resolve(json) : Promise.reject(new SyntaxError("the body is not JSON"));
}

function notJson(call: CallName, response: Response, { text }: ReadBody, requestIdField: string | undefined): ResponseValidationError {
  const kind = response.headers.get("content-type") ?? "no content type";
  return new ResponseValidationError(
    call,
    [{ path: "", message: `is not JSON (${kind}): ${JSON.stringify(text.slice(0, 80))}` }],
    requestIdOf(response, requestIdField),
  );
}

/** The path of a URL, for log lines and default labels (never the query, which may carry filters). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return start === -1 ? "/" : url.slice(start, end === -1 ? undefined : end);
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** Whole milliseconds since `since`, on the monotonic clock, for log lines. */
function elapsedMs(since: number): number {
  return Math.round(performance.now() - since);
}

/**
 * A promise's outcome, or the signal's reason as soon as it aborts: what is awaited is not stopped, its outcome
 * no longer matters.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // What it waits on goes on without the caller; its failure is no longer anyone's.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the listener is removed when the promise settles, so `once` changes nothing.
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Waits, unless the caller aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      // Stryker disable next-line OptionalChaining: the listener runs only on the signal.
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, and the timer removes the listener otherwise.
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
