import { createAlertsClient } from "ingestion-api";

// Reads INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
const alerts = createAlertsClient();

const alert = await alerts.get("65f1c2d3e4b5a69788796a5b");
console.log(alert.name, alert.state, alert.interval);
