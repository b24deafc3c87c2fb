import { createManagementClient } from "ingestion-api";

// Reads INGESTION_API_URL, INGESTION_API_KEY_ID, INGESTION_API_KEY_SECRET, INGESTION_ORGANIZATION_ID.
const management = createManagementClient();

const services = await management.services.list({ filter: ["tag:Environment=Production"] });
for (const service of services) console.log(service.id, service.name);
