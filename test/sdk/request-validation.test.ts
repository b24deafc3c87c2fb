// Validation before sending: a request that breaks the contract throws RequestValidationError naming the
// field and the rule, and nothing reaches the network.
import { describe, expect, it } from "vitest";
import { createAlertsClient, createManagementClient, RequestValidationError } from "../../src/index.js";
import { integerSettings as bounds } from "../../contract/cases/seed-settings.mjs";
import { alertId, keyId, keySecret, organizationId, pipe, serviceId, settingsEnvelope, tileAlert, token } from "../support/sdk-fixtures.js";

/** A fetch that records what would have been sent and answers like the server would. */
function recordingFetch(answer: unknown = settingsEnvelope) {
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    sent.push(String(input));
    return new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { sent, fetch };
}

function management(validateRequests = true) {
  const recorder = recordingFetch();
  const client = createManagementClient({ baseUrl: "https://api.example.test", keyId, keySecret, fetch: recorder.fetch, validateRequests });
  return { client, sent: recorder.sent };
}

async function issuesOf(call: PromiseLike<unknown>) {
  const error = await Promise.resolve(call).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  return (error as RequestValidationError).issues;
}

describe.each(bounds)("updateSettings %s", (field, minimum, maximum) => {
  it(`rejects ${maximum + 1} before sending: "/${field} must be <= ${maximum}"`, async () => {
    const { client, sent } = management();
    expect(await issuesOf(client.pipes.updateSettings(pipe, { [field]: maximum + 1 }))).toEqual([{ path: `/${field}`, message: `must be <= ${maximum}` }]);
    expect(sent).toEqual([]);
  });

  it(`rejects ${minimum - 1} before sending`, async () => {
    const { client, sent } = management();
    expect(await issuesOf(client.pipes.updateSettings(pipe, { [field]: minimum - 1 }))).toEqual([{ path: `/${field}`, message: `must be >= ${minimum}` }]);
    expect(sent).toEqual([]);
  });

  it("sends the minimum, the maximum and null", async () => {
    const { client, sent } = management();
    for (const value of [minimum, maximum, null]) await client.pipes.updateSettings(pipe, { [field]: value });
    expect(sent).toHaveLength(3);
  });
});

describe("updateSettings", () => {
  it("rejects a fraction and a string, naming the type rule", async () => {
    const { client, sent } = management();
    const issues = await issuesOf(client.pipes.updateSettings(pipe, { engine_max_threads: 1.5, engine_max_insert_threads: "4" } as never));
    expect(issues).toContainEqual({ path: "/engine_max_threads", message: "must be integer or null" });
    expect(issues).toContainEqual({ path: "/engine_max_insert_threads", message: "must be integer or null" });
    expect(sent).toEqual([]);
  });

  it("rejects an unknown (misspelt) field", async () => {
    const { client, sent } = management();
    const issues = await issuesOf(client.pipes.updateSettings(pipe, { streaming_max_insert_wait: 5000 } as never));
    expect(issues).toEqual([{ path: "/streaming_max_insert_wait", message: "is not a field of this request" }]);
    expect(sent).toEqual([]);
  });

  it("states the issues in the error message", async () => {
    const { client } = management();
    await expect(client.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: 60001 })).rejects.toThrow(
      "Invalid request for updatePipeSettings, nothing was sent: /streaming_max_insert_wait_ms must be <= 60000",
    );
  });

  it("sends anything when validateRequests is false", async () => {
    const { client, sent } = management(false);
    await client.pipes.updateSettings(pipe, { engine_max_threads: 65 });
    expect(sent).toHaveLength(1);
  });
});

describe("reversePrivateEndpoints.create", () => {
  const service = { organizationId, serviceId };
  const complete = {
    VPC_ENDPOINT_SERVICE: { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "svc" },
    VPC_RESOURCE: { type: "VPC_RESOURCE", vpcResourceConfigurationId: "rcfg-1", vpcResourceShareArn: "arn:share" },
    KAFKA_MULTI_VPC: { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn:kafka", kafkaAuthentication: "SASL_SCRAM" },
  } as const;

  describe.each(Object.entries(complete))("%s", (_type, body) => {
    it.each(Object.keys(body).filter((f) => f !== "type"))("without %s is rejected, naming the field", async (field) => {
      const { client, sent } = management();
      const { [field as keyof typeof body]: _left, ...rest } = body;
      expect(await issuesOf(client.reversePrivateEndpoints.create(service, rest as never))).toEqual([{ path: `/${field}`, message: "is required" }]);
      expect(sent).toEqual([]);
    });

    it("complete, is sent", async () => {
      const { client, sent } = management();
      await client.reversePrivateEndpoints.create(service, body);
      expect(sent).toHaveLength(1);
    });
  });

  it("rejects a field of another type, and a 256-character description", async () => {
    const { client, sent } = management();
    const issues = await issuesOf(
      client.reversePrivateEndpoints.create(service, { ...complete.VPC_ENDPOINT_SERVICE, kafkaClusterArn: "arn", description: "d".repeat(256) } as never),
    );
    expect(issues).toContainEqual({ path: "/kafkaClusterArn", message: "must be null" });
    expect(issues).toContainEqual({ path: "/description", message: "must NOT have more than 255 characters" });
    expect(sent).toEqual([]);
  });

  it("rejects an unknown type", async () => {
    const { client } = management();
    const issues = await issuesOf(client.reversePrivateEndpoints.create(service, { type: "VPC_PEERING" } as never));
    expect(issues).toEqual([{ path: "/type", message: 'has an unknown value "VPC_PEERING"' }]);
  });
});

describe("path and query parameters", () => {
  it("rejects a pipeId that is not a uuid", async () => {
    const { client, sent } = management();
    expect(await issuesOf(client.pipes.get({ ...pipe, pipeId: "pipe-1" }))).toEqual([{ path: "/pipeId", message: 'must match format "uuid"' }]);
    expect(sent).toEqual([]);
  });

  it("rejects a call without organizationId when the client has no default", async () => {
    const { client } = management();
    expect(await issuesOf(client.pipes.get({ serviceId, pipeId: pipe.pipeId }))).toEqual([{ path: "/organizationId", message: "is required" }]);
  });

  it("rejects a filter that is not tag:<key>[=<value>]", async () => {
    const { client } = management();
    const issues = await issuesOf(client.services.list({ organizationId, filter: ["Environment=Production"] }));
    expect(issues).toEqual([{ path: "/filter/0", message: 'must match pattern "^tag:[A-Za-z0-9._-]+(=[A-Za-z0-9._-]+)?$"' }]);
  });

  it("sends filters as repeated query items", async () => {
    const { client, sent } = management();
    await client.services.list({ organizationId, filter: ["tag:Environment=Production", "tag:isActive"] }).catch(() => undefined);
    expect(new URL(sent[0] ?? "").searchParams.getAll("filter")).toEqual(["tag:Environment=Production", "tag:isActive"]);
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
});

describe("alerts.create and alerts.get", () => {
  function alerts() {
    const recorder = recordingFetch({ data: { id: alertId } });
    return { client: createAlertsClient({ baseUrl: "https://alerts.example.test", token, fetch: recorder.fetch }), sent: recorder.sent };
  }

  it.each([
    ["interval", "7m", "/interval", "must be one of 1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d"],
    ["thresholdType", "equal", "/thresholdType", "must be one of above, below"],
    ["dashboardId", "65f1c2d3e4b5a69788796a1", "/dashboardId", 'must match pattern "^[0-9a-f]{24}$"'],
    ["channel", { type: "email", webhookId: "65f1c2d3e4b5a69788796a20" }, "/channel/type", "must be one of webhook"],
    ["unknownField", 1, "/unknownField", "is not a field of this request"],
  ])("rejects %s = %j", async (field, value, path, message) => {
    const { client, sent } = alerts();
    expect(await issuesOf(client.create({ ...tileAlert, [field]: value } as never))).toEqual([{ path, message }]);
    expect(sent).toEqual([]);
  });

  it("rejects a tile alert without dashboardId", async () => {
    const { client } = alerts();
    const { dashboardId: _left, ...rest } = tileAlert;
    expect(await issuesOf(client.create(rest as never))).toEqual([{ path: "/dashboardId", message: "is required" }]);
  });

  it("rejects an alert id that is not 24 lowercase hex characters", async () => {
    const { client, sent } = alerts();
    expect(await issuesOf(client.get("ABC"))).toEqual([{ path: "/id", message: 'must match pattern "^[0-9a-f]{24}$"' }]);
    expect(sent).toEqual([]);
  });
});
