// The package's public entry point.

export { type AlertsClient, createAlertsClient } from "./client/alerts-client.js";
export type { ApiPromise, WithResponse } from "./client/api-promise.js";
export type { AlertsClientOptions, CommonClientOptions, ManagementClientOptions, RequestOptions } from "./client/client-options.js";
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  IngestionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type ValidationIssue,
} from "./client/errors.js";
export type { AttemptContext, Hooks, QueuedContext, ResponseContext } from "./client/hooks.js";
export type { Logger, LogLevel } from "./client/logging.js";
export { createManagementClient, type ManagementClient } from "./client/management-client.js";
export { createMemoryRateLimitStore } from "./client/memory-store.js";
export type { RateLimit, RateLimitStore, Ticket, Turn, Wait } from "./client/rate-limit.js";
export type { AlertsResource } from "./client/resources/alerts.js";
export type { ListServicesParams, PipeParams, ServiceParams } from "./client/resources/management-params.js";
export type { PipesResource } from "./client/resources/pipes.js";
export type { ReversePrivateEndpointsResource } from "./client/resources/reverse-private-endpoints.js";
export type { ServicesResource } from "./client/resources/services.js";
export type { RawClient } from "./client/transport.js";
export type * from "./client/types.js";
