// The seed's pipe settings table, written by hand from the seed and never read from the spec: the vectors
// and the tests hold the spec, the validators and Prism to it. Bounds are inclusive.

/** @type {[name: string, minimum: number, maximum: number][]} */
export const integerSettings = [
  ["streaming_max_insert_wait_ms", 500, 60000],
  ["object_storage_concurrency", 1, 35],
  ["object_storage_polling_interval_ms", 100, 3600000],
  ["object_storage_max_insert_bytes", 10485760, 53687091200],
  ["object_storage_max_file_count", 1, 10000],
  ["engine_max_threads", 0, 64],
  ["engine_max_insert_threads", 0, 16],
  ["engine_min_insert_block_size_bytes", 0, 10737418240],
  ["engine_max_download_threads", 0, 32],
  ["engine_parallel_distributed_insert_select", 0, 2],
];

/** @type {string[]} */
export const booleanSettings = ["object_storage_use_cluster_function", "engine_parallel_view_processing"];
