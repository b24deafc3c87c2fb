// Every SDK method against the Prism mocks: the unwrapped resource on success, the right error class otherwise.
import { describe, expect, inject, it } from "vitest";
import { ApiError, createAlertsClient, createManagementClient } from "../../src/index.js";
import { alertId, declaredErrorClasses, keyId, keySecret, organizationId, pipe, serviceId, tileAlert, token } from "../support/sdk-fixtures.js";

const management = createManagementClient({ baseUrl: inject("managementUrl"), keyId, keySecret, organizationId, validateResponses: true });
const alerts = createAlertsClient({ baseUrl: inject("alertsUrl"), token, validateResponses: true });

describe("management client", () => {
  it("services.list returns the services of the result envelope", async () => {
    const services = await management.services.list({ filter: ["tag:Environment=Production", "tag:isActive"] });
    expect(services[0]).toMatchObject({ id: serviceId, name: "events-production" });
  });

  it("reversePrivateEndpoints.create returns the endpoint", async () => {
    const endpoint = await management.reversePrivateEndpoints.create(
      { serviceId },
      { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" },
    );
    expect(endpoint).toMatchObject({ serviceId, status: "Ready" });
  });

  it("pipes.get returns the pipe", async () => {
    expect(await management.pipes.get(pipe)).toMatchObject({ id: pipe.pipeId, state: "Running" });
  });

  it("pipes.getSettings returns all twelve settings", async () => {
    expect(Object.keys(await management.pipes.getSettings(pipe))).toHaveLength(12);
  });

  it("pipes.updateSettings returns the settings in force", async () => {
    const settings = await management.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: 5000 });
    expect(settings.streaming_max_insert_wait_ms).toBe(5000);
  });

  it("withResponse() gives the request id and the Response beside the resource", async () => {
    const { data, response, requestId } = await management.pipes.get(pipe).withResponse();
    expect(data.id).toBe(pipe.pipeId);
    expect(response.status).toBe(200);
    expect(requestId).toBe("2b4d6f8a-0c1e-4a3b-9d5f-7a9c1e3b5d7f");
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
    expect(data?.result.engine_max_insert_threads).toBe(4);
  });

  it.each(declaredErrorClasses)("maps a declared %i to %s with its status and request id", async (status, _name, ErrorClass) => {
    const call = management.pipes.getSettings(pipe, { headers: { Prefer: `code=${status}` }, maxRetries: 0 });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, requestId: "1c9a2f5e-7b3d-4e8a-9c6f-0d2e4b6a8c1e" });
    expect((error as Error).message).toContain(`HTTP ${status}`);
  });

  it("a 429 carries the Retry-After wait", async () => {
    const error = await management.pipes.getSettings(pipe, { headers: { Prefer: "code=429" }, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryAfterMs: 10_000 });
  });
});

describe("alerts client", () => {
  it("create returns the alert of the data envelope", async () => {
    const alert = await alerts.create(tileAlert);
    expect(alert).toMatchObject({ source: "tile", state: "inactive" });
  });

  it("get returns the alert", async () => {
    expect(await alerts.get(alertId)).toMatchObject({ id: alertId });
  });

  it("raw is an openapi-fetch client with the same authorization", async () => {
    const { data } = await alerts.raw.GET("/api/v2/alerts/{id}", { params: { path: { id: alertId } } });
    expect(data?.data.id).toBe(alertId);
  });

  it.each(declaredErrorClasses)("maps a declared %i to %s with the server's message", async (status, _name, ErrorClass) => {
    const error = await alerts.get(alertId, { headers: { Prefer: `code=${status}` }, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status });
    expect((error as ApiError).body).toHaveProperty("message");
  });
});
