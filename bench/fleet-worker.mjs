// One process of a fleet scenario of `npm run bench:rate-limit` (run by bench/fleet.mjs): management clients from
// dist/, one per key, that share this process's Redis store when given a Redis (ioredis with its default options, as a
// team would make it), else pace themselves in process. Says `ready`, fires every call at once on `go`, and reports
// how they ended; also reports on `report` while they run, so a run stopped at its deadline still tells what settled.
// Then it closes its Redis client, waiting at most 1 s, and exits on its own: a timer left behind would keep it alive.
// `node fleet-worker.mjs <json>`: { url, redisPort?, keys, callsPerKey, clientOptions, busyMs?, organizationId, pipe, keySecret }.
// With `busyMs`, each attempt blocks the event loop for up to that long between its turn and its send (an onRequest
// hook that busy-waits), as a loaded Node server does.
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const { url, redisPort, keys, callsPerKey, clientOptions, busyMs, organizationId, pipe, keySecret } = JSON.parse(process.argv[2]);
const dist = (file) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
const { createManagementClient } = await import(dist("index.js"));

// The store warns once when it falls back to this process's memory and once when it returns, so its warnings
// alternate: the odd ones are fall-backs, the even ones returns.
const storeWarnings = [];
const logger = { warn: (...parts) => storeWarnings.push(parts.join(" ")) };

let redis;
let rateLimitStore;
if (redisPort !== undefined) {
  const { Redis } = await import("ioredis");
  const { createRedisRateLimitStore } = await import(dist("redis.js"));
  redis = new Redis({ port: redisPort, host: "127.0.0.1" });
  // Without a listener ioredis prints every connection error of an outage; what the store says is what counts here.
  redis.on("error", () => {});
  if (redis.status !== "ready") await once(redis, "ready");
  rateLimitStore = createRedisRateLimitStore({ client: redis, logger });
}

/** Holds the event loop for a random time up to `busyMs`, as other work on a loaded server does. */
function busyWait() {
  const until = performance.now() + Math.random() * busyMs;
  while (performance.now() < until);
}

const calls = keys.flatMap((keyId) => {
  const onRequest = busyMs ? busyWait : undefined;
  const { pipes } = createManagementClient({ baseUrl: url, keyId, keySecret, organizationId, ...clientOptions, rateLimitStore, onRequest });
  return Array.from({ length: callsPerKey }, () => () => pipes.getSettings(pipe));
});

const tally = { succeeded: 0, failed: 0, errors: {}, firstFailure: undefined, elapsedMs: undefined };
const report = (finished) => ({
  type: "report",
  finished,
  ...tally,
  fellBack: Math.ceil(storeWarnings.length / 2),
  returned: Math.floor(storeWarnings.length / 2),
  storeWarnings,
});
const succeeded = () => {
  tally.succeeded++;
};
const failed = (error) => {
  tally.failed++;
  const name = error?.name ?? typeof error;
  tally.errors[name] = (tally.errors[name] ?? 0) + 1;
  tally.firstFailure ??= error?.message ?? String(error);
};

/** Closes the Redis client: QUIT, or a plain disconnect when QUIT is not answered within 1 s (Redis gone). */
async function closeRedis() {
  let timer;
  const quit = redis.quit().then(
    () => true,
    () => true,
  );
  const answered = await Promise.race([quit, new Promise((resolve) => (timer = setTimeout(resolve, 1_000, false)))]);
  clearTimeout(timer);
  if (!answered) redis.disconnect();
}

async function fire() {
  const started = performance.now();
  await Promise.allSettled(calls.map((call) => call().then(succeeded, failed)));
  tally.elapsedMs = performance.now() - started;
  process.off("message", onMessage);
  await new Promise((resolve) => process.send(report(true), resolve));
  if (redis) await closeRedis();
  process.disconnect();
}

function onMessage(message) {
  if (message === "go") fire();
  else if (message === "report") process.send(report(false));
}
process.on("message", onMessage);
process.send({ type: "ready" });
