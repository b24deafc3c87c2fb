// The alerting interface (B, /api/v2, Bearer): threshold alerts.

import type { paths } from "../../generated/types/alerts.js";
import { alerts } from "../contract/interfaces.js";
import { type AlertsClientOptions, assertTokenCharacters, fromOptionOrEnvironment, resolveCommonOptions } from "./client-options.js";
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
  const common = resolveCommonOptions(factory, alerts, options, token, token);
  const transport = createTransport<paths>({
    ...common,
    // The interface's own validators, loaded as the client is made: the package's import parses none of them.
    validators: import("../../generated/validators/alerts.js"),
    // Loaded only when answers are checked: most of the validators' code, which the client otherwise never parses.
    responseValidators: common.validateResponses ? import("../../generated/validators/alerts-responses.js") : undefined,
  });
  return { ...neverThrowing(alertsResource(transport)), raw: transport.raw };
}
