// Every error of a call says which operation it was, as the contract's id, beside the label people read: code can
// branch on `error.operationId` instead of parsing a message. Real loopback servers answer each case.
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/mock-servers.mjs";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  createAlertsClient,
  createManagementClient,
  IngestionError,
  InternalServerError,
  type ManagementClientOptions,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from "../../src/index.js";
import { hang, json, type ScriptedServer, type Step, startScriptedServer, text } from "../support/scripted-server.js";
import { alertId, keyId, keySecret, pipe, settingsEnvelope, token } from "../support/sdk-fixtures.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const pipeTemplate = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}";
const getPipeLabel = `getPipe GET ${pipeTemplate}`;
const requestId = "1c9a2f5e-7b3d-4e8a-9c6f-0d2e4b6a8c1e";

async function management(steps: Step[], options: Partial<ManagementClientOptions> = {}) {
  server = await startScriptedServer(...steps);
  return createManagementClient({ baseUrl: server.url, keyId, keySecret, maxRetries: 0, rateLimit: false, timeoutMs: 2_000, ...options });
}

/** The error a call rejected with, to read its fields. */
async function failureOf(call: Promise<unknown>): Promise<IngestionError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(IngestionError);
  return error as IngestionError;
}

describe("an answered call's error", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ApiError],
    [429, RateLimitError],
    [500, InternalServerError],
  ] as const)("for HTTP %i has the operation's id, its label and the status", async (status, ErrorClass) => {
    const client = await management([json(status, { status, error: "no", requestId })]);
    const error = (await failureOf(client.pipes.get(pipe))) as ApiError;
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.operationId).toBe("getPipe");
    expect(error.operation).toBe(getPipeLabel);
    expect(error.message.startsWith(`${getPipeLabel} failed with HTTP ${status}`)).toBe(true);
    expect(error.requestId).toBe(requestId);
  });

  it("for a redirect has the operation's id", async () => {
    const client = await management([text(302, "", "text/plain", { location: "https://elsewhere.example/" })]);
    const error = await failureOf(client.pipes.getSettings(pipe));
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.operationId).toBe("getPipeSettings");
  });

  it("on the alerting interface has the operation's id, and no request id: alerting sends none", async () => {
    server = await startScriptedServer(json(404, { message: "Alert not found" }));
    const client = createAlertsClient({ baseUrl: server.url, token, maxRetries: 0, rateLimit: false });
    const error = (await failureOf(client.get(alertId))) as ApiError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.operationId).toBe("getAlert");
    expect(error.requestId).toBeUndefined();
  });
});

describe("a refused request's error", () => {
  it("for a setting out of bounds has the operation's id as well as its label", async () => {
    const client = await management([json(200, settingsEnvelope)]);
    const error = (await failureOf(client.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: 60_001 }))) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.operationId).toBe("updatePipeSettings");
    expect(error.operation).toBe(`updatePipeSettings PUT ${pipeTemplate}/settings`);
    expect(server?.requests).toHaveLength(0);
  });

  it('for a path value of ".." has the operation\'s id', async () => {
    const client = await management([json(200, {})]);
    const error = await failureOf(client.pipes.get({ ...pipe, pipeId: ".." }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.operationId).toBe("getPipe");
  });

  it("for a call's header that cannot be sent has the operation's id", async () => {
    const client = await management([json(200, {})]);
    const error = await failureOf(client.pipes.get(pipe, { headers: { "x-trace": "a\nb" } }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.operationId).toBe("getPipe");
  });
});

describe("a call without a usable answer", () => {
  it("that timed out has the operation's id", async () => {
    const client = await management([hang], { timeoutMs: 50 });
    const error = await failureOf(client.pipes.get(pipe));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.operationId).toBe("getPipe");
  });

  it("whose connection was refused has the operation's id", async () => {
    // Nothing listens there, and no other test's listen(0) is handed it meanwhile (mock-servers.mjs).
    const port = await freePort();
    const client = createManagementClient({ baseUrl: `http://127.0.0.1:${port}`, keyId, keySecret, maxRetries: 0, rateLimit: false });
    const error = await failureOf(client.pipes.getSettings(pipe));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.operationId).toBe("getPipeSettings");
  });

  it("whose 200 is not JSON has the operation's id", async () => {
    const client = await management([text(200, "<html>ok</html>", "text/html")]);
    const error = await failureOf(client.pipes.get(pipe));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.operationId).toBe("getPipe");
  });

  it("whose answer is larger than maxResponseBytes has the operation's id", async () => {
    const client = await management([json(200, settingsEnvelope)], { maxResponseBytes: 16 });
    const error = await failureOf(client.pipes.getSettings(pipe));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.operationId).toBe("getPipeSettings");
  });

  it("whose onRequest hook threw has the operation's id", async () => {
    const client = await management([json(200, settingsEnvelope)], {
      onRequest: () => {
        throw new Error("no");
      },
    });
    const error = await failureOf(client.pipes.getSettings(pipe));
    expect(error.operationId).toBe("getPipeSettings");
    expect(error.message).toContain("the onRequest hook failed");
  });

  it("that waited behind another call's long 429 pause has its own operation's id", async () => {
    const client = await management([json(429, { status: 429, error: "slow down", requestId }, { "retry-after": "300" })], { maxRateLimitWaitMs: 1_000 });
    const first = failureOf(client.pipes.get(pipe));
    expect((await first).operationId).toBe("getPipe");
    const second = await failureOf(client.pipes.getSettings(pipe));
    expect(second).toBeInstanceOf(RateLimitError);
    expect(second.operationId).toBe("getPipeSettings");
    expect(server?.requests).toHaveLength(1);
  });
});

describe("raw", () => {
  it("names the operation its path matches", async () => {
    const client = await management([json(404, { status: 404, error: "no", requestId })]);
    const { error, response } = await client.raw.GET(pipeTemplate, { params: { path: pipe } });
    expect(response.status).toBe(404);
    expect(error).toBeDefined();
    // raw resolves instead of rejecting on an answer; a refusal before sending still rejects with the operation named.
    const refused = await failureOf(client.raw.GET(pipeTemplate, { params: { path: { ...pipe, pipeId: "." } } }));
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect(refused.operationId).toBe("getPipe");
    const refusedPut = await failureOf(client.raw.request("put", `${pipeTemplate}/settings`, { params: { path: { ...pipe, pipeId: "." } }, body: {} }));
    expect(refusedPut.operationId).toBe("updatePipeSettings");
  });

  it("leaves operationId undefined for a path the contract does not have", async () => {
    const client = await management([hang], { timeoutMs: 50 });
    const error = await failureOf(client.raw.GET("/v1/unknown" as never));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.operationId).toBeUndefined();
    expect(error.message).toContain("GET /v1/unknown");
  });
});

it("a client option's error is about no call: operationId is undefined", () => {
  let error: unknown;
  try {
    createManagementClient({ keyId, keySecret, baseUrl: "ftp://example.com" });
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(IngestionError);
  expect((error as IngestionError).operationId).toBeUndefined();
});

describe("an error's request id", () => {
  const header = { "x-request-id": "from-the-header" };

  it("is the body's field where management's body carries one, over the header", async () => {
    const client = await management([json(404, { status: 404, error: "no", requestId }, header)]);
    expect(((await failureOf(client.pipes.get(pipe))) as ApiError).requestId).toBe(requestId);
  });

  it.each([
    ["an empty body", text(502, "", "text/plain", header)],
    ["a JSON null", json(502, null, header)],
    ["a JSON string", json(502, "Bad Gateway", header)],
    ["a body whose requestId is not text", json(502, { status: 502, error: "no", requestId: 7 }, header)],
  ])("is the X-Request-Id header for %s", async (_kind, step) => {
    const client = await management([step]);
    const error = (await failureOf(client.pipes.get(pipe))) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.requestId).toBe("from-the-header");
  });
});
