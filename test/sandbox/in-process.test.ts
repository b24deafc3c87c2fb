// `createSandbox()` from `ingestion-api/sandbox`: the sandbox's engine as the clients' `fetch`, with no socket.
// The SDK's retry and error behaviour, played against it: every declared error maps to its class, a fault is
// retried where it is safe and not where it is not, a slow answer times out; and nothing ever reaches the network.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ApiError,
  type AttemptContext,
  ConnectionError,
  createAlertsClient,
  createManagementClient,
  RateLimitError,
  TimeoutError,
} from "../../src/index.js";
import { createSandbox, type InProcessSandbox } from "../../src/sandbox/in-process.js";
import { operation } from "../support/operations.js";
import { alertId, declaredErrorClasses, organizationId, pipe, storeOfEachTest } from "../support/sdk-fixtures.js";

let sandbox: InProcessSandbox;
const network = vi.spyOn(globalThis, "fetch");
beforeAll(() => {
  sandbox = createSandbox();
});
afterEach(() => {
  sandbox.faults.clear();
  sandbox.reset();
});
afterAll(async () => {
  await sandbox.close();
  // The whole file ran without a socket: the sandbox is the clients' fetch, and nothing else was called.
  expect(network).not.toHaveBeenCalled();
  network.mockRestore();
});

// A 429 pauses its credential in the store: each test has its own, so none waits out another's.
const store = storeOfEachTest();
const options = (extra: object = {}) => ({ baseUrl: sandbox.baseUrl, fetch: sandbox.fetch, rateLimit: false as const, rateLimitStore: store(), ...extra });
const management = (extra: object = {}) =>
  createManagementClient({ ...options(extra), keyId: sandbox.credentials.keyId, keySecret: sandbox.credentials.keySecret, organizationId });
const alerts = (extra: object = {}) => createAlertsClient({ ...options(extra), token: sandbox.credentials.token });

describe("state, in process", () => {
  it("creates an alert and reads it back; reset forgets it", async () => {
    const created = await alerts().create(operation("createAlert").example.body as never);
    expect(await alerts().get(created.id)).toEqual(created);
    expect(sandbox.state.alerts.map(({ id }) => id)).toContain(created.id);
    sandbox.reset();
    expect(sandbox.state.alerts.map(({ id }) => id)).not.toContain(created.id);
  });

  it("replaces a pipe's settings, which the pipe then carries", async () => {
    await management().pipes.updateSettings(pipe, { engine_max_threads: 8 });
    expect((await management().pipes.getSettings(pipe)).engine_max_threads).toBe(8);
    expect((await management().pipes.get(pipe)).settings).toEqual({ engine_max_threads: 8 });
  });

  it("checks requests against the contract, as the server does", async () => {
    const client = management({ validateRequests: false });
    const error = (await client.pipes.updateSettings(pipe, { engine_max_threads: 65 }).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(400);
    expect(error.message).toContain("engine_max_threads must be <= 64");
  });

  it("takes a seed of its own, checked", () => {
    expect(() => createSandbox({ seed: { alerts: [{ id: 1 }] } })).toThrow("the seed is not valid");
  });
});

describe("the SDK's errors, against it", () => {
  it.each(declaredErrorClasses.filter(([status]) => status !== 404))("a declared %i is a %s", async (status, _name, ErrorClass) => {
    const error = await management()
      .pipes.get(pipe, { headers: { Prefer: `code=${status}` }, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status });
  });

  it("a 404 is a NotFoundError with the declared body", async () => {
    const error = await alerts()
      .get("0123456789abcdef01234567")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NotFoundError", status: 404, body: { message: "Alert not found" } });
  });

  it("alerting's HTML 429 is a RateLimitError with its Retry-After", async () => {
    // A sandbox of its own: the 429 pauses its credential's calls for the 30 s it names.
    const own = createSandbox();
    const client = createAlertsClient({ baseUrl: own.baseUrl, fetch: own.fetch, token: own.credentials.token, rateLimit: false });
    const error = await client.get(alertId, { headers: { Prefer: "code=429" }, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(30_000);
    await own.close();
  });
});

describe("the SDK's retries, against it", () => {
  const attempts = (seen: number[]) => ({ onRequest: (_: Request, { attempt }: AttemptContext) => void seen.push(attempt) });

  it("a GET answered 500 once is retried, and succeeds", async () => {
    sandbox.faults.add({ operation: "getPipe", status: 500, count: 1, headers: { "retry-after": "0" } });
    const seen: number[] = [];
    expect((await management(attempts(seen)).pipes.get(pipe)).id).toBe(pipe.pipeId);
    expect(seen).toEqual([1, 2]);
  });

  it("a GET whose connection is reset is retried; a POST is not, and fails with ConnectionError", async () => {
    sandbox.faults.add({ operation: "getPipeSettings", status: "reset", count: 1 });
    sandbox.faults.add({ operation: "createAlert", status: "reset", count: 1 });
    const got: number[] = [];
    expect(await management(attempts(got)).pipes.getSettings(pipe)).toBeTypeOf("object");
    expect(got).toEqual([1, 2]);
    const seen: number[] = [];
    await expect(alerts(attempts(seen)).create(operation("createAlert").example.body as never)).rejects.toBeInstanceOf(ConnectionError);
    expect(seen).toEqual([1]);
  });

  it("a GET cut half-way through its body is retried", async () => {
    sandbox.faults.add({ operation: "getPipeSettings", status: "truncate", count: 1 });
    const seen: number[] = [];
    await management(attempts(seen)).pipes.getSettings(pipe);
    expect(seen).toEqual([1, 2]);
  });

  it("an answer slower than timeoutMs times out per attempt", async () => {
    sandbox.faults.add({ operation: "getAlert", status: 500, delayMs: 300 });
    const seen: number[] = [];
    const error = await alerts({ timeoutMs: 100, ...attempts(seen) })
      .get(alertId, { maxRetries: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    // Each attempt has its own timeout: the first timed out, and the retry was sent and timed out too.
    expect(seen).toEqual([1, 2]);
  });

  it("a caller's abort while the answer waits rejects with the caller's reason", async () => {
    const slow = createSandbox({ latencyMs: 500 });
    const controller = new AbortController();
    const client = createAlertsClient({ baseUrl: slow.baseUrl, fetch: slow.fetch, token: slow.credentials.token, rateLimit: false });
    const call = client.get(alertId, { signal: controller.signal });
    controller.abort(new Error("not any more"));
    await expect(call).rejects.toThrow("not any more");
    await slow.close();
  });

  it("keeps the same rate limit as the server: a client told it sends 9 calls at 3 per 300 ms without a 429", async () => {
    const limited = createSandbox({ rateLimit: { requests: 3, intervalMs: 300 } });
    const seen: number[] = [];
    const client = createAlertsClient({
      baseUrl: limited.baseUrl,
      fetch: limited.fetch,
      token: limited.credentials.token,
      rateLimit: { requests: 3, intervalMs: 300 },
      onResponse: (response: Response) => void seen.push(response.status),
    });
    await Promise.all(Array.from({ length: 9 }, () => client.get(alertId)));
    expect(seen).toEqual(Array(9).fill(200));
  });
});
