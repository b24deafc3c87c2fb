// The two modules of rate-limiter-flexible the Redis store loads, typed by the package's own declarations: its
// index would load every other store it has (Mongo, Postgres, the cluster master, ...).
declare module "rate-limiter-flexible/lib/RateLimiterRedis.js" {
  import type { RateLimiterRedis } from "rate-limiter-flexible";

  const RateLimiterRedisClass: typeof RateLimiterRedis;
  export default RateLimiterRedisClass;
}

declare module "rate-limiter-flexible/lib/RateLimiterRes.js" {
  import type { RateLimiterRes } from "rate-limiter-flexible";

  const RateLimiterResClass: typeof RateLimiterRes;
  export default RateLimiterResClass;
}
