import { createAlertsClient } from "ingestion-api";

// Reads INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN; without them, `npx ingestion-api sandbox` as it starts.
const alerts = createAlertsClient({
  baseUrl: process.env.INGESTION_ALERTS_URL || "http://127.0.0.1:4012",
  token: process.env.INGESTION_ALERTS_TOKEN || "sandbox-token",
});

const alert = await alerts.get("65f1c2d3e4b5a69788796a5b");
console.log(alert.name, alert.state, alert.interval);
