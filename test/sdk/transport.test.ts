// The one request path of both clients: a typed call's answer read into its resource or an error, `raw` calls
// matched to their operations, path values filled or refused before sending, and whatever goes wrong on the way
// (a module that cannot load, a body JSON cannot encode) reaching the caller as an IngestionError.
import { describe, expect, it } from "vitest";
import { resolveCommonOptions } from "../../src/client/client-options.js";
import { createTransport } from "../../src/client/transport.js";
import { alerts as alertsApi, management as managementApi } from "../../src/contract/interfaces.js";
import { createManagementClient, IngestionError, RequestValidationError, ResponseValidationError } from "../../src/index.js";
import { keyId, keySecret, pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

const baseUrl = "https://api.example.test";
const settingsPath = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings";

interface Sent {
  method: string;
  url: string;
  body: string | undefined;
}

/** A fetch that records what it is sent and answers each request with `answer()`. */
function scriptedFetch(answer: () => Response = () => Response.json(settingsEnvelope)) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push({ method: request.method, url: request.url, body: request.body === null ? undefined : await request.text() });
    return answer();
  };
  return { sent, fetch };
}

function managementClient(fetch: typeof globalThis.fetch, options: Parameters<typeof createManagementClient>[0] = {}) {
  return createManagementClient({ baseUrl, keyId, keySecret, fetch, rateLimit: false, maxRetries: 0, ...options });
}

/** What a call settled with: its value, or the reason it rejected. */
async function settled(call: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(call).then(
    (value) => value,
    (reason: unknown) => reason,
  );
}

describe("a 200 without the resource", () => {
  it.each([
    ["an empty body", "", "the body is empty"],
    ["a JSON object without the envelope's field", "{}", "is required"],
    ["a JSON number", "5", "is required"],
    ["a JSON string", '"ok"', "is required"],
  ])("fails with a ResponseValidationError for %s", async (_, body, message) => {
    const { fetch } = scriptedFetch(() => new Response(body, { status: 200, headers: { "content-type": "application/json" } }));
    const error = await settled(managementClient(fetch).pipes.getSettings(pipe));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([{ path: "/result", message }]);
  });
});

describe("a typed call", () => {
  it.each([
    ["without a value", undefined],
    ["of null", null],
    ["of the empty string", ""],
  ])("with a path parameter %s is refused before sending, even with validation off", async (_, pipeId) => {
    const { sent, fetch } = scriptedFetch();
    const error = await settled(managementClient(fetch, { validateRequests: false }).pipes.getSettings({ ...pipe, pipeId: pipeId as never }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([{ path: "/pipeId", message: "is required" }]);
    expect(sent).toEqual([]);
  });

  it("without params at all is refused before sending, by the parameter it lacks, even with validation off", async () => {
    const { sent, fetch } = scriptedFetch();
    const common = resolveCommonOptions("test", managementApi, { baseUrl, fetch, rateLimit: false, validateRequests: false }, "a2V5OnNlY3JldA==", keyId);
    const transport = createTransport<Record<string, never>>({
      ...common,
      validators: import("../../generated/validators/management.js"),
      responseValidators: undefined,
    });
    const error = await settled(transport.GET(settingsPath as never, {} as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([{ path: "/organizationId", message: "is required" }]);
    expect(sent).toEqual([]);
  });

  it("with a path value that is not valid Unicode (a lone surrogate) is refused before sending", async () => {
    const { sent, fetch } = scriptedFetch();
    const error = await settled(managementClient(fetch, { validateRequests: false }).pipes.getSettings({ ...pipe, pipeId: "a\ud800" }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([{ path: "/pipeId", message: "is not valid Unicode text (it has a lone surrogate)" }]);
    expect(sent).toEqual([]);
  });

  it.each([
    ["not aborted", {}],
    ["aborted", { signal: AbortSignal.abort() }],
  ])("whose body JSON cannot encode (a cycle) fails with an IngestionError, its signal %s", async (_, options) => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { sent, fetch } = scriptedFetch();
    const error = await settled(managementClient(fetch, { validateRequests: false }).pipes.updateSettings(pipe, cyclic as never, options));
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toMatch(/^the call failed: .*circular/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(sent).toEqual([]);
  });

  it("of a resource method given null (from untyped code) rejects with an IngestionError, and never throws", async () => {
    const { fetch } = scriptedFetch();
    const client = managementClient(fetch);
    let returned: PromiseLike<unknown> | undefined;
    expect(() => {
      returned = client.pipes.get(null as never);
    }).not.toThrow();
    const error = await settled(returned as PromiseLike<unknown>);
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toMatch(/^the call failed: /);
  });
});

describe("raw", () => {
  it("sends a PUT's body", async () => {
    const { sent, fetch } = scriptedFetch();
    await managementClient(fetch).raw.PUT(settingsPath, { params: { path: pipe }, body: { streaming_max_insert_wait_ms: 500 } as never });
    expect(sent.map(({ method, body }) => ({ method, body: JSON.parse(body ?? "null") }))).toEqual([
      { method: "PUT", body: { streaming_max_insert_wait_ms: 500 } },
    ]);
  });

  it("refuses a template whose path parameters were given no values, naming the operation, before sending", async () => {
    const { sent, fetch } = scriptedFetch();
    const error = await settled(managementClient(fetch).raw.GET(settingsPath as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).operationId).toBe("getPipeSettings");
    expect((error as RequestValidationError).issues).toEqual([{ path: settingsPath, message: "has a path parameter without a value" }]);
    expect(sent).toEqual([]);
  });

  it("sends a method the contract has no operation for, as openapi-fetch would", async () => {
    const { sent, fetch } = scriptedFetch(() => new Response(null, { status: 204 }));
    const { response } = await managementClient(fetch).raw.DELETE("/v1/elsewhere" as never);
    expect(response.status).toBe(204);
    expect(sent.map(({ method, url }) => `${method} ${url}`)).toEqual([`DELETE ${baseUrl}/v1/elsewhere`]);
  });

  it.each(["PUT", "POST"] as const)("names the operation of a %s whose path value is refused", async (method) => {
    const { fetch } = scriptedFetch();
    const path = method === "PUT" ? settingsPath : "/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints";
    const raw = managementClient(fetch).raw as unknown as Record<string, (path: string, init: unknown) => Promise<unknown>>;
    const call = raw[method]?.(path, { params: { path: { ...pipe, serviceId: ".." } }, body: {} }) as Promise<unknown>;
    const error = await settled(call);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).operationId).toBe(method === "PUT" ? "updatePipeSettings" : "createReversePrivateEndpoint");
  });

  it("names the path of a call the contract has no operation for whose path value is refused", async () => {
    const { fetch } = scriptedFetch();
    const call = managementClient(fetch).raw.request("delete" as never, "/v1/elsewhere/{id}" as never, { params: { path: { id: ".." } } } as never);
    const error = await settled(call);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).operationId).toBeUndefined();
    expect((error as Error).message).toBe('Invalid request for /v1/elsewhere/{id}, nothing was sent: /id must not be "." or ".."');
  });

  it("names the operation of a path value refused in a call made as the client is created", async () => {
    const { fetch } = scriptedFetch();
    const error = await settled(managementClient(fetch).raw.GET(settingsPath, { params: { path: { ...pipe, pipeId: ".." } } }));
    expect((error as RequestValidationError).operationId).toBe("getPipeSettings");
  });

  it("matches its path to the operation behind a gateway's path prefix", async () => {
    const { fetch } = scriptedFetch();
    const seen: (string | undefined)[] = [];
    const client = managementClient(fetch, {
      baseUrl: `${baseUrl}/ingestion`,
      onRequest: (_request, { operationId }) => {
        seen.push(operationId);
      },
    });
    await client.raw.GET(settingsPath, { params: { path: pipe } });
    expect(seen).toEqual(["getPipeSettings"]);
  });
});

describe("the validators' modules", () => {
  const failing = () => Promise.reject(new Error("chunk 17 failed"));

  function transportWith(modules: { validators?: Promise<never>; responseValidators?: Promise<{ responseValidators: Record<string, never> }> }) {
    const { fetch } = scriptedFetch();
    const common = resolveCommonOptions("test", managementApi, { baseUrl, fetch, rateLimit: false }, "a2V5OnNlY3JldA==", keyId);
    return createTransport<Record<string, never>>({
      ...common,
      validators: modules.validators ?? import("../../generated/validators/management.js"),
      responseValidators: modules.responseValidators,
    });
  }

  it.each([
    ["request validators", () => ({ validators: failing() })],
    ["response validators", () => ({ responseValidators: failing() })],
  ])("when the %s cannot load, fail each call with an IngestionError saying so, with the cause", async (what, modules) => {
    const transport = transportWith(modules());
    const error = await settled(transport.GET(settingsPath as never, { params: { path: pipe } } as never));
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toBe(`the client could not load its ${what}: chunk 17 failed`);
    expect(((error as Error).cause as Error).message).toBe("chunk 17 failed");
  });

  it.each([
    ["request validators", () => ({ validators: failing() })],
    ["response validators", () => ({ responseValidators: failing() })],
  ])("when the %s cannot load and no call is made, are no unhandled rejection", async (_, modules) => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      transportWith(modules());
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off("unhandledRejection", record);
    }
    expect(unhandled).toEqual([]);
  });

  it("check no answer of an operation the response validators have no 200 validator for", async () => {
    const transport = transportWith({ responseValidators: Promise.resolve({ responseValidators: {} }) });
    await expect(transport.GET(settingsPath as never, { params: { path: pipe } } as never)).resolves.toEqual(settingsEnvelope.result);
  });

  it("check an answer that came before the response validators loaded once they have, with them", async () => {
    let load: (module: { responseValidators: Record<string, never> }) => void = () => {};
    const transport = transportWith({ responseValidators: new Promise((resolve) => (load = resolve)) });
    const call = settled(transport.GET(settingsPath as never, { params: { path: pipe } } as never));
    // The answer is read and waits: the validators come after it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    load({ responseValidators: {} });
    await expect(call).resolves.toEqual(settingsEnvelope.result);
  });

  it("name an operation of a method the interface has none of in a typed call's error", async () => {
    const { fetch } = scriptedFetch();
    const common = resolveCommonOptions("test", alertsApi, { baseUrl, fetch, rateLimit: false }, "token", "token");
    const transport = createTransport<Record<string, never>>({
      ...common,
      validators: import("../../generated/validators/alerts.js"),
      responseValidators: undefined,
    });
    const error = await settled(transport.PUT("/api/v2/alerts" as never, {} as never));
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toBe("unknown operation PUT /api/v2/alerts");
  });

  it("name an operation the contract does not have in a typed call's error", async () => {
    const error = await settled(transportWith({}).PUT("/v1/nowhere" as never, {} as never));
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toBe("unknown operation PUT /v1/nowhere");
  });
});
