// What the real services send (openapi/DECISIONS.md, "The real services"), through the SDK against scripted
// loopback servers, with response validation on: sparse settings, nulls in a pipe, error bodies with only
// `error`, the management 424 and X-RateLimit-Reset, and the alerting 429 in HTML.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, createAlertsClient, createManagementClient, InternalServerError, NotFoundError, RateLimitError } from "../../src/index.js";
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

describe("what the real alerting service sends of an old alert (0.3.0)", () => {
  const legacy = {
    id: alertId,
    threshold: 3,
    interval: "1h",
    thresholdType: "below",
    source: "search",
    state: "inactive",
    createdAt: "2024-03-01T08:00:00.000Z",
    updatedAt: "2024-03-01T08:00:00.000Z",
  };

  it("reads an alert without channel, name or message, with validateResponses on", async () => {
    const client = await alerts(json(200, { data: legacy }));
    expect(await client.get(alertId)).toEqual(legacy);
  });

  it("reads an alert whose channel is the legacy {type: null}, as older versions sent it", async () => {
    const client = await alerts(json(200, { data: { ...legacy, channel: { type: null } } }));
    expect((await client.get(alertId)).channel).toEqual({ type: null });
  });

  it("reads its own published example of an alert without name and message", async () => {
    const { LegacyAlert } = operation("getAlert").responseExamples() as { LegacyAlert: { data: object } };
    const client = await alerts(json(200, LegacyAlert));
    expect(await client.get(alertId)).toEqual(LegacyAlert.data);
  });
});

describe("a gateway's answer (5XX, any body)", () => {
  it("a 502 text/plain Bad Gateway is an InternalServerError with the text, and a GET retries it", async () => {
    const answer = operation("getPipeSettings").exampleResponse() as { result: object };
    const client = await management(text(502, "Bad Gateway", "text/plain", { "retry-after": "0" }), json(200, answer));
    expect(await client.pipes.getSettings(pipe)).toEqual(answer.result);
    expect(server?.requests).toHaveLength(2);
    const failing = await management(text(502, "Bad Gateway", "text/plain", { "retry-after": "0" }));
    const error = await failing.pipes.getSettings(pipe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, body: "Bad Gateway" });
    expect((error as Error).message).toMatch(/failed with HTTP 502: Bad Gateway$/);
    expect(server?.requests).toHaveLength(3);
  });

  it("a 504 HTML page reads as its text, escaped and cut short", async () => {
    const page = `<html><head><title>504 Gateway Time-out</title><style>h1{}</style></head><body><h1>504 Gateway\nTime-out</h1>${"<p>x</p>".repeat(100)}\u001b[31m</body></html>`;
    const client = await alerts(text(504, page, "text/html"));
    const error = (await client.get(alertId, { maxRetries: 0 }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toContain("failed with HTTP 504: 504 Gateway Time-out 504 Gateway Time-out x x");
    expect(error.message).not.toContain("<");
    expect(error.message).not.toContain("\u001b");
    expect(error.message.length).toBeLessThan(400);
  });

  it("reads the words of a hostile 16 MiB page in linear time: a million unclosed tags do not pin a core", () => {
    const getPipe = { label: "getPipe", operationId: "getPipe" };
    const html = new Headers({ "content-type": "text/html" });
    const size = 16 * 1024 * 1024;
    for (const page of ["<".repeat(size), "<script>".repeat(size / 8), "<style>".repeat(size / 7), `<p>${"a ".repeat(size / 2)}`]) {
      // The CPU the reading takes, which other processes on a busy machine do not stretch as they do wall time.
      const started = process.cpuUsage();
      const { message } = new ApiError(502, page, html, undefined, getPipe, "error");
      const { user, system } = process.cpuUsage(started);
      // About 20 ms each. A backtracking pattern took 0.6 s for 40,000 `<` and grows with the square: hours here.
      expect((user + system) / 1000, page.slice(0, 10)).toBeLessThan(500);
      expect(message.length).toBeLessThan(260);
    }
    const scripted = "<html><script>if (a < b) alert('<b>')</script><STYLE>p > a {}</STYLE><p>Bad\n  Gateway</p></html>";
    expect(new ApiError(502, scripted, html, undefined, getPipe, "error").message).toBe("getPipe failed with HTTP 502: Bad Gateway");
  });

  it("a POST answered 503 is not retried: it may have been processed", async () => {
    const client = await alerts(text(503, "Service Unavailable", "text/plain", { "retry-after": "0" }));
    await expect(client.create(operation("createAlert").example.body as never)).rejects.toBeInstanceOf(InternalServerError);
    expect(server?.requests).toHaveLength(1);
  });
});
