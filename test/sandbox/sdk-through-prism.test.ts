// The SDK's seven operations against the sandbox, through Prism as a validating proxy (as `npm start` runs them):
// what is created is read back, what is replaced is read back (in the settings and in the pipe), unknown ids get
// the declared 404, bad credentials 401, a request that breaks the contract a 400 naming each field. Prism's
// contract check never fires on any of it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AlertRequest,
  AuthenticationError,
  BadRequestError,
  createAlertsClient,
  createManagementClient,
  NotFoundError,
  type PipeSettingsUpdate,
  type ReversePrivateEndpointRequest,
} from "../../src/index.js";
import { operation } from "../support/operations.js";
import { type SandboxBehindPrism, sandboxCredentials, startSandboxBehindPrism, watchedFetch } from "../support/sandbox.js";
import { organizationId, pipe, serviceId, storeOfEachTest } from "../support/sdk-fixtures.js";

let running: SandboxBehindPrism;
const flagged: string[] = [];
// The default limit of 10 calls per 10 s, kept in a store of each test's own: a test of many calls would otherwise
// wait out the calls of the tests before it.
const store = storeOfEachTest();
const clients = () => {
  const options = { fetch: watchedFetch(flagged), validateResponses: true, maxRetries: 0, rateLimitStore: store() };
  return {
    management: createManagementClient({ ...options, baseUrl: running.proxyUrl.management, ...sandboxCredentials, organizationId }),
    alerts: createAlertsClient({ ...options, baseUrl: running.proxyUrl.alerts, token: sandboxCredentials.token }),
    // Sends what the contract forbids, so the sandbox (not the SDK) is the one to refuse it.
    unchecked: createManagementClient({ ...options, baseUrl: running.proxyUrl.management, ...sandboxCredentials, organizationId, validateRequests: false }),
  };
};
let management: ReturnType<typeof clients>["management"];
let alerts: ReturnType<typeof clients>["alerts"];
let unchecked: ReturnType<typeof clients>["unchecked"];

beforeAll(async () => {
  running = await startSandboxBehindPrism();
}, 60_000);
beforeEach(() => {
  ({ management, alerts, unchecked } = clients());
});

afterAll(async () => {
  await running?.stop();
});

const settingsExamples = operation("updatePipeSettings").requestExamples as Record<string, PipeSettingsUpdate>;
const endpointExamples = Object.values(operation("createReversePrivateEndpoint").requestExamples) as ReversePrivateEndpointRequest[];
const alertExamples = Object.values(operation("createAlert").requestExamples) as AlertRequest[];
const withoutNulls = (value: object) => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));

describe("round trips", () => {
  it.each(endpointExamples.map((body) => [body.type, body] as const))(
    "creates a %s endpoint with a new UUID, and the sandbox reads it back",
    async (_type, body) => {
      const created = await management.reversePrivateEndpoints.create({ serviceId }, body);
      expect(created).toMatchObject({ ...body, serviceId, status: "Ready" });
      expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // The fields the example answer has, the other types' ones as null.
      const { result: example } = operation("createReversePrivateEndpoint").exampleResponse() as { result: object };
      expect(Object.keys(created).sort()).toEqual(Object.keys(example).sort());
      const readBack = await fetch(`${running.sandbox.url}/_sandbox/reversePrivateEndpoints/${created.id}`);
      expect(await readBack.json()).toEqual(created);
    },
  );

  it.each(Object.entries(settingsExamples))(
    "replaces the settings (%s); GET settings and GET pipe then answer them, nulls back at the default",
    async (_name, body) => {
      const answered = await management.pipes.updateSettings(pipe, body);
      expect(answered).toEqual(withoutNulls(body));
      expect(await management.pipes.getSettings(pipe)).toEqual(answered);
      expect((await management.pipes.get(pipe)).settings).toEqual(answered);
    },
  );

  it("a replacement drops what the previous one set (a PUT is not a merge)", async () => {
    await management.pipes.updateSettings(pipe, { engine_max_threads: 8 });
    await management.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: 5000 });
    expect(await management.pipes.getSettings(pipe)).toEqual({ streaming_max_insert_wait_ms: 5000 });
  });

  it.each(alertExamples.map((body) => [body.source, body] as const))(
    "creates a %s alert with a new 24-hex id and millisecond timestamps, and get returns it",
    async (_source, body) => {
      const created = await alerts.create(body);
      expect(created.id).toMatch(/^[0-9a-f]{24}$/);
      expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(created).toMatchObject({ threshold: body.threshold, interval: body.interval, source: body.source, channel: body.channel, state: "inactive" });
      expect(await alerts.get(created.id)).toEqual(created);
    },
  );

  it("lists the organization's services, and filter keeps those whose tags match", async () => {
    const listed = operation("listServices");
    const all = await management.services.list();
    expect(all).toEqual(Object.values(listed.responseExamples()).flatMap((example) => (example as { result: unknown[] }).result));
    // The filter's example finds the services of the first example, as the docs pair them.
    const { filter } = listed.example.query as { filter: string[] };
    expect(await management.services.list({ filter })).toEqual((listed.exampleResponse() as { result: unknown[] }).result);
    expect((await management.services.list({ filter })).length).toBeLessThan(all.length);
    expect(await management.services.list({ filter: ["tag:NoSuchTag"] })).toEqual([]);
  });

  it("POST /_sandbox/reset puts the data back as it started", async () => {
    await management.pipes.updateSettings(pipe, { engine_max_threads: 8 });
    expect((await fetch(`${running.sandbox.url}/_sandbox/reset`, { method: "POST", headers: { "content-type": "application/json" } })).status).toBe(204);
    const { result: examplePipe } = operation("getPipe").exampleResponse() as { result: { settings: object } };
    expect(await management.pipes.getSettings(pipe)).toEqual(examplePipe.settings);
  });
});

describe("errors", () => {
  const unknownUuid = "0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e";

  it.each([
    ["organization", { ...pipe, organizationId: unknownUuid }, "Organization not found"],
    ["service", { ...pipe, serviceId: unknownUuid }, "Service not found"],
    ["pipe", { ...pipe, pipeId: unknownUuid }, "Pipe not found"],
  ])("an unknown %s id gets the declared 404 naming it", async (_what, params, message) => {
    const error = await management.pipes.get(params).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).body).toMatchObject({ status: 404, error: message });
  });

  it("an unknown alert id gets the declared 404", async () => {
    const error = await alerts.get("0123456789abcdef01234567").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).body).toEqual({ message: "Alert not found" });
  });

  it("wrong credentials get 401, for each interface", async () => {
    const options = { fetch: watchedFetch(flagged), maxRetries: 0, rateLimitStore: store() };
    const wrongKey = createManagementClient({ ...options, baseUrl: running.proxyUrl.management, keyId: "k", keySecret: "wrong", organizationId });
    const wrongToken = createAlertsClient({ ...options, baseUrl: running.proxyUrl.alerts, token: "wrong" });
    await expect(wrongKey.pipes.get(pipe)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(wrongToken.get(operation("getAlert").example.path.id as string)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("missing credentials get 401", async () => {
    expect((await fetch(running.proxyUrl.management + operation("getPipe").example.url)).status).toBe(401);
    expect((await fetch(running.proxyUrl.alerts + operation("getAlert").example.url)).status).toBe(401);
  });

  it("a request that breaks the contract gets 400 whose body names every field and rule", async () => {
    const error = await unchecked.pipes
      .updateSettings(pipe, { engine_max_threads: 65, streaming_max_insert_wait_ms: 10, engine_max_thread: 1 } as never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    const { error: message } = (error as BadRequestError).body as { error: string };
    expect(message).toContain("engine_max_threads must be <= 64");
    expect(message).toContain("streaming_max_insert_wait_ms must be >= 500");
    expect(message).toContain("engine_max_thread is not a field of this request");
  });

  it("a malformed id gets 400 naming the parameter, not 404", async () => {
    const error = await unchecked.pipes.get({ ...pipe, pipeId: "not-a-uuid" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(((error as BadRequestError).body as { error: string }).error).toContain("pipeId must be a valid uuid");
  });

  it("an alert missing its per-source fields gets 400 naming each", async () => {
    const uncheckedAlerts = createAlertsClient({
      baseUrl: running.proxyUrl.alerts,
      token: sandboxCredentials.token,
      validateRequests: false,
      fetch: watchedFetch(flagged),
      rateLimitStore: store(),
    });
    const { dashboardId: _, tileId: __, ...withoutTile } = alertExamples.find((body) => body.source === "tile") as AlertRequest & Record<string, unknown>;
    const error = await uncheckedAlerts.create(withoutTile as AlertRequest).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(((error as BadRequestError).body as { message: string }).message).toMatch(/dashboardId is required.*tileId is required/);
  });
});

it("Prism's contract check never fired on any answer of the sandbox", () => {
  expect(flagged).toEqual([]);
});
