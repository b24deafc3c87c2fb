// One error tree for everything the SDK throws. Messages carry what helps a human act, never a secret.
import type { InterfaceDescriptor } from "../contract/interfaces.js";

/** The call an error is about: `label` names it for people, `operationId` for code. */
export interface CallName {
  /** The operation id, method and path template (`getPipe GET /v1/...`), or the method and path of a `raw` call. */
  readonly label: string;
  /** The contract's operation id; undefined for a `raw` call to a path the contract does not have. */
  readonly operationId: string | undefined;
}

export interface IngestionErrorOptions extends ErrorOptions {
  /** The contract's id of the operation whose call failed, when the error is about a call. */
  operationId?: string | undefined;
}

/** Base class of every error the SDK throws. */
export class IngestionError extends Error {
  override name = "IngestionError";
  /**
   * The contract's id of the operation whose call failed (`getPipe`), to branch on in code; undefined when the error
   * is not about a call (a client option), or is about a `raw` call to a path the contract does not have.
   */
  readonly operationId: string | undefined;
  constructor(message?: string, options?: IngestionErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.operationId = options?.operationId;
  }
}

/** A field that breaks the contract: a JSON pointer (`/streaming_max_insert_wait_ms`) and the rule in words. */
export interface ValidationIssue {
  path: string;
  message: string;
}

function listIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${printable(issue.path) || "(body)"} ${issue.message}`).join("; ");
}

/** The request breaks the contract; nothing was sent. */
export class RequestValidationError extends IngestionError {
  override name = "RequestValidationError";
  /** The call's label: operation id, method and path template. */
  readonly operation: string;
  constructor(
    call: CallName,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`Invalid request for ${call.label}, nothing was sent: ${listIssues(issues)}`, { operationId: call.operationId });
    this.operation = call.label;
  }
}

/** The response breaks the contract (only with `validateResponses: true`). */
export class ResponseValidationError extends IngestionError {
  override name = "ResponseValidationError";
  /** The call's label: operation id, method and path template. */
  readonly operation: string;
  constructor(
    call: CallName,
    readonly issues: readonly ValidationIssue[],
    readonly requestId: string | undefined,
  ) {
    super(`Response of ${call.label} breaks the contract: ${listIssues(issues)}${requestSuffix(requestId)}`, { operationId: call.operationId });
    this.operation = call.label;
  }
}

/** The response was larger than `maxResponseBytes`, decoded: reading stopped there, and it is not retried. */
export class ResponseTooLargeError extends ResponseValidationError {
  override name = "ResponseTooLargeError";
  constructor(
    call: CallName,
    readonly limitBytes: number,
    requestId: string | undefined,
  ) {
    super(call, [{ path: "", message: `is larger than maxResponseBytes (${limitBytes} bytes); reading stopped there` }], requestId);
  }
}

/** No response arrived: the connection was refused, reset, or failed otherwise (its options carry the `operationId`). */
export class ConnectionError extends IngestionError {
  override name = "ConnectionError";
}

/** An attempt took longer than `timeoutMs`. */
export class TimeoutError extends IngestionError {
  override name = "TimeoutError";
}

function requestSuffix(requestId: string | undefined): string {
  return requestId ? ` (request id ${printable(requestId)})` : "";
}

/**
 * Text from a server, made safe to print: control characters (line breaks, ANSI escapes, bidirectional
 * overrides) are escaped, so a hostile answer cannot forge a log line or hide part of a message, and it is
 * cut at `limit` characters.
 */
export function printable(text: string, limit = 200): string {
  const cut = text.length > limit ? `${text.slice(0, limit)}…` : text;
  return cut.replace(/[\p{Cc}\p{Bidi_Control}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The server answered with an HTTP status of 400 or more. */
export class ApiError extends IngestionError {
  override name = "ApiError";
  /** The call's label: operation id, method and path template. */
  readonly operation: string;
  constructor(
    readonly status: number,
    /** The parsed JSON body, or the text when it is not JSON. */
    readonly body: unknown,
    readonly headers: Headers,
    /** The answer's request id: management's bodies carry one; alerting sends none, so it is undefined there. */
    readonly requestId: string | undefined,
    call: CallName,
    /** The body's field with the server's words: `error` (management) or `message` (alerting). */
    errorKey?: string,
  ) {
    super(`${call.label} failed with ${answerText(status, body, errorKey, headers, requestId)}`, { operationId: call.operationId });
    this.operation = call.label;
  }
}

/** An answer in words: its status, the server's own words and its request id. */
function answerText(status: number, body: unknown, errorKey: string | undefined, headers: Headers, requestId: string | undefined): string {
  return `HTTP ${status}${serverMessage(body, errorKey, headers)}${requestSuffix(requestId)}`;
}

/**
 * The server's own words: the interface's error field, or a text body (a gateway's, a limiter's), an HTML page
 * read as its text; escaped and cut short by printable().
 */
function serverMessage(body: unknown, errorKey: string | undefined, headers: Headers): string {
  if (body && typeof body === "object") {
    const text = errorKey === undefined ? undefined : (body as Record<string, unknown>)[errorKey];
    return typeof text === "string" && text ? `: ${printable(text)}` : "";
  }
  if (typeof body !== "string") return "";
  // Only the start is read: the message shows at most messageLength characters, and the body may be megabytes.
  const text = headers.get("content-type")?.includes("html") ? pageText(body) : body.slice(0, messageLength * 8);
  const words = text.replace(/\s+/g, " ").trim();
  return words ? `: ${printable(words, messageLength)}` : "";
}

const messageLength = 200;

/**
 * The words at the start of an HTML page: tags, scripts and styles left out. One pass with indexOf, never a
 * backtracking pattern, so a page of a million `<` costs as little as a short one; it stops once it has more
 * text than a message shows.
 */
function pageText(html: string): string {
  const wanted = messageLength * 8;
  let text = "";
  // Past the page's end, the search finds no `<` and no `>`: the loop ends at the break below.
  // Stryker disable next-line EqualityOperator: one pass more or less at exactly `wanted` changes no word a message shows.
  for (let at = 0; text.length < wanted; ) {
    const open = html.indexOf("<", at);
    text += `${html.slice(at, Math.min(open < 0 ? html.length : open, at + wanted))} `;
    const close = open < 0 ? -1 : html.indexOf(">", open);
    // Stryker disable next-line EqualityOperator,ConditionalExpression: close is never 0 (html[open] is "<"), and without this break `end < 0` stops an unclosed tag alike.
    if (close < 0) break;
    const skipped = /^<(script|style)\b/i.exec(html.slice(open, open + 8))?.[1]?.toLowerCase() as keyof typeof closers | undefined;
    const end = skipped ? indexFrom(closers[skipped], html, close) : close;
    // Stryker disable next-line EqualityOperator: end is never 0, being at or after a `>` that follows a `<`.
    if (end < 0) break;
    at = skipped ? html.indexOf(">", end) + 1 || html.length : close + 1;
  }
  return text;
}

// The ends of what a page's text leaves out, in any letter case: literal patterns, so a search cannot backtrack.
const closers = { script: /<\/script/gi, style: /<\/style/gi };

/** Where `pattern` (global) is next found in `text` from `from`, or -1; the page is searched, not copied. */
function indexFrom(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}
export class PermissionDeniedError extends ApiError {
  override name = "PermissionDeniedError";
}
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
export class InternalServerError extends ApiError {
  override name = "InternalServerError";
}

/** A 3xx: the client does not follow redirects (the contract declares none), so it reports where it was sent. */
export class RedirectError extends ApiError {
  override name = "RedirectError";
  /** The `Location` the server gave, if any (a browser hides it: then undefined). */
  readonly location: string | undefined;
  constructor(status: number, headers: Headers, requestId: string | undefined, call: CallName) {
    super(status, undefined, headers, requestId, call);
    this.location = headers.get("location") ?? undefined;
    this.message += this.location === undefined ? ": a redirect, not followed" : `: a redirect to ${printable(this.location)}, not followed`;
  }
}

/** What a 429 said, as its RateLimitError tells it: a credential's queue keeps the last one for the calls it stops. */
export interface RateLimitAnswer {
  body: unknown;
  headers: Headers;
  requestId: string | undefined;
  /** The body's field with the server's words. */
  errorKey: string | undefined;
  /** The wait the server named, exactly; undefined when it named none. */
  retryAfterMs: number | undefined;
}

/**
 * HTTP 429. `retryAfterMs` is the wait the server asked for, when it said. A call the server answered 429 carries
 * that answer and says why it was not retried; a call a 429 kept in the queue says it was not sent, and carries the
 * 429 of the call that got it.
 */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  readonly retryAfterMs: number | undefined;
  constructor(
    status: number,
    body: unknown,
    headers: Headers,
    requestId: string | undefined,
    call: CallName,
    errorKey: string | undefined,
    retryAfterMs: number | undefined,
    /** Why the call was not tried again, when it was not. */
    notRetried?: string,
  ) {
    super(status, body, headers, requestId, call, errorKey);
    this.retryAfterMs = retryAfterMs;
    this.message += `${retryAfter(retryAfterMs)}${notRetried ? `; not retried: ${notRetried}` : ""}`;
  }

  /**
   * The error of a call that never left its queue: `reason` says why, and `answer` is the last 429 of its
   * credential, another call's (undefined when another process got it: then `waitMs`, the pause, is the wait).
   */
  static notSent(call: CallName, answer: RateLimitAnswer | undefined, reason: string, waitMs: number): RateLimitError {
    const { body, headers = new Headers(), requestId, errorKey, retryAfterMs = waitMs } = answer ?? {};
    const error = new RateLimitError(429, body, headers, requestId, call, errorKey, retryAfterMs);
    const another = answer ? `; the last 429 was another call's answer: ${answerText(429, body, errorKey, headers, requestId)}` : "";
    error.message = `${call.label} was not sent: ${reason}${another}${retryAfter(retryAfterMs)}`;
    return error;
  }
}

function retryAfter(ms: number | undefined): string {
  return ms === undefined ? "" : `; retry after ${Math.ceil(ms / 1000)} s`;
}

const errorByStatus: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
};

/** The error class for an HTTP status: 400, 401, 403, 404, 429 and >= 500 have their own; others are ApiError. */
export function apiErrorFor(
  api: InterfaceDescriptor,
  status: number,
  body: unknown,
  headers: Headers,
  requestId: string | undefined,
  call: CallName,
  retryAfterMs: number | undefined,
  notRetried: string | undefined,
): ApiError {
  if (status === 429) return new RateLimitError(status, body, headers, requestId, call, api.errorKey, retryAfterMs, notRetried);
  const ErrorClass = status >= 500 ? InternalServerError : (errorByStatus[status] ?? ApiError);
  return new ErrorClass(status, body, headers, requestId, call, api.errorKey);
}
