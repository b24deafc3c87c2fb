// Services of an organization.
import type { paths } from "../../../generated/types/management.js";
import type { ApiPromise } from "../api-promise.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { Service } from "../types.js";
import type { ListServicesParams, WithOrganization } from "./management-params.js";

/** Data services of an organization. */
export interface ServicesResource {
  /**
   * Lists the organization's services, optionally only those with every given tag
   * (`filter: ["tag:Environment=Production", "tag:isActive"]`). `GET /v1/organizations/{organizationId}/services`
   */
  list(params?: ListServicesParams, options?: RequestOptions): ApiPromise<Service[]>;
}

export function servicesResource({ GET }: Transport<paths>, withOrganization: WithOrganization): ServicesResource {
  return {
    list: ({ filter, ...path } = {}, options) =>
      GET("/v1/organizations/{organizationId}/services", { params: { path: withOrganization(path), query: filter === undefined ? {} : { filter } } }, options),
  };
}
