// The identifiers and the settings body every contender sends and expects back.
export const organizationId = "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b";
export const serviceId = "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70";
export const pipeId = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
export const requestId = "4c6e8a0b-2d3f-4b5c-8e7a-9b1d3f5a7c9e";
export const settingsTemplate = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings";
export const settingsPath = `/v1/organizations/${organizationId}/services/${serviceId}/pipes/${pipeId}/settings`;

/** A typical settings body: all twelve fields, some set, the rest `null` (the service default). */
export const settings = {
  streaming_max_insert_wait_ms: 5000,
  object_storage_concurrency: null,
  object_storage_polling_interval_ms: 30000,
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
