// Management interface quickstart: list services, read a pipe, replace its settings, create an endpoint.
// Configuration comes from the environment: INGESTION_API_URL, INGESTION_API_KEY_ID,
// INGESTION_API_KEY_SECRET and (optionally) INGESTION_ORGANIZATION_ID.
import { createManagementClient } from "ingestion-api";

const management = createManagementClient();

const services = await management.services.list({ filter: ["tag:Environment=Production"] });
console.log(`services: ${services.map((service) => service.name).join(", ")}`);

const pipe = { serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70", pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a" };
const { name, state } = await management.pipes.get(pipe);
console.log(`pipe ${name} is ${state}`);

// PUT replaces every setting: fields left out (or null) go back to the service default.
const settings = await management.pipes.updateSettings(pipe, {
  streaming_max_insert_wait_ms: 5000,
  engine_max_insert_threads: 4,
  engine_parallel_view_processing: true,
});
console.log(`streaming_max_insert_wait_ms is now ${settings.streaming_max_insert_wait_ms}`);

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
