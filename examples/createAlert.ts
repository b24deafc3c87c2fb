import { createAlertsClient } from "ingestion-api";

// Reads INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN; without them, `npx ingestion-api sandbox` as it starts.
const alerts = createAlertsClient({
  baseUrl: process.env.INGESTION_ALERTS_URL || "http://127.0.0.1:4012",
  token: process.env.INGESTION_ALERTS_TOKEN || "sandbox-token",
});

// `source: "search"` needs savedSearchId; `source: "tile"` needs dashboardId and tileId instead.
const alert = await alerts.create({
  source: "search",
  savedSearchId: "65f1c2d3e4b5a69788796a30",
  threshold: 1,
  thresholdType: "below",
  interval: "1h",
  channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" },
});
console.log(alert.id, alert.state);
