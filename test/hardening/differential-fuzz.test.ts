// Differential fuzzing: bodies generated around every boundary go through the SDK's own validation and,
// with validation off, through the SDK to Prism. The verdicts must agree on every case, so the generated
// validators and Prism's reading of the spec cannot drift apart.
import fc from "fast-check";
import { booleanSettings, integerSettings as settingsBounds } from "../../contract/cases/seed-settings.mjs";
import { describe, expect, inject, it } from "vitest";
import { createAlertsClient, createManagementClient, RequestValidationError } from "../../src/index.js";
import { organizationId, pipe, serviceId } from "../support/sdk-fixtures.js";

const seed = 20261121;

/** An optional field: absent half the time, else one of the given values. */
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 2 });
/** Extra fields that are not in the contract: mostly none, else a near-miss of a real name or a stranger. */
const extraFields = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constantFrom({ streaming_max_insert_wait: 5000 }, { Type: "x" }, { unknown: null }, { vpcEndpointServiceNme: "x" }) },
);
const withoutUndefined = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
/** A value that is mostly valid (weight 5), sometimes a boundary or a near-miss (weight 1 each). */
const mostly = <T, B, N>(valid: fc.Arbitrary<T>, boundary: fc.Arbitrary<B>, nearMiss: fc.Arbitrary<N>) =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: boundary }, { weight: 1, arbitrary: nearMiss });

const integerSetting = (minimum: number, maximum: number) =>
  mostly(
    fc.oneof(fc.integer({ min: minimum, max: Math.min(maximum, Number.MAX_SAFE_INTEGER) }), fc.constant(null)),
    fc.constantFrom(minimum, maximum, minimum - 1, maximum + 1),
    fc.constantFrom(minimum + 0.5, String(minimum), true, [minimum], -0),
  );
const booleanSetting = mostly(fc.constantFrom(true, false, null), fc.constantFrom(true, false), fc.constantFrom("true", 0, 1, "false"));

const settingsBody = fc
  .tuple(
    fc.record(Object.fromEntries(settingsBounds.map(([name, min, max]) => [name, maybe(integerSetting(min, max))]))),
    fc.record(Object.fromEntries(booleanSettings.map((name) => [name, maybe(booleanSetting)]))),
    extraFields,
  )
  .map(([integers, booleans, extra]) => withoutUndefined({ ...integers, ...booleans, ...extra }));

const endpointFields = ["vpcEndpointServiceName", "vpcResourceConfigurationId", "vpcResourceShareArn", "kafkaClusterArn", "kafkaAuthentication"];
const ownFields: Record<string, Record<string, string>> = {
  VPC_ENDPOINT_SERVICE: { vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" },
  VPC_RESOURCE: { vpcResourceConfigurationId: "rcfg-1", vpcResourceShareArn: "arn:aws:ram:eu-west-1:1:resource-share/x" },
  KAFKA_MULTI_VPC: { kafkaClusterArn: "arn:aws:kafka:eu-west-1:1:cluster/a/b", kafkaAuthentication: "SASL_IAM" },
};
const anyEndpointValue = fc.constantFrom("svc", "", null, 42, "SASL_SCRAM", "PLAIN");
/** A complete body of one type, then perhaps one field dropped, blanked, nulled or borrowed from another type. */
const nearValidEndpoint = fc
  .record({
    type: fc.constantFrom(...Object.keys(ownFields)),
    description: maybe(fc.constantFrom("d", "d".repeat(255), "d".repeat(256), "", 7)),
    change: fc.option(fc.tuple(fc.constantFrom(...endpointFields, "type"), fc.constantFrom(undefined, "", null, "x", "SASL_IAM", "vpc_resource", "VPC_PEERING"))),
    extra: extraFields,
  })
  .map(({ type, description, change, extra }) => {
    const body: Record<string, unknown> = { type, description, ...ownFields[type], ...extra };
    if (change) body[change[0]] = change[1];
    return withoutUndefined(body);
  });
const randomEndpoint = fc
  .record({
    type: maybe(fc.constantFrom("VPC_ENDPOINT_SERVICE", "VPC_RESOURCE", "KAFKA_MULTI_VPC", "VPC_PEERING", "", null)),
    ...Object.fromEntries(endpointFields.map((field) => [field, maybe(anyEndpointValue)])),
  })
  .map(withoutUndefined);
const endpointBody = fc.oneof({ weight: 3, arbitrary: nearValidEndpoint }, { weight: 1, arbitrary: randomEndpoint });

const channel = { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" };
const completeAlerts: Record<string, Record<string, unknown>> = {
  tile: { source: "tile", threshold: 100, thresholdType: "above", interval: "5m", channel, dashboardId: "65f1c2d3e4b5a69788796a10", tileId: "error-rate" },
  search: { source: "search", threshold: 1, thresholdType: "below", interval: "1h", channel, savedSearchId: "65f1c2d3e4b5a69788796a30" },
};
const alertChanges: Record<string, fc.Arbitrary<unknown>> = {
  source: fc.constantFrom("tile", "search", "Tile", "metric", null, undefined),
  threshold: fc.constantFrom(0, -1.5, 1e9, "100", null, undefined),
  thresholdType: fc.constantFrom("above", "below", "Above", "equal", undefined),
  interval: fc.constantFrom("1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d", "7m", "1D", "5 m", "", undefined),
  channel: fc.constantFrom(channel, { ...channel, type: "email" }, { ...channel, webhookId: "nope" }, { type: "webhook" }, { ...channel, url: "https://x" }, "webhook", undefined),
  dashboardId: fc.constantFrom("65f1c2d3e4b5a69788796a10", "65F1C2D3E4B5A69788796A10", "65f1c2d3e4b5a69788796a1", "", null, undefined),
  tileId: fc.constantFrom("error-rate", "", null, 3, undefined),
  savedSearchId: fc.constantFrom("65f1c2d3e4b5a69788796a30", "65f1c2d3e4b5a69788796a300", null, undefined),
  name: fc.constantFrom("n", "", "n".repeat(512), "n".repeat(513), null, undefined),
  message: fc.constantFrom("m", "", "m".repeat(4096), "m".repeat(4097), undefined),
};
/** A complete tile or search alert, perhaps with one field changed to a boundary, a near-miss or nothing. */
const alertBody = fc
  .record({
    source: fc.constantFrom("tile", "search"),
    change: fc.option(fc.constantFrom(...Object.keys(alertChanges)).chain((field) => alertChanges[field]!.map((value) => [field, value] as const))),
    extra: extraFields,
  })
  .map(({ source, change, extra }) => {
    const body: Record<string, unknown> = { ...completeAlerts[source], ...extra };
    if (change) body[change[0]] = change[1];
    return withoutUndefined(body);
  });

type Verdict = "valid" | "invalid";

/** The SDK's own verdict: does validation refuse the body before anything is sent? */
async function sdkVerdict(call: () => PromiseLike<unknown>): Promise<Verdict> {
  try {
    await call();
    return "valid";
  } catch (error) {
    if (error instanceof RequestValidationError) return "invalid";
    throw error;
  }
}

/** Prism's verdict on the same body, sent by the SDK with its validation off. */
async function prismVerdict(call: () => PromiseLike<unknown>): Promise<Verdict> {
  try {
    await call();
    return "valid";
  } catch (error) {
    if ((error as { status?: number }).status === 400) return "invalid";
    throw error;
  }
}

// Answers 200 without any network, so the SDK's verdict is its validation alone.
const offline: typeof fetch = async () =>
  new Response(JSON.stringify({ status: 200, requestId: "r", result: {}, data: {} }), { headers: { "content-type": "application/json" } });

const credentials = { keyId: "fuzz-key", keySecret: "fuzz-secret", organizationId };
const management = {
  checked: createManagementClient({ ...credentials, baseUrl: "https://fuzz.example.test", fetch: offline }),
  unchecked: createManagementClient({ ...credentials, baseUrl: inject("managementUrl"), validateRequests: false, maxRetries: 0 }),
};
const alerts = {
  checked: createAlertsClient({ token: "fuzz-token", baseUrl: "https://fuzz.example.test", fetch: offline }),
  unchecked: createAlertsClient({ token: "fuzz-token", baseUrl: inject("alertsUrl"), validateRequests: false, maxRetries: 0 }),
};

const families = [
  { name: "settings bodies", runs: 1_000, arbitrary: settingsBody, send: (client: typeof management.checked, body: object) => client.pipes.updateSettings(pipe, body) },
  {
    name: "endpoint-create bodies",
    runs: 500,
    arbitrary: endpointBody,
    send: (client: typeof management.checked, body: object) => client.reversePrivateEndpoints.create({ organizationId, serviceId }, body as never),
  },
] as const;

async function compare<C>(cases: object[], clients: { checked: C; unchecked: C }, send: (client: C, body: object) => PromiseLike<unknown>) {
  const disagreements: string[] = [];
  const verdicts = { valid: 0, invalid: 0 };
  // A few requests at a time: Prism answers in about a millisecond, one core is enough.
  for (let start = 0; start < cases.length; start += 8) {
    await Promise.all(
      cases.slice(start, start + 8).map(async (body) => {
        const [ours, prisms] = await Promise.all([sdkVerdict(() => send(clients.checked, body)), prismVerdict(() => send(clients.unchecked, body))]);
        verdicts[ours] += 1;
        if (ours !== prisms) disagreements.push(`SDK says ${ours}, Prism says ${prisms}: ${JSON.stringify(body)}`);
      }),
    );
  }
  return { disagreements, verdicts };
}

describe("the SDK's validation and Prism agree", () => {
  it.each(families)("on $runs $name", async ({ runs, arbitrary, send }) => {
    const cases = fc.sample(arbitrary, { numRuns: runs, seed });
    const { disagreements, verdicts } = await compare(cases, management, send);
    expect(disagreements, disagreements.join("\n")).toEqual([]);
    // Both verdicts must be well represented, or the family tests little.
    expect(Math.min(verdicts.valid, verdicts.invalid)).toBeGreaterThan(runs / 10);
  }, 60_000);

  it("on 500 alert-create bodies", async () => {
    const cases = fc.sample(alertBody, { numRuns: 500, seed });
    const { disagreements, verdicts } = await compare(cases, alerts, (client, body) => client.create(body as never));
    expect(disagreements, disagreements.join("\n")).toEqual([]);
    expect(Math.min(verdicts.valid, verdicts.invalid)).toBeGreaterThan(50);
  }, 60_000);
});
