/** What every smoke run must report as done, in order: the seven operations and validation before sending. */
export const smokeOperations = [
  "listServices",
  "createReversePrivateEndpoint",
  "getPipe",
  "getPipeSettings",
  "updatePipeSettings",
  "createAlert",
  "getAlert",
  "validationBeforeSending",
];

// Every operation of both clients against the mocks, given the SDK module however it was loaded
// (ESM import, CommonJS require, a browser import map). Resolves to the operations that succeeded.
export async function runSmoke(sdk, { managementUrl, alertsUrl }) {
  const management = sdk.createManagementClient({
    baseUrl: managementUrl,
    keyId: "smoke-key",
    keySecret: "smoke-secret",
    organizationId: "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
    validateResponses: true,
  });
  const alerts = sdk.createAlertsClient({ baseUrl: alertsUrl, token: "smoke-token", validateResponses: true });
  const pipe = { serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70", pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a" };
  const checks = {
    listServices: async () => (await management.services.list({ filter: ["tag:Environment=Production"] })).length === 1,
    createReversePrivateEndpoint: async () =>
      (await management.reversePrivateEndpoints.create({ serviceId: pipe.serviceId }, { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "svc" })).status === "Ready",
    getPipe: async () => (await management.pipes.get(pipe)).state === "Running",
    getPipeSettings: async () => Object.keys(await management.pipes.getSettings(pipe)).length === 12,
    updatePipeSettings: async () => (await management.pipes.updateSettings(pipe, { engine_max_threads: 8 })).engine_max_insert_threads === 4,
    createAlert: async () =>
      (
        await alerts.create({
          source: "search",
          savedSearchId: "65f1c2d3e4b5a69788796a30",
          threshold: 1,
          thresholdType: "below",
          interval: "1h",
          channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" },
        })
      ).id.length === 24,
    getAlert: async () => (await alerts.get("65f1c2d3e4b5a69788796a5b")).state === "inactive",
    validationBeforeSending: async () =>
      (await management.pipes.updateSettings(pipe, { engine_max_threads: 65 }).catch((error) => error)) instanceof sdk.RequestValidationError,
  };
  const ok = [];
  for (const [name, check] of Object.entries(checks)) {
    if (!(await check())) throw new Error(`smoke: ${name} returned something unexpected`);
    ok.push(name);
  }
  return ok;
}
