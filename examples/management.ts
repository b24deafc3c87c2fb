// Management interface quickstart: list services, read a pipe, change one of its settings, create an endpoint.
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

// A setting a PUT leaves out (or sends as null) goes back to the service default.
const before = await management.pipes.getSettings(pipe);
// A PUT replaces every setting: changeSettings sends back the ones it read, with your change.
const settings = await management.pipes.changeSettings(pipe, (current) => ({ ...current, streaming_max_insert_wait_ms: 10000 }));
const shown = (value: unknown) => value ?? "service default";
for (const field of ["streaming_max_insert_wait_ms", "engine_max_insert_threads"] as const) {
  console.log(`${field}: ${shown(before[field])} -> ${shown(settings[field])}`);
}

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
