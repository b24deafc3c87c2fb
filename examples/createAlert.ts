import { createAlertsClient } from "ingestion-api";

// Reads INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
const alerts = createAlertsClient();

// `source: "tile"` needs dashboardId and tileId; `source: "search"` needs savedSearchId.
const alert = await alerts.create({
  source: "tile",
  dashboardId: "65f1c2d3e4b5a69788796a10",
  tileId: "error-rate",
  threshold: 100,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" },
  name: "Error rate too high",
});
console.log(alert.id, alert.state);
