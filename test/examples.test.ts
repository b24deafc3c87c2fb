// The README's examples (examples/*.ts) run against the Prism mocks and print what the README promises.
import { afterEach, expect, inject, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

async function run(example: string): Promise<string[]> {
  vi.stubEnv("INGESTION_API_URL", inject("managementUrl"));
  vi.stubEnv("INGESTION_API_KEY_ID", "example-key-id");
  vi.stubEnv("INGESTION_API_KEY_SECRET", "example-key-secret");
  vi.stubEnv("INGESTION_ORGANIZATION_ID", "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b");
  vi.stubEnv("INGESTION_ALERTS_URL", inject("alertsUrl"));
  vi.stubEnv("INGESTION_ALERTS_TOKEN", "example-token");
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
  await import(`../examples/${example}.ts`);
  return lines;
}

it("examples/management.ts runs every management operation", async () => {
  expect(await run("management")).toEqual([
    "services: events-production",
    "pipe clickstream-from-kafka is Running",
    "streaming_max_insert_wait_ms is now 5000",
    "endpoint 6e1f3a5c-7b9d-4e2f-8a4c-6d8f0b2d4f6a is Ready",
    "request 4c6e8a0b-2d3f-4b5c-8e7a-9b1d3f5a7c9e answered 200 with 12 settings",
  ]);
});

it("examples/alerts.ts creates an alert and reads it back", async () => {
  expect(await run("alerts")).toEqual([
    "alert 65f1c2d3e4b5a69788796a5b is inactive",
    "alert 65f1c2d3e4b5a69788796a5b fires when the tile goes above 100",
  ]);
});

it.each([
  ["listServices", "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70 events-production"],
  ["createReversePrivateEndpoint", "6e1f3a5c-7b9d-4e2f-8a4c-6d8f0b2d4f6a Ready"],
  ["getPipe", "clickstream-from-kafka Running clickstream"],
  ["getPipeSettings", "5000"],
  ["updatePipeSettings", "5000"],
  ["createAlert", "65f1c2d3e4b5a69788796a5b inactive"],
  ["getAlert", "Error rate too high inactive notifying"],
])("examples/%s.ts, the docs' TypeScript sample, runs against the mock", async (operationId, line) => {
  expect(await run(operationId)).toEqual([line]);
});

it("examples/errors.ts shows a validation error and a typed HTTP error", async () => {
  expect(await run("errors")).toEqual([
    "invalid: /streaming_max_insert_wait_ms must be <= 60000",
    "not found: HTTP 404, request 1c9a2f5e-7b3d-4e8a-9c6f-0d2e4b6a8c1e",
  ]);
});
