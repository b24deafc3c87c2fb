// Security properties, over generated inputs: a path parameter stays one encoded segment whatever it holds;
// a secret never appears in any error form or log line, whatever it is.
import { inspect } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlertsClient, createManagementClient, type Logger, RequestValidationError } from "../../src/index.js";
import { json, type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";
import { alertId, organizationId, pipe, serviceId, settingsEnvelope } from "../support/sdk-fixtures.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer(json(200, settingsEnvelope));
});
afterAll(() => server.close());

describe("a hostile path parameter, with validation off", () => {
  const client = () => createManagementClient({ baseUrl: server.url, keyId: "k", keySecret: "s", validateRequests: false, rateLimit: false });

  it.each(["../", "..%2F..%2Fadmin", "a/b", "%2F", "x?admin=1", "x#fragment", " ", "é/ü", "\u0000"])("%j stays one encoded segment", async (pipeId) => {
    const before = server.requests.length;
    await client().pipes.get({ organizationId, serviceId, pipeId });
    const url = server.requests[before]?.url ?? "";
    const segments = url.split("/");
    expect(segments).toHaveLength(8);
    expect(decodeURIComponent(segments[7] ?? "")).toBe(pipeId);
    expect(url).not.toContain("?");
  });

  it("any string is one segment that decodes back to itself (property, 300 strings)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", minLength: 1, maxLength: 40 }), async (pipeId) => {
        const before = server.requests.length;
        const call = client().pipes.get({ organizationId, serviceId, pipeId });
        // URL parsing would collapse these two into a different path; the client refuses them instead.
        if (pipeId === "." || pipeId === "..") {
          await expect(call).rejects.toBeInstanceOf(RequestValidationError);
          return;
        }
        await call;
        const segments = (server.requests[before]?.url ?? "").split("/");
        expect(segments).toHaveLength(8);
        expect(decodeURIComponent(segments[7] ?? "")).toBe(pipeId);
      }),
      { numRuns: 300, seed: 6 },
    );
  });
});

describe("a secret, whatever it is", () => {
  const everyForm = (error: unknown) => {
    const e = error as Error;
    return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 10, showHidden: true }), String(e)].join("\n");
  };

  it("never appears in an error or a log line, over 40 random secrets and five kinds of failure", async () => {
    // One server per answer: the calls run at once, so which of two calls to one server arrives first is chance.
    const unauthorized = await startScriptedServer(json(401, { status: 401, error: "Authentication failed", requestId: "r" }));
    const failing = await startScriptedServer(json(500, { status: 500, error: "boom", requestId: "r" }));
    const silent = await startScriptedServer(() => {});
    try {
      await fc.assert(
        fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9+/=_-]{16,48}$/), async (secret) => {
          const lines: string[] = [];
          const logger: Logger = { error: (m) => lines.push(m), warn: (m) => lines.push(m), info: (m) => lines.push(m), debug: (m) => lines.push(m) };
          // A timeout long enough for any loopback answer on a busy machine; the silent server's call gets a short one.
          const common = { logger, logLevel: "debug", maxRetries: 0, timeoutMs: 10_000, rateLimit: false } as const;
          const management = (baseUrl: string) => createManagementClient({ ...common, baseUrl, keyId: "key-id", keySecret: secret, organizationId });
          const alerts = (baseUrl: string) => createAlertsClient({ ...common, baseUrl, token: secret });
          const errors = await Promise.all([
            management(unauthorized.url)
              .pipes.getSettings(pipe)
              .catch((e: unknown) => e), // 401
            management(failing.url)
              .pipes.getSettings(pipe)
              .catch((e: unknown) => e), // 500
            management("http://127.0.0.1:9")
              .pipes.getSettings(pipe)
              .catch((e: unknown) => e), // refused
            alerts(silent.url)
              .get(alertId, { timeoutMs: 100 })
              .catch((e: unknown) => e), // timeout
            alerts(failing.url)
              .get("not-an-id")
              .catch((e: unknown) => e), // invalid request
          ]);
          expect(errors.map((error) => (error as Error).name)).toEqual([
            "AuthenticationError",
            "InternalServerError",
            "ConnectionError",
            "TimeoutError",
            "RequestValidationError",
          ]);
          // Every attempt that reached the network (four) logged two lines at debug level: its send and its outcome.
          expect(lines).toHaveLength(8);
          const basic = btoa(`key-id:${secret}`);
          for (const text of [...errors.map(everyForm), ...lines]) {
            expect(text).not.toContain(secret);
            expect(text).not.toContain(basic);
          }
        }),
        { numRuns: 40, seed: 7 },
      );
    } finally {
      await unauthorized.close();
      await failing.close();
      await silent.close();
    }
  }, 60_000);
});
