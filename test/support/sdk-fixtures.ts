// Valid IDs, bodies and client options shared by the SDK tests.
import { ApiError, AuthenticationError, BadRequestError, InternalServerError, NotFoundError, PermissionDeniedError, RateLimitError } from "../../src/index.js";
export const organizationId = "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b";
export const serviceId = "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70";
export const pipeId = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
export const pipe = { organizationId, serviceId, pipeId };
export const alertId = "65f1c2d3e4b5a69788796a5b";

export const keyId = "test-key-id";
export const keySecret = "test-key-secret-5b1f9c";
export const token = "test-token-8c2e7a";

export const settingsResult = {
  streaming_max_insert_wait_ms: 5000,
  object_storage_concurrency: null,
  object_storage_polling_interval_ms: null,
  object_storage_max_insert_bytes: null,
  object_storage_max_file_count: null,
  engine_max_threads: null,
  engine_max_insert_threads: 4,
  engine_min_insert_block_size_bytes: null,
  engine_max_download_threads: null,
  engine_parallel_distributed_insert_select: null,
  object_storage_use_cluster_function: null,
  engine_parallel_view_processing: true,
};
export const settingsEnvelope = { status: 200, requestId: "4c6e8a0b-2d3f-4b5c-8e7a-9b1d3f5a7c9e", result: settingsResult };

export const tileAlert = {
  source: "tile",
  dashboardId: "65f1c2d3e4b5a69788796a10",
  tileId: "error-rate",
  threshold: 100,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" },
} as const;

/** The declared error statuses and the class each maps to, named for test titles. */
export const declaredErrorClasses: [status: number, name: string, ErrorClass: abstract new (...args: never[]) => ApiError][] = [
  [400, "BadRequestError", BadRequestError],
  [401, "AuthenticationError", AuthenticationError],
  [403, "PermissionDeniedError", PermissionDeniedError],
  [404, "NotFoundError", NotFoundError],
  [429, "RateLimitError", RateLimitError],
  [500, "InternalServerError", InternalServerError],
];
