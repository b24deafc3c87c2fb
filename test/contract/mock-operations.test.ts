// Prism answers a valid request to each of the seven operations with 200 and a body that matches the
// declared schema, and refuses each one without Authorization.
import { describe, expect, it } from "vitest";
import { type Api, bundles, validateAgainst } from "../support/bundles.js";
import { alertPath, alertsPath, pipePath, pipeSettingsPath, reversePrivateEndpointsPath, servicesPath } from "../support/paths.js";
import { send } from "../support/prism.js";

const operations: { api: Api; operationId: string; method: string; path: string; body?: unknown }[] = [
  { api: "management", operationId: "listServices", method: "GET", path: `${servicesPath}?filter=tag:Environment=Production&filter=tag:isActive` },
  {
    api: "management",
    operationId: "createReversePrivateEndpoint",
    method: "POST",
    path: reversePrivateEndpointsPath,
    body: { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" },
  },
  { api: "management", operationId: "getPipe", method: "GET", path: pipePath },
  { api: "management", operationId: "getPipeSettings", method: "GET", path: pipeSettingsPath },
  { api: "management", operationId: "updatePipeSettings", method: "PUT", path: pipeSettingsPath, body: { streaming_max_insert_wait_ms: 5000 } },
  {
    api: "alerts",
    operationId: "createAlert",
    method: "POST",
    path: alertsPath,
    body: {
      source: "search",
      savedSearchId: "65f1c2d3e4b5a69788796a30",
      threshold: 1,
      thresholdType: "below",
      interval: "1h",
      channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" },
    },
  },
  { api: "alerts", operationId: "getAlert", method: "GET", path: alertPath },
];

function successSchema(api: Api, operationId: string): object {
  for (const item of Object.values(bundles[api].paths) as any[]) {
    for (const operation of Object.values(item) as any[]) {
      if (operation?.operationId === operationId) return operation.responses["200"].content["application/json"].schema;
    }
  }
  throw new Error(`no operation ${operationId} in ${api}`);
}

it("covers all seven operations of the two bundles", () => {
  const declared = (["management", "alerts"] as const).flatMap((api) =>
    Object.values(bundles[api].paths).flatMap((item: any) => Object.values(item).map((op: any) => op?.operationId).filter(Boolean)),
  );
  expect(operations.map((o) => o.operationId).sort()).toEqual(declared.sort());
});

describe.each(operations.map((o) => [o.operationId, o] as const))("%s", (operationId, { api, method, path, body }) => {
  it("answers a valid request with 200 and a body that matches the declared schema", async () => {
    const answer = await send(api, method, path, { body });
    expect(answer.violations).toEqual([]);
    expect(answer.status).toBe(200);
    const { valid, errors } = validateAgainst(api, successSchema(api, operationId), answer.body);
    expect(errors).toBe("No errors");
    expect(valid).toBe(true);
  });

  it("answers 401 when Authorization is missing", async () => {
    const answer = await send(api, method, path, { body, authorized: false });
    expect(answer.status).toBe(401);
  });
});
