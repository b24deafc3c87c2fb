// What the real services send (openapi/DECISIONS.md, "The real services"), through the SDK against scripted
// loopback servers, with response validation on: sparse settings, nulls in a pipe, error bodies with only
// `error`, the management 424 and X-RateLimit-Reset, and the alerting 429 in HTML.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, createAlertsClient, createManagementClient, NotFoundError, RateLimitError } from "../../src/index.js";
import { operation } from "../support/operations.js";
import { json, type ScriptedServer, type Step, startScriptedServer, text } from "../support/scripted-server.js";
import { alertId, keyId, keySecret, pipe, token } from "../support/sdk-fixtures.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function management(...steps: Step[]) {
  server = await startScriptedServer(...steps);
  return createManagementClient({ baseUrl: server.url, keyId, keySecret, validateResponses: true, timeoutMs: 5_000 });
}
async function alerts(...steps: Step[]) {
  server = await startScriptedServer(...steps);
  return createAlertsClient({ baseUrl: server.url, token, validateResponses: true, timeoutMs: 5_000 });
}

describe("responses the real management service sends are valid", () => {
  it.each(Object.entries(operation("getPipeSettings").responseExamples()))("getSettings returns the settings of example %s", async (_name, answer) => {
    const client = await management(json(200, answer));
    expect(await client.pipes.getSettings(pipe)).toEqual((answer as { result: unknown }).result);
  });

  it("getSettings accepts a result with only engine_max_threads, and refuses engine_max_threads 65", async () => {
    const answer = operation("getPipeSettings").exampleResponse() as object;
    const client = await management(json(200, { ...answer, result: { engine_max_threads: 8 } }), json(200, { ...answer, result: { engine_max_threads: 65 } }));
    expect(await client.pipes.getSettings(pipe)).toEqual({ engine_max_threads: 8 });
    await expect(client.pipes.getSettings(pipe)).rejects.toThrow("/result/engine_max_threads must be <= 64");
  });

  it("get returns a log-stream pipe whose unset fields and unused source kinds are null", async () => {
    const answer = operation("getPipe").responseExamples().LogStreamPipeWithNulls as { result: { source: { logStream: object } } };
    const client = await management(json(200, answer));
    const got = await client.pipes.get(pipe);
    expect(got.source?.logStream).toMatchObject({ consumerGroup: null, reversePrivateEndpointIds: null });
    expect(got).toEqual(answer.result);
  });
});

describe("errors of the management interface", () => {
  it('maps a body with only {"error": "Not found"} to NotFoundError, with the words and the header request id', async () => {
    const client = await management(json(404, { error: "Not found" }, { "x-request-id": "req-4711" }));
    const error = await client.pipes.get(pipe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, requestId: "req-4711", body: { error: "Not found" } });
    expect((error as Error).message).toContain("HTTP 404: Not found");
  });

  it("maps a 424 (the pipe's service is idle) to ApiError and does not retry it", async () => {
    const [idle] = Object.values(operation("getPipe").responseExamples("424")) as [object];
    const client = await management(json(424, idle));
    const error = await client.pipes.get(pipe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 424 });
    expect((error as Error).message).toContain("Current state: idle");
    expect(server?.requests).toHaveLength(1);
  });

  it("waits the X-RateLimit-Reset seconds of a 429 without Retry-After, then retries", async () => {
    const settings = operation("getPipeSettings").exampleResponse();
    const client = await management(json(429, { error: "Rate limit exceeded" }, { "x-ratelimit-reset": "0.3" }), json(200, settings));
    const started = Date.now();
    await client.pipes.getSettings(pipe);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server?.requests).toHaveLength(2);
  });

  it("reports the X-RateLimit-Reset wait on the RateLimitError when it does not retry", async () => {
    const client = await management(json(429, { error: "Rate limit exceeded" }, { "x-ratelimit-reset": "7" }));
    const error = await client.pipes.getSettings(pipe, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 7_000 });
  });

  it("prefers Retry-After when both are sent", async () => {
    const client = await management(json(429, { error: "slow down" }, { "retry-after": "2", "x-ratelimit-reset": "9" }));
    const error = await client.pipes.getSettings(pipe, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryAfterMs: 2_000 });
  });
});

describe("the alerting interface's rate limiter", () => {
  const [limiterText] = Object.values(operation("getAlert").responseExamples("429")) as [string];

  it("answers 429 in text/html: a RateLimitError with the Retry-After wait and the text as its body", async () => {
    const client = await alerts(text(429, limiterText, "text/html; charset=utf-8", { "retry-after": "60" }));
    const error = await client.get(alertId, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 60_000, body: limiterText });
    expect((error as Error).message).toContain(limiterText);
  });

  it("retries a GET after a short HTML 429, then returns the alert", async () => {
    const client = await alerts(text(429, limiterText, "text/html; charset=utf-8", { "retry-after": "0" }), json(200, operation("getAlert").exampleResponse()));
    expect((await client.get(alertId)).id).toBe(alertId);
    expect(server?.requests).toHaveLength(2);
  });
});
