// The sandbox's rate limiter on a clock the test moves: how many requests each credential may send in any window,
// when the window takes one more, and the 429 each interface answers past it. rate-limit.test.ts plays the same
// over a socket against the contract's declared 429s.
import { describe, expect, it } from "vitest";
import { alerts, management } from "../../src/contract/interfaces.js";
import { createRateLimiter } from "../../src/sandbox/rate-limit.js";

/** A limiter of 2 requests per 1000 ms on both interfaces, and the clock it reads. */
function limiterAt(start = 0) {
  const clock = { now: start };
  const limits = new Map([management, alerts].map((api) => [api, { requests: 2, intervalMs: 1000 }]));
  return { clock, limiter: createRateLimiter(limits, () => clock.now) };
}

describe("the sandbox's rate limiter", () => {
  it("admits a credential's requests up to the limit in any window, and one more once the oldest is a full window old", () => {
    const { clock, limiter } = limiterAt(5000);
    expect(limiter.admit(management, "alice")).toBeUndefined();
    clock.now = 5400;
    expect(limiter.admit(management, "alice")).toBeUndefined();
    clock.now = 5999;
    expect(limiter.admit(management, "alice")?.status).toBe(429);
    clock.now = 6000;
    expect(limiter.admit(management, "alice")).toBeUndefined();
    expect(limiter.admit(management, "alice")?.status).toBe(429);
  });

  it("counts each credential, and each interface, on its own", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 2; i++) expect(limiter.admit(management, "alice")).toBeUndefined();
    expect(limiter.admit(management, "bob")).toBeUndefined();
    expect(limiter.admit(alerts, "alice")).toBeUndefined();
    expect(limiter.admit(management, "alice")?.status).toBe(429);
  });

  it("under a limit of one request, admits a credential's first and refuses its second in the window", () => {
    const limiter = createRateLimiter(new Map([[management, { requests: 1, intervalMs: 1000 }]]), () => 0);
    expect(limiter.admit(management, "alice")).toBeUndefined();
    expect(limiter.admit(management, "alice")?.status).toBe(429);
  });

  it("admits every request on an interface it has no limit for", () => {
    const limiter = createRateLimiter(new Map([[management, { requests: 1, intervalMs: 1000 }]]), () => 0);
    for (let i = 0; i < 5; i++) expect(limiter.admit(alerts, "alice")).toBeUndefined();
  });

  it("tells management's caller when the window takes one more: X-RateLimit-Reset in seconds, and the seconds in words", () => {
    const { clock, limiter } = limiterAt();
    limiter.admit(management, "alice");
    clock.now = 400;
    limiter.admit(management, "alice");
    clock.now = 750;
    const limited = limiter.admit(management, "alice");
    expect(limited?.headers).toEqual({ "x-ratelimit-reset": "0.250" });
    expect(limited?.body).toMatchObject({ status: 429, error: "Rate limit exceeded, retry after 1 seconds" });
  });

  it("answers alerting past its limit with its limiter's text/html sentence and Retry-After in whole seconds, rounded up", () => {
    const { clock, limiter } = limiterAt();
    limiter.admit(alerts, "token");
    limiter.admit(alerts, "token");
    clock.now = 10;
    expect(limiter.admit(alerts, "token")).toEqual({
      status: 429,
      body: "Too many requests, please try again later.",
      headers: { "content-type": "text/html; charset=utf-8", "retry-after": "1" },
    });
  });
});
