// Threshold alerts.
import type { paths } from "../../../generated/types/alerts.js";
import type { ApiPromise } from "../api-promise.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { Alert, AlertRequest } from "../types.js";

/** Threshold alerts on a dashboard tile or a saved search. */
export interface AlertsResource {
  /**
   * Creates an alert: `source: "tile"` needs `dashboardId` and `tileId`, `source: "search"` needs
   * `savedSearchId`. Not retried unless the request surely was not processed, so it is never created twice.
   * `POST /api/v2/alerts`
   */
  create(body: AlertRequest, options?: RequestOptions): ApiPromise<Alert>;
  /** One alert by its ID (24 lowercase hexadecimal characters). `GET /api/v2/alerts/{id}` */
  get(id: string, options?: RequestOptions): ApiPromise<Alert>;
}

export function alertsResource({ GET, POST }: Transport<paths>): AlertsResource {
  return {
    create: (body, options) => POST("/api/v2/alerts", { body }, options),
    get: (id, options) => GET("/api/v2/alerts/{id}", { params: { path: { id } } }, options),
  };
}
