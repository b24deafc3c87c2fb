// Threshold alerts.

import type { paths } from "../../generated/types/alerts.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { Alert, AlertRequest } from "../types.js";

export function alertsResource({ call }: Transport<paths>) {
  return {
    /** Creates an alert on a dashboard tile or a saved search. Not retried unless surely not processed. */
    create: (body: AlertRequest, options?: RequestOptions) => call<Alert>("POST", "/api/v2/alerts", { body }, options),
    /** One alert by its 24-hex ID. */
    get: (id: string, options?: RequestOptions) => call<Alert>("GET", "/api/v2/alerts/{id}", { params: { id } }, options),
  };
}
