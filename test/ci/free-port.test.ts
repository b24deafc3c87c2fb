// The ports the harness hands to Prism and redis-server before they bind them: never one that another process's
// listen(0) may be given meanwhile, since a test's own server would then receive Prism's readiness probes or a Redis
// client's reconnects as requests of its own (policy-edges.test.ts once counted three requests for two).
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { freePort, freePortRange, portInUse } from "../../scripts/lib/mock-servers.mjs";

afterEach(() => vi.restoreAllMocks());

it("hands out ports nothing listens on, below the range this OS gives listen(0)", async () => {
  const range = await readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8").catch(() => "49152 65535");
  const [lowest] = range.trim().split(/\s+/).map(Number);
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(freePortRange.from);
    expect(port).toBeLessThan(Math.min(freePortRange.to, lowest ?? 0));
    expect(await portInUse(port)).toBe(false);
  }
});

it("passes over a port something already listens on", async () => {
  const busy = createServer();
  const taken = await freePort();
  await new Promise<void>((resolve, reject) => busy.once("error", reject).listen(taken, "127.0.0.1", resolve));
  try {
    // Free, since the busy one is taken now: what freePort should hand out after passing over the busy one.
    const other = await freePort();
    const pick = (port: number) => (port - freePortRange.from + 0.5) / (freePortRange.to - freePortRange.from);
    vi.spyOn(Math, "random").mockReturnValueOnce(pick(taken)).mockReturnValueOnce(pick(other));
    expect(await freePort()).toBe(other);
  } finally {
    await new Promise((resolve) => busy.close(resolve));
  }
});
