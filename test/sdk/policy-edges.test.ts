// Edges of the shared policy: response validation, raw's policy, headers, aborts, odd Retry-After values,
// per-call option bounds. Each against a real loopback server that records what it received.
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createAlertsClient, createManagementClient, IngestionError, ResponseValidationError } from "../../src/index.js";
import { json, type ScriptedServer, type Step, startScriptedServer, text } from "../support/scripted-server.js";
import { alertId, keyId, keySecret, pipe, settingsEnvelope, token } from "../support/sdk-fixtures.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function managementAgainst(steps: Step[], options: { validateResponses?: boolean } = {}) {
  server = await startScriptedServer(...steps);
  return createManagementClient({ baseUrl: server.url, keyId, keySecret, ...options });
}
const attempts = () => server?.requests.length;
const basic = `Basic ${btoa(`${keyId}:${keySecret}`)}`;

describe("validateResponses", () => {
  it("rejects a settings value outside its bounds in a response", async () => {
    const client = await managementAgainst([json(200, { ...settingsEnvelope, result: { ...settingsEnvelope.result, engine_max_threads: 65 } })], {
      validateResponses: true,
    });
    const error = await client.pipes.getSettings(pipe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([{ path: "/result/engine_max_threads", message: "must be <= 64" }]);
    expect(error).toMatchObject({ requestId: settingsEnvelope.requestId });
  });

  it("accepts an unknown extra field and a pipe state it does not know yet", async () => {
    const body = {
      status: 200,
      requestId: "2b4d6f8a-0c1e-4a3b-9d5f-7a9c1e3b5d7f",
      result: { id: pipe.pipeId, serviceId: pipe.serviceId, name: "p", state: "Hibernating", shiny: true },
    };
    const client = await managementAgainst([json(200, body)], { validateResponses: true });
    await expect(client.pipes.get(pipe)).resolves.toMatchObject({ state: "Hibernating", shiny: true });
  });

  it("is off by default", async () => {
    const client = await managementAgainst([json(200, { ...settingsEnvelope, result: { engine_max_threads: 65 } })]);
    await expect(client.pipes.getSettings(pipe)).resolves.toEqual({ engine_max_threads: 65 });
  });
});

describe("raw shares the policy", () => {
  it("sends the client's Authorization, whatever the caller passes", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)]);
    await client.raw.GET("/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings", {
      params: { path: pipe },
      headers: { Authorization: "Basic c3Bvb2Y6c3Bvb2Y=" },
    });
    expect(server?.requests[0]?.headers.authorization).toBe(basic);
  });

  it("retries a GET answered 503", async () => {
    const client = await managementAgainst([json(503, {}, { "retry-after": "0" }), json(200, settingsEnvelope)]);
    const { data, response } = await client.raw.GET("/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings", {
      params: { path: pipe },
    });
    expect(response.status).toBe(200);
    expect(data?.result.engine_max_insert_threads).toBe(4);
    expect(attempts()).toBe(2);
  });

  it("gives an HTML page on a 200 as ResponseValidationError, not a SyntaxError", async () => {
    const client = await managementAgainst([text(200, "<html>proxy</html>", "text/html")]);
    const call = client.raw.GET("/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings", { params: { path: pipe } });
    await expect(call).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it("keeps HTTP errors as openapi-fetch's { error }", async () => {
    const client = await managementAgainst([json(404, { status: 404, error: "Pipe not found", requestId: "r" })]);
    const { error, response } = await client.raw.GET("/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}", {
      params: { path: pipe },
    });
    expect(response.status).toBe(404);
    expect(error).toEqual({ status: 404, error: "Pipe not found", requestId: "r" });
  });
});

describe("headers", () => {
  it("sends the client's Authorization and a JSON content type, whatever the case of the caller's headers", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)]);
    await client.pipes.updateSettings(pipe, {}, { headers: { AUTHORIZATION: "Bearer spoof", "Content-Type": "text/plain", "X-Trace": "t-1" } });
    const headers = server?.requests[0]?.headers;
    expect(headers?.authorization).toBe(basic);
    expect(headers?.["content-type"]).toBe("application/json");
    expect(headers?.["x-trace"]).toBe("t-1");
  });

  it("refuses a header with a line break or an invalid name before sending", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)]);
    await expect(client.pipes.getSettings(pipe, { headers: { "X-A": "a\r\nX-Injected: 1" } })).rejects.toMatchObject({
      name: "RequestValidationError",
      issues: [{ path: "/headers/X-A", message: "must be visible ASCII, without line breaks" }],
    });
    await expect(client.pipes.getSettings(pipe, { headers: { "X Bad": "1" } })).rejects.toMatchObject({ name: "RequestValidationError" });
    expect(attempts()).toBe(0);
  });
});

describe("aborts, Retry-After values and option bounds", () => {
  it("an already aborted signal sends nothing", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)]);
    await expect(client.pipes.getSettings(pipe, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(attempts()).toBe(0);
  });

  it("a long-lived caller signal keeps no listener of the calls that finished, one retried included", async () => {
    const client = await managementAgainst([json(503, {}, { "retry-after": "0" }), json(200, settingsEnvelope)]);
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) await client.pipes.getSettings(pipe, { signal: controller.signal });
    expect(attempts()).toBe(4);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it.each(["-1", "1.5", "abc 5", "soon"])("an unreadable Retry-After (%s) falls back to the backoff", async (value) => {
    const client = await managementAgainst([json(503, {}, { "retry-after": value }), json(200, settingsEnvelope)]);
    const started = Date.now();
    await client.pipes.getSettings(pipe);
    expect(Date.now() - started).toBeGreaterThanOrEqual(370);
    expect(attempts()).toBe(2);
  });

  it.each([
    ["timeoutMs", 0],
    ["timeoutMs", 2 ** 31],
    ["timeoutMs", Number.NaN],
    ["maxRetries", Number.POSITIVE_INFINITY],
    ["maxRetries", -1],
  ])("refuses %s = %s for a call, before sending", async (option, value) => {
    const client = await managementAgainst([json(200, settingsEnvelope)]);
    await expect(client.pipes.getSettings(pipe, { [option]: value })).rejects.toThrow(new RegExp(`${option} must be an integer`));
    expect(attempts()).toBe(0);
  });

  it("refuses a token with characters a header cannot carry, without echoing it", () => {
    const attempt = () => createAlertsClient({ baseUrl: "https://a.test", token: "tok€n-secret" });
    expect(attempt).toThrow(IngestionError);
    expect(attempt).toThrow("token must be visible ASCII characters without spaces");
    expect(attempt).not.toThrow(/secret/);
  });

  it("alerts get with validation off still sends one encoded segment", async () => {
    server = await startScriptedServer(json(200, { data: { id: alertId } }));
    await createAlertsClient({ baseUrl: server.url, token, validateRequests: false }).get("a/b?c");
    expect(server.requests[0]?.url).toBe("/api/v2/alerts/a%2Fb%3Fc");
  });
});

describe("messages a person can act on", () => {
  it.each([
    ["https://api.example.test/v1", "management", "pass https://api.example.test instead"],
    ["https://api.example.test/v1/", "management", "pass https://api.example.test instead"],
    ["https://alerts.example.test/api/v2", "alerts", "pass https://alerts.example.test instead"],
    ["https://alerts.example.test/api", "alerts", "pass https://alerts.example.test instead"],
  ])("refuses the base URL %s, whose paths already carry the version, and says what to pass", (baseUrl, api, advice) => {
    const create = () => (api === "management" ? createManagementClient({ baseUrl, keyId, keySecret }) : createAlertsClient({ baseUrl, token }));
    expect(create).toThrow(IngestionError);
    expect(create).toThrow(advice);
  });

  it("accepts a base URL with another path prefix, such as a gateway's", () => {
    expect(() => createManagementClient({ baseUrl: "https://gateway.example.test/ingestion", keyId, keySecret })).not.toThrow();
  });

  it("names the operation, its method and its path template in an HTTP error", async () => {
    server = await startScriptedServer(json(404, { error: "Pipe not found" }));
    const error = await createManagementClient({ baseUrl: server.url, keyId, keySecret })
      .pipes.get(pipe)
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      "getPipe GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId} failed with HTTP 404: Pipe not found",
    );
  });
});
