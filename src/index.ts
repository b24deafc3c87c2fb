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
export type { Logger, LogLevel } from "./logging.js";
export { createManagementClient, type ManagementClient } from "./management-client.js";
export type {
  Alert,
  AlertRequest,
  Pipe,
  PipeSettings,
  PipeSettingsUpdate,
  ReversePrivateEndpoint,
  ReversePrivateEndpointRequest,
  Service,
} from "./types.js";
