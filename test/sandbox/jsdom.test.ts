// @vitest-environment jsdom
// The in-process sandbox as a front-end test suite uses it: under vitest's jsdom environment (a DOM, `window`, no
// server), the built entries of `ingestion-api` and `ingestion-api/sandbox` (dist/index.js and dist/sandbox.js, the
// files the package's exports resolve them to; loaded by path, since vitest.config.ts aliases the names to src/) run a
// created alert and read it back, a settings replacement reads back, and a 404 and a refused body reach the code under
// test as the SDK's errors. Typed by the sources they are built from, so the type check does not need a build.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// By file path: jsdom's URL, the global here, resolves a relative URL against the page, not against a file: URL.
const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist");
const { createAlertsClient, createManagementClient, NotFoundError, RequestValidationError } = (await import(
  join(dist, "index.js")
)) as typeof import("../../src/index.js");
const { createSandbox } = (await import(join(dist, "sandbox.js"))) as typeof import("../../src/sandbox/in-process.js");

it("runs in a jsdom test: the DOM is there, and the SDK and the sandbox work through the sandbox's fetch", async () => {
  expect(typeof window).toBe("object");
  expect(document.createElement("div").tagName).toBe("DIV");
  const sandbox = createSandbox();
  // Ids from the sandbox's own seed (the specs' examples): test/support reads files, which jsdom's URL cannot.
  const { services, pipes } = sandbox.state;
  const pipe = { organizationId: services[0]?.organizationId as string, serviceId: pipes[0]?.serviceId as string, pipeId: pipes[0]?.id as string };
  const tileAlert = {
    source: "tile",
    dashboardId: "65f1c2d3e4b5a69788796a10",
    tileId: "error-rate",
    threshold: 100,
    thresholdType: "above",
    interval: "5m",
    channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" },
  } as const;
  try {
    const alerts = createAlertsClient({ baseUrl: sandbox.baseUrl, fetch: sandbox.fetch, token: sandbox.credentials.token, rateLimit: false });
    const created = await alerts.create(tileAlert);
    expect(await alerts.get(created.id)).toEqual(created);
    const management = createManagementClient({
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
      keyId: sandbox.credentials.keyId,
      keySecret: sandbox.credentials.keySecret,
      rateLimit: false,
    });
    await management.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: 5000 });
    expect(await management.pipes.getSettings(pipe)).toEqual({ streaming_max_insert_wait_ms: 5000 });
    await expect(alerts.get("65f1c2d3e4b5a69788796aff")).rejects.toBeInstanceOf(NotFoundError);
    await expect(management.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: 60_001 })).rejects.toBeInstanceOf(RequestValidationError);
  } finally {
    await sandbox.close();
  }
});
