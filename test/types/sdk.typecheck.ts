// Type-level tests of the SDK's public API: checked by `tsc` in `npm test`, never run.
import type { paths as AlertsPaths } from "ingestion-api/types/alerts";
import type { operations as ManagementOperations, paths as ManagementPaths } from "ingestion-api/types/management";
import { expectTypeOf } from "vitest";
import type { validators as alertsValidators } from "../../generated/validators/alerts.js";
import type { responseValidators as alertsResponses } from "../../generated/validators/alerts-responses.js";
import type { validators as managementValidators } from "../../generated/validators/management.js";
import type { responseValidators as managementResponses } from "../../generated/validators/management-responses.js";
import type { Transport } from "../../src/client/transport.js";
import {
  type Alert,
  type AlertRequest,
  type AlertState,
  type ApiError,
  type ApiPromise,
  createAlertsClient,
  createManagementClient,
  type IngestionError,
  type Pipe,
  type PipeSettings,
  type PipeSettingsUpdate,
  type PipeSource,
  type PipeState,
  type PipesResource,
  type RateLimitError,
  type RequestValidationError,
  type ReversePrivateEndpoint,
  type ReversePrivateEndpointStatus,
  type Service,
  type WithResponse,
} from "../../src/index.js";

const management = createManagementClient({ baseUrl: "https://api.example.test", keyId: "id", keySecret: "secret" });
const alerts = createAlertsClient({ baseUrl: "https://alerts.example.test", token: "token" });
const pipe = { serviceId: "s", pipeId: "p" };

// Methods resolve to the unwrapped resource.
expectTypeOf(management.services.list()).resolves.toEqualTypeOf<Service[]>();
expectTypeOf(management.pipes.get(pipe)).resolves.toEqualTypeOf<Pipe>();
expectTypeOf(management.pipes.getSettings(pipe)).resolves.toEqualTypeOf<PipeSettings>();
expectTypeOf(management.pipes.updateSettings(pipe, {})).resolves.toEqualTypeOf<PipeSettings>();
expectTypeOf(
  management.reversePrivateEndpoints.create({ serviceId: "s" }, { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "n" }),
).resolves.toEqualTypeOf<ReversePrivateEndpoint>();
expectTypeOf(alerts.get("id")).resolves.toEqualTypeOf<Alert>();
expectTypeOf(management.pipes.get(pipe).withResponse()).resolves.toEqualTypeOf<WithResponse<Pipe>>();

// A settings value is a number or null; a string, an unknown field or a missing pipeId are errors.
// @ts-expect-error string setting
void management.pipes.updateSettings(pipe, { engine_max_threads: "4" });
// @ts-expect-error misspelt setting
void management.pipes.updateSettings(pipe, { engine_max_thread: 4 });
// @ts-expect-error pipeId is required
void management.pipes.get({ serviceId: "s" });

// Each endpoint type requires its own fields.
// @ts-expect-error KAFKA_MULTI_VPC without kafkaClusterArn
void management.reversePrivateEndpoints.create({ serviceId: "s" }, { type: "KAFKA_MULTI_VPC", kafkaAuthentication: "SASL_IAM" });

// An alert's interval is one of the eight known durations.
void alerts.create({
  source: "search",
  savedSearchId: "x",
  threshold: 1,
  thresholdType: "below",
  // @ts-expect-error interval 7m
  interval: "7m",
  channel: { type: "webhook", webhookId: "w" },
});

// Options are checked too.
// @ts-expect-error logLevel is one of off, error, warn, info, debug
createAlertsClient({ logLevel: "verbose" });

// The error tree.
expectTypeOf<ApiError>().toExtend<IngestionError>();
expectTypeOf<RateLimitError>().toExtend<ApiError>();
expectTypeOf<RateLimitError["retryAfterMs"]>().toEqualTypeOf<number | undefined>();
expectTypeOf<RequestValidationError["issues"]>().toEqualTypeOf<readonly { path: string; message: string }[]>();

// The operations as the generated types name them (`keyof paths`), the generated validators key them, and
// raw offers them: three generators that must agree, derived rather than listed.
type Method = "get" | "put" | "post" | "delete" | "patch";
type Declared<Operation> = [Operation] extends [never] ? false : [Operation] extends [undefined] ? false : true;
type OperationKeys<Paths> = {
  [Path in keyof Paths & string]: { [M in Method]: Declared<Paths[Path][M & keyof Paths[Path]]> extends true ? `${Uppercase<M>} ${Path}` : never }[Method];
}[keyof Paths & string];
type PathsWith<Paths, M extends Method> = {
  [Path in keyof Paths & string]: Declared<Paths[Path][M & keyof Paths[Path]]> extends true ? Path : never;
}[keyof Paths & string];

expectTypeOf<keyof typeof managementValidators>().toEqualTypeOf<OperationKeys<ManagementPaths>>();
expectTypeOf<keyof typeof alertsValidators>().toEqualTypeOf<OperationKeys<AlertsPaths>>();
expectTypeOf<keyof typeof managementResponses>().toEqualTypeOf<OperationKeys<ManagementPaths>>();
expectTypeOf<keyof typeof alertsResponses>().toEqualTypeOf<OperationKeys<AlertsPaths>>();
// Each entry names its operation: the ids the generated types give the operations, and no other.
expectTypeOf<(typeof managementValidators)[keyof typeof managementValidators]["operationId"]>().toEqualTypeOf<keyof ManagementOperations>();
expectTypeOf(management.raw.GET).parameter(0).toEqualTypeOf<PathsWith<ManagementPaths, "get">>();
expectTypeOf(management.raw.PUT).parameter(0).toEqualTypeOf<PathsWith<ManagementPaths, "put">>();
expectTypeOf(alerts.raw.POST).parameter(0).toEqualTypeOf<PathsWith<AlertsPaths, "post">>();

// Open enums keep their known values for completion, and still take a value the contract does not know yet.
expectTypeOf<PipeState>().not.toEqualTypeOf<string>();
expectTypeOf<"Running">().toExtend<PipeState>();
expectTypeOf<"Hibernating">().toExtend<PipeState>();
expectTypeOf<AlertState>().not.toEqualTypeOf<string>();
expectTypeOf<ReversePrivateEndpointStatus>().not.toEqualTypeOf<string>();
expectTypeOf<"PendingAcceptance">().toExtend<ReversePrivateEndpointStatus>();
// Also where the open enum refers to a closed one that requests use (`AlertThresholdType | string` collapsed).
expectTypeOf<Alert["thresholdType"]>().not.toEqualTypeOf<string>();
expectTypeOf<Alert["interval"]>().not.toEqualTypeOf<string>();
expectTypeOf<"above">().toExtend<Alert["thresholdType"]>();

// Signatures name the contract's types.
expectTypeOf(management.pipes.get).returns.toEqualTypeOf<ApiPromise<Pipe>>();
expectTypeOf(management.pipes.updateSettings).parameter(1).toEqualTypeOf<PipeSettingsUpdate>();
expectTypeOf(alerts.create).parameter(0).toEqualTypeOf<AlertRequest>();
expectTypeOf<Pipe["state"]>().toEqualTypeOf<PipeState>();
expectTypeOf<Pipe["source"]>().toEqualTypeOf<PipeSource | undefined>();

// A closed request enum refuses a value it does not list.
void management.reversePrivateEndpoints.create(
  { serviceId: "s" },
  // @ts-expect-error kafkaAuthentication is SASL_IAM or SASL_SCRAM
  { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn", kafkaAuthentication: "PLAIN" },
);

// A resource method is typed by the path it calls: claiming another path's result does not compile.
declare const transport: Transport<ManagementPaths>;
const settingsPath = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings";
const path = { organizationId: "o", serviceId: "s", pipeId: "p" };
// @ts-expect-error the settings path resolves to PipeSettings, not Pipe
export const wrongResult: PipesResource["get"] = () => transport.GET(settingsPath, { params: { path } });
export const wrongBody = () =>
  transport.PUT(settingsPath, {
    params: { path },
    // @ts-expect-error a body the operation does not take
    body: { type: "VPC_RESOURCE" },
  });
