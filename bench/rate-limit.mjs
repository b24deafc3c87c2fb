// npm run bench:rate-limit: the workflow users of a rate-limited API feel. N calls (60 and 200) fired at once at a
// loopback server that enforces a scaled limit (10 per 1 s per credential, counted in a sliding window), through the
// SDK from dist/, per scenario: successes, failures, requests the server received, 429s it answered, and the time
// taken against the ideal, the least time the limit allows. Then fleets: several processes sharing keys through a real
// redis-server that the bench starts (and kills, and restarts), and one process under a 429 storm. Judges the targets
// (bench/README.md) and writes its section of bench/RESULTS.md; exits 1 when one is missed.
import { existsSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startRateLimitedServer, startStormServer } from "../scripts/lib/rate-limited-server.mjs";
import { redisServerCommand, startRedisServer } from "../scripts/lib/redis-server.mjs";
import { keyId, keySecret } from "./contenders.mjs";
import { organizationId, pipeId, requestId, serviceId, settings } from "./fixtures.mjs";
import { runFleet } from "./fleet.mjs";
import { writeResultsSection } from "./results-file.mjs";

const distEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
if (!existsSync(distEntry)) throw new Error("bench:rate-limit: dist/index.js is missing; run `npm run compile` first");
const { createAlertsClient, createManagementClient } = await import(pathToFileURL(distEntry).href);

const serverLimit = { requests: 10, intervalMs: 1000 };
const alertId = "65f1c2d3e4b5a69788796a01";
const answers = { management: { status: 200, requestId, result: settings }, alerts: { data: { id: alertId } } };
const quick = process.argv.includes("--quick");
const sizes = quick ? [30] : [60, 200];

/** The least time the server's limit allows for `calls` calls of one credential: the windows after the first. */
const idealMs = (calls, limit) => (Math.ceil(calls / limit.requests) - 1) * limit.intervalMs;

const management = (url, options, key = keyId) => createManagementClient({ baseUrl: url, keyId: key, keySecret, organizationId, ...options });
const getSettings = (client) => () => client.pipes.getSettings({ serviceId, pipeId });

/**
 * Each scenario: the server's limit, the calls to fire (one function per client), and the targets it is held to
 * beyond no failure (`paced`: requests ≤ 1.05 × calls and elapsed ≤ 1.1 × ideal + one window; `maxRequestRatio`:
 * requests ≤ that × calls). Every scenario gets a server of its own, so no queue carries what it learned into the next.
 */
const scenarios = [
  {
    name: "told the server's limit",
    server: serverLimit,
    paced: true,
    clients: (url) => [getSettings(management(url, { rateLimit: serverLimit }))],
  },
  {
    name: "server twice as strict as told",
    server: { requests: 5, intervalMs: 1000 },
    maxRequestRatio: 1.5,
    clients: (url) => [getSettings(management(url, { rateLimit: serverLimit }))],
  },
  { name: "queue off (rateLimit: false)", server: serverLimit, clients: (url) => [getSettings(management(url, { rateLimit: false }))] },
  {
    name: "two clients sharing one key",
    server: serverLimit,
    paced: true,
    clients: (url) => [getSettings(management(url, { rateLimit: serverLimit })), getSettings(management(url, { rateLimit: serverLimit }))],
  },
  {
    name: "two keys, limited apart",
    server: serverLimit,
    paced: true,
    perClient: true,
    clients: (url) => [getSettings(management(url, { rateLimit: serverLimit }, "key-a")), getSettings(management(url, { rateLimit: serverLimit }, "key-b"))],
  },
  {
    name: "alerting's HTML 429, queue off",
    server: serverLimit,
    clients: (url) => {
      const alerts = createAlertsClient({ baseUrl: url, token: "bench-token", rateLimit: false });
      return [() => alerts.get(alertId)];
    },
  },
];

/** Runs one scenario with `size` calls (each client's share, or `size` each with `perClient`). */
async function run(scenario, size) {
  const server = await startRateLimitedServer(scenario.server, answers);
  try {
    const clients = scenario.clients(server.url);
    const share = scenario.perClient ? size : Math.ceil(size / clients.length);
    const calls = clients.flatMap((call) => Array.from({ length: share }, () => call));
    const started = Date.now();
    const outcomes = await Promise.allSettled(calls.map((call) => call()));
    const elapsedMs = Date.now() - started;
    const failures = outcomes.filter(({ status }) => status === "rejected");
    const { received, limited } = server.counts();
    return {
      calls: calls.length,
      succeeded: outcomes.length - failures.length,
      failed: failures.length,
      firstFailure: failures[0]?.reason?.message,
      received,
      limited,
      elapsedMs,
      // Calls of one credential: each client's share with a key of its own, else all of them.
      idealMs: idealMs(scenario.perClient ? share : calls.length, scenario.server),
    };
  } finally {
    await server.close();
  }
}

/** The targets a scenario's result must meet: [what, met]. */
function verdicts(scenario, result) {
  const checks = [["0 failures", result.failed === 0]];
  if (scenario.paced) {
    checks.push(
      ["requests ≤ 1.05 × calls", result.received <= 1.05 * result.calls],
      ["elapsed ≤ 1.1 × ideal + one window", result.elapsedMs <= 1.1 * result.idealMs + scenario.server.intervalMs],
    );
  }
  if (scenario.maxRequestRatio) checks.push([`requests ≤ ${scenario.maxRequestRatio} × calls`, result.received <= scenario.maxRequestRatio * result.calls]);
  return checks;
}

/**
 * The fleet scenarios: `processes` worker processes, each with a client per key (`keys`) making `callsPerKey` calls,
 * all told the server's limit and sharing one Redis store, against a server enforcing `server`. `outage` kills the
 * Redis at `killAtMs` after the calls start and, with `restartAtMs`, starts it again on the same port then. Targets
 * beyond no failure: requests ≤ `requestRatio` × calls; elapsed ≤ `elapsed.factor` × ideal + `elapsed.plusMs`.
 * `--quick` shrinks them where the target still means something (the strict one cannot: its first burst alone
 * wastes 5 requests, more than 15 % of fewer calls).
 */
const quickOutage = { killAtMs: 1000, restartAtMs: 3000 };
const fullOutage = { killAtMs: 2000, restartAtMs: 5000 };
const outage = quick ? quickOutage : fullOutage;
const fleetScenarios = [
  {
    name: "fleet: 4 processes × 2 keys, told the limit",
    processes: 4,
    keys: 2,
    callsPerKey: quick ? 5 : 20,
    server: serverLimit,
    requestRatio: 1.05,
    elapsed: { factor: 1.15, plusMs: 1000 },
  },
  {
    // A send counts from its take until its answer, however long the process holds it: the server's count stays
    // within the store's (before tickets, a loaded machine saw 64 to 70 requests for these 60 calls, in up to 17.7 s).
    name: "fleet: 4 processes × 1 key, each busy up to 80 ms between a turn and its send",
    processes: 4,
    keys: 1,
    callsPerKey: 15,
    busyMs: 80,
    server: serverLimit,
    requestRatio: 1.05,
    elapsed: { factor: 1.3, plusMs: 2000 },
  },
  {
    name: "fleet: server twice as strict as told, 4 processes × 1 key",
    processes: 4,
    keys: 1,
    callsPerKey: 15,
    server: { requests: 5, intervalMs: 1000 },
    requestRatio: 1.15,
  },
  {
    name: `fleet: Redis killed at ${outage.killAtMs / 1000} s, not restarted, 3 processes × 1 key`,
    processes: 3,
    keys: 1,
    callsPerKey: quick ? 20 : 30,
    server: serverLimit,
    outage: { killAtMs: outage.killAtMs },
    requestRatio: 1.5,
    elapsed: { factor: 2, plusMs: 5000 },
  },
  {
    name: `fleet: Redis down from ${outage.killAtMs / 1000} s to ${outage.restartAtMs / 1000} s, 3 processes × 1 key`,
    processes: 3,
    keys: 1,
    callsPerKey: quick ? 20 : 30,
    server: serverLimit,
    outage,
    requestRatio: 1.5,
    elapsed: { factor: 2, plusMs: 5000 },
  },
];
/** The 429 storm: one process, every answer 429 with `Retry-After: 1`, the queue off, waits bounded at 5 s. */
const storm = { name: "429 storm: every answer 429 Retry-After: 1, 1 process, queue off", calls: quick ? 500 : 2000, withinMs: 15_000, maxAttempts: 3 };
const stormOptions = { rateLimit: false, maxRateLimitWaitMs: 5000 };

// How long a process may take to exit after its last call. With nothing to close, nothing should hold it; a fleet
// process first closes its Redis client: QUIT, or after 1 s without an answer (Redis gone) ioredis' disconnect(),
// which leaves a timer of its own (disconnectTimeout, 2 s) for a socket that already closed.
const stormExitGraceMs = 2_000;
const fleetExitGraceMs = 4_000;

/** What a fleet worker needs beyond its scenario: the call's identifiers and the key's secret. */
const callFixtures = { organizationId, pipe: { serviceId, pipeId }, keySecret };

/** Kills the Redis `killAtMs` after `startedAt` and, with `restartAtMs`, starts it again on its port then. */
async function playOutage(redis, { killAtMs, restartAtMs }, startedAt) {
  await delay(Math.max(startedAt + killAtMs - performance.now(), 0));
  await redis.kill();
  if (restartAtMs === undefined) return;
  await delay(Math.max(startedAt + restartAtMs - performance.now(), 0));
  await redis.restart();
}

/** A fleet run's figures: the workers' reports summed, and the server's counts. */
function summarize(run, server, calls, idealMs) {
  const reports = run.reports.filter((report) => report !== undefined);
  const succeeded = reports.reduce((sum, report) => sum + report.succeeded, 0);
  const failed = reports.reduce((sum, report) => sum + report.failed, 0);
  const errors = {};
  for (const report of reports) for (const [name, count] of Object.entries(report.errors)) errors[name] = (errors[name] ?? 0) + count;
  return {
    calls,
    succeeded,
    failed,
    unsettled: calls - succeeded - failed,
    errors,
    firstFailure: reports.find((report) => report.firstFailure)?.firstFailure,
    ...server.counts(),
    elapsedMs: run.elapsedMs,
    finished: run.finished,
    lingering: run.lingering,
    idealMs,
  };
}

/** Runs a fleet scenario against a server and a redis-server of its own. */
async function runFleetScenario(scenario) {
  const redis = await startRedisServer();
  const server = await startRateLimitedServer(scenario.server, answers);
  try {
    const keys = Array.from({ length: scenario.keys }, (_, index) => `fleet-key-${index + 1}`);
    const ideal = idealMs(scenario.processes * scenario.callsPerKey, scenario.server);
    const job = {
      url: server.url,
      redisPort: redis.port,
      keys,
      callsPerKey: scenario.callsPerKey,
      busyMs: scenario.busyMs,
      clientOptions: { rateLimit: serverLimit },
      ...callFixtures,
    };
    const run = await runFleet({
      processes: scenario.processes,
      job,
      outage: scenario.outage && ((startedAt) => playOutage(redis, scenario.outage, startedAt)),
      deadlineMs: 2 * ideal + 20_000,
      exitGraceMs: fleetExitGraceMs,
    });
    return {
      ...summarize(run, server, scenario.processes * scenario.keys * scenario.callsPerKey, ideal),
      // Fall-back and return warnings per process, and what they said (once each).
      storeLines: run.reports.map((report) => (report ? `${report.fellBack}/${report.returned}` : "?")).join(", "),
      storeWarnings: [...new Set(run.reports.flatMap((report) => report?.storeWarnings ?? []))],
    };
  } finally {
    await server.close();
    await redis.stop();
  }
}

/** Runs the storm: one worker process, stopped at the storm's time limit if its calls have not all ended by then. */
async function runStorm() {
  const server = await startStormServer();
  try {
    const job = { url: server.url, keys: ["storm-key"], callsPerKey: storm.calls, clientOptions: stormOptions, ...callFixtures };
    const run = await runFleet({ processes: 1, job, deadlineMs: storm.withinMs, exitGraceMs: stormExitGraceMs });
    return summarize(run, server, storm.calls, undefined);
  } finally {
    await server.close();
  }
}

const exitTarget = (result, graceMs) => [`each process exits on its own within ${graceMs / 1000} s of its last call`, result.lingering === 0];
const settledTarget = (result) => (result.unsettled === 0 ? [] : [[`every call ends (${result.unsettled} still waiting when stopped)`, false]]);

function fleetVerdicts(scenario, result) {
  const checks = [["0 failures", result.failed === 0], ...settledTarget(result)];
  checks.push([`requests ≤ ${scenario.requestRatio} × calls`, result.received <= scenario.requestRatio * result.calls]);
  if (scenario.elapsed) {
    const { factor, plusMs } = scenario.elapsed;
    checks.push([`elapsed ≤ ${factor} × ideal + ${plusMs / 1000} s`, result.finished && result.elapsedMs <= factor * result.idealMs + plusMs]);
  }
  return [...checks, exitTarget(result, fleetExitGraceMs)];
}

function stormVerdicts(result) {
  const allRateLimited = result.finished && result.errors.RateLimitError === result.calls && result.elapsedMs <= storm.withinMs;
  const waiting = result.unsettled === 0 ? "" : ` (${result.unsettled} still waiting at ${storm.withinMs / 1000} s)`;
  return [
    [`every call a RateLimitError within ${storm.withinMs / 1000} s${waiting}`, allRateLimited],
    [`requests ≤ ${storm.maxAttempts} × calls`, result.received <= storm.maxAttempts * result.calls],
    exitTarget(result, stormExitGraceMs),
  ];
}

const rows = [];
let missed = 0;
/** Adds a scenario's row to the table (and prints it): its figures, its store lines, its targets met or missed. */
function record(name, result, checks) {
  const misses = checks.filter(([, met]) => !met).map(([what]) => what);
  missed += misses.length;
  const elapsed = `${result.finished === false ? "stopped at " : ""}${(result.elapsedMs / 1000).toFixed(2)} s`;
  const ideal = result.idealMs === undefined ? "–" : `${(result.idealMs / 1000).toFixed(0)} s`;
  rows.push(
    `| ${name} | ${result.calls} | ${result.succeeded} | ${result.failed} | ${result.received} | ${result.limited} | ${elapsed} | ${ideal} | ` +
      `${result.storeLines ?? "–"} | ${misses.length === 0 ? "met" : `**MISSED**: ${misses.join(", ")}`} |`,
  );
  if (result.firstFailure) {
    const errors = Object.entries(result.errors ?? {}).map(([error, count]) => `${error} × ${count}`);
    console.error(`bench:rate-limit: ${name}: ${errors.length > 0 ? `${errors.join(", ")}; ` : ""}first failure: ${result.firstFailure}`);
  }
  for (const line of result.storeWarnings ?? []) console.error(`bench:rate-limit: ${name}: the store warned: ${line}`);
  console.log(rows.at(-1));
}

for (const size of sizes) {
  for (const scenario of scenarios) {
    const result = await run(scenario, size);
    record(scenario.name, result, verdicts(scenario, result));
  }
}
const fleetSkipped = redisServerCommand() === undefined ? "the fleet scenarios were skipped: no redis-server (apt-get install redis-server)" : undefined;
if (fleetSkipped) console.log(`bench:rate-limit: ${fleetSkipped}`);
else {
  for (const scenario of fleetScenarios) {
    const result = await runFleetScenario(scenario);
    record(scenario.name, result, fleetVerdicts(scenario, result));
  }
}
const stormResult = await runStorm();
record(storm.name, stormResult, stormVerdicts(stormResult));

const section = [
  "## Rate limits (`npm run bench:rate-limit`)",
  "",
  `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Server: ${serverLimit.requests} per ${serverLimit.intervalMs} ms per credential (5 per ${serverLimit.intervalMs} ms where twice as strict), counted in a sliding window. Ideal: the least time that limit allows, (⌈calls per credential / limit⌉ − 1) windows. Fleets: worker processes sharing one redis-server through \`ingestion-api/redis\` (ioredis, default options); store lines: the store's fall-back / return warnings, per process.${fleetSkipped ? ` ${fleetSkipped[0].toUpperCase()}${fleetSkipped.slice(1)}.` : ""}`,
  "",
  "| scenario | calls | succeeded | failed | requests received | 429s | elapsed | ideal | store lines | targets |",
  "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|",
  ...rows,
].join("\n");
if (quick) console.log("bench:rate-limit: quick run finished; bench/RESULTS.md not written");
else {
  writeResultsSection("rate-limits", section);
  console.log(`bench:rate-limit: ${missed === 0 ? "every target met" : `${missed} target(s) missed`}; wrote its section of bench/RESULTS.md`);
}
process.exitCode = missed > 0 ? 1 : 0;
