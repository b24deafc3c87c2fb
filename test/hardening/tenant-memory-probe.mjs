// Run by tenant-memory.test.ts in its own process with --expose-gc, against the built package as users load it:
// a server's way with many tenants, one alerting client per tenant token, one call each, the clients dropped; then
// idle past every window, one more call, and full GCs. Prints the heap at each step.
import { createAlertsClient } from "ingestion-api";

// How many tenants, and the alert the stand-in server answers with (the spec's example), passed in by the test.
const [countText, alertId, envelopeJson] = process.argv.slice(2);
const tenants = Number(countText);
const body = envelopeJson;
// A fetch that answers at once: what is measured is the SDK's memory, not sockets'.
const fetch = async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } });
// A short window, so the test waits a second rather than the contract's ten.
const rateLimit = { requests: 10, intervalMs: 100 };

const call = (token) => createAlertsClient({ baseUrl: "https://alerts.example.test", token, fetch, rateLimit }).get(alertId);
const settle = () => new Promise((resolve) => setImmediate(resolve));
/** The heap after full collections, finalizers (which drop the queues' entries) run in between. */
async function heapUsed() {
  for (let round = 0; round < 3; round++) {
    globalThis.gc();
    await settle();
  }
  return process.memoryUsage().heapUsed;
}

await call("tenant-warm-up");
const before = await heapUsed();
for (let batch = 0; batch < tenants; batch += 100) {
  await Promise.all(Array.from({ length: Math.min(100, tenants - batch) }, (_, index) => call(`tenant-${batch + index}`)));
}
const used = await heapUsed();
// Past every window (100 ms and its 50 ms margin) and the store's sweep interval (1 s): the next call's take drops
// what the idle credentials held.
await new Promise((resolve) => setTimeout(resolve, 1_200));
await call("tenant-after-idle");
const after = await heapUsed();
console.log(JSON.stringify({ tenants, before, used, after }));
