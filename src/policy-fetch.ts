// The `fetch` and the `Request` class handed to openapi-fetch: every request of both clients, typed methods
// and `raw` alike, goes through here. Authorization, retries, per-attempt timeouts and reading the body
// within them, and the log lines live in this file and nowhere else.
import {
  ConnectionError,
  IngestionError,
  printable,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from "./errors.js";
import type { Log } from "./logging.js";
import { backoffMs, isIdempotent, isRetryableFailure, isRetryableStatus, maxRetryAfterMs, requestedWaitMs } from "./retry-policy.js";

/** Per-call policy a typed method hands over with the request; `raw` calls get the client's. */
export interface CallPolicy {
  /** Names the call in errors and log lines: the operationId. */
  label: string;
  timeoutMs: number;
  maxRetries: number;
  /** A typed call's body, already JSON: the transport serializes it once, after validation. */
  body?: string | undefined;
  /** A typed call's extra headers, checked, with lowercase names. */
  headers?: Record<string, string> | undefined;
}

/** Where a typed method puts its policy in openapi-fetch's request options; a symbol, so no header or body sees it. */
export const callPolicy: unique symbol = Symbol("ingestion-api call policy");

/**
 * The request openapi-fetch builds for each call: what `fetch` needs, kept as given. openapi-fetch would
 * otherwise build a WHATWG `Request` per call, parsing the URL and copying headers and body, only for this
 * file to take them apart again; the policy resends `body` on a retry, which a `Request` cannot.
 */
export class PlainRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly policy: CallPolicy | undefined;

  constructor(url: string, init: RequestInit & { [callPolicy]?: CallPolicy }) {
    this.url = url;
    this.method = init.method ?? "GET";
    this.headers = init.headers as Headers;
    this.signal = init.signal ?? undefined;
    this.policy = init[callPolicy];
    this.body = (init.body as string | undefined) ?? this.policy?.body;
  }
}

export interface PolicyFetchConfig {
  baseUrl: string;
  /** The complete `Authorization` header value. */
  authorization: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxRetries: number;
  /** The most bytes a response body may have, decoded; reading stops there. */
  maxResponseBytes: number;
  /** Undefined when logging is off, so no log line is even formatted. */
  log: Log | undefined;
}

/** What the body of a response was, read within the attempt's time. */
export interface ReadBody {
  text: string;
  /** The parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
  isJson: boolean;
}

// Where a response this fetch returned keeps the body it read, for the typed methods that map errors and request
// ids: a property under a symbol rather than a WeakMap entry, which the garbage collector handles as an
// ephemeron, at a cost per response that grows with the calls in flight.
const keptBody: unique symbol = Symbol("ingestion-api body");
type KeptResponse = Response & { [keptBody]?: ReadBody };

const noBody: ReadBody = { text: "", json: undefined, isJson: false };

/** The body of a response returned by a policy fetch. */
export function bodyOf(response: Response): ReadBody {
  return (response as KeptResponse)[keptBody] ?? noBody;
}

/** The request id of an answer: the body's `requestId` (management) or the `x-request-id` header. */
export function requestIdOf(response: Response, { json }: ReadBody = bodyOf(response)): string | undefined {
  const fromBody = json !== null && typeof json === "object" ? (json as { requestId?: unknown }).requestId : undefined;
  return typeof fromBody === "string" ? fromBody : (response.headers.get("x-request-id") ?? undefined);
}

// JSON is what the contract answers; an error may still come as text (a 401 or a 429 from a proxy or a rate
// limiter), which the client reads too, so it says it takes that rather than insist.
const accept = "application/json, */*;q=0.1";

export function createPolicyFetch(config: PolicyFetchConfig): (request: PlainRequest) => Promise<Response> {
  const { authorization, log, fetch: send, maxResponseBytes } = config;
  // The client's own headers, as plain objects made once: fetch copies a plain object into its request for less
  // than a Headers, and most calls add nothing to them.
  const ownHeaders: Record<string, string> = { accept, authorization };
  const ownBodyHeaders: Record<string, string> = { ...ownHeaders, "content-type": "application/json" };

  /** What is sent: the caller's headers, then the client's own, which replace a caller's of the same name. */
  function headersOf(request: PlainRequest, policy: CallPolicy | undefined): Record<string, string> {
    const own = request.body === undefined ? ownHeaders : ownBodyHeaders;
    // A typed call's extra headers come with its policy; a `raw` call's are in the Headers openapi-fetch built.
    const extra = policy ? policy.headers : Object.fromEntries(request.headers);
    return extra && Object.keys(extra).length > 0 ? { ...extra, ...own } : own;
  }

  return async function policyFetch(request: PlainRequest): Promise<Response> {
    const caller = request.signal;
    if (caller?.aborted) throw caller.reason;
    const { policy } = request;
    const { label, timeoutMs, maxRetries } = policy ?? {
      label: `${request.method} ${pathOf(request.url)}`,
      timeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
    };
    // A filled path has no brace (encoding escapes them): one left means a call gave no path parameters at all,
    // so openapi-fetch left the template as it was.
    if (request.url.includes("{")) throw new RequestValidationError(label, [{ path: pathOf(request.url), message: "has a path parameter without a value" }]);
    const init: RequestInit = { method: request.method, headers: headersOf(request, policy), body: request.body ?? null, redirect: "manual" };
    const idempotent = isIdempotent(request.method);

    for (let retry = 0; ; retry++) {
      const started = log ? Date.now() : 0;
      // One attempt: the response and its whole body within `timeoutMs`, from one controller fed by the timer and
      // the caller's signal. The caller's listener is removed after the attempt, so a long-lived signal does not
      // collect one per call; no closure is made unless the caller gave a signal.
      const controller = new AbortController();
      const timer = setTimeout(abortAttempt, timeoutMs, controller);
      const onCallerAbort = caller ? () => controller.abort(caller.reason) : undefined;
      if (onCallerAbort) caller?.addEventListener("abort", onCallerAbort, { once: true });
      init.signal = controller.signal;
      let response!: Response;
      let failure: IngestionError | undefined;
      try {
        response = await send(request.url, init);
        // The contract declares no redirect: following one would resend the request, credentials and body,
        // elsewhere or again (a create twice). In a browser, "manual" gives an opaque answer with status 0.
        if ((response.status >= 300 && response.status < 400) || response.type === "opaqueredirect") {
          await response.body?.cancel();
          throw new RedirectError(response.status, response.headers, requestIdOf(response, noBody), label);
        }
        keepBody(response, await readText(response, maxResponseBytes, label));
      } catch (error) {
        if (caller?.aborted) throw caller.reason;
        failure = attemptFailure(error, controller.signal, label, timeoutMs);
      } finally {
        clearTimeout(timer);
        if (onCallerAbort) caller?.removeEventListener("abort", onCallerAbort);
      }

      if (failure) {
        const again = retry < maxRetries && isRetryableFailure(failure, idempotent);
        log?.(
          again ? "warn" : "error",
          `${attemptLabel(request, retry, maxRetries)}: ${failure.message} after ${Date.now() - started} ms${again ? ", retrying" : ""}`,
        );
        if (!again) throw failure;
        await sleep(backoffMs(retry), caller);
        continue;
      }
      if (response.ok) {
        log?.("info", outcome(request, retry, maxRetries, response, started));
        const body = bodyOf(response);
        // openapi-fetch would throw a bare SyntaxError on a successful body that is not JSON.
        if (body.text !== "" && !body.isJson) throw notJson(label, response, body);
        return response;
      }
      const waitMs = requestedWaitMs(response.headers);
      const again = retry < maxRetries && isRetryableStatus(response.status, idempotent) && (waitMs === undefined || waitMs <= maxRetryAfterMs);
      log?.(
        again ? "warn" : "error",
        again ? `${outcome(request, retry, maxRetries, response, started)}, retrying` : outcome(request, retry, maxRetries, response, started),
      );
      if (!again) return response;
      await sleep(waitMs ?? backoffMs(retry), caller);
    }
  };
}

/** Why an attempt failed, as the error the caller gets: a policy error as it is, else a timeout or a connection failure. */
function attemptFailure(error: unknown, signal: AbortSignal, label: string, timeoutMs: number): IngestionError {
  if (error instanceof IngestionError) return error;
  // The controller aborts for the caller (handled before this) or for the timer.
  if (signal.aborted) return new TimeoutError(`${label} timed out after ${timeoutMs} ms`);
  return new ConnectionError(`${label} got no complete response: ${describeFailure(error)}`, { cause: error });
}

function abortAttempt(controller: AbortController): void {
  controller.abort();
}

/** Names an attempt in log lines; only called when logging is on. */
function attemptLabel(request: PlainRequest, retry: number, maxRetries: number): string {
  return `${request.method} ${pathOf(request.url)} attempt ${retry + 1}/${maxRetries + 1}`;
}

/** An attempt's log line: its answer and how long it took. */
function outcome(request: PlainRequest, retry: number, maxRetries: number, response: Response, started: number): string {
  const requestId = requestIdOf(response);
  return `${attemptLabel(request, retry, maxRetries)}: ${response.status} in ${Date.now() - started} ms${requestId ? ` request ${printable(requestId)}` : ""}`;
}

/**
 * The body as text, refused past `limit` bytes decoded. A body of known length that is not compressed is read
 * whole, the fast way; one that is compressed or of unknown length is counted as it streams in, so a
 * compression bomb or an endless body stops at the limit instead of filling memory.
 */
function readText(response: Response, limit: number, label: string): Promise<string> {
  const { headers } = response;
  const length = headers.get("content-length");
  const compressed = headers.has("content-encoding");
  // Not an async function, so the common case costs no promise and no suspended frame of its own.
  if (length !== null && !compressed && Number(length) <= limit) return response.text();
  return readCountedText(response, length !== null && !compressed, limit, label);
}

async function readCountedText(response: Response, tooLong: boolean, limit: number, label: string): Promise<string> {
  if (tooLong) {
    await response.body?.cancel();
    throw new ResponseTooLargeError(label, limit, undefined);
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
      throw new ResponseTooLargeError(label, limit, undefined);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Keeps the body read within the attempt beside the response, and makes `text()` and `json()` give it
 * again: openapi-fetch and the caller of `withResponse()` read the response after the policy has.
 */
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
  const kept = response as KeptResponse;
  // Plain stores, in the same order on every response: each is one cached transition of the object's shape,
  // where Object.defineProperties is a runtime call that leaves the response slower to use.
  kept[keptBody] = { text, json, isJson };
  kept.text = keptText;
  kept.json = keptJson;
}

// The same two functions for every response, reading the kept body: no closures per call.
function keptText(this: Response): Promise<string> {
  return Promise.resolve(bodyOf(this).text);
}

function keptJson(this: Response): Promise<unknown> {
  const { json, isJson } = bodyOf(this);
  return isJson ? Promise.resolve(json) : Promise.reject(new SyntaxError("the body is not JSON"));
}

function notJson(label: string, response: Response, { text }: ReadBody): ResponseValidationError {
  const kind = response.headers.get("content-type") ?? "no content type";
  return new ResponseValidationError(label, [{ path: "", message: `is not JSON (${kind}): ${JSON.stringify(text.slice(0, 80))}` }], requestIdOf(response));
}

/** The path of a URL, for log lines and default labels (never the query, which may carry filters). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return start === -1 ? "/" : url.slice(start, end === -1 ? undefined : end);
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** Waits, unless the caller aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
