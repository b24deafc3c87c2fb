// Run by load.test.ts in its own process with --expose-gc, against the built package as users load it:
// 2,000 calls in flight on one client, then 5,000 in sequence; prints what it saw, then must exit on its own.
import { createManagementClient } from "ingestion-api";

const [baseUrl] = process.argv.slice(2);
const pipe = { serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70", pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a" };
const client = createManagementClient({ baseUrl, keyId: "load-key", keySecret: "load-secret", organizationId: "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b" });

const inFlight = await Promise.allSettled(Array.from({ length: 2_000 }, () => client.pipes.getSettings(pipe)));
const failures = inFlight.filter((result) => result.status === "rejected").map((result) => String(result.reason));

// Warm up first, so the measurement sees steady state rather than lazy initialisation.
for (let i = 0; i < 500; i++) await client.pipes.updateSettings(pipe, { engine_max_threads: i % 65 });
globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
for (let i = 0; i < 5_000; i++) await client.pipes.updateSettings(pipe, { engine_max_threads: i % 65 });
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
