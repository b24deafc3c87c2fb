// Every SDK method against the Prism mocks: the unwrapped resource on success (Prism answers each operation's
// first example), the right error class for each declared error status.
import { describe, expect, inject, it } from "vitest";
import { ApiError, createAlertsClient, createManagementClient, type ReversePrivateEndpointRequest } from "../../src/index.js";
import { bundles, resolve } from "../support/bundles.js";
import { operation } from "../support/operations.js";
import {
  alertId,
  declaredErrorClasses,
  keyId,
  keySecret,
  organizationId,
  pipe,
  serviceId,
  storeOfEachTest,
  tileAlert,
  token,
} from "../support/sdk-fixtures.js";

/** The resource of an operation's 200 example: what the mock answers and the SDK unwraps. */
const exampleResource = (operationId: string) => {
  const envelope = operation(operationId).exampleResponse() as { result?: unknown; data?: unknown };
  return envelope.result ?? envelope.data;
};
/** The declared error statuses of an operation, each with the class the SDK maps it to. */
const declaredErrors = (operationId: string) =>
  operation(operationId).errorStatuses.map((status) => declaredErrorClasses.find(([known]) => known === status) ?? ([status, "ApiError", ApiError] as const));

// A test suite against a local mock: no rate limit to keep.
const management = createManagementClient({ baseUrl: inject("managementUrl"), keyId, keySecret, organizationId, validateResponses: true, rateLimit: false });
const alerts = createAlertsClient({ baseUrl: inject("alertsUrl"), token, validateResponses: true, rateLimit: false });
// A 429 pauses every call of its credential for the wait it names (the mocks' examples name 7 and 30 s): each test
// that asks for one has a store of its own, so no other test waits, not even the next test that asks for one.
const store = storeOfEachTest();
const pausedManagement = () =>
  createManagementClient({ baseUrl: inject("managementUrl"), keyId, keySecret, organizationId, rateLimit: false, rateLimitStore: store() });
const pausedAlerts = () => createAlertsClient({ baseUrl: inject("alertsUrl"), token, rateLimit: false, rateLimitStore: store() });
const managementFor = (status: number) => (status === 429 ? pausedManagement() : management);
const alertsFor = (status: number) => (status === 429 ? pausedAlerts() : alerts);

describe("management client", () => {
  it("services.list returns the services of the result envelope", async () => {
    const { filter } = operation("listServices").example.query as { filter: string[] };
    expect(await management.services.list({ filter })).toEqual(exampleResource("listServices"));
  });

  it("reversePrivateEndpoints.create returns the endpoint", async () => {
    const body = operation("createReversePrivateEndpoint").example.body as ReversePrivateEndpointRequest;
    expect(await management.reversePrivateEndpoints.create({ serviceId }, body)).toEqual(exampleResource("createReversePrivateEndpoint"));
  });

  it("pipes.get returns the pipe", async () => {
    expect(await management.pipes.get(pipe)).toEqual(exampleResource("getPipe"));
  });

  it("pipes.getSettings returns the settings", async () => {
    expect(await management.pipes.getSettings(pipe)).toEqual(exampleResource("getPipeSettings"));
  });

  it("pipes.updateSettings returns the settings in force", async () => {
    const settings = await management.pipes.updateSettings(pipe, operation("updatePipeSettings").example.body as never);
    expect(settings).toEqual(exampleResource("updatePipeSettings"));
  });

  it("withResponse() gives the request id and the Response beside the resource", async () => {
    const { data, response, requestId } = await management.pipes.get(pipe).withResponse();
    expect(data.id).toBe(pipe.pipeId);
    expect(response.status).toBe(200);
    expect(requestId).toBe((operation("getPipe").exampleResponse() as { requestId: string }).requestId);
  });

  it("a call's organizationId overrides the client's default", async () => {
    const other = "0b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b";
    const { response } = await management.pipes.get({ ...pipe, organizationId: other }).withResponse();
    expect(response.url).toContain(`/organizations/${other}/`);
  });

  it("raw is an openapi-fetch client with the same authorization", async () => {
    const { data, response } = await management.raw.GET("/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings", {
      params: { path: pipe },
    });
    expect(response.status).toBe(200);
    expect(data?.result).toEqual(exampleResource("getPipeSettings"));
  });

  it.each(declaredErrors("getPipeSettings"))("maps a declared %i to %s with its status and request id", async (status, _name, ErrorClass) => {
    const call = managementFor(status).pipes.getSettings(pipe, { headers: { Prefer: `code=${status}` }, maxRetries: 0 });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    const { requestId } = operation("getPipeSettings").exampleResponse(String(status)) as { requestId?: string };
    expect(error).toMatchObject({ status, requestId });
    expect((error as Error).message).toContain(`HTTP ${status}`);
  });

  it("a 429 carries the Retry-After wait", async () => {
    const error = await pausedManagement()
      .pipes.getSettings(pipe, { headers: { Prefer: "code=429" }, maxRetries: 0 })
      .catch((e: unknown) => e);
    const tooMany = resolve("management", bundles.management.paths[operation("getPipeSettings").path].get.responses["429"]);
    const seconds = resolve("management", tooMany.headers["Retry-After"]).example as number;
    expect(error).toMatchObject({ retryAfterMs: seconds * 1000 });
  });
});

describe("alerts client", () => {
  it("create returns the alert of the data envelope", async () => {
    expect(await alerts.create(tileAlert)).toEqual(exampleResource("createAlert"));
  });

  it("get returns the alert", async () => {
    expect(await alerts.get(alertId)).toEqual(exampleResource("getAlert"));
  });

  it("raw is an openapi-fetch client with the same authorization", async () => {
    const { data } = await alerts.raw.GET("/api/v2/alerts/{id}", { params: { path: { id: alertId } } });
    expect(data?.data.id).toBe(alertId);
  });

  it.each(declaredErrors("getAlert"))("maps a declared %i to %s with the server's message", async (status, _name, ErrorClass) => {
    const error = await alertsFor(status)
      .get(alertId, { headers: { Prefer: `code=${status}` }, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status });
    // The server's words: `message` of a JSON body, or a text body (the rate limiter's HTML) as it is.
    const [example] = Object.values(operation("getAlert").responseExamples(String(status)));
    const words = typeof example === "string" ? example : (example as { message: string }).message;
    expect((error as ApiError).message).toContain(words);
  });
});
