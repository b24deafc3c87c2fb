// Management interface quickstart: list services, read a pipe, replace its settings, create an endpoint.
// Against `npx ingestion-api sandbox` as it is, with the ids it prints; for a real server set INGESTION_API_URL,
// INGESTION_API_KEY_ID, INGESTION_API_KEY_SECRET and INGESTION_ORGANIZATION_ID, and use your own ids.
import { createManagementClient } from "ingestion-api";

const management = createManagementClient({
  baseUrl: process.env.INGESTION_API_URL || "http://127.0.0.1:4012",
  keyId: process.env.INGESTION_API_KEY_ID || "sandbox-key-id",
  keySecret: process.env.INGESTION_API_KEY_SECRET || "sandbox-key-secret",
  organizationId: process.env.INGESTION_ORGANIZATION_ID || "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
});

const services = await management.services.list({ filter: ["tag:Environment=Production"] });
console.log(`services: ${services.map((service) => service.name).join(", ")}`);

const pipe = { serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70", pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a" };
const { name, state } = await management.pipes.get(pipe);
console.log(`pipe ${name} is ${state}`);

// PUT replaces every setting: the ones it leaves out (or sends as null) go back to the service default, which GET leaves out.
const before = await management.pipes.getSettings(pipe);
const settings = await management.pipes.updateSettings(pipe, {
  object_storage_concurrency: 35,
  object_storage_polling_interval_ms: 100,
  object_storage_max_insert_bytes: 53687091200,
  object_storage_max_file_count: 10000,
  object_storage_use_cluster_function: true,
  engine_max_download_threads: null,
});
const shown = (value: unknown) => value ?? "service default";
console.log(`object_storage_concurrency: ${shown(before.object_storage_concurrency)} -> ${shown(settings.object_storage_concurrency)}`);
console.log(`streaming_max_insert_wait_ms: ${shown(before.streaming_max_insert_wait_ms)} -> ${shown(settings.streaming_max_insert_wait_ms)}`);

// The endpoint type decides the required fields; TypeScript checks them before the validator does.
const endpoint = await management.reversePrivateEndpoints.create(
  { serviceId: pipe.serviceId },
  {
    type: "VPC_ENDPOINT_SERVICE",
    description: "Kafka brokers behind our endpoint service",
    vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b2c3d4e5f60718",
  },
);
console.log(`endpoint ${endpoint.id} is ${endpoint.status}`);

// The request id and the raw Response are there too, without dropping to `raw`.
const { data, requestId, response } = await management.pipes.getSettings(pipe).withResponse();
console.log(`request ${requestId} answered ${response.status} with ${Object.keys(data).length} settings`);
