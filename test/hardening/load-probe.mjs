// Run by load.test.ts in its own process with --expose-gc, against the built package as users load it:
// 2,000 calls in flight on one client, then 5,000 in sequence; prints what it saw, then must exit on its own.
import { createManagementClient } from "ingestion-api";

// The pipe's IDs and a settings body, as JSON: the spec's examples, passed in by the test.
const [baseUrl, pipeJson, settingsJson] = process.argv.slice(2);
const pipe = JSON.parse(pipeJson);
const settings = JSON.parse(settingsJson);
// A loopback server with no rate limit: the queue off, as a user's own load test would have it.
const client = createManagementClient({ baseUrl, keyId: "load-key", keySecret: "load-secret", rateLimit: false });

const inFlight = await Promise.allSettled(Array.from({ length: 2_000 }, () => client.pipes.getSettings(pipe)));
const failures = inFlight.filter((result) => result.status === "rejected").map((result) => String(result.reason));

// Warm up first, so the measurement sees steady state rather than lazy initialisation.
for (let i = 0; i < 500; i++) await client.pipes.updateSettings(pipe, settings);
globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
for (let i = 0; i < 5_000; i++) await client.pipes.updateSettings(pipe, settings);
globalThis.gc();
const heapAfter = process.memoryUsage().heapUsed;

console.log(
  JSON.stringify({
    inFlight: inFlight.length,
    failures: failures.slice(0, 5),
    failureCount: failures.length,
    heapGrowthBytes: heapAfter - heapBefore,
    // Keep-alive sockets may stay in the pool (unref'd); a timer left behind would show up here.
    timers: process.getActiveResourcesInfo().filter((resource) => resource === "Timeout"),
  }),
);
