// Services of an organization.
import type { paths } from "../../generated/types/management.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { ListServicesParams, WithOrganization } from "./management-params.js";

export function servicesResource({ GET }: Transport<paths>, withOrganization: WithOrganization) {
  return {
    /** Lists the organization's services, optionally filtered by tags (`tag:Environment=Production`). */
    list: ({ filter, ...path }: ListServicesParams = {}, options?: RequestOptions) =>
      GET("/v1/organizations/{organizationId}/services", { params: { path: withOrganization(path), query: filter === undefined ? {} : { filter } } }, options),
  };
}
