// Validation before sending: a request that breaks the contract throws RequestValidationError naming the
// field and the rule in words, one issue per field, and nothing reaches the network. Which values break the
// contract is the vectors' job (test/contract/vectors.test.ts); here, how the SDK says so.
import { describe, expect, it } from "vitest";
import { createAlertsClient, createManagementClient, RequestValidationError, type ReversePrivateEndpointRequest } from "../../src/index.js";
import { bundles } from "../support/bundles.js";
import { operation } from "../support/operations.js";
import {
  alertEnvelope,
  alertId,
  keyId,
  keySecret,
  organizationId,
  pipe,
  serviceId,
  settingsEnvelope,
  storeOfEachTest,
  tileAlert,
  token,
} from "../support/sdk-fixtures.js";

// The unit tests share one module graph, and so the SDK's process-wide store: each test's calls count in their own.
const store = storeOfEachTest();

/** A fetch that records what would have been sent and answers like the server would. */
function recordingFetch(answer: unknown) {
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    sent.push(String(input));
    return new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { sent, fetch };
}

function management(validateRequests = true) {
  const recorder = recordingFetch(settingsEnvelope);
  const client = createManagementClient({
    baseUrl: "https://api.example.test",
    keyId,
    keySecret,
    fetch: recorder.fetch,
    validateRequests,
    rateLimitStore: store(),
  });
  return { client, sent: recorder.sent };
}

function alerts() {
  const recorder = recordingFetch(alertEnvelope);
  return { client: createAlertsClient({ baseUrl: "https://alerts.example.test", token, fetch: recorder.fetch, rateLimitStore: store() }), sent: recorder.sent };
}

async function issuesOf(call: PromiseLike<unknown>) {
  const error = await Promise.resolve(call).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  return (error as RequestValidationError).issues;
}

const schemas = { management: bundles.management.components.schemas, alerts: bundles.alerts.components.schemas };
const endpointBodies = Object.values(operation("createReversePrivateEndpoint").requestExamples) as ReversePrivateEndpointRequest[];

describe("how each rule is worded", () => {
  it('a bound: "/streaming_max_insert_wait_ms must be <= 60000", in the message too, and nothing is sent', async () => {
    const { client, sent } = management();
    const { maximum } = schemas.management.PipeSettings.properties.streaming_max_insert_wait_ms;
    const call = client.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: maximum + 1 });
    expect(await issuesOf(call)).toEqual([{ path: "/streaming_max_insert_wait_ms", message: `must be <= ${maximum}` }]);
    const { key } = operation("updatePipeSettings");
    await expect(call).rejects.toThrow(`Invalid request for updatePipeSettings ${key}, nothing was sent: /streaming_max_insert_wait_ms must be <= ${maximum}`);
    expect(sent).toEqual([]);
  });

  it("a value of the wrong type: one issue naming the type, not its format or bounds as well", async () => {
    const { client } = management();
    const issues = await issuesOf(client.pipes.updateSettings(pipe, { engine_max_threads: 1.5, engine_max_insert_threads: "4" } as never));
    expect(issues).toEqual([
      { path: "/engine_max_threads", message: "must be integer or null" },
      { path: "/engine_max_insert_threads", message: "must be integer or null" },
    ]);
  });

  it("an unknown (misspelt) field", async () => {
    const { client } = management();
    const issues = await issuesOf(client.pipes.updateSettings(pipe, { streaming_max_insert_wait: 5000 } as never));
    expect(issues).toEqual([{ path: "/streaming_max_insert_wait", message: "is not a field of this request" }]);
  });

  it.each(endpointBodies.map((body) => [body.type, body] as const))("a missing field of endpoint type %s, named", async (_type, body) => {
    for (const field of Object.keys(body).filter((name) => name !== "type" && name !== "description")) {
      const { client, sent } = management();
      const { [field as keyof typeof body]: _left, ...rest } = body;
      expect(await issuesOf(client.reversePrivateEndpoints.create({ organizationId, serviceId }, rest as never))).toEqual([
        { path: `/${field}`, message: "is required" },
      ]);
      expect(sent).toEqual([]);
    }
  });

  it("a field of another endpoint type, and a description over its length", async () => {
    const { client } = management();
    const [own, other] = endpointBodies as [ReversePrivateEndpointRequest, ReversePrivateEndpointRequest];
    const foreign = Object.keys(other).find((name) => !(name in own))!;
    const { maxLength } = schemas.management.ReversePrivateEndpointDescription;
    const body = { ...own, [foreign]: "x", description: "d".repeat(maxLength + 1) };
    const issues = await issuesOf(client.reversePrivateEndpoints.create({ organizationId, serviceId }, body as never));
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: `/${foreign}`, message: "must be null" },
        { path: "/description", message: `must be at most ${maxLength} characters long` },
      ]),
    );
  });

  it("an unknown discriminator value", async () => {
    const { client } = management();
    const issues = await issuesOf(client.reversePrivateEndpoints.create({ organizationId, serviceId }, { type: "VPC_PEERING" } as never));
    expect(issues).toEqual([{ path: "/type", message: 'has an unknown value "VPC_PEERING"' }]);
  });

  it("a value outside a closed enum lists the allowed values", async () => {
    const { client, sent } = alerts();
    const allowed = schemas.alerts.AlertInterval.enum as string[];
    expect(await issuesOf(client.create({ ...tileAlert, interval: "7m" } as never))).toEqual([
      { path: "/interval", message: `must be one of ${allowed.join(", ")}` },
    ]);
    expect(sent).toEqual([]);
  });

  it("a string that breaks its pattern shows the pattern", async () => {
    const { client, sent } = alerts();
    const { pattern } = schemas.alerts.ObjectId;
    expect(await issuesOf(client.get("ABC"))).toEqual([{ path: "/id", message: `must match the pattern ${pattern}` }]);
    expect(sent).toEqual([]);
  });

  it("a string that breaks its format names the format", async () => {
    const { client, sent } = management();
    expect(await issuesOf(client.pipes.get({ ...pipe, pipeId: "pipe-1" }))).toEqual([{ path: "/pipeId", message: "must be a valid uuid" }]);
    expect(sent).toEqual([]);
  });

  it("a missing organizationId, when the client has no default", async () => {
    const { client } = management();
    expect(await issuesOf(client.pipes.get({ serviceId, pipeId: pipe.pipeId }))).toEqual([{ path: "/organizationId", message: "is required" }]);
  });
});

describe("what is sent", () => {
  it("sends anything when validateRequests is false", async () => {
    const { client, sent } = management(false);
    await client.pipes.updateSettings(pipe, { engine_max_threads: 65 });
    expect(sent).toHaveLength(1);
  });

  it("sends filters as repeated query items", async () => {
    const { client, sent } = management();
    const { filter } = operation("listServices").example.query as { filter: string[] };
    await client.services.list({ organizationId, filter }).catch(() => undefined);
    expect(new URL(sent[0] ?? "").searchParams.getAll("filter")).toEqual(filter);
  });

  it("keeps a hostile path parameter one encoded segment even with validation off", async () => {
    const { client, sent } = management(false);
    await client.pipes.get({ ...pipe, pipeId: "../x?y#z" });
    expect(sent[0]).toMatch(/\/pipes\/\.\.%2Fx%3Fy%23z$/);
  });

  it('refuses "." and ".." as a path parameter even with validation off', async () => {
    const { client, sent } = management(false);
    expect(await issuesOf(client.pipes.get({ ...pipe, pipeId: ".." }))).toEqual([{ path: "/pipeId", message: 'must not be "." or ".."' }]);
    expect(sent).toEqual([]);
  });

  it("sends an alert id that is valid", async () => {
    const { client, sent } = alerts();
    await client.get(alertId);
    expect(sent).toEqual([`https://alerts.example.test/api/v2/alerts/${alertId}`]);
  });
});
