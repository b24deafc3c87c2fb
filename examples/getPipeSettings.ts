import { createManagementClient } from "ingestion-api";

// Reads INGESTION_API_URL, INGESTION_API_KEY_ID, INGESTION_API_KEY_SECRET and INGESTION_ORGANIZATION_ID; without them,
// `npx ingestion-api sandbox` as it starts (its credentials; the ids below are its data).
const management = createManagementClient({
  baseUrl: process.env.INGESTION_API_URL || "http://127.0.0.1:4012",
  keyId: process.env.INGESTION_API_KEY_ID || "sandbox-key-id",
  keySecret: process.env.INGESTION_API_KEY_SECRET || "sandbox-key-secret",
  organizationId: process.env.INGESTION_ORGANIZATION_ID || "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
});

const settings = await management.pipes.getSettings({
  serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70",
  pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
});
// null means the service default is in force.
console.log(settings.streaming_max_insert_wait_ms ?? "default");
