import { createManagementClient } from "ingestion-api";

// Reads INGESTION_API_URL, INGESTION_API_KEY_ID, INGESTION_API_KEY_SECRET and INGESTION_ORGANIZATION_ID; without them,
// `npx ingestion-api sandbox` as it starts (its credentials; the ids below are its data).
const management = createManagementClient({
  baseUrl: process.env.INGESTION_API_URL || "http://127.0.0.1:4012",
  keyId: process.env.INGESTION_API_KEY_ID || "sandbox-key-id",
  keySecret: process.env.INGESTION_API_KEY_SECRET || "sandbox-key-secret",
  organizationId: process.env.INGESTION_ORGANIZATION_ID || "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
});

// `type` decides the required fields: VPC_ENDPOINT_SERVICE needs vpcEndpointServiceName.
const endpoint = await management.reversePrivateEndpoints.create(
  { serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70" },
  {
    type: "VPC_ENDPOINT_SERVICE",
    description: "Kafka brokers behind our endpoint service",
    vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b2c3d4e5f60718",
  },
);
console.log(endpoint.id, endpoint.status);
