// Reverse private endpoints of a service.

import type { paths } from "../../generated/types/management.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { ReversePrivateEndpoint, ReversePrivateEndpointRequest } from "../types.js";
import type { ServiceParams } from "./management-params.js";

export function reversePrivateEndpointsResource({ call }: Transport<paths>, withOrganization: <P>(params: P) => P) {
  return {
    /** Creates a reverse private endpoint; `type` decides the required fields. Not retried unless surely not processed. */
    create: (params: ServiceParams, body: ReversePrivateEndpointRequest, options?: RequestOptions) =>
      call<ReversePrivateEndpoint>(
        "POST",
        "/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints",
        { params: withOrganization(params), body },
        options,
      ),
  };
}
