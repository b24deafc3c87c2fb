// The supported ways to extend a client: per-attempt hooks, default headers, the User-Agent it names itself
// with, and raw's openapi-fetch middleware, which is refused by name. Each against a loopback server that
// records what it received, for typed calls and raw alike.
import { afterEach, describe, expect, it } from "vitest";
import { packageVersion } from "../../generated/package.js";
import { type AttemptContext, createAlertsClient, createManagementClient, IngestionError, type ManagementClientOptions } from "../../src/index.js";
import { json, type ScriptedServer, type Step, startScriptedServer } from "../support/scripted-server.js";
import { alertEnvelope, keyId, keySecret, pipe, settingsEnvelope, token } from "../support/sdk-fixtures.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const settingsPath = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings";
const basic = `Basic ${btoa(`${keyId}:${keySecret}`)}`;

async function managementAgainst(steps: Step[], options: ManagementClientOptions = {}) {
  server = await startScriptedServer(...steps);
  return createManagementClient({ baseUrl: server.url, keyId, keySecret, ...options });
}
const sent = (index = 0) => server?.requests[index]?.headers ?? {};

/** The same settings read through a typed method and through raw: both must behave alike. */
const paths = {
  typed: (client: ReturnType<typeof createManagementClient>) => client.pipes.getSettings(pipe),
  raw: (client: ReturnType<typeof createManagementClient>) => client.raw.GET(settingsPath, { params: { path: pipe } }),
};

describe.each(Object.entries(paths))("onRequest, on a %s call", (_, call) => {
  it("sends the header a hook sets", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)], {
      onRequest: (request) => {
        request.headers.set("x-trace", "t-1");
      },
    });
    await call(client);
    expect(sent()["x-trace"]).toBe("t-1");
  });

  it("sends the headers of a new Request the hook returns (openapi-fetch's own pattern)", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)], {
      onRequest: (request) => new Request(request, { headers: { ...Object.fromEntries(request.headers), "x-tenant": "acme" } }),
    });
    await call(client);
    expect(sent()["x-tenant"]).toBe("acme");
  });

  it("cannot replace or remove Authorization: the client puts its own back", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)], {
      onRequest: (request) => {
        request.headers.set("authorization", "Basic c3Bvb2Y6c3Bvb2Y=");
      },
    });
    await call(client);
    expect(sent().authorization).toBe(basic);
    const removing = await managementAgainst([json(200, settingsEnvelope)], {
      onRequest: (request) => {
        request.headers.delete("authorization");
      },
    });
    await call(removing);
    expect(sent().authorization).toBe(basic);
  });

  it("sees every attempt, with the operation and the attempt's number, and may mark each one", async () => {
    const seen: AttemptContext[] = [];
    const client = await managementAgainst([json(503, {}, { "retry-after": "0" }), json(200, settingsEnvelope)], {
      onRequest: (request, context) => {
        seen.push(context);
        request.headers.set("x-attempt", String(context.attempt));
      },
    });
    await call(client);
    expect(seen).toEqual([
      { operationId: "getPipeSettings", attempt: 1 },
      { operationId: "getPipeSettings", attempt: 2 },
    ]);
    expect([sent(0)["x-attempt"], sent(1)["x-attempt"]]).toEqual(["1", "2"]);
  });
});

describe("onRequest's limits", () => {
  it("may not send the request elsewhere: a Request for another URL fails the call, and nothing is sent", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)], {
      onRequest: () => new Request("https://elsewhere.example.test/steal"),
    });
    const error = await client.pipes.getSettings(pipe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toContain("onRequest may change headers only");
    expect(server?.requests).toHaveLength(0);
  });

  it("a hook that throws fails the call with an IngestionError naming the hook and the operation, without a retry", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)], {
      onRequest: () => {
        throw new Error("no tenant");
      },
    });
    const error = await client.pipes.getSettings(pipe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toMatch(/^getPipeSettings GET .*: the onRequest hook failed: no tenant$/);
    expect(server?.requests).toHaveLength(0);
  });
});

describe.each(Object.entries(paths))("onResponse, on a %s call", (_, call) => {
  it("sees each answer with its body readable, and whether the client will retry it", async () => {
    const seen: { status: number; body: string; attempt: number; willRetry: boolean }[] = [];
    const client = await managementAgainst([json(503, { error: "busy" }, { "retry-after": "0" }), json(200, settingsEnvelope)], {
      onResponse: async (response, { attempt, willRetry, operationId }) => {
        expect(operationId).toBe("getPipeSettings");
        seen.push({ status: response.status, body: await response.text(), attempt, willRetry });
      },
    });
    await call(client);
    expect(seen).toEqual([
      { status: 503, body: '{"error":"busy"}', attempt: 1, willRetry: true },
      { status: 200, body: JSON.stringify(settingsEnvelope), attempt: 2, willRetry: false },
    ]);
  });
});

it("a raw call to a path the contract does not have reaches the hooks without an operation id", async () => {
  const seen: (string | undefined)[] = [];
  const client = await managementAgainst([json(404, { error: "No such path" })], {
    onRequest: (_, { operationId }) => {
      seen.push(operationId);
    },
  });
  await (client.raw as any).GET("/v1/unknown");
  expect(seen).toEqual([undefined]);
});

describe("defaultHeaders", () => {
  it.each(Object.entries(paths))("go with every %s call; a call's own headers replace them by name", async (_, call) => {
    const client = await managementAgainst([json(200, settingsEnvelope)], { defaultHeaders: { "X-Tenant": "acme", "X-Trace": "default" } });
    await call(client);
    await client.pipes.getSettings(pipe, { headers: { "x-trace": "call" } });
    expect(sent(0)).toMatchObject({ "x-tenant": "acme", "x-trace": "default" });
    expect(sent(1)).toMatchObject({ "x-tenant": "acme", "x-trace": "call" });
  });

  it("refuses Authorization, and a header fetch could not send, when the client is made", () => {
    const create = (defaultHeaders: Record<string, string>) => () =>
      createManagementClient({ baseUrl: "https://api.example.test", keyId, keySecret, defaultHeaders });
    expect(create({ Authorization: "Bearer x" })).toThrow("createManagementClient: defaultHeaders must not set Authorization");
    expect(create({ "X-A": "a\r\nX-Injected: 1" })).toThrow("createManagementClient: defaultHeaders/X-A must be visible ASCII, without line breaks");
    expect(create({ "X Bad": "1" })).toThrow("createManagementClient: defaultHeaders/X%20Bad is not a valid header name");
  });
});

describe("User-Agent", () => {
  const ours = `ingestion-api/${packageVersion} node/${process.versions.node}`;

  it("names the package, its version and the runtime, on both interfaces and raw", async () => {
    server = await startScriptedServer(json(200, settingsEnvelope), json(200, settingsEnvelope), json(200, alertEnvelope));
    const management = createManagementClient({ baseUrl: server.url, keyId, keySecret });
    await management.pipes.getSettings(pipe);
    await management.raw.GET(settingsPath, { params: { path: pipe } });
    await createAlertsClient({ baseUrl: server.url, token }).get("65f1c2d3e4b5a69788796a01");
    expect(server.requests.map(({ headers }) => headers["user-agent"])).toEqual([ours, ours, ours]);
  });

  it("comes after the application's own product token from defaultHeaders", async () => {
    const client = await managementAgainst([json(200, settingsEnvelope)], { defaultHeaders: { "User-Agent": "billing-sync/2.1" } });
    await client.pipes.getSettings(pipe);
    expect(sent()["user-agent"]).toBe(`billing-sync/2.1 ${ours}`);
  });
});

describe("raw's openapi-fetch middleware", () => {
  it.each(["use", "eject"])("raw.%s() is refused, naming the hooks to use instead", async (method) => {
    const client = await managementAgainst([json(200, settingsEnvelope)]);
    const call = () => (client.raw as any)[method]({ onRequest: () => undefined });
    expect(call).toThrow(IngestionError);
    expect(call).toThrow("pass onRequest and onResponse to the client instead");
  });
});
