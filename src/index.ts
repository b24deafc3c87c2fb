// The package's public entry point.

export { type AlertsClient, createAlertsClient } from "./alerts-client.js";
export type { ApiPromise, WithResponse } from "./api-promise.js";
export type { AlertsClientOptions, CommonClientOptions, ManagementClientOptions, RequestOptions } from "./client-options.js";
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
} from "./errors.js";
export type { AttemptContext, Hooks, ResponseContext } from "./hooks.js";
export type { Logger, LogLevel } from "./logging.js";
export { createManagementClient, type ManagementClient } from "./management-client.js";
export type { AlertsResource } from "./resources/alerts.js";
export type { ListServicesParams, PipeParams, ServiceParams } from "./resources/management-params.js";
export type { PipesResource } from "./resources/pipes.js";
export type { ReversePrivateEndpointsResource } from "./resources/reverse-private-endpoints.js";
export type { ServicesResource } from "./resources/services.js";
export type { RawClient } from "./transport.js";
export type * from "./types.js";
