// The alerting interface (B, /api/v2, Bearer): threshold alerts.

import type { Client } from "openapi-fetch";
import type { paths } from "../generated/types/alerts.js";
import { validators } from "../generated/validators/alerts.js";
import { type AlertsClientOptions, assertTokenCharacters, checkedBaseUrl, fromOptionOrEnvironment, resolveCommonOptions } from "./client-options.js";
import { type AlertsResource, alertsResource } from "./resources/alerts.js";
import { createTransport, neverThrowing } from "./transport.js";

const factory = "createAlertsClient";

/** A client of the alerting interface (`/api/v2`, Bearer): threshold alerts. */
export interface AlertsClient extends AlertsResource {
  /**
   * The openapi-fetch client, typed by path, that every method above calls: the same authorization, retries,
   * timeouts and limits; HTTP errors come back as openapi-fetch's `{ error }`.
   */
  raw: Client<paths>;
}

/** A client of the alerting interface. Options left out come from `INGESTION_ALERTS_URL` and `INGESTION_ALERTS_TOKEN`. */
export function createAlertsClient(options: AlertsClientOptions = {}): AlertsClient {
  const token = assertTokenCharacters(factory, "token", fromOptionOrEnvironment(factory, "token", options.token, "INGESTION_ALERTS_TOKEN"));
  const baseUrl = fromOptionOrEnvironment(factory, "baseUrl", options.baseUrl, "INGESTION_ALERTS_URL");

  const transport = createTransport<paths>({
    ...resolveCommonOptions(factory, options),
    baseUrl: checkedBaseUrl(factory, "INGESTION_ALERTS_URL", baseUrl, options.allowInsecureHttp ?? false, "/api/v2"),
    authorization: `Bearer ${token}`,
    validators,
    envelope: "data",
  });

  return {
    ...neverThrowing(alertsResource(transport)),
    raw: transport.client,
  };
}
