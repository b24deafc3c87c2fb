// npm run bench:rate-limit: the workflow users of a rate-limited API feel. N calls (60 and 200) fired at once at a
// loopback server that enforces a scaled limit (10 per 1 s per credential, counted in a sliding window), through the
// SDK from dist/, per scenario: successes, failures, requests the server received, 429s it answered, and the time
// taken against the ideal, the least time the limit allows. Judges the targets (bench/README.md) and writes its
// section of bench/RESULTS.md; exits 1 when one is missed.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startRateLimitedServer } from "../scripts/lib/rate-limited-server.mjs";
import { keyId, keySecret } from "./contenders.mjs";
import { organizationId, pipeId, requestId, serviceId, settings } from "./fixtures.mjs";
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

const rows = [];
let missed = 0;
for (const size of sizes) {
  for (const scenario of scenarios) {
    const result = await run(scenario, size);
    const checks = verdicts(scenario, result);
    const misses = checks.filter(([, met]) => !met).map(([what]) => what);
    missed += misses.length;
    rows.push(
      `| ${scenario.name} | ${result.calls} | ${result.succeeded} | ${result.failed} | ${result.received} | ${result.limited} | ` +
        `${(result.elapsedMs / 1000).toFixed(2)} s | ${(result.idealMs / 1000).toFixed(0)} s | ${misses.length === 0 ? "met" : `**MISSED**: ${misses.join(", ")}`} |`,
    );
    if (result.firstFailure) console.error(`bench:rate-limit: ${scenario.name}, ${size} calls: ${result.firstFailure}`);
    console.log(rows.at(-1));
  }
}

const section = [
  "## Rate limits (`npm run bench:rate-limit`)",
  "",
  `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Server: ${serverLimit.requests} per ${serverLimit.intervalMs} ms per credential (5 per ${serverLimit.intervalMs} ms where twice as strict), counted in a sliding window. Ideal: the least time that limit allows, (⌈calls per credential / limit⌉ − 1) windows.`,
  "",
  "| scenario | calls | succeeded | failed | requests received | 429s | elapsed | ideal | targets |",
  "|---|--:|--:|--:|--:|--:|--:|--:|---|",
  ...rows,
].join("\n");
if (quick) console.log("bench:rate-limit: quick run finished; bench/RESULTS.md not written");
else {
  writeResultsSection("rate-limits", section);
  console.log(`bench:rate-limit: ${missed === 0 ? "every target met" : `${missed} target(s) missed`}; wrote its section of bench/RESULTS.md`);
}
process.exitCode = missed > 0 ? 1 : 0;
