// The sandbox's rate limit, on request (`--rate-limit`): each credential may send so many requests in any window of
// the interface, counted as the real services count them, and a request past it gets the interface's own 429, so
// teams in any language can test their client's back-off against it.

import { declaredLimit, type RateLimit, rateLimitFromText } from "../client/rate-limit.js";
import type { InterfaceDescriptor } from "../contract/interfaces.js";
import { alerts, management } from "../contract/interfaces.js";
import type { Answer } from "./answers.js";
import { failure } from "./answers.js";

/**
 * The limits `--rate-limit` asks for: with no value, the contract's own (`x-rate-limit`); with `N/Ts` or `N/Tms`
 * (`10/1s`, `5/500ms`), that limit for both interfaces, to test back-off without waiting minutes.
 */
export function rateLimitsOf(value: string): Map<InterfaceDescriptor, RateLimit> {
  const asked = rateLimitFromText(value);
  if (value !== "contract" && !asked)
    throw new Error(`--rate-limit takes N/Ts or N/Tms (say 10/1s), or no value for the contract's limits; got ${JSON.stringify(value)}`);
  return new Map([management, alerts].map((api) => [api, asked ?? declaredLimit(api)]));
}

/** Counts each credential's requests in a sliding window: the strictest way a server can count them. */
export function createRateLimiter(limits: Map<InterfaceDescriptor, RateLimit>, now: () => number = Date.now) {
  const logs = new Map<string, number[]>();
  return {
    /** The interface's 429 for a request of `credential` past its limit, or undefined when the request may go on. */
    admit(api: InterfaceDescriptor, credential: string): Answer | undefined {
      const limit = limits.get(api);
      if (!limit) return undefined;
      const key = `${api.name} ${credential}`;
      const at = now();
      const log = logs.get(key)?.filter((sentAt) => sentAt > at - limit.intervalMs) ?? [];
      logs.set(key, log);
      if (log.length < limit.requests) {
        log.push(at);
        return undefined;
      }
      return tooManyRequests(api, (log[log.length - limit.requests] as number) + limit.intervalMs - at);
    },
  };
}

/**
 * What each real service answers past its limit: management a JSON error with `X-RateLimit-Reset` (seconds, may be
 * fractional); alerting its rate limiter's `text/html` sentence with `Retry-After` (whole seconds).
 */
function tooManyRequests(api: InterfaceDescriptor, waitMs: number): Answer {
  const seconds = waitMs / 1000;
  if (api === management) {
    const answer = failure(api, 429, `Rate limit exceeded, retry after ${Math.ceil(seconds)} seconds`);
    return { ...answer, headers: { "x-ratelimit-reset": seconds.toFixed(3) } };
  }
  return {
    status: 429,
    body: "Too many requests, please try again later.",
    headers: { "content-type": "text/html; charset=utf-8", "retry-after": String(Math.ceil(seconds)) },
  };
}
