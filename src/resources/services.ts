// Services of an organization.

import type { paths } from "../../generated/types/management.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { Service } from "../types.js";
import type { ListServicesParams } from "./management-params.js";

export function servicesResource({ call }: Transport<paths>, withOrganization: <P>(params: P) => P) {
  return {
    /** Lists the organization's services, optionally filtered by tags (`tag:Environment=Production`). */
    list: (params: ListServicesParams = {}, options?: RequestOptions) =>
      call<Service[]>("GET", "/v1/organizations/{organizationId}/services", { params: withOrganization(params) }, options),
  };
}
