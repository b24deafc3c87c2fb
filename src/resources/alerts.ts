// Threshold alerts.
import type { paths } from "../../generated/types/alerts.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { AlertRequest } from "../types.js";

export function alertsResource({ GET, POST }: Transport<paths>) {
  return {
    /** Creates an alert on a dashboard tile or a saved search. Not retried unless surely not processed. */
    create: (body: AlertRequest, options?: RequestOptions) => POST("/api/v2/alerts", { body }, options),
    /** One alert by its 24-hex ID. */
    get: (id: string, options?: RequestOptions) => GET("/api/v2/alerts/{id}", { params: { path: { id } } }, options),
  };
}
