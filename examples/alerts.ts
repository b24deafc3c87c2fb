// Alerting interface quickstart: create an alert on a dashboard tile, then read it back.
// Reads INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN; without them, `npx ingestion-api sandbox` as it starts.
import { createAlertsClient } from "ingestion-api";

const alerts = createAlertsClient({
  baseUrl: process.env.INGESTION_ALERTS_URL || "http://127.0.0.1:4012",
  token: process.env.INGESTION_ALERTS_TOKEN || "sandbox-token",
});

const created = await alerts.create({
  source: "tile",
  dashboardId: "65f1c2d3e4b5a69788796a10",
  tileId: "error-rate",
  threshold: 100,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" },
  name: "Error rate too high",
  message: "More than 100 errors in 5 minutes on the checkout dashboard.",
});
console.log(`alert ${created.id} is ${created.state}`);

const alert = await alerts.get(created.id);
console.log(`alert ${alert.id} fires when the tile goes ${alert.thresholdType} ${alert.threshold}`);
