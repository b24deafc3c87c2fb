import { createManagementClient } from "ingestion-api";

// Reads INGESTION_API_URL, INGESTION_API_KEY_ID, INGESTION_API_KEY_SECRET, INGESTION_ORGANIZATION_ID.
const management = createManagementClient();

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
