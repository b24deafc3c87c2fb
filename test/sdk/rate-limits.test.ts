// The per-credential queue, against loopback servers that enforce a limit as the real services do: a fan-out
// finishes within the limit without a 429, clients of one key share it and two keys do not, a 429 stops every call
// of the credential, and waiting is honest (abort, timeout, a bound on the wait, a log line).
import { afterEach, describe, expect, it } from "vitest";
import { startRateLimitedServer } from "../../scripts/lib/rate-limited-server.mjs";
import { createAlertsClient, createManagementClient, type ManagementClientOptions, RateLimitError } from "../../src/index.js";
import { json, type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";
import { alertEnvelope, alertId, keyId, keySecret, pipe, settingsEnvelope, token } from "../support/sdk-fixtures.js";

type Server = Awaited<ReturnType<typeof startRateLimitedServer>>;
const servers: (Server | ScriptedServer)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function limitedServer(requests: number, intervalMs: number): Promise<Server> {
  const server = await startRateLimitedServer({ requests, intervalMs }, { management: settingsEnvelope, alerts: alertEnvelope });
  servers.push(server);
  return server;
}
const management = (url: string, options: ManagementClientOptions = {}) => createManagementClient({ baseUrl: url, keyId, keySecret, ...options });
const fanOut = (count: number, call: () => Promise<unknown>) => Promise.allSettled(Array.from({ length: count }, call));
const failuresOf = (outcomes: PromiseSettledResult<unknown>[]) => outcomes.filter(({ status }) => status === "rejected");

describe("a fan-out under the limit", () => {
  it("25 calls at 10 per 400 ms all succeed, with no 429 and no request wasted, in the windows the limit needs", async () => {
    const server = await limitedServer(10, 400);
    const client = management(server.url, { rateLimit: { requests: 10, intervalMs: 400 } });
    const started = Date.now();
    const outcomes = await fanOut(25, () => client.pipes.getSettings(pipe));
    const elapsed = Date.now() - started;
    expect(failuresOf(outcomes)).toEqual([]);
    expect(server.counts()).toEqual({ received: 25, limited: 0 });
    // Three windows' worth: 10 at once, 10 after one window, 5 after two (each window widened by the 50 ms margin).
    expect(elapsed).toBeGreaterThanOrEqual(2 * 400);
    expect(elapsed).toBeLessThan(2 * 450 + 600);
  });

  it("counts a send from its answer, so requests that reach the server late (new connections) still get no 429", async () => {
    const server = await limitedServer(10, 400);
    // The first window's requests arrive 150 ms after they left (three times the 50 ms margin), as a burst over new
    // TLS connections to a distant server does; the next window's go at once over the open ones.
    let sends = 0;
    const lateFirstWindow: typeof fetch = async (input, init) => {
      if (sends++ < 10) await new Promise((resolve) => setTimeout(resolve, 150));
      return fetch(input, init);
    };
    const client = management(server.url, { rateLimit: { requests: 10, intervalMs: 400 }, fetch: lateFirstWindow });
    const outcomes = await fanOut(20, () => client.pipes.getSettings(pipe));
    expect(failuresOf(outcomes)).toEqual([]);
    expect(server.counts()).toEqual({ received: 20, limited: 0 });
  });

  it("defaults to the contract's declared limit: the 11th call of a management key waits for the next 10-second window", async () => {
    const server = await limitedServer(100, 60_000);
    const client = management(server.url);
    const first = await fanOut(10, () => client.pipes.getSettings(pipe));
    expect(failuresOf(first)).toEqual([]);
    const controller = new AbortController();
    const eleventh = client.pipes.getSettings(pipe, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort(new Error("it would have waited"));
    await expect(eleventh).rejects.toThrow("it would have waited");
    expect(server.counts().received).toBe(10);
  });

  it("is shared by two clients of one key, and not by two keys", async () => {
    const server = await limitedServer(5, 500);
    const limit = { rateLimit: { requests: 5, intervalMs: 500 } };
    const [one, two] = [management(server.url, limit), management(server.url, limit)];
    const other = createManagementClient({ baseUrl: server.url, keyId: "other-key", keySecret, ...limit });
    const started = Date.now();
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 5 }, () => one.pipes.getSettings(pipe)),
      ...Array.from({ length: 5 }, () => two.pipes.getSettings(pipe)),
    ]);
    const shared = Date.now() - started;
    expect(failuresOf(outcomes)).toEqual([]);
    expect(server.counts().limited).toBe(0);
    // Ten calls of one key take two windows; five of another key, alone in theirs, go at once.
    expect(shared).toBeGreaterThanOrEqual(500);
    const otherStarted = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => other.pipes.getSettings(pipe)));
    expect(Date.now() - otherStarted).toBeLessThan(400);
  });

  it("holds raw calls in the same queue as typed ones", async () => {
    const server = await limitedServer(4, 500);
    const client = management(server.url, { rateLimit: { requests: 4, intervalMs: 500 } });
    const raw = () => client.raw.GET("/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings", { params: { path: pipe } });
    const outcomes = await Promise.allSettled([...Array.from({ length: 4 }, () => client.pipes.getSettings(pipe)), ...Array.from({ length: 4 }, raw)]);
    expect(failuresOf(outcomes)).toEqual([]);
    expect(server.counts()).toEqual({ received: 8, limited: 0 });
  });
});

describe("a 429", () => {
  it("from a server stricter than told: every call still succeeds, and the queue slows to what the server accepts", async () => {
    const server = await limitedServer(3, 400);
    const client = management(server.url, { rateLimit: { requests: 6, intervalMs: 400 } });
    const outcomes = await fanOut(18, () => client.pipes.getSettings(pipe));
    expect(failuresOf(outcomes)).toEqual([]);
    expect(server.counts().received).toBeLessThanOrEqual(1.5 * 18);
  });

  it("with the queue off, stops the other calls of the credential instead of letting them stampede", async () => {
    const server = await limitedServer(5, 400);
    const client = management(server.url, { rateLimit: false });
    const outcomes = await fanOut(20, () => client.pipes.getSettings(pipe));
    expect(failuresOf(outcomes)).toEqual([]);
    // The first burst: 5 accepted, 15 refused; then they leave at the pace learned from that window.
    expect(server.counts().received).toBeLessThanOrEqual(20 + 15 + 5);
  });

  it("on alerting (text/html with Retry-After) is read the same way", async () => {
    const server = await limitedServer(4, 1000);
    const client = createAlertsClient({ baseUrl: server.url, token, rateLimit: false });
    const outcomes = await fanOut(8, () => client.get(alertId));
    expect(failuresOf(outcomes)).toEqual([]);
    expect(server.counts().limited).toBe(4);
  });

  it("asking a longer wait than maxRateLimitWaitMs fails the call with its own answer's RateLimitError, and the calls behind it at once with that 429 as another call's", async () => {
    const scripted = await startScriptedServer(json(429, { status: 429, error: "slow down", requestId: "r" }, { "retry-after": "3" }));
    servers.push(scripted);
    const client = management(scripted.url, { maxRateLimitWaitMs: 1_000 });
    const first = await client.pipes.getSettings(pipe).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(RateLimitError);
    expect(first).toMatchObject({ status: 429, retryAfterMs: 3_000, requestId: "r", body: { status: 429, error: "slow down", requestId: "r" } });
    expect((first as RateLimitError).headers.get("retry-after")).toBe("3");
    expect((first as Error).message).toBe(
      "getPipeSettings GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings failed with HTTP 429: slow down (request id r); retry after 3 s; not retried: the wait (3000 ms) is longer than maxRateLimitWaitMs (1000 ms)",
    );
    const started = Date.now();
    const next = await client.pipes.getSettings(pipe).catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(200);
    expect(next).toBeInstanceOf(RateLimitError);
    expect((next as Error).message).toMatch(
      /was not sent: the credential is paused for [34] s after a 429, and its waits because of 429s would pass maxRateLimitWaitMs \(1000 ms\); the last 429 was another call's answer: HTTP 429: slow down \(request id r\); retry after 3 s$/,
    );
    expect(scripted.requests).toHaveLength(1);
  });
});

describe("the bound on waits caused by 429s", () => {
  it("never counts a wait for the client's own pace: 35 calls at 10 per 400 ms finish with maxRateLimitWaitMs 0, and info says how long the queue is", async () => {
    const server = await limitedServer(10, 400);
    const lines: string[] = [];
    const client = management(server.url, {
      rateLimit: { requests: 10, intervalMs: 400 },
      maxRateLimitWaitMs: 0,
      logLevel: "info",
      logger: { info: (line: string) => lines.push(line), warn: () => {}, error: () => {}, debug: () => {} },
    });
    const outcomes = await fanOut(35, () => client.pipes.getSettings(pipe));
    expect(failuresOf(outcomes)).toEqual([]);
    expect(server.counts()).toEqual({ received: 35, limited: 0 });
    // The last to queue has 25 ahead of it: three windows of 10 at 0.4 s.
    expect(lines).toContainEqual(expect.stringMatching(/waits for its turn in the rate-limit queue, 25 calls waiting: about 1\.2 s at 10 per 0\.4 s$/));
  });

  it("a 429 asking exactly maxRateLimitWaitMs is waited for and retried; one asking a second more fails with that answer, retryAfterMs exactly the server's", async () => {
    const scripted = await startScriptedServer(
      json(429, { status: 429, error: "later", requestId: "r-1" }, { "retry-after": "1" }),
      json(200, settingsEnvelope),
      json(429, { status: 429, error: "much later", requestId: "r-2" }, { "retry-after": "2" }),
    );
    servers.push(scripted);
    const client = management(scripted.url, { rateLimit: false, maxRateLimitWaitMs: 1_000 });
    const started = Date.now();
    await expect(client.pipes.getSettings(pipe)).resolves.toBeDefined();
    // The jitter never takes a call past its bound: the wait was the server's, to the millisecond or so.
    expect(Date.now() - started).toBeLessThan(1_300);
    const error = (await client.pipes.getSettings(pipe).catch((failure: unknown) => failure)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect({ status: error.status, body: error.body, requestId: error.requestId, retryAfterMs: error.retryAfterMs }).toEqual({
      status: 429,
      body: { status: 429, error: "much later", requestId: "r-2" },
      requestId: "r-2",
      retryAfterMs: 2_000,
    });
    expect(error.message).toMatch(
      /failed with HTTP 429: much later \(request id r-2\); retry after 2 s; not retried: the wait \(2000 ms\) is longer than maxRateLimitWaitMs \(1000 ms\)$/,
    );
    expect(scripted.requests).toHaveLength(3);
  });

  it("under 429s with nothing in between, a call's waits add up to its bound, then it fails with its last answer", async () => {
    const answer = json(429, { status: 429, error: "busy", requestId: "r" }, { "retry-after": "1" });
    const scripted = await startScriptedServer(answer, answer, answer, answer, answer);
    servers.push(scripted);
    const client = management(scripted.url, { rateLimit: false, maxRateLimitWaitMs: 2_500, maxRetries: 10 });
    const started = Date.now();
    const error = (await client.pipes.getSettings(pipe).catch((failure: unknown) => failure)) as RateLimitError;
    const elapsed = Date.now() - started;
    // Two pauses of a second fit in 2.5 s, a third does not: three attempts, then the third answer, at about 2 s.
    expect(scripted.requests).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(2_500);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(
      /; retry after 1 s; not retried: the wait \(1000 ms\) is longer than the [1-9]\d* ms left of maxRateLimitWaitMs \(2500 ms\)$/,
    );
  });
});

describe("a call answered 429 that a longer pause keeps in the queue", () => {
  it("ends with its own answer, saying its waits would pass the bound, while the call with the longer wait ends with its own", async () => {
    const scripted = await startScriptedServer(
      json(429, { status: 429, error: "soon", requestId: "r-short" }, { "retry-after": "1" }),
      json(429, { status: 429, error: "later", requestId: "r-long" }, { "retry-after": "3" }),
    );
    servers.push(scripted);
    const client = management(scripted.url, { rateLimit: false, maxRateLimitWaitMs: 2_000 });
    const errors = (await Promise.all([
      client.pipes.getSettings(pipe).catch((error: unknown) => error),
      client.pipes.getSettings(pipe).catch((error: unknown) => error),
    ])) as RateLimitError[];
    const byWait = Object.fromEntries(errors.map((error) => [error.retryAfterMs, error]));
    expect(Object.keys(byWait).sort()).toEqual(["1000", "3000"]);
    expect(byWait[1000]).toBeInstanceOf(RateLimitError);
    expect(byWait[1000]?.requestId).toBe("r-short");
    expect(byWait[1000]?.message).toMatch(
      /failed with HTTP 429: soon \(request id r-short\); retry after 1 s; not retried: its waits because of 429s would pass maxRateLimitWaitMs \(2000 ms\)$/,
    );
    expect(byWait[3000]?.message).toMatch(
      /failed with HTTP 429: later \(request id r-long\); retry after 3 s; not retried: the wait \(3000 ms\) is longer than maxRateLimitWaitMs \(2000 ms\)$/,
    );
    expect(scripted.requests).toHaveLength(2);
  });
});

describe("waiting is honest", () => {
  it("an abort while queued frees the call's place at once and sends nothing", async () => {
    const server = await limitedServer(2, 60_000);
    const client = management(server.url, { rateLimit: { requests: 2, intervalMs: 60_000 } });
    await Promise.all([client.pipes.getSettings(pipe), client.pipes.getSettings(pipe)]);
    const controller = new AbortController();
    const queued = client.pipes.getSettings(pipe, { signal: controller.signal });
    const started = Date.now();
    controller.abort(new Error("no longer needed"));
    await expect(queued).rejects.toThrow("no longer needed");
    expect(Date.now() - started).toBeLessThan(100);
    expect(server.counts().received).toBe(2);
  });

  it("timeoutMs starts when the call leaves the queue, not while it waits for its turn", async () => {
    const server = await limitedServer(1, 700);
    const client = management(server.url, { rateLimit: { requests: 1, intervalMs: 700 }, timeoutMs: 300 });
    const outcomes = await fanOut(2, () => client.pipes.getSettings(pipe));
    expect(failuresOf(outcomes)).toEqual([]);
  });

  it('logLevel "info" says how long a call waited for its turn', async () => {
    const server = await limitedServer(1, 300);
    const lines: string[] = [];
    const logger = { error() {}, warn() {}, info: (line: string) => lines.push(line), debug() {} };
    const client = management(server.url, { rateLimit: { requests: 1, intervalMs: 300 }, logLevel: "info", logger });
    await fanOut(2, () => client.pipes.getSettings(pipe));
    expect(lines.some((line) => / #1 of 3: waited \d+ ms for its turn in the rate-limit queue/.test(line))).toBe(true);
  });

  it("refuses a rateLimit it cannot keep, naming the field", () => {
    const create = (rateLimit: unknown) => () =>
      createManagementClient({ baseUrl: "https://api.example.test", keyId, keySecret, rateLimit: rateLimit as false });
    expect(create({ requests: 0, intervalMs: 1000 })).toThrow("createManagementClient: rateLimit.requests must be an integer from 1 to 1000000, got 0");
    expect(create({ requests: 10, intervalMs: 1.5 })).toThrow("rateLimit.intervalMs must be an integer");
    expect(create(true)).toThrow("rateLimit must be { requests, intervalMs } or false");
  });
});
