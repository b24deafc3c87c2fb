// Credentials come from options, then the environment; bad ones fail at construction; no secret ever leaks.
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAlertsClient, createManagementClient, IngestionError, type Logger } from "../../src/index.js";
import { json, startScriptedServer } from "../support/scripted-server.js";
import { alertId, keyId, keySecret, pipe, settingsEnvelope, token } from "../support/sdk-fixtures.js";

afterEach(() => vi.unstubAllEnvs());

describe("options and environment", () => {
  it("reads the management credentials, URL and organization from the environment", async () => {
    const server = await startScriptedServer(json(200, settingsEnvelope));
    vi.stubEnv("INGESTION_API_URL", server.url);
    vi.stubEnv("INGESTION_API_KEY_ID", keyId);
    vi.stubEnv("INGESTION_API_KEY_SECRET", keySecret);
    vi.stubEnv("INGESTION_ORGANIZATION_ID", pipe.organizationId);
    await createManagementClient().pipes.getSettings({ serviceId: pipe.serviceId, pipeId: pipe.pipeId });
    const [request] = server.requests;
    expect(request?.url).toContain(`/organizations/${pipe.organizationId}/`);
    expect(request?.headers.authorization).toBe(`Basic ${btoa(`${keyId}:${keySecret}`)}`);
    await server.close();
  });

  it("reads the alerts token and URL from the environment, and sends them as Bearer", async () => {
    const server = await startScriptedServer(json(200, { data: { id: alertId } }));
    vi.stubEnv("INGESTION_ALERTS_URL", server.url);
    vi.stubEnv("INGESTION_ALERTS_TOKEN", token);
    await createAlertsClient().get(alertId);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    await server.close();
  });

  it("prefers options to the environment", async () => {
    const server = await startScriptedServer(json(200, { data: { id: alertId } }));
    vi.stubEnv("INGESTION_ALERTS_URL", "https://elsewhere.example.test");
    vi.stubEnv("INGESTION_ALERTS_TOKEN", "from-environment");
    await createAlertsClient({ baseUrl: server.url, token }).get(alertId);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    await server.close();
  });

  it.each([
    ["keyId", "INGESTION_API_KEY_ID", { baseUrl: "https://a.test", keySecret }],
    ["keySecret", "INGESTION_API_KEY_SECRET", { baseUrl: "https://a.test", keyId }],
    ["baseUrl", "INGESTION_API_URL", { keyId, keySecret }],
  ])("a missing %s fails at construction, naming the option and %s", (option, variable, options) => {
    vi.stubEnv(variable, "");
    expect(() => createManagementClient(options)).toThrow(
      new IngestionError(`createManagementClient: missing ${option}; pass { ${option} } or set the environment variable ${variable}`),
    );
  });

  it("a missing token fails at construction, naming INGESTION_ALERTS_TOKEN", () => {
    vi.stubEnv("INGESTION_ALERTS_TOKEN", "");
    expect(() => createAlertsClient({ baseUrl: "https://a.test" })).toThrow(
      /missing token; pass \{ token \} or set the environment variable INGESTION_ALERTS_TOKEN/,
    );
  });
});

describe("transport security", () => {
  it("refuses plain http to a host other than loopback", () => {
    expect(() => createManagementClient({ baseUrl: "http://api.example.test", keyId, keySecret })).toThrow(/refusing plain http:\/\/ to api.example.test/);
  });

  it("allows plain http to loopback, or anywhere with allowInsecureHttp", () => {
    for (const baseUrl of ["http://127.0.0.1:4010", "http://localhost:4010", "http://[::1]:4010"]) {
      expect(() => createManagementClient({ baseUrl, keyId, keySecret })).not.toThrow();
    }
    expect(() => createManagementClient({ baseUrl: "http://api.example.test", keyId, keySecret, allowInsecureHttp: true })).not.toThrow();
  });

  it.each([
    ["keyId", { keyId: "id\r\nX-Injected: 1", keySecret }],
    ["keySecret", { keyId, keySecret: "secret\nX-Injected: 1" }],
  ])("refuses a %s with CR/LF, without echoing it", (option, credentials) => {
    const attempt = () => createManagementClient({ baseUrl: "https://a.test", ...credentials });
    expect(attempt).toThrow(`${option} contains a line break`);
    expect(attempt).not.toThrow(/Injected/);
  });

  it("refuses a token with CR/LF", () => {
    expect(() => createAlertsClient({ baseUrl: "https://a.test", token: "t\r\nX: 1" })).toThrow(/token contains a line break/);
  });

  it("refuses a base URL that carries credentials", () => {
    expect(() => createAlertsClient({ baseUrl: "https://user:pw@a.test", token })).toThrow(/must not carry credentials/);
  });
});

describe("secrets never leak", () => {
  const secret = "s3cr3t-value-7f2a9c41";

  function recordingLogger() {
    const lines: string[] = [];
    const logger: Logger = { error: (m) => lines.push(m), warn: (m) => lines.push(m), info: (m) => lines.push(m), debug: (m) => lines.push(m) };
    return { lines, logger };
  }

  function everyForm(error: unknown): string {
    const e = error as Error;
    return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 10, showHidden: true }), String(e)].join("\n");
  }

  it("in API errors, connection errors, timeouts and validation errors, nor in log lines", async () => {
    const { lines, logger } = recordingLogger();
    const server = await startScriptedServer(json(401, { status: 401, error: "Authentication failed", requestId: "r" }));
    const options = { keyId: "key-id", keySecret: secret, logger, logLevel: "debug", maxRetries: 0 } as const;
    const errors = [
      await createManagementClient({ ...options, baseUrl: server.url })
        .pipes.getSettings(pipe)
        .catch((e: unknown) => e),
      await createManagementClient({ ...options, baseUrl: "http://127.0.0.1:9" })
        .pipes.getSettings(pipe)
        .catch((e: unknown) => e),
      await createManagementClient({ ...options, baseUrl: server.url })
        .pipes.updateSettings(pipe, { engine_max_threads: 99 })
        .catch((e: unknown) => e),
      await createAlertsClient({ baseUrl: server.url, token: secret, logger, logLevel: "debug" })
        .get("bad")
        .catch((e: unknown) => e),
    ];
    const raw = createManagementClient({ ...options, baseUrl: server.url }).raw;
    await raw.GET("/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}", { params: { path: pipe } });
    await server.close();
    const timeoutServer = await startScriptedServer(() => {});
    errors.push(
      await createAlertsClient({ baseUrl: timeoutServer.url, token: secret, timeoutMs: 50, maxRetries: 0, logger, logLevel: "debug" })
        .get(alertId)
        .catch((e: unknown) => e),
    );
    await timeoutServer.close();

    expect(errors.map((e) => (e as Error).name)).toEqual([
      "AuthenticationError",
      "ConnectionError",
      "RequestValidationError",
      "RequestValidationError",
      "TimeoutError",
    ]);
    for (const error of errors) expect(everyForm(error)).not.toContain(secret);
    // The raw call logged its attempt too: every attempt, API call or raw, went through the log.
    expect(lines.filter((line) => line.includes("#1 of 1: 401"))).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain(secret);
    const basic = btoa(`key-id:${secret}`);
    for (const text of [...errors.map(everyForm), ...lines]) expect(text).not.toContain(basic);
  });

  it("in the client object itself", () => {
    const client = createManagementClient({ baseUrl: "https://a.test", keyId: "key-id", keySecret: secret });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(secret);
    expect(JSON.stringify(client)).not.toContain(secret);
  });
});

describe("logging", () => {
  it("writes one line per attempt with its operation, attempt, status, duration and request id, and at debug each send's method and path", async () => {
    const lines: string[] = [];
    const debugLines: string[] = [];
    const logger = {
      error: (m: string) => lines.push(`error ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      info: (m: string) => lines.push(`info ${m}`),
      debug: (m: string) => debugLines.push(m),
    };
    const server = await startScriptedServer(json(503, {}, { "retry-after": "0" }), json(200, settingsEnvelope));
    const client = createManagementClient({ baseUrl: server.url, keyId, keySecret, logger, logLevel: "info" });
    await client.pipes.getSettings(pipe);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^warn \[ingestion-api\] getPipeSettings #1 of 3: 503 in \d+ ms, retrying$/);
    expect(lines[1]).toMatch(new RegExp(`^info \\[ingestion-api\\] getPipeSettings #2 of 3: 200 in \\d+ ms, request ${settingsEnvelope.requestId}$`));
    expect(debugLines).toEqual([]);
    await createManagementClient({ baseUrl: server.url, keyId, keySecret, logger, logLevel: "debug" }).pipes.getSettings(pipe);
    await server.close();
    const path = `/v1/organizations/${pipe.organizationId}/services/${pipe.serviceId}/pipes/${pipe.pipeId}/settings`;
    expect(debugLines).toEqual([`[ingestion-api] getPipeSettings #1 of 3: GET ${path}`]);
    for (const line of lines) expect(line.length).toBeLessThan(120);
  });

  it("is off by default, on success, on retries and on failure", async () => {
    const spies = (["debug", "info", "warn", "error", "log"] as const).map((level) => vi.spyOn(console, level));
    const server = await startScriptedServer(json(200, settingsEnvelope), json(503, {}, { "retry-after": "0" }));
    const client = createManagementClient({ baseUrl: server.url, keyId, keySecret });
    await client.pipes.getSettings(pipe);
    await client.pipes.getSettings(pipe).catch(() => undefined);
    await server.close();
    expect(server.requests).toHaveLength(4);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
