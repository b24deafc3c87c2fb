// Run by hostile-servers.test.ts in its own process (--expose-gc), against the built package as users load it:
// one call to a server that sends too much, reporting how it ended and how far the heap grew meanwhile.
// Usage: memory-probe.mjs <baseUrl> <maxResponseBytes or "default">
import { createManagementClient } from "ingestion-api";

const [baseUrl, limit] = process.argv.slice(2);
const client = createManagementClient({
  baseUrl,
  keyId: "probe-key",
  keySecret: "probe-secret",
  organizationId: "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
  timeoutMs: 30_000,
  ...(limit === "default" ? {} : { maxResponseBytes: Number(limit) }),
});

globalThis.gc();
const before = process.memoryUsage().heapUsed;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 5);
const started = Date.now();
const error = await client.services.list().then(
  () => undefined,
  (reason) => reason,
);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().heapUsed);
console.log(JSON.stringify({ error: error?.name, message: error?.message, heapGrowthBytes: peak - before, milliseconds: Date.now() - started }));
