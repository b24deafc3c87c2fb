// The retry rules, stated once in src/client/retry-policy.ts, read as a table: which requests may be repeated, after
// which answers and failures, how long the backoff is, and how a server's asked-for wait is read.
import { describe, expect, it } from "vitest";
import { ConnectionError, IngestionError, ResponseValidationError, TimeoutError } from "../../src/client/errors.js";
import { backoffMs, isIdempotent, isRetryableFailure, isRetryableStatus, parseRetryAfter, requestedWaitMs } from "../../src/client/retry-policy.js";

const call = { label: "getPipe GET /v1/pipes/{pipeId}", operationId: "getPipe" };

describe("which requests may be repeated", () => {
  it.each(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"])("%s is idempotent", (method) => {
    expect(isIdempotent(method)).toBe(true);
  });
  it.each(["POST", "PATCH", "get"])("%s is not", (method) => {
    expect(isIdempotent(method)).toBe(false);
  });

  it("repeats an idempotent request after exactly 408, 429, 500, 502, 503 and 504", () => {
    const retried = Array.from({ length: 600 }, (_, status) => status).filter((status) => isRetryableStatus(status, true));
    expect(retried).toEqual([408, 429, 500, 502, 503, 504]);
  });

  it("repeats a POST only after 429, which says it was not processed", () => {
    const retried = Array.from({ length: 600 }, (_, status) => status).filter((status) => isRetryableStatus(status, false));
    expect(retried).toEqual([429]);
  });
});

describe("which failures without an answer may be repeated", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
  const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
  // undici's shape: `fetch failed`, caused by the socket's error (or an AggregateError for several addresses).
  const fetchFailed = (cause: unknown) => new TypeError("fetch failed", { cause });
  const connectionError = (cause: unknown) => new ConnectionError("no answer", { cause: fetchFailed(cause), operationId: "getPipe" });

  it("a timeout, only for an idempotent request: the server may have processed it", () => {
    const timeout = new TimeoutError("timed out", { operationId: "getPipe" });
    expect(isRetryableFailure(timeout, true)).toBe(true);
    expect(isRetryableFailure(timeout, false)).toBe(false);
  });

  it("a reset connection, only for an idempotent request", () => {
    expect(isRetryableFailure(connectionError(reset), true)).toBe(true);
    expect(isRetryableFailure(connectionError(reset), false)).toBe(false);
  });

  it("a refused connection, for any request: nothing was sent", () => {
    expect(isRetryableFailure(connectionError(refused), false)).toBe(true);
    expect(isRetryableFailure(connectionError(new AggregateError([refused, refused])), false)).toBe(true);
  });

  it("not a POST when only some of a host's addresses refused, or the cause says nothing", () => {
    expect(isRetryableFailure(connectionError(new AggregateError([refused, reset])), false)).toBe(false);
    expect(isRetryableFailure(connectionError(new AggregateError([])), false)).toBe(false);
    expect(isRetryableFailure(connectionError(undefined), false)).toBe(false);
    expect(isRetryableFailure(new ConnectionError("no answer"), false)).toBe(false);
  });

  it("never another error: a broken answer or a hook's failure is not repeated", () => {
    expect(isRetryableFailure(new ResponseValidationError(call, [{ path: "", message: "is not JSON" }], undefined), true)).toBe(false);
    expect(isRetryableFailure(new IngestionError("the onRequest hook failed"), true)).toBe(false);
    expect(isRetryableFailure(fetchFailed(refused), true)).toBe(false);
  });
});

describe("the backoff between attempts", () => {
  it("doubles from 0.5 s and stops at 8 s, with no jitter drawn", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((retry) => backoffMs(retry, () => 0))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it("takes up to a quarter off, never adds to it", () => {
    expect(backoffMs(0, () => 0.5)).toBe(437.5);
    expect(backoffMs(1, () => 1)).toBe(750);
    for (const random of [0, 0.1, 0.5, 0.9, 0.999]) {
      const wait = backoffMs(2, () => random);
      expect(wait).toBeLessThanOrEqual(2_000);
      expect(wait).toBeGreaterThanOrEqual(1_500);
    }
  });

  it("draws its jitter from Math.random by default", () => {
    const waits = new Set(Array.from({ length: 20 }, () => backoffMs(0)));
    expect(waits.size).toBeGreaterThan(1);
    for (const wait of waits) expect(wait).toBeGreaterThan(375);
  });
});

describe("the wait a server asks for", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it.each([
    ["120", 120_000],
    [" 7 ", 7_000],
    ["0", 0],
  ])("Retry-After: %j is that many seconds", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([
    "1.5",
    "-1",
    "a5",
    "5a",
    "5 5",
    "",
    "   ",
    "Thursday, 26-Nov-26 12:00:10 GMT",
    "Thu, 26 Nov 2026 12:00:10 UTC",
    "Xyz, 99 Foo 2026 99:99:99 GMT",
    "on Thu, 26 Nov 2026 12:00:10 GMT",
    "Thu, 26 Nov 2026 12:00:10 GMT+0100",
  ])("Retry-After: %j is not read as a wait", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it("Retry-After as an HTTP date is the time until then, and none for a date already past", () => {
    expect(parseRetryAfter("Thu, 26 Nov 2026 12:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Thu, 26 Nov 2026 11:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("X-RateLimit-Reset is seconds, maybe fractional, rounded up to the millisecond", () => {
    expect(requestedWaitMs(headers({ "x-ratelimit-reset": "0.25" }), now)).toBe(250);
    expect(requestedWaitMs(headers({ "x-ratelimit-reset": "1.0001" }), now)).toBe(1_001);
    expect(requestedWaitMs(headers({ "x-ratelimit-reset": " 2 " }), now)).toBe(2_000);
    expect(requestedWaitMs(headers({ "x-ratelimit-reset": "12.5" }), now)).toBe(12_500);
    for (const unreadable of ["2.", ".5", "-1", "a1", "1a", "1e3"])
      expect(requestedWaitMs(headers({ "x-ratelimit-reset": unreadable }), now), unreadable).toBeUndefined();
  });

  it("Retry-After first; X-RateLimit-Reset when Retry-After is absent or unreadable; none without either", () => {
    expect(requestedWaitMs(headers({ "retry-after": "3", "x-ratelimit-reset": "9" }), now)).toBe(3_000);
    expect(requestedWaitMs(headers({ "retry-after": "soon", "x-ratelimit-reset": "9" }), now)).toBe(9_000);
    expect(requestedWaitMs(headers({}), now)).toBeUndefined();
  });

  it("reads an HTTP date against the clock by default", () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    const wait = requestedWaitMs(headers({ "retry-after": inAMinute })) as number;
    expect(wait).toBeGreaterThan(58_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });
});
