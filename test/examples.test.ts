// The README's and the docs' examples (examples/*.ts) run against the Prism mocks and print what they promise,
// in terms of the specs' own examples, which is what the mocks answer.
import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { exampleSeed } from "../src/sandbox/seed.js";
import { operation, operations } from "./support/operations.js";
import { type SandboxBehindPrism, sandboxCredentials, startSandboxBehindPrism } from "./support/sandbox.js";
import { organizationId, pipeId, serviceId } from "./support/sdk-fixtures.js";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

/** The JSON bodies an example sent, by the operation each went to. */
type SentBodies = { operationId: string; body: unknown }[];

/** The operation a request went to, by its method and a path that fills the operation's template. */
function operationOf(method: string, url: string) {
  const { pathname } = new URL(url);
  return operations.find(
    (o) => o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname.replace(/^.*?(?=\/(v1|api)\/)/, "")),
  );
}

/** Where an example runs: the static mocks (any credentials), unless told otherwise. */
interface Target {
  management: string;
  alerts: string;
  keyId: string;
  keySecret: string;
  token: string;
}
const mocks = (): Target => ({
  management: inject("managementUrl"),
  alerts: inject("alertsUrl"),
  keyId: "example-key-id",
  keySecret: "example-key-secret",
  token: "example-token",
});

async function run(example: string, sent: SentBodies = [], target: Target = mocks()): Promise<string[]> {
  vi.stubEnv("INGESTION_API_URL", target.management);
  vi.stubEnv("INGESTION_API_KEY_ID", target.keyId);
  vi.stubEnv("INGESTION_API_KEY_SECRET", target.keySecret);
  vi.stubEnv("INGESTION_ORGANIZATION_ID", organizationId);
  vi.stubEnv("INGESTION_ALERTS_URL", target.alerts);
  vi.stubEnv("INGESTION_ALERTS_TOKEN", target.token);
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
  const send = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const { operationId } = operationOf(init?.method ?? "GET", String(input)) ?? { operationId: "an unknown operation" };
    if (typeof init?.body === "string") sent.push({ operationId, body: JSON.parse(init.body) });
    return send(input, init);
  });
  await import(`../examples/${example}.ts`);
  return lines;
}

/** A setting as examples/management.ts prints it: absent is the service default. */
const shown = (value: unknown) => value ?? "service default";

/** The resource inside an operation's example answer of `status`. */
function resource(operationId: string, status = "200"): any {
  const envelope = operation(operationId).exampleResponse(status) as { result?: unknown; data?: unknown };
  return envelope.result ?? envelope.data ?? envelope;
}

it.each(operations.map((o) => [o.operationId] as const))(
  "examples/%s.ts, the docs' TypeScript sample, runs against the mock and prints values of its answer",
  async (operationId) => {
    expect(existsSync(new URL(`../examples/${operationId}.ts`, import.meta.url)), `every operation has a docs sample, examples/${operationId}.ts`).toBe(true);
    const lines = await run(operationId);
    expect(lines).toHaveLength(1);
    const answer = JSON.stringify(resource(operationId));
    const printed = lines[0]!.split(" ").filter(Boolean);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.filter((token) => !answer.includes(token))).toEqual([]);
  },
);

// A sample that retyped a body would drift from the spec's example unnoticed; the docs show both side by side. (The
// quickstart's settings are what it read, changed: the tests of examples/management.ts below.)
it.each(["management", "alerts", ...operations.filter((o) => o.requestBody).map((o) => o.operationId)])(
  "examples/%s.ts sends only request bodies that are named examples of their operation",
  async (example) => {
    const sent: SentBodies = [];
    await run(example, sent);
    const named = sent.filter(({ operationId }) => example !== "management" || operationId !== "updatePipeSettings");
    expect(named.length).toBeGreaterThan(0);
    for (const { operationId, body } of named) expect(Object.values(operation(operationId).requestExamples)).toContainEqual(body);
  },
);

it("examples/management.ts, the quickstart, prints what the mock answers to each of its calls", async () => {
  const services = resource("listServices") as { name: string }[];
  const pipe = resource("getPipe");
  const settingsAnswer = operation("getPipeSettings").exampleResponse() as { requestId: string; result: object };
  const sent: SentBodies = [];
  expect(await run("management", sent)).toEqual([
    `services: ${services.map((service) => service.name).join(", ")}`,
    `pipe ${pipe.name} is ${pipe.state}`,
    // The mock answers its settings examples whatever was sent; the sandbox's answers are the test below.
    `streaming_max_insert_wait_ms: ${shown(resource("getPipeSettings").streaming_max_insert_wait_ms)} -> ${shown(resource("updatePipeSettings").streaming_max_insert_wait_ms)}`,
    `engine_max_insert_threads: ${shown(resource("getPipeSettings").engine_max_insert_threads)} -> ${shown(resource("updatePipeSettings").engine_max_insert_threads)}`,
    `endpoint ${resource("createReversePrivateEndpoint").id} is ${resource("createReversePrivateEndpoint").status}`,
    `request ${settingsAnswer.requestId} answered 200 with ${Object.keys(settingsAnswer.result).length} settings`,
  ]);
  // What it PUT: the settings it read, one changed.
  expect(sent.find(({ operationId }) => operationId === "updatePipeSettings")?.body).toEqual({
    ...resource("getPipeSettings"),
    streaming_max_insert_wait_ms: 10000,
  });
});

it("examples/alerts.ts creates an alert and reads it back", async () => {
  const created = resource("createAlert");
  const read = resource("getAlert");
  expect(await run("alerts")).toEqual([
    `alert ${created.id} is ${created.state}`,
    `alert ${read.id} fires when the tile goes ${read.thresholdType} ${read.threshold}`,
  ]);
});

it("examples/errors.ts shows a validation error and a typed HTTP error", async () => {
  const lines = await run("errors");
  expect(lines[0]).toMatch(/^invalid: \/streaming_max_insert_wait_ms must be <= \d+$/);
  expect(lines[1]).toBe(`not found: HTTP 404, request ${resource("getPipe", "404").requestId}`);
  expect(lines).toHaveLength(2);
});

// npm start's arrangement: the sandbox behind Prism, one for both tests (its two Prism proxies take about 5 s of CPU to
// start); the errors example reads nothing the quickstart changes.
describe("against the sandbox behind Prism", () => {
  let running: SandboxBehindPrism;
  beforeAll(async () => {
    running = await startSandboxBehindPrism();
  }, 60_000);
  afterAll(() => running?.stop());

  it("examples/management.ts, the quickstart, changes one setting against the sandbox and keeps every other", async () => {
    const lines = await run("management", [], { ...running.proxyUrl, ...sandboxCredentials });
    const seeded = exampleSeed().pipes.find((pipe) => pipe.id === pipeId)?.settings ?? {};
    expect(seeded.engine_max_insert_threads).toBeDefined();
    expect(lines.slice(2, 4)).toEqual([
      `streaming_max_insert_wait_ms: ${seeded.streaming_max_insert_wait_ms} -> 10000`,
      `engine_max_insert_threads: ${seeded.engine_max_insert_threads} -> ${seeded.engine_max_insert_threads}`,
    ]);
    // Read back: every seeded setting but the one changed, as it was.
    const read = await fetch(`${running.proxyUrl.management}/v1/organizations/${organizationId}/services/${serviceId}/pipes/${pipeId}/settings`, {
      headers: { authorization: `Basic ${btoa(`${sandboxCredentials.keyId}:${sandboxCredentials.keySecret}`)}` },
    });
    expect(((await read.json()) as { result: object }).result).toEqual({ ...seeded, streaming_max_insert_wait_ms: 10000 });
  }, 60_000);

  it("examples/errors.ts prints the same against npm start's sandbox behind Prism: Prefer works there too", async () => {
    const lines = await run("errors", [], { ...running.proxyUrl, ...sandboxCredentials });
    expect(lines[0]).toMatch(/^invalid: \/streaming_max_insert_wait_ms must be <= \d+$/);
    // The sandbox gives each answer a request id of its own, where the static mock repeats the example's.
    expect(lines[1]).toMatch(/^not found: HTTP 404, request [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(lines[1]).not.toContain(resource("getPipe", "404").requestId);
    expect(lines).toHaveLength(2);
  });
});
