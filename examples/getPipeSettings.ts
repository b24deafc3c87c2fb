import { createManagementClient } from "ingestion-api";

// Reads INGESTION_API_URL, INGESTION_API_KEY_ID, INGESTION_API_KEY_SECRET, INGESTION_ORGANIZATION_ID.
const management = createManagementClient();

const settings = await management.pipes.getSettings({
  serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70",
  pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
});
// null means the service default is in force.
console.log(settings.streaming_max_insert_wait_ms ?? "default");
