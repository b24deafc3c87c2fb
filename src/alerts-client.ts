// The alerting interface (B, /api/v2, Bearer): threshold alerts.

import type { paths } from "../generated/types/alerts.js";
import { validators } from "../generated/validators/alerts.js";
import { type AlertsClientOptions, assertTokenCharacters, fromOptionOrEnvironment, resolveCommonOptions } from "./client-options.js";
import { alerts } from "./interfaces.js";
import { type AlertsResource, alertsResource } from "./resources/alerts.js";
import { createTransport, neverThrowing, type RawClient } from "./transport.js";

const factory = "createAlertsClient";

/** A client of the alerting interface (`/api/v2`, Bearer): threshold alerts. */
export interface AlertsClient extends AlertsResource {
  /**
   * openapi-fetch's client, typed by path, with the same authorization, headers, hooks, retries, timeouts and
   * limits as every method above; HTTP errors come back as openapi-fetch's `{ error }`.
   */
  raw: RawClient<paths>;
}

/** A client of the alerting interface. Options left out come from `INGESTION_ALERTS_URL` and `INGESTION_ALERTS_TOKEN`. */
export function createAlertsClient(options: AlertsClientOptions = {}): AlertsClient {
  const token = assertTokenCharacters(factory, "token", fromOptionOrEnvironment(factory, alerts, "token", options.token));
  const transport = createTransport<paths>({ ...resolveCommonOptions(factory, alerts, options, token), validators });
  return { ...neverThrowing(alertsResource(transport)), raw: transport.raw };
}
