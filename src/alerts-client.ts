// The alerting interface (B, /api/v2, Bearer): threshold alerts.

import type { paths } from "../generated/types/alerts.js";
import { validators } from "../generated/validators/alerts.js";
import { type AlertsClientOptions, assertTokenCharacters, checkedBaseUrl, fromOptionOrEnvironment, resolveCommonOptions } from "./client-options.js";
import { alertsResource } from "./resources/alerts.js";
import { createTransport, neverThrowing } from "./transport.js";

const factory = "createAlertsClient";

export type AlertsClient = ReturnType<typeof createAlertsClient>;

export function createAlertsClient(options: AlertsClientOptions = {}) {
  const token = assertTokenCharacters(factory, "token", fromOptionOrEnvironment(factory, "token", options.token, "INGESTION_ALERTS_TOKEN"));
  const baseUrl = fromOptionOrEnvironment(factory, "baseUrl", options.baseUrl, "INGESTION_ALERTS_URL");

  const transport = createTransport<paths>({
    ...resolveCommonOptions(factory, options),
    baseUrl: checkedBaseUrl(factory, "INGESTION_ALERTS_URL", baseUrl, options.allowInsecureHttp ?? false),
    authorization: `Bearer ${token}`,
    validators,
    envelope: "data",
  });

  return {
    ...neverThrowing(alertsResource(transport)),
    /** The openapi-fetch client typed by path that every method calls: the same authorization, retries and timeouts. */
    raw: transport.client,
  };
}
