// What fails, on request, beside state: `Prefer` gets any answer an operation declares (its declared body and
// headers), fault rules make an operation answer a declared error or drop its connection, and latency slows every
// answer. Over real sockets (the sandbox's own server in this process), checked against the contract.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ConnectionError,
  createAlertsClient,
  createManagementClient,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
} from "../../src/index.js";
import { rateLimitsOf } from "../../src/sandbox/rate-limit.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { bundles, resolve, validateAgainst } from "../support/bundles.js";
import { authorizationOf } from "../support/credentials.js";
import { type Operation, operation, operations } from "../support/operations.js";
import { sandboxCredentials } from "../support/sandbox.js";
import { alertId, pipe } from "../support/sdk-fixtures.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials });
});
afterAll(() => sandbox?.close());
afterEach(() => sandbox.faults.clear());

const authorization = (o: Operation) => authorizationOf(sandboxCredentials)[o.api];
const send = (o: Operation, headers: Record<string, string> = {}) =>
  fetch(sandbox.url + o.example.url, {
    method: o.method,
    headers: { authorization: authorization(o), ...(o.example.body !== undefined && { "content-type": "application/json" }), ...headers },
    ...(o.example.body !== undefined && { body: JSON.stringify(o.example.body) }),
  });

/** Whether an answer is the one the operation declares for its status: body (by media type) and declared headers. */
async function declaredBy(o: Operation, response: Response) {
  const responses = bundles[o.api].paths[o.path][o.method.toLowerCase()].responses;
  const declared = resolve(o.api, responses[String(response.status)] ?? responses[`${String(response.status)[0]}XX`]);
  expect(declared, `${o.operationId} declares no ${response.status}`).toBeDefined();
  const media = (response.headers.get("content-type") ?? "").split(";")[0] as string;
  const content = declared.content[media];
  expect(content, `${o.operationId} ${response.status} declares no ${media}`).toBeDefined();
  const body = media === "application/json" ? await response.json() : await response.text();
  expect(validateAgainst(o.api, resolve(o.api, content.schema), body).errors).toBe("No errors");
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    if (resolve(o.api, header).required) expect(response.headers.get(name), `${o.operationId} ${response.status} needs ${name}`).not.toBeNull();
  }
  return body;
}

const management = (options: object = {}) =>
  createManagementClient({ baseUrl: sandbox.url, keyId: sandboxCredentials.keyId, keySecret: sandboxCredentials.keySecret, rateLimit: false, ...options });

describe("Prefer", () => {
  it.each(operations.flatMap((o) => o.errorStatuses.map((status) => [o.operationId, status, o] as const)))(
    "%s answers Prefer: code=%i with its declared answer",
    async (_id, status, o) => {
      const response = await send(o, { prefer: `code=${status}` });
      expect(response.status).toBe(status);
      await declaredBy(o, response);
      if (status === 401) expect(response.headers.get("www-authenticate")).toMatch(/^(Basic|Bearer) realm=/);
    },
  );

  it("answers 424 for a pipe whose service is idle, with the declared body", async () => {
    const getPipe = operation("getPipe");
    const response = await send(getPipe, { prefer: "code=424" });
    expect(response.status).toBe(424);
    expect(await declaredBy(getPipe, response)).toMatchObject({ status: 424 });
  });

  it("gives alerting's 429 as its limiter's text/html with Retry-After", async () => {
    const getAlert = operation("getAlert");
    const response = await send(getAlert, { prefer: "code=429" });
    expect(response.status).toBe(429);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    await declaredBy(getAlert, response);
  });

  it("answers a code the operation does not declare with a 400 naming the ones it does", async () => {
    const getAlert = operation("getAlert");
    const response = await send(getAlert, { prefer: "code=418" });
    expect(response.status).toBe(400);
    expect((await declaredBy(getAlert, response)).message).toBe(
      "Prefer: code=418 is not a status getAlert declares; it declares 200, 400, 401, 403, 404, 429, 500, 5XX",
    );
  });

  it.each([502, 503, 504])("answers a gateway's %i under the declared 5XX: its reason phrase as text/plain", async (status) => {
    const getPipe = operation("getPipe");
    const response = await send(getPipe, { prefer: `code=${status}` });
    expect(response.status).toBe(status);
    expect(await declaredBy(getPipe, response)).toBe({ 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" }[status]);
  });

  it("picks a named example: Prefer: example=<name>", async () => {
    const getPipe = operation("getPipe");
    const [, second] = Object.keys(getPipe.responseExamples("200"));
    const response = await send(getPipe, { prefer: `example=${second}` });
    expect(response.status).toBe(200);
    // The example's body, with a request id of this answer's own.
    const example = getPipe.responseExamples("200")[second as string] as { requestId: string };
    const body = (await response.json()) as { requestId: string };
    expect(body).toEqual({ ...example, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(body.requestId).not.toBe(example.requestId);
  });

  it("reaches the SDK as its error class, as with the static mock", async () => {
    await expect(management().pipes.get(pipe, { headers: { Prefer: "code=404" } })).rejects.toBeInstanceOf(NotFoundError);
  });

  it.each([
    ["management", () => management({ maxRetries: 1 }).pipes.get(pipe, { headers: { Prefer: "code=429, retry-after=1" } })],
    [
      "alerting",
      () =>
        createAlertsClient({ baseUrl: sandbox.url, token: sandboxCredentials.token, rateLimit: false, maxRetries: 1 }).get(alertId, {
          headers: { Prefer: "code=429, retry-after=1" },
        }),
    ],
  ])("a short 429 on %s: the SDK waits the 1 s it names, once, and ends with its RateLimitError", async (_api, call) => {
    const started = performance.now();
    const error = await call().catch((e: unknown) => e);
    const tookMs = performance.now() - started;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(1_000);
    expect(tookMs).toBeGreaterThanOrEqual(950);
    expect(tookMs).toBeLessThan(5_000);
  });
});

describe("fault rules", () => {
  const post = (rule: unknown, headers: Record<string, string> = { "content-type": "application/json" }) =>
    fetch(`${sandbox.url}/_sandbox/faults`, { method: "POST", headers, body: JSON.stringify(rule) });

  it("a 503 once: the SDK retries the GET and gets the pipe; the rule is then gone", async () => {
    const added = await post({ operation: "getPipe", status: 503, count: 1, headers: { "retry-after": "0" } });
    expect(added.status).toBe(201);
    const answers: number[] = [];
    const client = management({ onResponse: (response: Response) => void answers.push(response.status) });
    expect((await client.pipes.get(pipe)).id).toBe(pipe.pipeId);
    expect(answers).toEqual([503, 200]);
    expect(await (await fetch(`${sandbox.url}/_sandbox/faults`)).json()).toEqual({ rules: [] });
  });

  it("an injected answer is the declared one, checked against the contract", async () => {
    await post({ operation: "*", status: 500 });
    for (const o of operations) {
      const response = await send(o);
      expect(response.status).toBe(500);
      await declaredBy(o, response);
    }
  });

  it("reset drops the connection before any answer: a GET is retried, a POST is not (it may have been processed)", async () => {
    const attempts = (seen: number[]) => ({ onRequest: (_: Request, { attempt }: { attempt: number }) => void seen.push(attempt) });
    expect((await post({ operation: "*", status: "reset", count: 1 })).status).toBe(201);
    const got: number[] = [];
    expect((await management(attempts(got)).pipes.get(pipe)).id).toBe(pipe.pipeId);
    expect(got).toEqual([1, 2]);
    expect((await post({ operation: "createAlert", status: "reset", count: 1 })).status).toBe(201);
    const created: number[] = [];
    const alerts = createAlertsClient({ baseUrl: sandbox.url, token: sandboxCredentials.token, rateLimit: false, ...attempts(created) });
    const body = operation("createAlert").example.body as never;
    await expect(alerts.create(body)).rejects.toBeInstanceOf(ConnectionError);
    expect(created).toEqual([1]);
  });

  it("truncate drops the connection half-way through the body: the GET is retried", async () => {
    await post({ operation: "getPipeSettings", status: "truncate", count: 1 });
    const answers: number[] = [];
    await management({ onRequest: (_: Request, { attempt }: { attempt: number }) => void answers.push(attempt) }).pipes.getSettings(pipe);
    expect(answers).toEqual([1, 2]);
  });

  it("a rule without a status plays on whatever the request gets, a refusal included: delayed and cut off, then spent", async () => {
    await post({ operation: "updatePipeSettings", status: "truncate", delayMs: 300, count: 1 });
    const update = operation("updatePipeSettings");
    const started = Date.now();
    const refused = await fetch(sandbox.url + update.example.url, {
      method: "PUT",
      headers: { authorization: authorization(update), "content-type": "application/json" },
      body: JSON.stringify({ streaming_max_insert_wait_ms: 60_001 }),
    });
    // The 400 the body earns starts, after the rule's delay, and its body is cut off.
    expect(refused.status).toBe(400);
    await expect(refused.text()).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(sandbox.faults.list()).toEqual([]);
  });

  it("delayMs and probability: a slow answer times out and is retried, a rule with probability plays only sometimes", async () => {
    await post({ operation: "getAlert", status: 500, delayMs: 400, count: 1 });
    const alerts = createAlertsClient({ baseUrl: sandbox.url, token: sandboxCredentials.token, rateLimit: false, timeoutMs: 200 });
    const error = await alerts.get(alertId, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    await fetch(`${sandbox.url}/_sandbox/faults`, { method: "DELETE", headers: { "content-type": "application/json" } });
    await post({ operation: "getAlert", status: 500, probability: 0.5 });
    const statuses = await Promise.all(Array.from({ length: 40 }, () => send(operation("getAlert")).then((response) => response.status)));
    expect(statuses.filter((status) => status === 500).length).toBeGreaterThan(5);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(5);
  });

  it("refuses a rule it cannot play, naming each field and its rule", async () => {
    const response = await post({ operation: "getAlert", status: 424, delayMs: -1, count: 0, probability: 2, shade: "red" });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    for (const words of [
      "shade is not a field of a fault rule",
      "status 424 is not one getAlert declares (200, 400, 401, 403, 404, 429, 500, 5XX)",
      "delayMs must be an integer from 0 to 60000",
      "count must be an integer of 1 or more",
      "probability must be a number above 0 and at most 1",
    ]) {
      expect(error).toContain(words);
    }
  });

  it("a 500 rule reaches the SDK as InternalServerError after its retries", async () => {
    expect((await post({ operation: "getPipe", status: 500, headers: { "retry-after": "0" } })).status).toBe(201);
    const answers: number[] = [];
    // maxRetries is 2 by default: the first attempt and two retries.
    const client = management({ onResponse: (response: Response) => void answers.push(response.status) });
    await expect(client.pipes.get(pipe)).rejects.toBeInstanceOf(InternalServerError);
    expect(answers).toEqual([500, 500, 500]);
  });
});

describe("latency", () => {
  it("delays every answer by the latency asked for", async () => {
    const slow = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials, latencyMs: [150, 200] });
    try {
      const started = Date.now();
      const response = await fetch(`${slow.url}/_sandbox/state?limit=0`);
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    } finally {
      await slow.close();
    }
  });
});

describe("the rate limit and the fault rules compose", () => {
  it("a faulted answer counts against the limit, the limit's 429 comes after it, and the next window serves again", async () => {
    const limited = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials, rateLimits: rateLimitsOf("2/1s") });
    try {
      const getPipe = operation("getPipe");
      const rule = await fetch(`${limited.url}/_sandbox/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "getPipe", status: 503, count: 1 }),
      });
      expect(rule.status).toBe(201);
      const sendTo = () => fetch(limited.url + getPipe.example.url, { headers: { authorization: authorization(getPipe) } });
      const first = await sendTo();
      const second = await sendTo();
      const third = await sendTo();
      expect([first.status, second.status, third.status]).toEqual([503, 200, 429]);
      await declaredBy(getPipe, first);
      await declaredBy(getPipe, third);
      const wait = Number(third.headers.get("x-ratelimit-reset"));
      expect(wait).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 50));
      expect((await sendTo()).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
