// When an attempt may be repeated, and how long to wait first.
import { ConnectionError, TimeoutError } from "./errors.js";

/** Statuses worth another attempt of an idempotent request. */
const retryableStatuses = new Set([408, 429, 500, 502, 503, 504]);

const initialBackoffMs = 500;
const maxBackoffMs = 8_000;

// RFC 9110's idempotent methods: sending one twice has the effect of sending it once.
const idempotentMethods = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** The one rule for which requests are safe to repeat after a failure that may hide a processed request. */
export function isIdempotent(method: string): boolean {
  return idempotentMethods.has(method);
}

/**
 * Whether a response status may be retried. A POST (a create) is retried only on 429, which
 * says the request was not processed; any other failure may hide a resource already created.
 */
export function isRetryableStatus(status: number, idempotent: boolean): boolean {
  return idempotent ? retryableStatuses.has(status) : status === 429;
}

/**
 * Whether a failed attempt that got no response may be retried. A timeout or a reset may come after
 * the server processed the request, so only idempotent requests retry them; a refused connection
 * means nothing was sent, so any request may.
 */
export function isRetryableFailure(error: unknown, idempotent: boolean): boolean {
  if (error instanceof TimeoutError) return idempotent;
  if (error instanceof ConnectionError) return idempotent || wasRefused(error.cause);
  return false;
}

// undici reports a refused connection as `fetch failed` caused by an error (or, for a host with
// several addresses, an AggregateError) whose code is ECONNREFUSED. Browsers do not say; then no.
function wasRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | undefined)?.cause;
  if (!cause) return false;
  return cause.code === "ECONNREFUSED" || (cause.errors?.length ? cause.errors.every((e) => e.code === "ECONNREFUSED") : false);
}

/** Exponential backoff (0.5 s doubling, capped at 8 s) with up to 25% jitter, so clients do not retry in step. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(initialBackoffMs * 2 ** retry, maxBackoffMs);
  return base * (1 - random() * 0.25);
}

const httpDate = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The wait a response asks for, in milliseconds: `Retry-After` (delay-seconds or an HTTP date), else
 * `X-RateLimit-Reset` (seconds until the rate-limit window resets, possibly fractional, as the management
 * interface sends it); undefined when neither is there or readable.
 */
export function requestedWaitMs(headers: Headers, now: number = Date.now()): number | undefined {
  return parseRetryAfter(headers.get("retry-after"), now) ?? parseDeltaSeconds(headers.get("x-ratelimit-reset"));
}

function parseDeltaSeconds(value: string | null): number | undefined {
  // Stryker disable next-line ConditionalExpression: without it a missing header is tested as the text "null", which the pattern below refuses too.
  if (value === null) return undefined;
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Math.ceil(Number(value) * 1000);
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`): Date.parse alone reads "-1" or "1.5" as dates.
  if (!httpDate.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
