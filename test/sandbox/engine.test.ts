// The sandbox's engine, asked directly as its two shells (the node:http server and `createSandbox`) ask it: which
// answer a request's line and headers get, and which its body then gets. Routing (404, 405), who asks (401), the
// body's media type and JSON (415, 400), the cap on creates, latency, a dropped connection, and the own routes'
// origin check.
import { afterEach, describe, expect, it, vi } from "vitest";
import { interfaces } from "../../src/contract/interfaces.js";
import { defaultCredentials } from "../../src/sandbox/credentials.js";
import { createEngine, type Engine, type EngineOptions, type EngineRequest } from "../../src/sandbox/engine.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { authorizationOf } from "../support/credentials.js";
import { type Operation, operation } from "../support/operations.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const engineWith = (options: Partial<EngineOptions> = {}): Engine => createEngine({ seed: exampleSeed(), credentials: defaultCredentials, ...options });
const authorization = authorizationOf(defaultCredentials);

/** The answer to a request: the one its line and headers decide, or the one its body (`body`, as sent) then gets. */
function answerOf(engine: Engine, { method, target, headers }: Omit<EngineRequest, "headers"> & { headers?: EngineRequest["headers"] }, body = "") {
  const received = engine.receive({ method, target, headers: headers ?? {} });
  return typeof received === "function" ? received(body) : received;
}

/** An operation's example request, with its credentials, as JSON unless `headers` say otherwise. */
function exampleOf(o: Operation, headers: Record<string, string | undefined> = {}): [EngineRequest, string] {
  const body = o.example.body === undefined ? "" : JSON.stringify(o.example.body);
  const typed = o.example.body === undefined ? {} : { "content-type": "application/json" };
  return [{ method: o.method, target: o.example.url, headers: { authorization: authorization[o.api], ...typed, ...headers } }, body];
}

const createAlert = operation("createAlert");
const getAlert = operation("getAlert");
const updatePipeSettings = operation("updatePipeSettings");

describe("routing", () => {
  it("answers a path no operation has with 404, in the error body of the interface its prefix names", () => {
    const engine = engineWith();
    expect(answerOf(engine, { method: "GET", target: "/v1/nothing" })).toMatchObject({
      status: 404,
      body: { status: 404, error: "No operation of the contract has the path /v1/nothing", requestId: expect.any(String) },
    });
    expect(answerOf(engine, { method: "GET", target: "/api/v2/nothing" })).toMatchObject({
      status: 404,
      body: { message: "No operation of the contract has the path /api/v2/nothing" },
    });
    // Under no interface's prefix, the first interface's body.
    expect(answerOf(engine, { method: "GET", target: "/nothing" })).toMatchObject({ status: 404, body: { status: 404, error: expect.any(String) } });
  });

  it("answers a method the path does not have with 405 and an Allow header naming those it has", () => {
    const engine = engineWith();
    const settings = answerOf(engine, { method: "DELETE", target: updatePipeSettings.example.url });
    expect(settings).toMatchObject({
      status: 405,
      headers: { allow: "GET, PUT" },
      body: { status: 405, error: "DELETE is not an operation of this path; use GET, PUT" },
    });
    expect(answerOf(engine, { method: "PUT", target: getAlert.example.url })).toMatchObject({
      status: 405,
      headers: { allow: "GET" },
      body: { message: "PUT is not an operation of this path; use GET" },
    });
  });

  it("answers a target that is not a URL path with 400", () => {
    expect(answerOf(engineWith(), { method: "GET", target: "//" })).toMatchObject({
      status: 400,
      body: { error: "Invalid request: the target is not a URL path" },
    });
  });

  it("answers a path parameter that is not valid percent-encoding with 400", () => {
    const [request] = exampleOf(getAlert);
    expect(answerOf(engineWith(), { ...request, target: "/api/v2/alerts/%E0%A4%A" })).toMatchObject({
      status: 400,
      body: { message: "Invalid request: a path parameter is not valid percent-encoding" },
    });
  });
});

describe("who asks", () => {
  it("answers a request without credentials with 401 and a challenge naming its interface's scheme", () => {
    const engine = engineWith();
    expect(answerOf(engine, { method: "GET", target: getAlert.example.url })).toMatchObject({
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="ingestion-api sandbox"' },
    });
    expect(answerOf(engine, { method: "GET", target: updatePipeSettings.example.url })).toMatchObject({
      status: 401,
      headers: { "www-authenticate": 'Basic realm="ingestion-api sandbox"' },
    });
  });
});

describe("the request body", () => {
  it.each([
    "application/json; charset=utf-8",
    "application/json ; charset=utf-8",
    "APPLICATION/JSON",
    "application/vnd.api+json",
    "application/merge-patch+json",
  ])("takes a JSON body sent as %s", (type) => {
    const [request] = exampleOf(updatePipeSettings, { "content-type": type });
    expect(answerOf(engineWith(), request, JSON.stringify({ engine_max_threads: 8 }))).toMatchObject({
      status: 200,
      body: { result: { engine_max_threads: 8 } },
    });
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "text/plain; format=application/json"])(
    "refuses a body sent as %s with 415 naming its type, without reading it",
    (type) => {
      const engine = engineWith();
      const [request] = exampleOf(createAlert, { "content-type": type });
      expect(engine.receive(request)).toMatchObject({
        status: 415,
        body: { message: `Unsupported Media Type: the body must be application/json, not ${type}` },
      });
    },
  );

  it("refuses a body sent without a media type with 415", () => {
    const [request, body] = exampleOf(createAlert, { "content-type": undefined });
    expect(answerOf(engineWith(), request, body)).toMatchObject({
      status: 415,
      body: { message: "Unsupported Media Type: the body must be application/json, not none" },
    });
  });

  it("checks a request with no body, typed or not, as one whose body is absent: 400 from the contract", () => {
    for (const type of ["application/json", undefined]) {
      const [request] = exampleOf(createAlert, { "content-type": type });
      const answer = answerOf(engineWith(), request, "");
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toMatch(/^Invalid request: body must be/);
    }
  });

  it("refuses a body that is not JSON with 400", () => {
    const [request] = exampleOf(createAlert);
    expect(answerOf(engineWith(), request, "{")).toMatchObject({ status: 400, body: { message: "Invalid request: the body is not valid JSON" } });
  });

  it("ignores the body of an operation that takes none, whatever it is and however it is typed", () => {
    for (const type of ["text/plain", undefined]) {
      const [request] = exampleOf(getAlert, { "content-type": type });
      expect(answerOf(engineWith(), request, "not JSON").status).toBe(200);
    }
  });
});

describe("the cap on creates (maxResources)", () => {
  it.each([
    ["alerts", createAlert],
    ["reversePrivateEndpoints", operation("createReversePrivateEndpoint")],
  ] as const)("creates %s up to the cap, then refuses with 403 naming it", (kind, create) => {
    const cap = exampleSeed()[kind].length + 1;
    const engine = engineWith({ maxResources: cap });
    const [request, body] = exampleOf(create);
    expect(answerOf(engine, request, body).status).toBe(200);
    expect(answerOf(engine, request, body)).toMatchObject({
      status: 403,
      body: { [interfaces[create.api].errorKey]: `The sandbox holds ${cap} ${kind}, its cap (--max-resources); POST /_sandbox/reset empties it` },
    });
  });
});

describe("the query", () => {
  it("gives listServices every value of a repeated filter parameter", () => {
    const list = operation("listServices");
    const [request] = exampleOf(list);
    const path = list.example.url.split("?")[0];
    const listed = (query: string) => (answerOf(engineWith(), { ...request, target: path + query }).body as { result: unknown[] }).result;
    const production = listed("?filter=tag:Environment=Production");
    expect(production.length).toBeGreaterThan(0);
    expect(production.length).toBeLessThan(listed("").length);
    expect(listed("?filter=tag:Environment=Production&filter=tag:Owner")).toEqual([]);
  });
});

describe("latency", () => {
  it("makes every answer wait a fixed latency", () => {
    const [request] = exampleOf(getAlert);
    expect(answerOf(engineWith({ latencyMs: 250 }), request).delayMs).toBe(250);
  });

  it("draws each answer's wait from [min, max]", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.25);
    const [request] = exampleOf(getAlert);
    expect(answerOf(engineWith({ latencyMs: [100, 300] }), request).delayMs).toBe(150);
  });
});

describe("a fault rule that resets the connection", () => {
  it("drops it before the operation runs: a create it plays on creates nothing", () => {
    const engine = engineWith();
    engine.faults.add({ operation: "createAlert", status: "reset", count: 1 });
    const [request, body] = exampleOf(createAlert);
    expect(answerOf(engine, request, body).drop).toBe("reset");
    expect(engine.state.data.alerts).toHaveLength(exampleSeed().alerts.length);
  });
});

describe("its own routes (/_sandbox/)", () => {
  const faults = (origin?: string): EngineRequest => ({ method: "GET", target: "/_sandbox/faults", headers: { origin } });

  it("take a request from a page of the sandbox's own loopback origin, and refuse one from another origin", () => {
    const engine = engineWith();
    expect(answerOf(engine, faults("http://localhost:4010")).status).toBe(200);
    expect(answerOf(engine, faults("http://127.0.0.1:4010")).status).toBe(200);
    expect(answerOf(engine, faults("http://elsewhere.example")).status).toBe(403);
  });

  it("refuse a body that is not JSON with 400", () => {
    const request = { method: "POST", target: "/_sandbox/faults", headers: { "content-type": "application/json" } };
    expect(answerOf(engineWith(), request, "{")).toMatchObject({ status: 400, body: { error: "the body is not valid JSON" } });
  });

  it.each([
    ["POST", "/_sandbox/reset", "127.0.0.1:4012", "curl -X POST -H 'content-type: application/json' -d '{}' http://127.0.0.1:4012/_sandbox/reset"],
    [
      "POST",
      "/_sandbox/faults",
      "localhost:8080",
      "curl -X POST -H 'content-type: application/json' -d '<the rule, as JSON>' http://localhost:8080/_sandbox/faults",
    ],
    ["DELETE", "/_sandbox/faults", undefined, "curl -X DELETE -H 'content-type: application/json' /_sandbox/faults"],
    // Neither the Host header's raw text nor the request's path reaches the command a reader pastes.
    [
      "POST",
      "/_sandbox/reset'$(id)'",
      "localhost:8080/x'$(id)'",
      "curl -X POST -H 'content-type: application/json' -d '<the rule, as JSON>' http://localhost:8080/_sandbox/faults",
    ],
  ])("refuse a %s to %s that is not JSON with 415 and the command that works", (method, target, host, command) => {
    const answer = answerOf(engineWith(), { method, target, headers: { host } });
    expect(answer.status).toBe(415);
    expect((answer.body as { error: string }).error).toBe(
      `the sandbox's own routes take POST and DELETE as application/json only (which a web page cannot send unasked): ${command}`,
    );
  });
});
