// Type-level tests of the SDK's public API: checked by `tsc` in `npm test`, never run.
import type { paths as AlertsPaths } from "ingestion-api/types/alerts";
import type { paths as ManagementPaths } from "ingestion-api/types/management";
import { expectTypeOf } from "vitest";
import {
  type Alert,
  ApiError,
  createAlertsClient,
  createManagementClient,
  IngestionError,
  type Pipe,
  type PipeSettings,
  RateLimitError,
  RequestValidationError,
  type ReversePrivateEndpoint,
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
// @ts-expect-error interval 7m
void alerts.create({ source: "search", savedSearchId: "x", threshold: 1, thresholdType: "below", interval: "7m", channel: { type: "webhook", webhookId: "w" } });

// Options are checked too.
// @ts-expect-error logLevel is one of off, error, warn, info, debug
createAlertsClient({ logLevel: "verbose" });

// The error tree.
expectTypeOf<ApiError>().toExtend<IngestionError>();
expectTypeOf<RateLimitError>().toExtend<ApiError>();
expectTypeOf<RateLimitError["retryAfterMs"]>().toEqualTypeOf<number | undefined>();
expectTypeOf<RequestValidationError["issues"]>().toEqualTypeOf<readonly { path: string; message: string }[]>();

// raw is openapi-fetch typed by path; the type-only subpaths name the same paths.
expectTypeOf(management.raw.GET).parameter(0).toEqualTypeOf<"/v1/organizations/{organizationId}/services" | "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}" | "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings">();
expectTypeOf<keyof ManagementPaths>().toEqualTypeOf<
  | "/v1/organizations/{organizationId}/services"
  | "/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints"
  | "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}"
  | "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings"
>();
expectTypeOf<keyof AlertsPaths>().toEqualTypeOf<"/api/v2/alerts" | "/api/v2/alerts/{id}">();
