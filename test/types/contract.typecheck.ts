// Type-level tests of the generated contract types: checked by `tsc` in `npm test`, never run.
// Each @ts-expect-error fails the type check if the line it guards starts to compile.
import type { Alert, AlertRequest, PipeSettings, PipeSettingsUpdate, ReversePrivateEndpoint, ReversePrivateEndpointRequest } from "../../src/index.js";

export const settingsUpdate: PipeSettingsUpdate = { streaming_max_insert_wait_ms: 5000, engine_parallel_view_processing: null };
export const resetAll: PipeSettingsUpdate = {};

// @ts-expect-error a settings value is a number or null, never a string
export const stringSetting: PipeSettingsUpdate = { streaming_max_insert_wait_ms: "5000" };

// @ts-expect-error unknown settings fields are rejected
export const typoSetting: PipeSettingsUpdate = { streaming_max_insert_wait: 5000 };

// Settings read back guarantee no field, as a real pipe answers `settings: {}`; a present one keeps its type.
export const noSettings: PipeSettings = {};
// @ts-expect-error a settings value read back is a number or null
export const stringSettingRead: PipeSettings = { streaming_max_insert_wait_ms: "5000" };

export const kafkaEndpoint: ReversePrivateEndpointRequest = {
  type: "KAFKA_MULTI_VPC",
  kafkaClusterArn: "arn:aws:kafka:eu-west-1:123456789012:cluster/analytics/1",
  kafkaAuthentication: "SASL_IAM",
};

// @ts-expect-error a KAFKA_MULTI_VPC endpoint needs kafkaClusterArn
export const kafkaWithoutArn: ReversePrivateEndpointRequest = { type: "KAFKA_MULTI_VPC", kafkaAuthentication: "SASL_IAM" };

// @ts-expect-error a VPC_ENDPOINT_SERVICE endpoint takes no Kafka cluster
export const mixedTypes: ReversePrivateEndpointRequest = { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "svc", kafkaClusterArn: "arn" };

// @ts-expect-error the endpoint type is one of three values
export const unknownType: ReversePrivateEndpointRequest = { type: "VPC_PEERING", vpcEndpointServiceName: "svc" };

const channel = { type: "webhook", webhookId: "w" } as const;
export const tileAlert: AlertRequest = { source: "tile", dashboardId: "d", tileId: "t", threshold: 1, thresholdType: "above", interval: "5m", channel };

// @ts-expect-error a tile alert needs dashboardId
export const tileWithoutDashboard: AlertRequest = { source: "tile", tileId: "t", threshold: 1, thresholdType: "above", interval: "5m", channel };

// @ts-expect-error interval is one of the eight known durations
export const oddInterval: AlertRequest = { ...tileAlert, interval: "7m" };

// Responses stay open: a status the contract does not know yet is still a valid value.
export const futureStatus: ReversePrivateEndpoint["status"] = "Migrating";

// An alert read back guarantees what the alerting service always sends: a legacy one leaves out name, message and
// a channel that no longer resolves, and an older service sent that channel with type null.
export const legacyAlert: Alert = {
  id: "65f1c2d3e4b5a69788796a10",
  threshold: 1,
  interval: "5m",
  thresholdType: "above",
  source: "search",
  state: "inactive",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
export const legacyChannel: Alert["channel"] = { type: null };
// Leaving id out, not setting it to undefined: under exactOptionalPropertyTypes `id: undefined` is refused even if
// id became optional, so only an alert without the field tells whether id is still required.
const { id: _id, ...withoutId } = legacyAlert;
// @ts-expect-error an alert read back always has its id
export const alertWithoutId: Alert = withoutId;
