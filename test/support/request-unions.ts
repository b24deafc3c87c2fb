// The request bodies whose `type` or `source` picks a branch (a reverse private endpoint, an alert), as a user
// types them: what completion must offer at the empty string, which bodies must not compile and which must.
// Shared by the editor test on the sources and the one on the packed package, so both hold the same promise.

const prelude = `import { createAlertsClient, createManagementClient, type AlertRequest, type ReversePrivateEndpointRequest } from "ingestion-api";
const management = createManagementClient({ baseUrl: "https://api.example.com", keyId: "id", keySecret: "secret" });
const alerts = createAlertsClient({ baseUrl: "https://alerts.example.com", token: "t" });
const channel = { type: "webhook", webhookId: "w" } as const;
const tile = { source: "tile", dashboardId: "d", tileId: "t", threshold: 1, thresholdType: "above", interval: "5m", channel } as const;
export { management, alerts, channel, tile };
export type { AlertRequest, ReversePrivateEndpointRequest };
`;

/** Half-typed calls, with where completion is asked and what it must offer (all of it, in any order). */
export const typing = {
  file: "typing.ts",
  text: `${prelude}
void management.reversePrivateEndpoints.create({ serviceId: "s" }, { type: "" });
void alerts.create({ source: "" });
void management.reversePrivateEndpoints.create({ serviceId: "s" }, { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn", kafkaAuthentication: "" });
`,
  expected: [
    { needle: '{ serviceId: "s" }, { type: "', offers: ["VPC_ENDPOINT_SERVICE", "VPC_RESOURCE", "KAFKA_MULTI_VPC"] },
    { needle: 'alerts.create({ source: "', offers: ["tile", "search"] },
    { needle: 'kafkaAuthentication: "', offers: ["SASL_IAM", "SASL_SCRAM"] },
  ],
};

const body = (name: string, code: string) => ({ name, text: `${prelude}\n${code}\n` });

/** Bodies the contract refuses: each must be a compile error. */
export const refused = [
  body(
    "a Kafka endpoint without kafkaClusterArn",
    `export const b: ReversePrivateEndpointRequest = { type: "KAFKA_MULTI_VPC", kafkaAuthentication: "SASL_IAM" };`,
  ),
  body("a Kafka endpoint without kafkaAuthentication", `export const b: ReversePrivateEndpointRequest = { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn" };`),
  body(
    "a Kafka endpoint with kafkaAuthentication null",
    `export const b: ReversePrivateEndpointRequest = { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn", kafkaAuthentication: null };`,
  ),
  body(
    "a Kafka endpoint with an unknown kafkaAuthentication",
    `export const b: ReversePrivateEndpointRequest = { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn", kafkaAuthentication: "PLAIN" };`,
  ),
  body(
    "a value for another type's field",
    `export const b: ReversePrivateEndpointRequest = { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "svc", kafkaClusterArn: "arn" };`,
  ),
  body(
    "a value for another type's field, through a variable",
    `const typed = { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "svc", kafkaAuthentication: "SASL_IAM" } as const;
export const b: ReversePrivateEndpointRequest = typed;`,
  ),
  body("an unknown endpoint type", `export const b: ReversePrivateEndpointRequest = { type: "VPC_PEERING", vpcEndpointServiceName: "svc" };`),
  body(
    "an unknown field",
    `export const b: ReversePrivateEndpointRequest = { type: "VPC_RESOURCE", vpcResourceConfigurationId: "c", vpcResourceShareArn: "a", colour: "red" };`,
  ),
  body("a VPC endpoint without its service name", `void management.reversePrivateEndpoints.create({ serviceId: "s" }, { type: "VPC_ENDPOINT_SERVICE" });`),
  body("a tile alert without dashboardId", `const { dashboardId, ...rest } = tile;\nexport const b: AlertRequest = rest;`),
  body("a tile alert with a savedSearchId", `export const b: AlertRequest = { ...tile, savedSearchId: "s" };`),
  body("a tile alert with a groupBy", `void alerts.create({ ...tile, groupBy: "host" });`),
  body("a search alert with a tileId", `void alerts.create({ ...tile, source: "search", savedSearchId: "s", dashboardId: null, tileId: "t" });`),
  body("an unknown alert source", `void alerts.create({ ...tile, source: "log" });`),
];

/** Bodies the contract takes: each must compile. */
export const accepted = [
  body(
    "a complete Kafka endpoint",
    `export const b: ReversePrivateEndpointRequest = { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn", kafkaAuthentication: "SASL_SCRAM" };`,
  ),
  body(
    "another type's fields sent as null",
    `export const b: ReversePrivateEndpointRequest = { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "svc", kafkaClusterArn: null, kafkaAuthentication: null };`,
  ),
  body("a tile alert", `void alerts.create(tile);`),
  body(
    "a search alert with the tile's fields null",
    `void alerts.create({ ...tile, source: "search", savedSearchId: "s", groupBy: "host", dashboardId: null, tileId: null });`,
  ),
  body(
    "a narrowed Kafka endpoint reads its kafkaAuthentication as one of the two values",
    `export function auth(b: ReversePrivateEndpointRequest): "SASL_IAM" | "SASL_SCRAM" | undefined {
  return b.type === "KAFKA_MULTI_VPC" ? b.kafkaAuthentication : undefined;
}`,
  ),
];
